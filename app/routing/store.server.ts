// Routing, the reading side: fulfillment orders as Shopify gives them (a page of the top-level query, of
// assignedFulfillmentOrders, or of an order's own), stored as ShopifyFulfillmentOrder rows. STUB: the contract.
import type { ServiceDeps } from "../context.server";

/** A fulfillment order as every read of this app asks for it (FULFILLMENT_ORDER_FIELDS in fields.ts). */
export interface FulfillmentOrderNode {
  id: string;
  /** The order's GID. */
  orderId: string;
  status: string;
  requestStatus: string;
  updatedAt: string;
  fulfillAt: string | null;
  deliveryMethod: { methodType: string } | null;
  assignedLocation: { location: { id: string } | null };
  fulfillmentHolds: Array<{ id: string; reason: string; heldByRequestingApp: boolean }>;
  lineItems: {
    nodes: Array<{
      id: string;
      sku: string | null;
      totalQuantity: number;
      remainingQuantity: number;
      lineItem: { id: string };
    }>;
  };
}

/**
 * Stores what was read, keeping a row's newer version (by Shopify's updatedAt), and answers the numeric ids of
 * the orders whose rows changed, for reconcileRouting.
 */
export async function storeFulfillmentOrders(
  _deps: ServiceDeps,
  _shop: string,
  _nodes: readonly FulfillmentOrderNode[],
): Promise<string[]> {
  throw new Error("storeFulfillmentOrders is not built yet");
}
