// R2's stand-in for R1's requestRoutingRead (app/routing/, built in parallel): marks the shop's reading of
// fulfillment orders due. The lead points the imports at R1's function when merging and deletes this file.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind that reads fulfillment orders in pages (R1's). */
export const FULFILLMENT_ORDERS_KIND = "fulfillment_orders";

/** Why a read is asked for: an order waits for routing, or a scheduled date has come. */
export type RoutingReadReason = "order_waiting" | "scheduled_due";

/** Asks for the shop's fulfillment orders to be read now (the read finds by itself what changed). */
export async function requestRoutingRead(db: Db, shop: string, _reason: RoutingReadReason): Promise<void> {
  await requestRun(db, shop, FULFILLMENT_ORDERS_KIND, new Date());
}
