// What the Settings page says of the shop's carrier reference data: the deployment's one set (whichever
// shop's refresh keeps it) and this shop's own refresh schedule, read together for the card.
import type { Db } from "../../db.server";
import type { Message } from "../../i18n/message";
import { readTexts } from "../../i18n/texts";
import { REFERENCE_SOURCE } from "../kinds.server";
import { referenceSetStatus } from "./sets.server";

/** What the Settings page says of the shop's carrier reference data. */
export interface ReferenceCard {
  hasKey: boolean;
  cityCount: number;
  branchCount: number;
  /** Cities known only by their branches so far (getCities has not described them yet). */
  undescribedCities: number;
  /** ISO time of the last full list stored; null: none yet. */
  refreshedAt: string | null;
  /** What kept the last refresh from finishing (a warehouse failure in the admin's words; older rows' English as it is). */
  lastError: Message | null;
  /** ISO time this shop's refresh next looks at the shared set; null: none scheduled. */
  nextRunAt: string | null;
}

export async function referenceCard(db: Db, shop: string, kind: string): Promise<ReferenceCard> {
  const [settings, schedule] = await Promise.all([
    db.shopSettings.findUnique({ where: { shop }, select: { apiKeyDigest: true } }),
    db.shopSchedule.findUnique({
      where: { shop_kind: { shop, kind } },
      select: { nextRunAt: true, lastError: true },
    }),
  ]);
  const hasKey = Boolean(settings?.apiKeyDigest);
  // The deployment's one set, whichever shop's refresh keeps it; the schedule is this shop's.
  const status = hasKey ? await referenceSetStatus(db, REFERENCE_SOURCE) : null;
  return {
    hasKey,
    cityCount: status?.cityCount ?? 0,
    branchCount: status?.branchCount ?? 0,
    undescribedCities: status?.undescribedCities ?? 0,
    refreshedAt: status?.refreshedAt?.toISOString() ?? null,
    lastError: readTexts(status?.lastError ?? schedule?.lastError)[0] ?? null,
    nextRunAt: schedule?.nextRunAt.toISOString() ?? null,
  };
}
