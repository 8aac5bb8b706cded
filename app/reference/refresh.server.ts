// The carrier reference data's refresh as a kind of the engine's work, one request per run. First the whole
// branch list (getWarehouses without a city, one GET of tens of thousands of records), stored as the key's set
// (saveReferenceSet); then, run after run, getCities for each city the set knows only by its branches' bare
// name, so the search knows its Russian name, region and kind. The full list comes again a day after it was
// stored, and whenever the merchant asks.
//
// Pacing: orders go first (a run waits while the shop's orders have work due), and getCities goes in bursts
// of DESCRIBE_BURST names, one every DESCRIBE_EVERY_MS (12 of the key's 60 requests a minute at most, so
// orders, statuses and stock keep the rest), each burst followed by DESCRIBE_REST_MS without any. The rest
// is longer than the engine's hold (a shop whose work is due within about a minute keeps its lease and one
// of the worker's few slots): a steady pace of a few seconds would keep the slot for the hours describing
// takes, and other shops' orders would wait for it. On average about 1.7 names a minute, some 100 an hour.
//
// The set is the key's: two shops on one key fetch the list once a day between them (the second finds it
// fresh), and describe cities from one list of those left (never the same city twice).
import { ordersGoFirst } from "../orders/submit.server";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseUnauthorized,
} from "../warehouse/errors";
import { OPERATIONS, type OperationName } from "../warehouse/wire";
import { scheduledKind, type Schedule, type ScheduledRun } from "../work/schedule.server";
import { KEY_REFUSED, type PeriodicTask, type ShopWork, type StepResult } from "../work/steps";
import { MANUAL_REFRESH, REFERENCE_KIND, requestReferenceRefresh } from "./kinds";
import { cityOf, fromWarehouseRecords } from "./records";
import { describeCities, pruneReferenceSets, recordReferenceProblem, saveReferenceSet } from "./store.server";

/** The full list is fetched again this long after it was stored. */
export const REFRESH_EVERY_MS = 24 * 3600_000;

/** Within a burst, one getCities this often at most: a fifth of the key's 60 a minute. */
export const DESCRIBE_EVERY_MS = 5_000;

/** Names asked in one burst (about 50 s at DESCRIBE_EVERY_MS). */
export const DESCRIBE_BURST = 10;

/** The pause after each burst: past the engine's hold (holdWaitMs, 65 s), so the shop's slot is let go. */
export const DESCRIBE_REST_MS = 5 * 60_000;

/** While the shop's orders have work due, the refresh waits this long: orders go first. */
const ORDERS_FIRST_MS = 15_000;

/** After the list could not be fetched, the next try (it is one large answer: not every minute). */
export const LIST_RETRY_MS = 10 * 60_000;

/** After a getCities the warehouse did not answer, the next try. */
export const DESCRIBE_RETRY_MS = 60_000;

/** While cities are described, searches are rebuilt with their new names this often at most, and at the end. */
const REBUILD_EVERY_MS = 10 * 60_000;

/** A manual refresh within this of the last full list (another shop on the key, a double press) fetches nothing. */
const MANUAL_FRESH_MS = 60_000;

/** The schedule row's cursor while describing: "city:<names asked in this burst>:<the last name>". */
const ASKED = "city:";

/** How many names the burst the cursor tells of has asked so far. */
function askedInBurst(cursor: string | null): number {
  const count = cursor?.startsWith(ASKED) ? Number(cursor.slice(ASKED.length).split(":")[0]) : 0;
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
}

/** The refresh's timings; a test shortens them. */
export interface ReferencePacing {
  describeEveryMs: number;
  describeBurst: number;
  describeRestMs: number;
  listRetryMs: number;
  describeRetryMs: number;
}

const PACING: ReferencePacing = {
  describeEveryMs: DESCRIBE_EVERY_MS,
  describeBurst: DESCRIBE_BURST,
  describeRestMs: DESCRIBE_REST_MS,
  listRetryMs: LIST_RETRY_MS,
  describeRetryMs: DESCRIBE_RETRY_MS,
};

/** The refresh as a kind of the engine's work, with the real timings unless told. */
export function referenceRefreshKind(pacing: Partial<ReferencePacing> = {}) {
  const timings = { ...PACING, ...pacing };
  return scheduledKind(REFERENCE_KIND, (work, schedule) => refreshReference(work, schedule, timings));
}

export const referenceWork = referenceRefreshKind();

async function refreshReference(
  work: ShopWork,
  schedule: Schedule,
  pacing: ReferencePacing,
): Promise<ScheduledRun | StepResult> {
  const { db, keyDigest } = work;
  const now = work.clock();
  const set = await db.referenceSet.findUnique({ where: { keyDigest } });
  const refreshedAt = set?.refreshedAt?.getTime() ?? null;
  const manual =
    schedule.cursor === MANUAL_REFRESH &&
    (refreshedAt === null || now.getTime() - refreshedAt >= MANUAL_FRESH_MS);
  const listDueAt = refreshedAt === null ? now.getTime() : refreshedAt + REFRESH_EVERY_MS;
  if (manual || listDueAt <= now.getTime()) return fetchList(work, schedule, pacing);
  return describeNextCity(
    work,
    schedule,
    pacing,
    new Date(listDueAt),
    set?.updatedAt ?? now,
    set?.lastError ?? null,
  );
}

/** Whether the refresh must wait (orders due, or the key's limits): the run's answer then; else null. */
async function waitFor(work: ShopWork, operation: OperationName): Promise<ScheduledRun | StepResult | null> {
  const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
  if (ordersFirst) return { nextRunAt: ordersFirst };
  const allowedAt = await work.warehouse.nextAllowedAt(operation);
  if (allowedAt > work.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };
  return null;
}

/**
 * What a warehouse failure makes of the run: a refused key stops the shop's work (the engine pauses it), a
 * rate limit waits, anything else is kept as the set's problem and tried again after `retryMs`.
 */
async function failed(
  work: ShopWork,
  error: unknown,
  retryMs: number,
  cursor: string | null,
): Promise<ScheduledRun | StepResult> {
  if (!(error instanceof WarehouseError)) throw error;
  const now = work.clock();
  if (error instanceof WarehouseRateLimited && error.retryAfterMs !== undefined) {
    return { did: "wait", until: new Date(now.getTime() + error.retryAfterMs) };
  }
  await recordReferenceProblem(work.db, work.keyDigest, error.message, now);
  if (error instanceof WarehouseUnauthorized) return KEY_REFUSED;
  work.log.warn(
    { event: "reference.refresh_failed", err: error },
    "carrier reference refresh failed; tried again later",
  );
  return { nextRunAt: new Date(now.getTime() + retryMs), cursor, problem: error.message };
}

async function fetchList(
  work: ShopWork,
  schedule: Schedule,
  pacing: ReferencePacing,
): Promise<ScheduledRun | StepResult> {
  const waiting = await waitFor(work, OPERATIONS.getWarehouses);
  if (waiting) return waiting;
  let records: unknown[];
  try {
    records = await work.warehouse.getAllWarehouseRecords();
  } catch (error) {
    return failed(work, error, pacing.listRetryMs, schedule.cursor);
  }
  const now = work.clock();
  const data = fromWarehouseRecords([], records);
  // An empty answer (or nothing readable in it) is the warehouse's trouble, not the country's branches gone:
  // the stored set stays.
  if (!data.branches.length) {
    const problem = records.length
      ? `None of the ${records.length} branch records the warehouse answered could be read; the stored set was kept.`
      : "The warehouse answered an empty branch list; the stored set was kept.";
    await recordReferenceProblem(work.db, work.keyDigest, problem, now);
    return { nextRunAt: new Date(now.getTime() + pacing.listRetryMs), cursor: null, problem };
  }
  const saved = await saveReferenceSet(work.db, work.keyDigest, data, now);
  work.log.info(
    {
      event: "reference.list_stored",
      ...saved,
      skipped: data.skipped.branches,
      durationMs: work.clock().getTime() - now.getTime(),
    },
    "carrier branch list stored",
  );
  return { nextRunAt: new Date(work.clock().getTime() + pacing.describeEveryMs), cursor: null };
}

async function describeNextCity(
  work: ShopWork,
  schedule: Schedule,
  pacing: ReferencePacing,
  listDueAt: Date,
  setChangedAt: Date,
  lastError: string | null,
): Promise<ScheduledRun | StepResult> {
  const { db, keyDigest } = work;
  const next = await db.carrierCity.findFirst({
    where: { keyDigest, describedAt: null },
    orderBy: [{ name: "asc" }, { ref: "asc" }],
    select: { name: true },
  });
  if (!next) return { nextRunAt: listDueAt, cursor: null };
  const waiting = await waitFor(work, OPERATIONS.getCities);
  if (waiting) return waiting;
  const asked = askedInBurst(schedule.cursor) + 1;
  const cursor = `${ASKED}${asked}:${next.name}`;
  let answer: unknown[];
  try {
    answer = await work.warehouse.getCities(next.name);
  } catch (error) {
    // The warehouse will never answer this name well: the city goes undescribed (its branches still serve),
    // and the others go on.
    const lasting =
      error instanceof WarehouseRequestInvalid ||
      error instanceof WarehouseBadRequest ||
      error instanceof WarehouseBusinessError ||
      error instanceof WarehouseAnswerInvalid;
    if (!lasting) return failed(work, error, pacing.describeRetryMs, schedule.cursor);
    work.log.warn(
      { event: "reference.city_not_described", city: next.name, err: error },
      "getCities failed for a city; left undescribed",
    );
    answer = [];
  }
  const now = work.clock();
  const described = answer.flatMap((record) => cityOf(record) ?? []);
  await describeCities(db, keyDigest, next.name, described, now, false);
  const remaining = await db.carrierCity.count({ where: { keyDigest, describedAt: null } });
  if (remaining === 0 || now.getTime() - setChangedAt.getTime() >= REBUILD_EVERY_MS || lastError !== null) {
    await db.referenceSet.update({
      where: { keyDigest },
      data: { version: { increment: 1 }, lastError: null },
    });
  }
  // The last city described: nothing more until the next day's list.
  if (remaining === 0) return { nextRunAt: listDueAt, cursor: null };
  if (asked >= pacing.describeBurst) {
    return { nextRunAt: new Date(now.getTime() + pacing.describeRestMs), cursor: `${ASKED}0:${next.name}` };
  }
  return { nextRunAt: new Date(now.getTime() + pacing.describeEveryMs), cursor };
}

/**
 * Hourly: the sets of keys no shop names any more go, with their rows; and a shop with a key but no refresh
 * scheduled (saved before this kind existed) gets one.
 */
export const referenceUpkeep: PeriodicTask = {
  name: "reference_upkeep",
  everyMs: 3600_000,
  async run({ db, clock, log }) {
    const pruned = await pruneReferenceSets(db);
    if (pruned)
      log.info({ event: "reference.sets_pruned", count: pruned }, "reference sets of forgotten keys removed");
    const [withKey, scheduled] = await Promise.all([
      db.shopSettings.findMany({ where: { apiKeyDigest: { not: null } }, select: { shop: true } }),
      db.shopSchedule.findMany({ where: { kind: REFERENCE_KIND }, select: { shop: true } }),
    ]);
    const has = new Set(scheduled.map((row) => row.shop));
    const installed = new Set(
      (
        await db.shop.findMany({
          where: { shop: { in: withKey.map((row) => row.shop) }, uninstalledAt: null },
          select: { shop: true },
        })
      ).map((row) => row.shop),
    );
    for (const { shop } of withKey) {
      if (!has.has(shop) && installed.has(shop)) await requestReferenceRefresh(db, shop, clock());
    }
  },
};
