// The engine's kind for stock, as a name and the one call other modules make: asking for a sync (the
// merchant's "Sync now", a location chosen). Kept apart from the work itself so they can ask without a cycle.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind of the stock sync (ReportSklad, then Shopify's quantities at the location). */
export const STOCK_KIND = "stock";

/** The schedule row's cursor when the merchant asked for the sync (the sync's record says so). */
export const MANUAL_SYNC = "manual";

/** Asks for the shop's stock sync at `at` or sooner; `manual` when the merchant asked for it. */
export async function requestStockSync(db: Db, shop: string, at: Date, manual = false): Promise<void> {
  await requestRun(db, shop, STOCK_KIND, at, manual ? { cursor: MANUAL_SYNC } : {});
}
