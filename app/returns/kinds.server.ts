// The engine's kind for the returns register, as a name and the one call other modules make: asking for a
// sweep (a key saved). Kept apart from the sweep itself so they can ask without a cycle.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind of the returns sweep (ListReturnOrder, a page a run). */
export const RETURNS_KIND = "returns";

/**
 * A new key's first sweep waits this long: the orders held back for a key go first anyway, and a register
 * read a few minutes later loses nothing (every sweep goes back over days).
 */
export const FIRST_SWEEP_AFTER_KEY_MS = 5 * 60_000;

/** Asks for the shop's returns sweep at `at` or sooner. */
export function requestReturnsSweep(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, RETURNS_KIND, at);
}
