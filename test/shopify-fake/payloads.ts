// The REST webhook payloads of the fake's orders, so an e2e test sends the app the very order the fake holds:
// Shopify's `orders/create` shape (the Ukrainian fixture, test/fixtures/orders/ua-cod-nova-poshta.json: buyer,
// addresses, payment, shipping) with the fake order's ids, name, dates and line items, and totals from them.
import { readFileSync } from "node:fs";
import { parseGid, type Gid, type ShopStore } from "./state";

let fixture: Record<string, unknown> | undefined;

function fixtureOrder(): Record<string, unknown> {
  fixture ??= JSON.parse(
    readFileSync(new URL("../fixtures/orders/ua-cod-nova-poshta.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  return structuredClone(fixture);
}

const numeric = (id: Gid | null) => (id === null ? null : (parseGid(id)?.id ?? null));

/**
 * The `orders/create` (or `orders/updated`) body Shopify would send for the fake's order `orderId`: the fixture's
 * shape with the order's numeric `id`, `admin_graphql_api_id`, `name`, `order_number`, e-mail and dates, its line
 * items (numeric `id`, `admin_graphql_api_id`, `sku`, `quantity`, `price`, `variant_id`, `product_id`,
 * `requires_shipping`, `fulfillable_quantity` from what its fulfillment orders still hold, and 2026-10's
 * `selling_plan_id`, null without a selling plan), totals summed from them (no discount), the fixture's
 * shipping line (free). `changes` replaces top-level fields last (note attributes with the simulator's branch, say).
 */
export function orderWebhookPayload(
  store: ShopStore,
  orderId: Gid,
  changes: Record<string, unknown> = {},
): Record<string, unknown> {
  const order = store.orders.get(orderId);
  if (!order) throw new Error(`orderWebhookPayload: no order ${orderId}`);
  const base = fixtureOrder();
  const template = (base.line_items as Array<Record<string, unknown>>)[0]!;
  const currency = store.shop.currencyCode;
  const money = (amount: string) => {
    const set = { amount, currency_code: currency };
    return { shop_money: set, presentment_money: set };
  };
  const foLines = [...store.fulfillmentOrders.values()]
    .filter((fo) => fo.orderId === order.id)
    .flatMap((fo) => fo.lineItems);
  const lineItems = order.lineItems.map((line) => {
    const variant = line.variantId ? store.variants.get(line.variantId) : undefined;
    const product = variant && store.products.get(variant.productId);
    const fulfillable = foLines
      .filter((foLine) => foLine.lineItemId === line.id)
      .reduce((sum, foLine) => sum + foLine.remainingQuantity, 0);
    return {
      ...template,
      id: numeric(line.id),
      admin_graphql_api_id: line.id,
      title: line.title,
      name: line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title,
      variant_title: line.variantTitle,
      sku: line.sku,
      quantity: line.quantity,
      current_quantity: line.quantity,
      fulfillable_quantity: fulfillable,
      fulfillment_status: fulfillable === 0 ? "fulfilled" : fulfillable < line.quantity ? "partial" : null,
      price: line.price,
      price_set: money(line.price),
      variant_id: numeric(line.variantId),
      product_id: product ? numeric(product.id) : null,
      product_exists: product !== undefined,
      vendor: product?.vendor ?? null,
      requires_shipping: true,
      gift_card: false,
      fulfillment_service: "manual",
      total_discount: "0.00",
      discount_allocations: [],
      selling_plan_id: line.sellingPlan ? numeric(line.sellingPlan.id) : null,
    };
  });
  const total = order.lineItems.reduce((sum, line) => sum + Number(line.price) * line.quantity, 0).toFixed(2);
  const digits = /\d+/.exec(order.name)?.[0];
  return {
    ...base,
    id: numeric(order.id),
    admin_graphql_api_id: order.id,
    name: order.name,
    ...(digits && { order_number: Number(digits) }),
    email: order.email,
    contact_email: order.email,
    created_at: order.createdAt,
    processed_at: order.createdAt,
    updated_at: order.createdAt,
    currency,
    presentment_currency: currency,
    line_items: lineItems,
    discount_codes: [],
    discount_applications: [],
    total_discounts: "0.00",
    total_line_items_price: total,
    subtotal_price: total,
    current_subtotal_price: total,
    current_subtotal_price_set: money(total),
    total_price: total,
    current_total_price: total,
    current_total_price_set: money(total),
    total_outstanding: total,
    ...changes,
  };
}
