// The mapping's delivery: the method (the merchant's rules and choice, the shipping lines' words, the buyer's
// pick in the cart) and its address (a Nova Poshta branch, a Ukrposhta postcode, a courier's city and street).
import { type WarehouseOrder } from "../../warehouse/schemas";
import { CARRIER_REF_PATTERN } from "../../warehouse/wire";
import { type ShopifyAddress, type ShopifyOrder } from "../payload";
import { percent, type CityMatch } from "../../reference/types";
import { KYIV_CITY_REF, type DeliveryMethodKey, type OrderOverrides, type OrderSettings } from "../settings";
import {
  clean,
  matchesAny,
  normaliseText,
  reason,
  type BranchMatcher,
  type CityMatcher,
  type FoundBranch,
  type FoundCity,
  type HoldReason,
} from "./shared";
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

/** Patterns over normalised text; `(?<!\p{L})` anchors a word start, `(?!\p{L})` a word end. */
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

type DeliveryAddress = WarehouseOrder["delivery_address"];

function attribute(order: ShopifyOrder, name: string): string | undefined {
  const value = order.note_attributes.find((attr) => attr.name === name)?.value?.trim();
  return value ? value : undefined;
}

const DELIVERY_FIX = "delivery";

export function deliveryMethodOf(
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

export function deliveryFor(
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
