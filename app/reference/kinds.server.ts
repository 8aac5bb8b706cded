// The engine's kind for the carrier reference data, as a name and the one call other modules make: asking
// for a refresh (a key saved, the merchant's "Refresh now"). Kept apart from the work itself so they can
// ask without a cycle.
import type { Db } from "../db.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind of the reference refresh (the branch list, then the cities described). */
export const REFERENCE_KIND = "reference";

/** The schedule row's cursor when the merchant asked: the full list is fetched even if fetched today. */
export const MANUAL_REFRESH = "manual";

/** Asks for the refresh of the shop's key's reference data at `at` or sooner; `manual` when the merchant asked. */
export async function requestReferenceRefresh(db: Db, shop: string, at: Date, manual = false): Promise<void> {
  await requestRun(db, shop, REFERENCE_KIND, at, manual ? { cursor: MANUAL_REFRESH } : {});
}

/**
 * The one reference set of the deployment (ReferenceSet.source): Nova Poshta's data as the warehouse passes it
 * through, the same for every key, so every shop reads this set and one shop's refresh at a time keeps it
 * (decision 020).
 */
export const REFERENCE_SOURCE = "novaposhta";
