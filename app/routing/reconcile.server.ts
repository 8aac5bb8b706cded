// Routing, the order side: what Shopify's fulfillment orders (ShopifyFulfillmentOrder rows) say of each order
// becomes the order's state: waiting for Shopify, not the warehouse's, or the warehouse's lines, sent, edited or
// cancelled as they change. STUB: the contract between the reading (store.server.ts) and the order side.
import type { ServiceDeps } from "../context.server";

/**
 * Applies the stored fulfillment orders of these orders (numeric Shopify order ids) to their WarehouseOrder rows.
 * Idempotent: applying the same rows twice changes nothing the second time. Orders the app has not recorded are
 * skipped (intake applies the stored rows when the order arrives).
 */
export async function reconcileRouting(
  _deps: ServiceDeps,
  _shop: string,
  _shopifyOrderIds: readonly string[],
): Promise<void> {
  throw new Error("reconcileRouting is not built yet");
}
