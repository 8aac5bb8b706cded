// The mapping's products and declared value: one product per SKU of what is still to ship (refunds, removals
// and routing taken off), prices after discounts, all in integer kopecks so no rounding drifts.
import { type WarehouseOrder } from "../../warehouse/schemas";
import { type ShopifyLineItem, type ShopifyOrder } from "../payload";
import { unitsByLineItem, type WarehouseLine } from "../../routing/decide";
import {
  INCOMPLETE_FIX,
  amountOf,
  clean,
  divideHalfUp,
  formatMinor,
  reason,
  toMinor,
  type HoldReason,
} from "./shared";

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
export function productsOf(
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
export interface Goods {
  products: WarehouseOrder["products"];
  /** The declared value, whole UAH. */
  cost: number;
  /** The warehouse's goods in kopecks, and the whole order's goods still to ship. */
  value: number;
  wholeValue: number;
  /** Units of the order are left at other locations: the warehouse ships part of it. */
  split: boolean;
}
