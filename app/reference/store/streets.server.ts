// Streets (getStreet), on demand: a courier order's street is looked up in its city when asked, and the
// warehouse's answer kept for a week for every shop, keyed by the folded text.
import type { Db } from "../../db.server";
import type { WarehouseClient } from "../../warehouse/client.server";
import { streetRecordSchema, type StreetRecord } from "../../warehouse/schemas";
import { fold } from "../fold";

/** How long a getStreet answer is used before it is asked again. */
export const STREETS_KEPT_MS = 7 * 24 * 3600_000;

export interface StreetLookup {
  db: Db;
  /** The client of the shop whose request asks (its key's limits); the answer is kept for every shop. */
  warehouse: Pick<WarehouseClient, "getStreet">;
  source: string;
  now: Date;
}

/**
 * The city's streets matching `text` (all of them for ""), as getStreet answers: from CarrierStreetLookup
 * when asked within STREETS_KEPT_MS (keyed by the folded text, so spellings that fold alike share an
 * answer), else asked of the warehouse and kept. The warehouse's errors (rate limits included) are thrown as
 * the client throws them: the caller (courier matching) decides whether to wait or go on without.
 */
export async function streetsFor(lookup: StreetLookup, cityRef: string, text = ""): Promise<StreetRecord[]> {
  const { db, source, now } = lookup;
  const query = fold(text);
  const where = { source_cityRef_query: { source, cityRef, query } };
  const kept = await db.carrierStreetLookup.findUnique({ where });
  if (kept && now.getTime() - kept.fetchedAt.getTime() < STREETS_KEPT_MS) {
    const parsed = streetRecordSchema.array().safeParse(safeJson(kept.streets));
    if (parsed.success) return parsed.data;
  }
  const streets = await lookup.warehouse.getStreet({
    CityRef: cityRef,
    ...(text.trim() && { FindByString: text.trim() }),
  });
  const data = { streets: JSON.stringify(streets), fetchedAt: now };
  await db.carrierStreetLookup.upsert({
    where,
    create: { source, cityRef, query, ...data },
    update: data,
  });
  return streets;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
