// A shop's order-mapping settings (stored as JSON in ShopSettings.mapping) and the merchant's corrections
// of one order (WarehouseOrder.overrides). Every settings field has a default, so `{}` and any settings
// saved by an older version parse.
import { z } from "zod";
import { CARRIER_REF_PATTERN, DELIVERY_METHOD, PAYER_TYPE } from "../warehouse/wire";
import { normaliseUkrainianPhone } from "./phone";

export const DELIVERY_METHOD_KEYS = ["novaPoshta", "ukrposhta", "kyivCourier", "pickup"] as const;
export type DeliveryMethodKey = (typeof DELIVERY_METHOD_KEYS)[number];

export const DELIVERY_METHOD_LABELS: Record<DeliveryMethodKey, string> = {
  novaPoshta: "Nova Poshta branch or parcel locker",
  ukrposhta: "Ukrposhta",
  kyivCourier: "Kyiv courier",
  pickup: "Pickup at the warehouse",
};

export const PAYMENT_METHOD_KEYS = ["cashOnDelivery", "prepaid"] as const;
export type PaymentMethodKey = (typeof PAYMENT_METHOD_KEYS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethodKey, string> = {
  cashOnDelivery: "Cash on delivery",
  prepaid: "Prepaid",
};

/** The carrier's Ref of Kyiv: the city of the Kyiv courier unless the order names another. */
export const KYIV_CITY_REF = "8d5a980d-391c-11dd-90d9-001a92567626";

const carrierRef = z
  .string()
  .trim()
  .toLowerCase()
  .regex(CARRIER_REF_PATTERN, "must be a carrier Ref (36-character uuid, e.g. " + KYIV_CITY_REF + ")");

const ruleMatch = z.string().trim().min(1, "the text to look for must not be empty");

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
  idOrderPrefix: z
    .string()
    .trim()
    .max(10, "the order number prefix is at most 10 characters")
    .regex(/^[A-Za-z0-9-]*$/, "the order number prefix may hold only Latin letters, digits and '-'")
    .default(""),
  /** Send the order's note as the warehouse `comment`. */
  sendNoteAsComment: z.boolean().default(true),
  /** One of the client's sender legal entities (senderDetails); omitted: the warehouse's default. */
  deliverySenderId: z.string().trim().min(1).optional(),
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
});
export type OrderOverrides = z.infer<typeof orderOverridesSchema>;
export type OrderOverridesInput = z.input<typeof orderOverridesSchema>;
