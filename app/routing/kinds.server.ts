// The engine's kinds for routing's reading side, as names and the calls other modules make to ask for a run:
// a read of the shop's fulfillment orders (a webhook, an order recorded waiting for routing) and a read of its
// locations (the warehouse's location chosen, a locations/* webhook). Apart from the work itself, so intake,
// settings and webhook routes ask without a cycle.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind that reads the shop's fulfillment orders changed since its watermark (work.server.ts). */
export const FULFILLMENT_ORDERS_KIND = "fulfillment_orders";

/** The ShopSchedule kind that reads the shop's locations that fulfil online orders (locations.server.ts). */
export const ONLINE_LOCATIONS_KIND = "online_locations";

/** The ShopSchedule kind of the fulfillment service's requests (app/service/, piece V). */
export const FULFILLMENT_REQUESTS_KIND = "fulfillment_requests";

/**
 * Why fulfillment orders are to be read: a `fulfillment_orders/*` webhook, an order recorded waiting for routing
 * (intake), a location saved, a scheduled fulfillment order's date come (reconcile), or the merchant's Retry of
 * an order whose fulfillment orders failed to apply. Each asks for the same read; the reason is the caller's
 * documentation.
 */
export type RoutingReadReason =
  "webhook" | "order_waiting" | "location_saved" | "scheduled_due" | "merchant_retry";

/**
 * Asks for a read of the shop's fulfillment orders at `at` (now) or sooner. Many asks before it runs make one
 * read: it reads everything changed since its watermark. The caller wakes the worker (deps.wake).
 */
export async function requestRoutingRead(
  db: Db,
  shop: string,
  _reason: RoutingReadReason,
  at: Date = new Date(),
): Promise<void> {
  await requestRun(db, shop, FULFILLMENT_ORDERS_KIND, at);
}

/** Asks for a read of the shop's locations at `at` or sooner. */
export async function requestOnlineLocationsRead(db: Db, shop: string, at: Date): Promise<void> {
  await requestRun(db, shop, ONLINE_LOCATIONS_KIND, at);
}

/** The fulfillment order GIDs anywhere in a webhook's body (a move, a split or a merge names several). */
export function fulfillmentOrderIdsIn(payload: unknown): string[] {
  const ids = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 6) return;
    if (typeof value === "string") {
      if (/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/.test(value)) ids.add(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (value && typeof value === "object")
      for (const item of Object.values(value as Record<string, unknown>)) walk(item, depth + 1);
  };
  walk(payload, 0);
  return [...ids].slice(0, 50);
}

/**
 * Notes the fulfillment orders a webhook named, for the next read to read by id (work.server.ts): cheaper than
 * listing every change since the watermark. A hint noted again takes the newer time, so a read that began before
 * it does not forget it.
 */
export async function hintFulfillmentOrders(db: Db, shop: string, ids: readonly string[], at: Date) {
  for (const fulfillmentOrderId of ids)
    await db.routingHint.upsert({
      where: { shop_fulfillmentOrderId: { shop, fulfillmentOrderId } },
      create: { shop, fulfillmentOrderId, at },
      update: { at },
    });
}
