// The engine's kinds for statuses coming back, as names and the one call other modules make: asking for a
// status check when an order reaches the warehouse or a notification names it. Kept apart from the work
// itself (work.server.ts), which reads the orders' own modules, so that those can ask without a cycle.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind of the status checks (ReportStatusOrder, then the stage moves). */
export const STATUSES_KIND = "statuses";

/** The ShopSchedule kind of telling Shopify (fulfillments, tracking, events) what the statuses say. */
export const FULFILLMENT_KIND = "fulfillment";

/** The shortest polling interval a shop may set; a first check is asked for no later than this. */
export const FIRST_CHECK_AFTER_MS = 5 * 60_000;

/** Asks for the shop's Shopify side to run at `at` or sooner (it finds by itself which orders are due). */
export function requestFulfillment(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, FULFILLMENT_KIND, at);
}

/** Asks for the shop's status check at `at` or sooner (it finds by itself which orders are due). */
export function requestStatusCheck(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, STATUSES_KIND, at);
}
