// The Shopify order webhook payload (orders/create, orders/updated, orders/cancelled; REST-style JSON).
// An order is never lost to its own shape: a 400 makes Shopify give up after its retries, and the order
// is gone. So only what identifies the order is required (its id, its number, its creation date); every
// other field is read tolerantly, a value that does not fit becoming absent, and the mapping holds the
// order, with the reason, when something it needs is absent. Payloads of any API version or tool parse.
//
// Identifiers: Shopify's numeric ids can exceed 2^53, and JSON.parse rounds them (the documented example
// has `"id": 820982911946154500` beside `"admin_graphql_api_id": "gid://shopify/Order/820982911946154508"`).
// The parsed `id` of the order, its customer and its line items is therefore an exact digit string, taken
// from `admin_graphql_api_id` when present and from the number otherwise. Parsing a parsed order again
// gives the same result.
import { z } from "zod";
import { exactId, graphqlId, numericId } from "../shopify/ids";

/**
 * A field read tolerantly: a value that does not fit becomes absent instead of refusing the order. Typed
 * by the input it expects (catch would make it `unknown`), so fixtures are still checked against Shopify's shape.
 */
const tolerant = <T extends z.ZodType>(schema: T) =>
  schema.nullish().catch(undefined) as unknown as z.ZodOptional<z.ZodNullable<T>>;

/** A decimal amount as Shopify writes it: "414.95", "0.00", "-5.00" (a JSON number from other tools too). */
const AMOUNT = /^-?\d+(\.\d+)?$/;
const amount = z.union([
  z.string().trim().regex(AMOUNT),
  z
    .number()
    .refine(Number.isFinite)
    .transform((value) => value.toFixed(2)),
]);

/** Text; a number (a phone or zip some tools send as one) is taken as its digits. */
const text = tolerant(z.union([z.string(), z.number().transform(String)]));
/** An ISO 8601 date-time (with or without its offset or fraction), kept as written. */
const dateTime = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), {
    error: "must be an ISO 8601 date-time, e.g. 2026-03-14T10:15:00+02:00",
  });
const flag = tolerant(z.boolean());
const count = tolerant(z.number().int().nonnegative());

const money = z.looseObject({ amount, currency_code: z.string() });
const moneySetSchema = tolerant(
  z.looseObject({ shop_money: tolerant(money), presentment_money: tolerant(money) }),
);

/** A list whose unreadable items are left out: a list that is not one reads as empty. */
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item.nullable().catch(null))
    .nullish()
    .catch(undefined)
    .transform((items) => (items ?? []).filter((entry): entry is z.output<T> & {} => entry != null));

export const addressSchema = z.looseObject({
  name: text,
  first_name: text,
  last_name: text,
  phone: text,
  company: text,
  address1: text,
  address2: text,
  city: text,
  zip: text,
  province: text,
  country_code: text,
});
export type ShopifyAddress = z.infer<typeof addressSchema>;

export const customerSchema = z
  .looseObject({
    id: tolerant(numericId),
    admin_graphql_api_id: tolerant(graphqlId),
    first_name: text,
    last_name: text,
    phone: text,
    email: text,
    default_address: tolerant(addressSchema),
  })
  .transform((customer) => ({ ...customer, id: exactId(customer.id, customer.admin_graphql_api_id) }));

export const lineItemSchema = z
  .looseObject({
    id: tolerant(numericId),
    admin_graphql_api_id: tolerant(graphqlId),
    sku: text,
    /**
     * Set on a line bought with a selling plan (a pre-order or a subscription), which Shopify may schedule:
     * `selling_plan_id` in orders webhooks since 2026-10, `selling_plan_allocation` where a payload carries it.
     */
    selling_plan_id: tolerant(z.union([z.number(), z.string()])),
    selling_plan_allocation: tolerant(z.looseObject({})),
    name: text,
    title: text,
    variant_title: text,
    /** Absent when unreadable: the mapping then holds the order rather than guess a count. */
    quantity: count,
    current_quantity: count,
    fulfillable_quantity: tolerant(z.number().int()),
    price: tolerant(amount),
    price_set: moneySetSchema,
    total_discount: tolerant(amount),
    /** Unreadable allocations are kept as entries without an amount, so the mapping can hold the order. */
    discount_allocations: z
      .array(z.looseObject({ amount: tolerant(amount) }).catch({ amount: undefined }))
      .nullish()
      .catch(undefined)
      .transform((allocations) => allocations ?? []),
    gift_card: flag,
    requires_shipping: flag,
  })
  .transform((line) => ({ ...line, id: exactId(line.id, line.admin_graphql_api_id) }));
export type ShopifyLineItem = z.infer<typeof lineItemSchema>;

/** A line item that is not even an object: kept as a line with nothing readable, which the mapping holds. */
const UNREADABLE_LINE: ShopifyLineItem = lineItemSchema.parse({});

/**
 * A refunded line. `line_item_id` is the exact id when the refund carries its line item with an
 * `admin_graphql_api_id` (Shopify's payloads do), else the number as a string (possibly rounded: the
 * mapping also compares ids by numeric value for that case). Unreadable ones are kept without their
 * fields, so the mapping holds the order rather than ship what may have been refunded.
 */
const refundLineItemSchema = z
  .looseObject({
    line_item_id: tolerant(numericId),
    quantity: count,
    line_item: tolerant(z.looseObject({ admin_graphql_api_id: tolerant(graphqlId) })),
  })
  .catch({ line_item_id: undefined, quantity: undefined, line_item: undefined })
  .transform((refunded) => ({
    ...refunded,
    line_item_id: exactId(refunded.line_item_id, refunded.line_item?.admin_graphql_api_id),
  }));

export const shippingLineSchema = z.looseObject({
  title: text,
  code: text,
  source: text,
  price: tolerant(amount),
  /** Set on a shipping line an order edit removed. */
  is_removed: flag,
});

const REQUIRED_NUMBER =
  "The order has neither an order_number nor a name with digits (#1001), so it cannot be told apart.";

export const shopifyOrderSchema = z
  .looseObject({
    // What identifies the order: without these it cannot be recorded, so these alone are required.
    id: numericId,
    admin_graphql_api_id: tolerant(graphqlId),
    name: tolerant(z.string().trim().min(1)),
    order_number: tolerant(
      z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]),
    ),
    created_at: dateTime,
    updated_at: tolerant(dateTime),
    cancelled_at: tolerant(dateTime),
    /** The shop's currency: every unsuffixed amount (and every `shop_money`) is in it. */
    currency: tolerant(z.string().length(3)),
    /** The currency the customer saw. */
    presentment_currency: tolerant(z.string().length(3)),
    // `current_*` arrived in API version 2020-10 or so; older payloads and other tools have only total_price.
    current_subtotal_price: tolerant(amount),
    current_subtotal_price_set: moneySetSchema,
    current_total_price: tolerant(amount),
    current_total_price_set: moneySetSchema,
    total_outstanding: tolerant(amount),
    total_price: tolerant(amount),
    total_price_set: moneySetSchema,
    subtotal_price: tolerant(amount),
    /** What the buyer pays for shipping (a split order's parcel share adds it). */
    total_shipping_price_set: moneySetSchema,
    financial_status: text,
    note: text,
    note_attributes: listOf(z.looseObject({ name: z.string(), value: text })),
    phone: text,
    email: text,
    customer: tolerant(customerSchema),
    shipping_address: tolerant(addressSchema),
    billing_address: tolerant(addressSchema),
    shipping_lines: listOf(shippingLineSchema),
    payment_gateway_names: listOf(z.string()),
    /** Absent when not a list at all: the mapping then holds the order (its goods are unknown). */
    line_items: tolerant(z.array(lineItemSchema.catch(UNREADABLE_LINE))),
    refunds: listOf(
      z.looseObject({
        refund_line_items: z
          .array(refundLineItemSchema)
          .nullish()
          .catch(undefined)
          .transform((lines) => lines ?? []),
      }),
    ),
  })
  .refine((order) => order.order_number != null || /\d/.test(order.name ?? ""), {
    error: REQUIRED_NUMBER,
    path: ["order_number"],
  })
  .transform((order) => {
    const orderNumber = order.order_number ?? Number(order.name!.replace(/\D/g, ""));
    return {
      ...order,
      id: exactId(order.id, order.admin_graphql_api_id),
      order_number: orderNumber,
      name: order.name ?? `#${orderNumber}`,
      updated_at: order.updated_at ?? order.created_at,
    };
  });

export type ShopifyOrder = z.infer<typeof shopifyOrderSchema>;
/** An order as Shopify writes one (its line items a list), for fixtures and tests. */
export type ShopifyOrderInput = z.input<typeof shopifyOrderSchema> & {
  line_items: z.input<typeof lineItemSchema>[];
};

/** The order's customer id as an exact digit string, or null for an order without a customer. */
export function customerIdOf(order: ShopifyOrder): string | null {
  return order.customer?.id ?? null;
}
