// The Shopify order webhook payload (orders/create, orders/updated, orders/cancelled; REST-style JSON).
// Objects are loose (Shopify adds fields with every API version) but strict on every field the mapping
// reads, so a payload that changed shape fails here, naming the field, instead of producing a wrong order.
//
// Identifiers: Shopify's numeric ids can exceed 2^53, and JSON.parse rounds them (the documented example
// has `"id": 820982911946154500` beside `"admin_graphql_api_id": "gid://shopify/Order/820982911946154508"`).
// The parsed `id` of the order, its customer and its line items is therefore an exact digit string, taken
// from `admin_graphql_api_id` when present and from the number otherwise. Parsing a parsed order again
// gives the same result.
import { z } from "zod";

/** A decimal amount as Shopify writes it: "414.95", "0.00", "-5.00". */
const amount = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, 'must be an amount written as a string, e.g. "149.50"');

/** The number or digit string of an id; the exact value comes from `admin_graphql_api_id` when present. */
const NUMERIC_ID = "must be a numeric id (a whole number, or a string of digits)";
const numericId = z.union(
  [
    // Not z.number().int(): zod's int stops at 2^53, and JSON numbers beyond it are the point here.
    z.number().refine((id) => Number.isInteger(id) && id >= 0, NUMERIC_ID),
    z.string().regex(/^\d+$/, NUMERIC_ID),
  ],
  { error: NUMERIC_ID },
);
const graphqlId = z.string().regex(/^gid:\/\/shopify\/\w+\/\d+$/, "must be a gid://shopify/… id");

/** The digits of `gid://shopify/Order/820982911946154508`, else the number as a string. */
function exactId(id: number | string, gid: string | null | undefined): string {
  const digits = gid?.match(/\/(\d+)$/)?.[1];
  return digits ?? String(id);
}

const nullableText = z.string().nullish();
const dateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time with an offset" });

const moneySetSchema = z.looseObject({
  shop_money: z.looseObject({ amount, currency_code: z.string() }),
  presentment_money: z.looseObject({ amount, currency_code: z.string() }),
});

export const addressSchema = z.looseObject({
  name: nullableText,
  first_name: nullableText,
  last_name: nullableText,
  phone: nullableText,
  company: nullableText,
  address1: nullableText,
  address2: nullableText,
  city: nullableText,
  zip: nullableText,
  province: nullableText,
  country_code: nullableText,
});
export type ShopifyAddress = z.infer<typeof addressSchema>;

export const customerSchema = z
  .looseObject({
    id: numericId,
    admin_graphql_api_id: graphqlId.nullish(),
    first_name: nullableText,
    last_name: nullableText,
    phone: nullableText,
    email: nullableText,
    default_address: addressSchema.nullish(),
  })
  .transform((customer) => ({ ...customer, id: exactId(customer.id, customer.admin_graphql_api_id) }));

export const lineItemSchema = z
  .looseObject({
    id: numericId,
    admin_graphql_api_id: graphqlId.nullish(),
    sku: nullableText,
    name: z.string().nullish(),
    title: z.string().nullish(),
    variant_title: nullableText,
    quantity: z.number().int().nonnegative(),
    current_quantity: z.number().int().nonnegative().nullish(),
    fulfillable_quantity: z.number().int().nullish(),
    price: amount,
    price_set: moneySetSchema.nullish(),
    total_discount: amount.nullish(),
    discount_allocations: z
      .array(z.looseObject({ amount }))
      .nullish()
      .transform((allocations) => allocations ?? []),
    gift_card: z.boolean(),
    requires_shipping: z.boolean(),
  })
  .transform((line) => ({ ...line, id: exactId(line.id, line.admin_graphql_api_id) }));
export type ShopifyLineItem = z.infer<typeof lineItemSchema>;

/**
 * A refunded line. `line_item_id` is the exact id when the refund carries its line item with an
 * `admin_graphql_api_id` (Shopify's payloads do), else the number as a string (possibly rounded: the
 * mapping also compares ids by numeric value for that case).
 */
const refundLineItemSchema = z
  .looseObject({
    line_item_id: numericId,
    quantity: z.number().int().nonnegative(),
    line_item: z.looseObject({ admin_graphql_api_id: graphqlId.nullish() }).nullish(),
  })
  .transform((refunded) => ({
    ...refunded,
    line_item_id: exactId(refunded.line_item_id, refunded.line_item?.admin_graphql_api_id),
  }));

export const shippingLineSchema = z.looseObject({
  title: nullableText,
  code: nullableText,
  source: nullableText,
  /** Set on a shipping line an order edit removed. */
  is_removed: z.boolean().nullish(),
});

const orEmpty = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .nullish()
    .transform((items) => items ?? []);

export const shopifyOrderSchema = z
  .looseObject({
    id: numericId,
    admin_graphql_api_id: graphqlId.nullish(),
    name: z.string().min(1),
    order_number: z.number().int().nonnegative(),
    created_at: dateTime,
    updated_at: dateTime,
    cancelled_at: dateTime.nullish(),
    /** The shop's currency: every unsuffixed amount (and every `shop_money`) is in it. */
    currency: z.string().length(3),
    /** The currency the customer saw. */
    presentment_currency: z.string().length(3).nullish(),
    current_subtotal_price: amount,
    current_subtotal_price_set: moneySetSchema.nullish(),
    current_total_price: amount,
    current_total_price_set: moneySetSchema.nullish(),
    total_outstanding: amount,
    total_price: amount,
    financial_status: z.string().nullish(),
    note: nullableText,
    note_attributes: orEmpty(z.looseObject({ name: z.string(), value: z.string().nullish() })),
    phone: nullableText,
    email: nullableText,
    customer: customerSchema.nullish(),
    shipping_address: addressSchema.nullish(),
    billing_address: addressSchema.nullish(),
    shipping_lines: orEmpty(shippingLineSchema),
    payment_gateway_names: orEmpty(z.string()),
    line_items: z.array(lineItemSchema),
    refunds: orEmpty(z.looseObject({ refund_line_items: orEmpty(refundLineItemSchema) })),
  })
  .transform((order) => ({ ...order, id: exactId(order.id, order.admin_graphql_api_id) }));

export type ShopifyOrder = z.infer<typeof shopifyOrderSchema>;
export type ShopifyOrderInput = z.input<typeof shopifyOrderSchema>;

/** The order's customer id as an exact digit string, or null for an order without a customer. */
export function customerIdOf(order: ShopifyOrder): string | null {
  return order.customer?.id ?? null;
}
