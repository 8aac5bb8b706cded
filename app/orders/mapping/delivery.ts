// A Shopify order → the warehouse's AddOrder `order` object. Pure: no I/O, no clock; the same order,
// settings and overrides always give the same result. Anything the merchant must fix becomes a hold
// reason (all of them at once, so one visit fixes the order); merchant data never makes this throw.
import { z } from "zod";
import { toDayMonthYear } from "../../warehouse/dates";
import { warehouseOrderSchema, type WarehouseOrder } from "../../warehouse/schemas";
import { CARRIER_REF_PATTERN, PAYMENT_METHOD } from "../../warehouse/wire";
import { type ShopifyAddress, type ShopifyLineItem, type ShopifyOrder } from "../payload";
import { message, type Message, type MessageValues } from "../../i18n/message";
import { normaliseUkrainianPhone } from "../phone";
import { percent, type BranchCandidate, type BranchMatch, type CityMatch } from "../../reference/types";
import { inEnglish } from "../words";
import { unitsByLineItem, type WarehouseLine } from "../../routing/decide";
import {
  KYIV_CITY_REF,
  type DeliveryMethodKey,
  type OrderOverrides,
  type OrderSettings,
  type PaymentMethodKey,
} from "../settings";

import {
  COURIER_FLAT_ATTRIBUTE,
  COURIER_HOUSE_ATTRIBUTE,
  COURIER_STREET_ATTRIBUTE,
  DELIVERY_TYPE_ATTRIBUTE,
  NP_CITY_REF_ATTRIBUTE,
  NP_WAREHOUSE_LABEL_ATTRIBUTE,
  NP_WAREHOUSE_REF_ATTRIBUTE,
  UKRPOSHTA_POSTCODE_ATTRIBUTE,
  type DeliveryType,
} from "../../reference/cart-attributes";

// The branch picker's attributes (app/reference/cart-attributes.ts) that tests and the CLI name from here.
export { NP_CITY_REF_ATTRIBUTE, NP_WAREHOUSE_LABEL_ATTRIBUTE, NP_WAREHOUSE_REF_ATTRIBUTE };

/** The order note is sent as the comment up to this many characters (an ellipsis marks a cut). */
export const COMMENT_MAX_LENGTH = 500;

export type HoldCode =
  | "phone_missing"
  | "phone_invalid"
  | "recipient_missing"
  | "delivery_method_unknown"
  | "branch_missing"
  | "branch_invalid"
  | "courier_address_missing"
  | "city_invalid"
  | "postcode_missing"
  | "postcode_invalid"
  | "currency_not_uah"
  | "sku_missing"
  | "no_shippable_lines"
  | "mapping_invalid"
  /** Paid on delivery and split over locations: the cash the warehouse's parcel collects is the merchant's choice. */
  | "split_cod_undecided"
  /** Something the mapping needs is missing from the payload, or was unreadable there. */
  | "order_incomplete";

export type FixAction =
  | "phone"
  | "deliveryMethod"
  | "warehouseRef"
  | "courierAddress"
  | "postcode"
  | "settings"
  | "shopify"
  /** One of the split cash-on-delivery choices (SPLIT_COD_CHOICES), one click on the order page. */
  | "splitCod";

export interface HoldReason {
  code: HoldCode;
  /** What is wrong, naming the value as the order has it. */
  message: string;
  /** What the merchant does about it. */
  fix: string;
  /** Where the fix is made: a field of the order page, the settings, or Shopify itself. */
  action: FixAction | null;
  /** `message` and `fix` as keys and values, said in the admin's language (rows before them have none). */
  text?: Message;
  fixText?: Message;
  /** A branch held for: the address matcher's best guesses, offered as one-click choices. */
  candidates?: BranchCandidate[];
  /** A courier address held for: the carrier's Ref of the city it goes to, for the street search. */
  cityRef?: string;
}

/** A hold reason: its words in holds.json, kept in English too for logs and older readers. */
function reason(
  code: HoldCode,
  action: FixAction | null,
  key: string,
  values: MessageValues | undefined,
  fix: string,
): HoldReason {
  const text = message(`holds:${key}`, values);
  const fixText = message(`holds:fix.${fix}`);
  return { code, message: inEnglish(text), fix: inEnglish(fixText), action, text, fixText };
}

/** A branch the order did not name, found for it by the address matcher: for the timeline. */
export interface FoundBranch {
  ref: string;
  label: string;
  confidence: number;
  source: BranchMatch["source"];
  evidence: BranchMatch["evidence"];
}

/** A courier order's city the order did not give as a Ref, found for it by the address matcher: for the timeline. */
export interface FoundCity {
  ref: string;
  label: string;
  confidence: number;
  source: CityMatch["source"];
}

export type MappingResult =
  | { ok: true; order: WarehouseOrder; foundBranch?: FoundBranch; foundCity?: FoundCity }
  | { ok: false; hold: HoldReason[] };

/** Reads a branch from an order that names none (app/reference/matcher.ts over the shop's reference data). */
export type BranchMatcher = (order: ShopifyOrder) => BranchMatch;

/** Reads a courier order's city from its address or another checkout app's data (app/reference/matcher.ts). */
export type CityMatcher = (order: ShopifyOrder) => CityMatch;

export interface MappingInput {
  order: ShopifyOrder;
  settings: OrderSettings;
  overrides?: OrderOverrides;
  /** The id_order fixed when the order was first taken in; defaults to idOrderFor(order, settings). */
  idOrder?: string;
  /**
   * Finds the branch of a Nova Poshta order that names none; without one (no reference data yet), such an
   * order is held for the merchant to choose.
   */
  branchMatcher?: BranchMatcher | null;
  /**
   * Finds the city of a courier order that gives no city Ref (neither the merchant nor the buyer chose
   * one); without one, or below the shop's threshold, the courier goes to Kyiv as before there was a matcher.
   */
  cityMatcher?: CityMatcher | null;
  /**
   * The warehouse's lines (WarehouseOrder.warehouseLines): only these line items, with these quantities, are
   * sent, and the amounts follow them. Null or absent: the whole order, as before routing.
   */
  warehouseLines?: readonly WarehouseLine[] | null;
}

/** `id_order`: the shop's prefix and the order number customers see ("#1001" → "1001", "UA-1001"). */
export function idOrderFor(order: ShopifyOrder, settings: OrderSettings): string {
  return `${settings.idOrderPrefix}${order.order_number}`;
}

export function mapOrder(input: MappingInput): MappingResult {
  const { order, settings } = input;
  const overrides = input.overrides ?? {};
  const hold: HoldReason[] = [];

  const recPhone = recipientPhone(order, overrides, hold);
  const recipient = recipientName(order, hold);

  const currency = currencyOf(order);
  if (currency === null) {
    hold.push(reason("order_incomplete", "shopify", "currency.missing", undefined, INCOMPLETE_FIX));
  } else if (currency.toUpperCase() !== "UAH") {
    hold.push(reason("currency_not_uah", "shopify", "currency.notUah", { currency }, "currency"));
  }

  const payment = paymentFor(order, settings, hold);
  const found: { branch?: FoundBranch; city?: FoundCity } = {};
  const delivery = deliveryFor(
    {
      order,
      settings,
      overrides,
      matcher: input.branchMatcher ?? null,
      cityMatcher: input.cityMatcher ?? null,
      found,
    },
    hold,
  );
  const goods = productsOf(order, hold, input.warehouseLines ?? null);
  const paid =
    goods && payment && goods.split
      ? splitPayment(order, settings, overrides, payment, goods, hold)
      : payment;

  if (
    hold.length > 0 ||
    recPhone === null ||
    recipient === null ||
    payment === null ||
    paid === null ||
    delivery === null ||
    goods === null
  ) {
    return { ok: false, hold };
  }

  const comment = settings.sendNoteAsComment ? commentOf(order.note) : undefined;
  const candidate: WarehouseOrder = {
    id_order: input.idOrder ?? idOrderFor(order, settings),
    external_id: order.id,
    date_order: toDayMonthYear(new Date(order.created_at)),
    recipient,
    rec_phone: recPhone,
    ...(comment ? { comment } : {}),
    Cost: goods.cost,
    ...(settings.payerType ? { PayerType: settings.payerType } : {}),
    payment_method: paid.method,
    order_payment_sum: paid.sum,
    delivery_method: settings.deliveryLiterals[delivery.method],
    ...(settings.deliverySenderId ? { delivery_sender_id: settings.deliverySenderId } : {}),
    delivery_address: delivery.address,
    products: goods.products,
  };
  const checked = warehouseOrderSchema.safeParse(candidate);
  if (!checked.success) {
    return {
      ok: false,
      hold: [
        reason(
          "mapping_invalid",
          null,
          "mappingInvalid",
          { order: order.name, detail: z.prettifyError(checked.error) },
          "appFault",
        ),
      ],
    };
  }
  return {
    ok: true,
    order: checked.data,
    ...(found.branch && { foundBranch: found.branch }),
    ...(found.city && { foundCity: found.city }),
  };
}

/** What the merchant does about an order whose payload lacks something the mapping needs. */
const INCOMPLETE_FIX = "incomplete";

/** The shop's currency: `currency`, else the shop side of a money set (some tools send only those). */
function currencyOf(order: ShopifyOrder): string | null {
  return (
    order.currency ??
    order.current_total_price_set?.shop_money?.currency_code ??
    order.total_price_set?.shop_money?.currency_code ??
    null
  );
}

/** An amount from its plain field, else from the shop side of its money set. */
function amountOf(
  plain: string | null | undefined,
  set: { shop_money?: { amount: string } | null } | null | undefined,
): string | null {
  return plain ?? set?.shop_money?.amount ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Recipient

const clean = (text: string | null | undefined): string => (text ?? "").replace(/\s+/g, " ").trim();

function recipientPhone(order: ShopifyOrder, overrides: OrderOverrides, hold: HoldReason[]): string | null {
  const sources: [string, string | null | undefined][] = [
    ["override", overrides.phone],
    ["shipping", order.shipping_address?.phone],
    ["billing", order.billing_address?.phone],
    ["customer", order.customer?.phone],
    ["order", order.phone],
  ];
  // The first phone the order gives is the recipient's; a wrong one is held, not skipped for another
  // (a billing or customer phone may belong to someone else than the recipient).
  const found = sources.find(([, phone]) => clean(phone) !== "");
  if (!found) {
    hold.push(reason("phone_missing", "phone", "phone.missing", undefined, "phoneMissing"));
    return null;
  }
  const [source, raw] = found;
  const phone = normaliseUkrainianPhone(clean(raw));
  if (phone === null) {
    hold.push(
      reason("phone_invalid", "phone", `phone.invalid.${source}`, { phone: clean(raw) }, "phoneInvalid"),
    );
  }
  return phone;
}

function nameOf(address: ShopifyAddress | null | undefined): string {
  if (!address) return "";
  return clean(address.name) || clean(`${address.first_name ?? ""} ${address.last_name ?? ""}`);
}

function recipientName(order: ShopifyOrder, hold: HoldReason[]): string | null {
  const name =
    nameOf(order.shipping_address) ||
    nameOf(order.billing_address) ||
    clean(`${order.customer?.first_name ?? ""} ${order.customer?.last_name ?? ""}`);
  if (name) return name;
  hold.push(reason("recipient_missing", "shopify", "recipientMissing", undefined, "recipient"));
  return null;
}

function commentOf(note: string | null | undefined): string | undefined {
  const text = (note ?? "").trim();
  if (!text) return undefined;
  const chars = Array.from(text);
  return chars.length <= COMMENT_MAX_LENGTH ? text : `${chars.slice(0, COMMENT_MAX_LENGTH - 1).join("")}…`;
}

// ---------------------------------------------------------------------------------------------------
// Recognising words in gateway and shipping names, in English, Ukrainian and Russian.

/**
 * Lower case, accents dropped (й→и, ї→і, ё→е), і/ы→и, є→е, ґ→г, soft and hard signs and apostrophes
 * dropped, every other non-letter a single space: "Кур'єр", "Курьер" and "КУРЬЕР" all read "курер".
 */
function normaliseText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ʼ’'`ʻ‘]/g, "")
    .replace(/[ьъ]/g, "")
    .replace(/[іы]/g, "и")
    .replace(/є/g, "е")
    .replace(/ґ/g, "г")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Patterns over normalised text; `(?<!\p{L})` anchors a word start, `(?!\p{L})` a word end. */
const CASH_ON_DELIVERY: RegExp[] = [
  /cash on delivery/u,
  /(?<![\p{L}\p{N}])cod(?![\p{L}\p{N}])/u, // "Cash on Delivery (COD)", "COD"
  /(?<!\p{L})накладен/u, // накладений платіж, накладеним платежем
  /(?<!\p{L})наложен/u, // наложенный платёж
  /при (отриманн|получени)/u, // оплата при отриманні, оплата при получении
  /(?<!\p{L})писляплат/u, // післяплата
  /(?<!\p{L})послеоплат/u,
  /(?<!\p{L})наличн/u, // наличными
  /(?<!\p{L})готивк/u, // готівкою
];

const DELIVERY_PATTERNS: Record<Exclude<DeliveryMethodKey, "pickup">, RegExp[]> = {
  novaPoshta: [
    /(?<!\p{L})нов\p{L}* (пошт|почт)/u, // Нова Пошта, Новая Почта, Новою поштою
    /(?<!\p{L})nova ?(poshta|post|pochta)/u, // Nova Poshta, NovaPoshta, Nova Post
    /(?<![\p{L}\p{N}])(np|нп)(?![\p{L}\p{N}])/u,
  ],
  ukrposhta: [/(?<!\p{L})укр ?(пошт|почт)/u, /(?<!\p{L})ukr ?(poshta|post|pochta)/u],
  kyivCourier: [/(?<!\p{L})курер/u, /(?<!\p{L})courier/u], // Кур'єр, Курьер, courier (Київ or not)
};
const PICKUP_PATTERNS: RegExp[] = [/(?<!\p{L})самовив/u, /(?<!\p{L})pick ?up/u]; // Самовивіз, Самовывоз

const matchesAny = (text: string, patterns: RegExp[]) => patterns.some((pattern) => pattern.test(text));

// ---------------------------------------------------------------------------------------------------
// Payment

/**
 * Cash on delivery (a merchant rule or a recognised gateway name) sends `Наличными` with the amount still
 * to pay (`total_outstanding`): what the carrier must collect, which is less than the total when part
 * was prepaid. Everything else is prepaid: `На карту` with the order's current total, as the notes ask.
 * A cash-on-delivery order with nothing outstanding (already paid) is sent as prepaid, because an empty
 * or zero `order_payment_sum` means "collect the order total" to the warehouse ([oa]).
 * Amounts are in the shop's currency (the only one held orders are not in is UAH).
 */
function paymentFor(
  order: ShopifyOrder,
  settings: OrderSettings,
  hold: HoldReason[],
): { method: WarehouseOrder["payment_method"]; sum: string } | null {
  const gateways = order.payment_gateway_names.map(normaliseText);
  const ruled = settings.paymentRules.find((rule) => {
    const match = normaliseText(rule.match);
    return match !== "" && gateways.some((gateway) => gateway.includes(match));
  });
  const key: PaymentMethodKey =
    ruled?.method ??
    (gateways.some((gateway) => matchesAny(gateway, CASH_ON_DELIVERY)) ? "cashOnDelivery" : "prepaid");
  // Payloads before `current_*` (or from other tools) carry only the total as placed.
  const total =
    amountOf(order.current_total_price, order.current_total_price_set) ??
    amountOf(order.total_price, order.total_price_set);
  if (total === null) {
    hold.push(reason("order_incomplete", "shopify", "totalMissing", undefined, INCOMPLETE_FIX));
    return null;
  }
  if (key === "cashOnDelivery") {
    const outstanding = outstandingOf(order, total);
    if (outstanding === null) {
      hold.push(reason("order_incomplete", "shopify", "outstandingMissing", undefined, INCOMPLETE_FIX));
      return null;
    }
    if (toMinor(outstanding) > 0) {
      return { method: PAYMENT_METHOD.cashOnDelivery, sum: formatMinor(toMinor(outstanding)) };
    }
  }
  return { method: PAYMENT_METHOD.prepaid, sum: formatMinor(Math.max(0, toMinor(total))) };
}

/**
 * What the customer still owes: `total_outstanding`, else what the payment status says for certain
 * (nothing for a paid order, the total for one with nothing paid yet), else unknown.
 */
function outstandingOf(order: ShopifyOrder, total: string): string | null {
  if (order.total_outstanding != null) return order.total_outstanding;
  if (order.financial_status === "paid") return "0";
  if (order.financial_status === "pending") return total;
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Delivery

type DeliveryAddress = WarehouseOrder["delivery_address"];

function attribute(order: ShopifyOrder, name: string): string | undefined {
  const value = order.note_attributes.find((attr) => attr.name === name)?.value?.trim();
  return value ? value : undefined;
}

const DELIVERY_FIX = "delivery";

function deliveryMethodOf(
  order: ShopifyOrder,
  settings: OrderSettings,
  overrides: OrderOverrides,
  hold: HoldReason[],
): DeliveryMethodKey | null {
  if (overrides.deliveryMethod) return overrides.deliveryMethod;
  const lines = order.shipping_lines.filter((line) => !line.is_removed);
  const buyerChose = buyerDeliveryMethod(order);
  const texts = lines.map((line) =>
    [line.title, line.code, line.source].map((text) => normaliseText(text ?? "")),
  );
  const shown = lines.map((line) => `"${clean(line.title) || clean(line.code) || "(untitled)"}"`).join(", ");
  for (const rule of settings.deliveryRules) {
    const match = normaliseText(rule.match);
    if (match && texts.some((fields) => fields.some((text) => text.includes(match)))) return rule.method;
  }
  if (lines.length === 0) {
    if (buyerChose) return buyerChose;
    hold.push(reason("delivery_method_unknown", "deliveryMethod", "delivery.none", undefined, DELIVERY_FIX));
    return null;
  }
  const carriers = new Set<DeliveryMethodKey>();
  let pickup = false;
  for (const fields of texts) {
    const text = fields.join(" ");
    for (const [method, patterns] of Object.entries(DELIVERY_PATTERNS)) {
      if (matchesAny(text, patterns)) carriers.add(method as DeliveryMethodKey);
    }
    pickup ||= matchesAny(text, PICKUP_PATTERNS);
  }
  // A carrier named wins over "pickup": "Самовивіз з Нової Пошти" is collected at a Nova Poshta branch.
  if (carriers.size === 1) return [...carriers][0]!;
  if (carriers.size === 0 && pickup) return "pickup";
  // The shipping lines do not decide (no carrier named, or several): the buyer's choice in the cart's
  // branch picker does, if it is one of those the lines name.
  if (buyerChose && (carriers.size === 0 || carriers.has(buyerChose))) return buyerChose;
  // The methods named, in one order, choose the sentence: each language names them in its own words.
  const named = Object.keys(DELIVERY_PATTERNS).filter((method) => carriers.has(method as DeliveryMethodKey));
  const key = carriers.size > 1 ? `delivery.several.${named.join("_")}` : "delivery.unknown";
  hold.push(reason("delivery_method_unknown", "deliveryMethod", key, { shown }, DELIVERY_FIX));
  return null;
}

const BUYER_DELIVERY_METHOD: Record<DeliveryType, DeliveryMethodKey> = {
  branch: "novaPoshta",
  postomat: "novaPoshta",
  ukrposhta: "ukrposhta",
  courier: "kyivCourier",
};

/** The delivery the buyer chose in the branch picker, when the order carries a choice it knows. */
function buyerDeliveryMethod(order: ShopifyOrder): DeliveryMethodKey | undefined {
  const chosen = attribute(order, DELIVERY_TYPE_ATTRIBUTE)?.toLowerCase();
  return chosen && Object.hasOwn(BUYER_DELIVERY_METHOD, chosen)
    ? BUYER_DELIVERY_METHOD[chosen as DeliveryType]
    : undefined;
}

interface DeliveryInput {
  order: ShopifyOrder;
  settings: OrderSettings;
  overrides: OrderOverrides;
  matcher: BranchMatcher | null;
  cityMatcher: CityMatcher | null;
  /** Where a branch or courier city the matcher found is put, for the result. */
  found: { branch?: FoundBranch; city?: FoundCity };
}

function deliveryFor(
  input: DeliveryInput,
  hold: HoldReason[],
): { method: DeliveryMethodKey; address: DeliveryAddress } | null {
  const method = deliveryMethodOf(input.order, input.settings, input.overrides, hold);
  if (method === null) return null;
  const address = addressFor(method, input, hold);
  return address ? { method, address } : null;
}

const isCarrierRef = (ref: string) => CARRIER_REF_PATTERN.test(ref);

function addressFor(
  method: DeliveryMethodKey,
  input: DeliveryInput,
  hold: HoldReason[],
): DeliveryAddress | null {
  const { order, overrides } = input;
  switch (method) {
    case "novaPoshta": {
      // In order of trust: the merchant's choice on the order page, the buyer's in the cart, the matcher's.
      const fromOverride = overrides.warehouseRef?.trim();
      const ref = (fromOverride || attribute(order, NP_WAREHOUSE_REF_ATTRIBUTE))?.toLowerCase();
      if (!ref) return matchedBranch(input, hold);
      if (!isCarrierRef(ref)) {
        const label = attribute(order, NP_WAREHOUSE_LABEL_ATTRIBUTE);
        hold.push(
          label && !fromOverride
            ? reason("branch_invalid", "warehouseRef", "branch.invalidNamed", { ref, label }, "branch")
            : reason("branch_invalid", "warehouseRef", "branch.invalid", { ref }, "branch"),
        );
        return null;
      }
      return { WarehouseRef: ref };
    }
    case "ukrposhta": {
      const postcode =
        clean(overrides.postcode) ||
        clean(attribute(order, UKRPOSHTA_POSTCODE_ATTRIBUTE)) ||
        clean(order.shipping_address?.zip);
      if (!postcode) {
        hold.push(reason("postcode_missing", "postcode", "postcode.missing", undefined, "postcode"));
        return null;
      }
      if (!/^\d{5}$/.test(postcode)) {
        hold.push(reason("postcode_invalid", "postcode", "postcode.invalid", { postcode }, "postcode"));
        return null;
      }
      return { postcode };
    }
    case "kyivCourier":
      return courierAddressFor(input, hold);
    case "pickup":
      return {};
  }
}

/** A branch for an order that names none: the matcher's, when it is sure enough; else a hold offering its guesses. */
function matchedBranch(input: DeliveryInput, hold: HoldReason[]): DeliveryAddress | null {
  const { matcher, settings, order } = input;
  if (!matcher) {
    const values = { attribute: NP_WAREHOUSE_REF_ATTRIBUTE };
    hold.push(reason("branch_missing", "warehouseRef", "branch.missing", values, "branch"));
    return null;
  }
  const match = matcher(order);
  const best = match.candidates[0];
  if (match.ref && best?.ref === match.ref && match.confidence >= settings.branchMatchThreshold) {
    const { confidence, source, evidence } = match;
    input.found.branch = { ref: match.ref, label: best.label, confidence, source, evidence };
    return { WarehouseRef: match.ref };
  }
  const held =
    match.candidates.length > 0
      ? reason(
          "branch_missing",
          "warehouseRef",
          "branch.unsure",
          { percent: percent(match.confidence) },
          "branchPick",
        )
      : reason("branch_missing", "warehouseRef", "branch.notFound", undefined, "branch");
  hold.push({ ...held, candidates: match.candidates.slice(0, 3) });
  return null;
}

const COURIER_FIX = "courier";

/**
 * A courier order's city, in order of trust: the merchant's correction, the buyer's choice in the cart, the
 * matcher's city when it is sure enough (its source said for the timeline), else Kyiv, the warehouse's
 * courier city.
 */
function courierCityFor(input: DeliveryInput): { cityRef: string; match?: CityMatch } {
  const { order, overrides, cityMatcher, settings } = input;
  const chosen = overrides.courier?.cityRef || attribute(order, NP_CITY_REF_ATTRIBUTE);
  if (chosen) return { cityRef: chosen.trim().toLowerCase() };
  const match = cityMatcher?.(order);
  const best = match?.candidates[0];
  if (match?.cityRef && best?.ref === match.cityRef && match.confidence >= settings.branchMatchThreshold) {
    const ref = match.cityRef.toLowerCase();
    input.found.city = { ref, label: best.label, confidence: match.confidence, source: match.source };
    return { cityRef: ref, match };
  }
  return { cityRef: KYIV_CITY_REF };
}

/**
 * Street, house and flat: the merchant's, the buyer's from the cart, the shipping address's; when the
 * address names no street, those another checkout app left with the order beside the city it was sure of.
 */
function courierPartsFor(
  order: ShopifyOrder,
  overrides: OrderOverrides,
  match: CityMatch | undefined,
): { street: string; house: string; flat: string } {
  if (overrides.courier) {
    return {
      street: clean(overrides.courier.street),
      house: clean(overrides.courier.house),
      flat: clean(overrides.courier.flat),
    };
  }
  const given = pickedCourierAddress(order) ?? splitStreetAddress(order.shipping_address);
  if (given.street || match?.source !== "structured" || !clean(match.street)) return given;
  return {
    street: clean(match.street),
    house: clean(match.house),
    flat: clean(match.flat).replace(FLAT_PREFIX, ""),
  };
}

function courierAddressFor(input: DeliveryInput, hold: HoldReason[]): DeliveryAddress | null {
  const { order, overrides } = input;
  const { cityRef, match } = courierCityFor(input);
  let cityOk = true;
  if (!isCarrierRef(cityRef)) {
    hold.push(reason("city_invalid", "courierAddress", "cityInvalid", { ref: cityRef }, "city"));
    cityOk = false;
  }
  const parts = courierPartsFor(order, overrides, match);
  // The city the address is in goes with its hold, so that the order page searches that city's streets
  // and the merchant's correction keeps it.
  const inCity = cityOk ? { cityRef } : {};
  if (!parts.street) {
    hold.push({
      ...reason("courier_address_missing", "courierAddress", "courier.noStreet", undefined, COURIER_FIX),
      ...inCity,
    });
    return null;
  }
  if (!parts.house) {
    const values = { street: parts.street };
    hold.push({
      ...reason("courier_address_missing", "courierAddress", "courier.noHouse", values, COURIER_FIX),
      ...inCity,
    });
    return null;
  }
  if (!cityOk) return null;
  return {
    DeliveryCity: cityRef,
    Street: parts.street,
    House: parts.house,
    ...(parts.flat ? { Flat: parts.flat } : {}),
  };
}

/** The street, house and flat the buyer gave the branch picker, when it gave a street. */
function pickedCourierAddress(order: ShopifyOrder): { street: string; house: string; flat: string } | null {
  const street = clean(attribute(order, COURIER_STREET_ATTRIBUTE));
  if (!street) return null;
  return {
    street,
    house: clean(attribute(order, COURIER_HOUSE_ATTRIBUTE)),
    flat: clean(attribute(order, COURIER_FLAT_ATTRIBUTE)).replace(FLAT_PREFIX, ""),
  };
}

const FLAT_PREFIX = /^(?:кв|квартира|apt|apartment|flat)\.?\s*/iu;
const FLAT_AT_END = /[,\s]+(?:кв|квартира|apt|apartment|flat)\.?\s*([\p{L}\p{N}/-]+)\s*$/iu;
const HOUSE_AT_END =
  /^(.*?)[,\s]+(?:(?:буд|будинок|дом|д|house|bldg?)\.?\s*)?(\d+\s?[\p{L}]?(?:[/-]\d+[\p{L}]?)?)$/iu;
const HOUSE_AT_START = /^(\d+[\p{L}]?(?:[/-]\d+[\p{L}]?)?)[,\s]+(.+)$/u;

/** "вул. Хрещатик, 22, кв. 5" → street "вул. Хрещатик", house "22", flat "5"; address2 is the flat. */
function splitStreetAddress(address: ShopifyAddress | null | undefined): {
  street: string;
  house: string;
  flat: string;
} {
  let line = clean(address?.address1);
  let flat = clean(address?.address2).replace(FLAT_PREFIX, "");
  const flatMatch = line.match(FLAT_AT_END);
  if (flatMatch) {
    flat ||= flatMatch[1]!;
    line = line.slice(0, flatMatch.index).trim();
  }
  const end = line.match(HOUSE_AT_END);
  if (end) return { street: end[1]!.replace(/[,\s]+$/, ""), house: end[2]!.replace(/\s/g, ""), flat };
  const start = line.match(HOUSE_AT_START);
  if (start) return { street: start[2]!, house: start[1]!, flat };
  return { street: line, house: "", flat };
}

// ---------------------------------------------------------------------------------------------------
// Products and the declared value

/** "414.95" → 41495 kopecks; digits past the second decimal are rounded half up. */
function toMinor(amount: string): number {
  const match = amount.trim().match(/^(-?)(\d+)(?:\.(\d+))?$/);
  if (!match) return 0; // the payload schema admits only amounts of this form
  const [, sign, whole, decimals = ""] = match;
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, "0").slice(0, 2));
  const rounded = decimals.length > 2 && Number(decimals[2]) >= 5 ? cents + 1 : cents;
  return sign === "-" ? -rounded : rounded;
}

function formatMinor(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** n / d for whole n ≥ 0 and d > 0, rounded half up, in integers. */
const divideHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

/** Ids compared exactly, or by numeric value when one side may have been rounded by JSON.parse. */
const sameId = (a: string, b: string) => a === b || Number(a) === Number(b);

/** How many of the line are still to ship; null when that rests on a refund that cannot be read. */
function remainingQuantity(line: ShopifyLineItem & { quantity: number }, order: ShopifyOrder): number | null {
  if (line.current_quantity !== null && line.current_quantity !== undefined) return line.current_quantity;
  const refundLines = order.refunds.flatMap((refund) => refund.refund_line_items);
  // A refund line without its line or quantity might be this line's: what is left is then unknown.
  if (refundLines.some((refunded) => refunded.line_item_id == null || refunded.quantity == null)) return null;
  const refunded = refundLines
    .filter((refunded) => line.id != null && sameId(refunded.line_item_id!, line.id))
    .reduce((sum, refunded) => sum + refunded.quantity!, 0);
  return Math.max(0, line.quantity - refunded);
}

/**
 * The units of each SKU the order still has to ship, as Shopify counts them committed: the lines productsOf
 * sends (no gift cards, nothing that needs no shipping), what remains after refunds and removals, less what was
 * fulfilled in Shopify meanwhile (`fulfillable_quantity`). Where a refund cannot be read the whole line counts:
 * for stock held back, more is the safe side. Lines without a SKU count nowhere. With the warehouse's lines
 * (routing), only those count, with their quantities: the rest is committed at other locations.
 */
export function unitsBySku(
  order: ShopifyOrder,
  warehouseLines?: readonly WarehouseLine[] | null,
): Map<string, number> {
  const units = new Map<string, number>();
  const routed = warehouseLines ? unitsByLineItem(warehouseLines) : null;
  for (const line of order.line_items ?? []) {
    if (line.gift_card === true || line.requires_shipping === false || line.quantity == null) continue;
    const sku = clean(line.sku);
    if (!sku) continue;
    let count = remainingQuantity({ ...line, quantity: line.quantity }, order) ?? line.quantity;
    if (line.fulfillable_quantity != null) count = Math.min(count, Math.max(0, line.fulfillable_quantity));
    if (routed) {
      const gid = line.admin_graphql_api_id ?? (line.id ? `gid://shopify/LineItem/${line.id}` : null);
      count = gid ? (routed.get(gid) ?? 0) : 0;
    }
    if (count > 0) units.set(sku, (units.get(sku) ?? 0) + count);
  }
  return units;
}

/** The line's discounts in kopecks: its allocations, or the older `total_discount` without any; null if unreadable. */
function lineDiscount(line: ShopifyLineItem): number | null {
  if (line.discount_allocations.length > 0) {
    if (line.discount_allocations.some((allocation) => allocation.amount == null)) return null;
    return line.discount_allocations.reduce((sum, allocation) => sum + toMinor(allocation.amount!), 0);
  }
  return toMinor(line.total_discount ?? "0");
}

const lineName = (line: ShopifyLineItem) =>
  clean(line.name) || clean([line.title, line.variant_title].filter(Boolean).join(" - "));

/**
 * Products: one per SKU of the items still to ship. Gift cards and items that need no shipping (tips,
 * services) are left out, as are items removed or refunded down to nothing.
 *
 * Prices are per unit after the line's discounts (order-level discounts reach the lines as allocations):
 * a line's value is (price × quantity − discounts) × remaining / quantity, rounded to the kopeck; the
 * `price` sent is the SKU's value / its count, rounded half up to the kopeck (a weighted average when
 * several lines share a SKU).
 *
 * Cost (the declared value, whole UAH) is the sum of those values, shipping and taxes added on top
 * excluded, rounded half up: 1234.50 → 1235, 1234.49 → 1234. All in integer kopecks, so no binary
 * fractions creep into a rounding.
 */
function productsOf(
  order: ShopifyOrder,
  hold: HoldReason[],
  warehouseLines: readonly WarehouseLine[] | null,
): Goods | null {
  if (!order.line_items) {
    hold.push(
      reason("order_incomplete", "shopify", "items.unreadable", { order: order.name }, INCOMPLETE_FIX),
    );
    return null;
  }
  // The warehouse's units per line item, when routing gave them; each is taken from the order once.
  const routed = warehouseLines ? unitsByLineItem(warehouseLines) : null;
  const bySku = new Map<string, { name: string; count: number; value: number }>();
  let missingSku = false;
  let incomplete = false;
  let refundsUnreadable = false;
  let split = false;
  let wholeValue = 0;
  for (const line of order.line_items) {
    // Absent flags read as Shopify's usual values: an ordinary item that is shipped.
    if (line.gift_card === true || line.requires_shipping === false) continue;
    const name = lineName(line);
    const shown = name || line.sku || line.id || "(unnamed)";
    const price = amountOf(line.price, line.price_set);
    const quantity = line.quantity;
    const discount = lineDiscount(line);
    const remaining = quantity == null ? null : remainingQuantity({ ...line, quantity }, order);
    if (quantity != null && remaining === null) refundsUnreadable = true;
    if (quantity == null || price === null || discount === null) {
      incomplete = true;
      const missing = quantity == null ? "noQuantity" : price === null ? "noPrice" : "noDiscounts";
      hold.push(reason("order_incomplete", "shopify", `items.${missing}`, { item: shown }, INCOMPLETE_FIX));
      continue;
    }
    if (remaining === null) continue;
    const unitBase = Math.max(quantity, 1);
    const net = Math.max(0, toMinor(price) * quantity - discount);
    const valueOf = (units: number) =>
      quantity > 0 ? divideHalfUp(net * units, unitBase) : toMinor(price) * units;
    if (remaining > 0) wholeValue += valueOf(remaining);
    // Routed: the fulfillment orders' remaining quantity at the warehouse's location is what it ships.
    const gid = line.admin_graphql_api_id ?? (line.id ? `gid://shopify/LineItem/${line.id}` : null);
    const units = routed ? (gid ? (routed.get(gid) ?? 0) : 0) : remaining;
    if (routed && gid) routed.delete(gid);
    if (routed && remaining > units) split = true;
    if (units <= 0) continue;
    const sku = clean(line.sku);
    if (!sku) {
      missingSku = true;
      hold.push(reason("sku_missing", "shopify", "items.noSku", { item: name || String(line.id) }, "sku"));
      continue;
    }
    const value = valueOf(units);
    const merged = bySku.get(sku);
    if (merged) {
      merged.count += units;
      merged.value += value;
    } else {
      bySku.set(sku, { name, count: units, value });
    }
  }
  if (refundsUnreadable) {
    const values = { order: order.name };
    hold.push(reason("order_incomplete", "shopify", "items.refundUnreadable", values, INCOMPLETE_FIX));
  }
  // A line routed to the warehouse that this copy of the order does not have (an edit not yet arrived).
  const unknown = routed ? [...routed].filter(([, units]) => units > 0) : [];
  if (unknown.length) {
    hold.push(
      reason(
        "order_incomplete",
        "shopify",
        "items.routedNotInOrder",
        { order: order.name, items: unknown.map(([gid]) => gid).join(", ") },
        INCOMPLETE_FIX,
      ),
    );
  }
  if (missingSku || incomplete || refundsUnreadable || unknown.length) return null;
  if (bySku.size === 0) {
    hold.push(
      reason("no_shippable_lines", null, "items.nothingToShip", { order: order.name }, "nothingToSend"),
    );
    return null;
  }
  let total = 0;
  const products = [...bySku].map(([sku, { name, count, value }]) => {
    total += value;
    return { sku, name, count: String(count), price: formatMinor(divideHalfUp(value, count)) };
  });
  return { products, cost: divideHalfUp(total, 100), value: total, wholeValue, split };
}

/** The goods the warehouse is sent, with what the amounts of a split order need. */
interface Goods {
  products: WarehouseOrder["products"];
  /** The declared value, whole UAH. */
  cost: number;
  /** The warehouse's goods in kopecks, and the whole order's goods still to ship. */
  value: number;
  wholeValue: number;
  /** Units of the order are left at other locations: the warehouse ships part of it. */
  split: boolean;
}

/** The cash on delivery a split order's parcel may collect (OrderOverrides.splitCod), chosen on its page. */
export const SPLIT_COD_CHOICES = ["whole_order", "parcel_share", "no_cash"] as const;
export type SplitCodChoice = (typeof SPLIT_COD_CHOICES)[number];

/** The shipping the buyer pays, in kopecks: the order's total, else its shipping lines' prices. */
function shippingOf(order: ShopifyOrder): number {
  const total = amountOf(null, order.total_shipping_price_set);
  if (total !== null) return toMinor(total);
  return order.shipping_lines
    .filter((line) => line.is_removed !== true)
    .reduce((sum, line) => sum + toMinor(line.price ?? "0"), 0);
}

/**
 * The amounts of a parcel that carries part of the order. Paid on delivery, the cash it collects is the
 * merchant's decision (OrderSettings.splitCashOnDelivery, or the order's own choice): the whole order's
 * outstanding sum, the parcel's share (its goods plus the shipping, never more than is owed), or nothing; without
 * a decision the order is held with the three choices. A prepaid parcel declares its share.
 */
function splitPayment(
  order: ShopifyOrder,
  settings: OrderSettings,
  overrides: OrderOverrides,
  payment: { method: WarehouseOrder["payment_method"]; sum: string },
  goods: Goods,
  hold: HoldReason[],
): { method: WarehouseOrder["payment_method"]; sum: string } | null {
  const share = (owed: string) => formatMinor(Math.min(toMinor(owed), goods.value + shippingOf(order)));
  if (payment.method !== PAYMENT_METHOD.cashOnDelivery) return { ...payment, sum: share(payment.sum) };
  const choice = overrides.splitCod ?? settings.splitCashOnDelivery;
  switch (choice) {
    case "whole_order":
      return payment;
    case "parcel_share":
      return { method: PAYMENT_METHOD.cashOnDelivery, sum: share(payment.sum) };
    case "no_cash":
      // Nothing to collect: declared as prepaid, for the parcel's own value.
      return { method: PAYMENT_METHOD.prepaid, sum: formatMinor(goods.value + shippingOf(order)) };
    case "ask": {
      const values = {
        order: order.name,
        sum: payment.sum,
        share: share(payment.sum),
      };
      hold.push(reason("split_cod_undecided", "splitCod", "splitCod", values, "splitCod"));
      return null;
    }
  }
}

/**
 * The payment and delivery methods the rules choose for an order, by the same code as mapOrder, whatever
 * else would hold it: what the setup checklist's preview of the rules shows (app/onboarding/rules.server.ts).
 * Null: not decided (no total, or no delivery method recognised).
 */
export function ruleChoices(
  order: ShopifyOrder,
  settings: OrderSettings,
): { payment: PaymentMethodKey | null; delivery: DeliveryMethodKey | null } {
  const ignored: HoldReason[] = [];
  const payment = paymentFor(order, settings, ignored);
  return {
    payment:
      payment === null
        ? null
        : payment.method === PAYMENT_METHOD.cashOnDelivery
          ? "cashOnDelivery"
          : "prepaid",
    delivery: deliveryMethodOf(order, settings, {}, ignored),
  };
}
