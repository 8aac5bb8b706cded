// A shop's order-mapping settings (stored as JSON in ShopSettings.mapping) and the merchant's corrections
// of one order (WarehouseOrder.overrides). Every settings field has a default, so `{}` and any settings
// saved by an older version parse.
import { z } from "zod";
import { CARRIER_REF_PATTERN, DELIVERY_METHOD, PAYER_TYPE } from "../warehouse/wire";
import { normaliseUkrainianPhone } from "./phone";

/** OrderSettings.splitCashOnDelivery. */
export const SPLIT_COD_SETTINGS = ["ask", "whole_order", "parcel_share"] as const;
export type SplitCodSetting = (typeof SPLIT_COD_SETTINGS)[number];

export const DELIVERY_METHOD_KEYS = ["novaPoshta", "ukrposhta", "kyivCourier", "pickup"] as const;
export type DeliveryMethodKey = (typeof DELIVERY_METHOD_KEYS)[number];

export const PAYMENT_METHOD_KEYS = ["cashOnDelivery", "prepaid"] as const;
export type PaymentMethodKey = (typeof PAYMENT_METHOD_KEYS)[number];

/** The carrier's Ref of Kyiv: the city of the Kyiv courier unless the order names another. */
export const KYIV_CITY_REF = "8d5a980d-391c-11dd-90d9-001a92567626";

/**
 * At or above this confidence the address matcher's branch (app/reference/matcher/) is used without
 * asking the merchant. Measured on the matcher's corpus (test/reference/corpus.test.ts, 300 writings): no
 * wrong branch scores above 0.35; the writings that cannot tell (a village name several regions share with
 * no region given, a home address, a city alone) stay under the matcher's cap of 0.7; the right answers
 * score 1 (a city read exactly and a marked number), 0.95 (a street and house), 0.88 (a field that is only
 * a number) and 0.82 to 0.85 (a number in a city written with a typo). 0.8 keeps those typos automatic
 * and leaves 0.1 above the cap. A shop may raise it to hold typos too.
 */
export const DEFAULT_BRANCH_MATCH_THRESHOLD = 0.8;

const carrierRef = z
  .string()
  .trim()
  .toLowerCase()
  .regex(CARRIER_REF_PATTERN, "must be a carrier Ref (36-character uuid, e.g. " + KYIV_CITY_REF + ")");

const ruleMatch = z.string().trim().min(1, "the text to look for must not be empty");

/** The characters a prefix may hold, as every release allowed; the digit rule below came later. */
const idOrderPrefixSchema = z
  .string()
  .trim()
  .max(10, "the order number prefix is at most 10 characters")
  .regex(/^[A-Za-z0-9-]*$/, "the order number prefix may hold only Latin letters, digits and '-'");

export const orderSettingsSchema = z.object({
  /** Checked before the built-in rules; `match` is a case-insensitive substring of a gateway name. */
  paymentRules: z
    .array(z.object({ match: ruleMatch, method: z.enum(PAYMENT_METHOD_KEYS) }))
    .default(() => []),
  /** Checked before the built-in rules against each shipping line's title, code and source. */
  deliveryRules: z
    .array(z.object({ match: ruleMatch, method: z.enum(DELIVERY_METHOD_KEYS) }))
    .default(() => []),
  /** The `delivery_method` text sent for each method; the defaults are the provider's ([oa]). */
  deliveryLiterals: z
    .object({
      novaPoshta: z.string().trim().min(1).default(DELIVERY_METHOD.novaPoshta),
      ukrposhta: z.string().trim().min(1).default(DELIVERY_METHOD.ukrposhta),
      kyivCourier: z.string().trim().min(1).default(DELIVERY_METHOD.kyivCourier),
      pickup: z.string().trim().min(1).default(DELIVERY_METHOD.pickup),
    })
    .prefault({}),
  /** Who pays the carrier; omitted: the field is not sent and the warehouse's contract decides. */
  payerType: z.enum([PAYER_TYPE.recipient, PAYER_TYPE.sender]).optional(),
  /** Put before the order number in `id_order`, e.g. "UA-" gives "UA-1001". */
  idOrderPrefix: idOrderPrefixSchema
    .refine(
      (prefix) => !/\d$/.test(prefix),
      "the order number prefix must not end in a digit, because the order number follows it and the two would run together (“UA1” with order 23 gives “UA123”, as “UA” with order 123 would): end it with a letter or '-', e.g. “UA-”",
    )
    .default(""),
  /** Send the order's note as the warehouse `comment`. */
  sendNoteAsComment: z.boolean().default(true),
  /** One of the client's sender legal entities (senderDetails); omitted: the warehouse's default. */
  deliverySenderId: z.string().trim().min(1).optional(),
  /**
   * How sure (0..1) the address matcher must be for its branch to be used on an order that names none;
   * below it the order is held with its guesses. Not below 0.5: a coin toss must never ship a parcel.
   */
  branchMatchThreshold: z
    .number()
    .min(0.5, "the branch matching threshold is at least 0.5")
    .max(1, "the branch matching threshold is at most 1")
    .default(DEFAULT_BRANCH_MATCH_THRESHOLD),
  /**
   * An order paid on delivery whose lines Shopify split over locations: what the warehouse's parcel collects.
   * "ask" (each such order is held until the merchant chooses on its page), "whole_order" (the whole sum still
   * owed) or "parcel_share" (the parcel's goods plus the shipping, never more than is owed).
   */
  splitCashOnDelivery: z.enum(SPLIT_COD_SETTINGS).default("ask"),
});
export type OrderSettings = z.infer<typeof orderSettingsSchema>;
export type OrderSettingsInput = z.input<typeof orderSettingsSchema>;

export const DEFAULT_ORDER_SETTINGS: OrderSettings = Object.freeze(orderSettingsSchema.parse({}));

export const courierAddressSchema = z.object({
  cityRef: carrierRef.default(KYIV_CITY_REF),
  street: z.string().trim().min(1, "the street must not be empty"),
  house: z.string().trim().min(1, "the house number must not be empty"),
  flat: z.string().trim().optional(),
});
export type CourierAddress = z.infer<typeof courierAddressSchema>;

/** The merchant's corrections of one order, entered on the order page; each replaces what the order says. */
export const orderOverridesSchema = z.object({
  phone: z
    .string()
    .trim()
    .refine((phone) => normaliseUkrainianPhone(phone) !== null, "must be a Ukrainian phone number")
    .optional(),
  deliveryMethod: z.enum(DELIVERY_METHOD_KEYS).optional(),
  warehouseRef: carrierRef.optional(),
  postcode: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "must be a Ukrainian postcode of five digits")
    .optional(),
  courier: courierAddressSchema.optional(),
  /** A split order paid on delivery: what its parcel collects (the order page's one-click choices). */
  splitCod: z.enum(["whole_order", "parcel_share", "no_cash"]).optional(),
});
export type OrderOverrides = z.infer<typeof orderOverridesSchema>;
export type OrderOverridesInput = z.input<typeof orderOverridesSchema>;

/**
 * Whether `id_order`s made with two prefixes can meet: the order number is digits without a leading zero,
 * so prefix + number reads back in one way only unless the prefixes are equal or the longer one is the
 * shorter one followed by such digits ("UA" and "UA1"). Prefixes that keep the digit rule above thus meet
 * only when equal; the full test still covers prefixes saved before the rule. Case is ignored, as the
 * warehouse may ignore it.
 */
export function idOrderPrefixesCanMeet(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return (
    long.toUpperCase().startsWith(short.toUpperCase()) && /^(?:[1-9]\d*)?$/.test(long.slice(short.length))
  );
}

/** A shop sending with the same warehouse ApiKey, and the prefix it puts before its order numbers. */
export interface KeySharer {
  shop: string;
  idOrderPrefix: string;
}

/**
 * The first shop on the same ApiKey whose orders could get the same `id_order` as this prefix gives:
 * the warehouse knows orders by `id_order` within a key, so two such shops would overwrite or find each
 * other's orders. Distinct prefixes (by the digit rule) are enough to share a key.
 */
export function keySharerColliding(idOrderPrefix: string, sharers: KeySharer[]): KeySharer | null {
  return sharers.find((sharer) => idOrderPrefixesCanMeet(idOrderPrefix, sharer.idOrderPrefix)) ?? null;
}

/** A shop's saved mapping, and what is wrong with it when it no longer validates. */
export interface ShopMapping {
  mapping: OrderSettings;
  /** The validation message; orders are held while it is set (see mapWithShopMapping). */
  problem: string | null;
}

/**
 * Parses a shop's saved mapping. One that no longer validates (saved by an older release, or edited by
 * hand) is never silently replaced: the problem is returned, and the fields that do validate are kept
 * for the form (with the prefix as older releases allowed it, so the shop's `id_order`s stay as they were).
 */
export function parseMapping(stored: string | null | undefined): ShopMapping {
  let raw: unknown;
  try {
    raw = stored ? JSON.parse(stored) : {};
  } catch {
    return { mapping: salvageMapping({}), problem: "The saved order settings are not valid JSON." };
  }
  const parsed = orderSettingsSchema.safeParse(raw);
  if (parsed.success) return { mapping: parsed.data, problem: null };
  return { mapping: salvageMapping(raw), problem: z.prettifyError(parsed.error) };
}

function salvageMapping(raw: unknown): OrderSettings {
  const stored: Record<string, unknown> = typeof raw === "object" && raw !== null ? { ...raw } : {};
  const kept: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(orderSettingsSchema.shape)) {
    const field = schema.safeParse(stored[key]);
    kept[key] = field.success ? field.data : schema.parse(undefined);
  }
  const prefix = idOrderPrefixSchema.safeParse(stored.idOrderPrefix);
  return { ...(kept as OrderSettings), idOrderPrefix: prefix.success ? prefix.data : "" };
}
