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
// The set is the deployment's, one for every shop whatever its key (decision 020), and one shop's refresh at
// a time does its work: the first whose run finds the set due (and its own orders quiet, and its key's limits
// open) claims it (ReferenceSet.claimedBy/claimedUntil, one conditional UPDATE: of two processes racing for
// an expired claim, PostgreSQL's row lock lets one match and the other match nothing), and renews the claim
// with each request it makes. Every other shop's run reads the set's row and sleeps: until the claim runs out
// while one holds, else until the set's dueAt (the next day's list). So a thousand shops cost one refresh a
// day and a read of one row each when their schedule comes due, not a thousand refreshes. A claimer whose
// key is refused lets the claim go; one paused, stalled, busy with its own orders or gone stops renewing it,
// and after CLAIM_MS the next shop whose run comes due takes the refresh over where it stood (the cities
// described are kept in the set, not in the claimer's schedule).
import { REMAP_KIND } from "../orders/states";
import { ordersGoFirst } from "../orders/submit.server";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseRequestInvalid,
} from "../warehouse/errors";
import { storedWarehouseError } from "../warehouse/texts";
import { OPERATIONS, type OperationName } from "../warehouse/wire";
import { requestRun, scheduledKind, type Schedule, type ScheduledRun } from "../work/schedule.server";
import { keyOrLimitOutcome, type PeriodicTask, type ShopWork, type StepResult } from "../work/steps.server";
import { insertStatement, sqlTransaction } from "../db/sql.server";
import { MANUAL_REFRESH, REFERENCE_KIND, REFERENCE_SOURCE, requestReferenceRefresh } from "./kinds.server";
import { cityOf, fromWarehouseRecords } from "./records";
import { describeCities, recordReferenceProblem, saveReferenceSet } from "./store.server";

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

/**
 * A claim on the set lasts this long past the claimer's last request: longer than its own longest planned
 * pause (DESCRIBE_REST_MS, LIST_RETRY_MS) with room for an engine that is slow to come back to it, so a
 * working claimer keeps it; after it, another shop's run takes the refresh over.
 */
export const CLAIM_MS = 30 * 60_000;

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
  claimMs: number;
}

const PACING: ReferencePacing = {
  describeEveryMs: DESCRIBE_EVERY_MS,
  describeBurst: DESCRIBE_BURST,
  describeRestMs: DESCRIBE_REST_MS,
  listRetryMs: LIST_RETRY_MS,
  describeRetryMs: DESCRIBE_RETRY_MS,
  claimMs: CLAIM_MS,
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
  const { db, shop } = work;
  const now = work.clock();
  const set = await db.referenceSet.findUnique({ where: { source: REFERENCE_SOURCE } });
  // The merchant's ask waits (kept in the cursor) while another shop's refresh has the set.
  const keepAsk = schedule.cursor === MANUAL_REFRESH ? MANUAL_REFRESH : null;
  if (set?.claimedBy && set.claimedBy !== shop && set.claimedUntil && set.claimedUntil > now) {
    return { nextRunAt: set.claimedUntil, cursor: keepAsk };
  }
  const refreshedAt = set?.refreshedAt?.getTime() ?? null;
  const manual = keepAsk !== null && (refreshedAt === null || now.getTime() - refreshedAt >= MANUAL_FRESH_MS);
  const listDueAt = refreshedAt === null ? now.getTime() : refreshedAt + REFRESH_EVERY_MS;
  if (manual || listDueAt <= now.getTime()) return fetchList(work, schedule, pacing, set?.updatedAt);
  // Nothing to do for the set until its due time (every city described): one read, and back to sleep.
  if (set?.dueAt && set.dueAt > now) {
    return { nextRunAt: new Date(Math.min(set.dueAt.getTime(), listDueAt)), cursor: null };
  }
  return describeNextCity(
    work,
    schedule,
    pacing,
    new Date(listDueAt),
    set?.updatedAt ?? now,
    set?.lastError ?? null,
  );
}

/**
 * Claims the set for the shop's refresh until `claimMs` from now, or renews its claim: one conditional
 * UPDATE, matching only while no other shop's claim holds (on PostgreSQL a racing UPDATE waits for the row and
 * then finds it claimed). The set's row is made first if there is none. `updatedAt` is written back as it
 * was: the claim is no change of the set's rows (describing reads it for when to rebuild searches).
 */
export async function claimSet(
  work: Pick<ShopWork, "db" | "shop" | "clock">,
  claimMs: number,
  updatedAt: Date | undefined,
): Promise<boolean> {
  const { db, shop } = work;
  const now = work.clock();
  if (!updatedAt) {
    const { sql, args } = insertStatement("ReferenceSet", [
      { source: REFERENCE_SOURCE, version: 0, updatedAt: now },
    ]);
    await sqlTransaction(db, (tx) => tx.execute(`${sql} ON CONFLICT ("source") DO NOTHING`, args));
  }
  const { count } = await db.referenceSet.updateMany({
    where: {
      source: REFERENCE_SOURCE,
      OR: [{ claimedBy: null }, { claimedBy: shop }, { claimedUntil: null }, { claimedUntil: { lte: now } }],
    },
    data: {
      claimedBy: shop,
      claimedUntil: new Date(now.getTime() + claimMs),
      ...(updatedAt && { updatedAt }),
    },
  });
  return count > 0;
}

/** Lets the shop's claim go, with when the set next needs work (undefined: left as it is). */
async function releaseSet(work: ShopWork, dueAt?: Date): Promise<void> {
  await work.db.referenceSet.updateMany({
    where: { source: REFERENCE_SOURCE, claimedBy: work.shop },
    data: { claimedBy: null, claimedUntil: null, ...(dueAt && { dueAt }) },
  });
}

/** Another shop claimed the set between this run's read and its claim: look again when that claim may end. */
function claimedElsewhere(work: ShopWork, schedule: Schedule, pacing: ReferencePacing): ScheduledRun {
  return {
    nextRunAt: new Date(work.clock().getTime() + pacing.claimMs),
    cursor: schedule.cursor === MANUAL_REFRESH ? MANUAL_REFRESH : null,
  };
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
  // A refused key is this shop's trouble, not the set's: the claim goes at once (another shop's key takes the
  // refresh over), and the engine pauses the shop for its key.
  const outcome = await keyOrLimitOutcome(error, () => now, { keyRefused: () => releaseSet(work) });
  if (outcome) return outcome;
  // In the merchant's words (the Settings card reads it back with readTexts); the log keeps the English.
  const problem = storedWarehouseError(error);
  await recordReferenceProblem(work.db, REFERENCE_SOURCE, problem, now);
  work.log.warn(
    { event: "reference.refresh_failed", err: error },
    "carrier reference refresh failed; tried again later",
  );
  return { nextRunAt: new Date(now.getTime() + retryMs), cursor, problem };
}

async function fetchList(
  work: ShopWork,
  schedule: Schedule,
  pacing: ReferencePacing,
  updatedAt: Date | undefined,
): Promise<ScheduledRun | StepResult> {
  const waiting = await waitFor(work, OPERATIONS.getWarehouses);
  if (waiting) return waiting;
  if (!(await claimSet(work, pacing.claimMs, updatedAt))) return claimedElsewhere(work, schedule, pacing);
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
    await recordReferenceProblem(work.db, REFERENCE_SOURCE, problem, now);
    return { nextRunAt: new Date(now.getTime() + pacing.listRetryMs), cursor: null, problem };
  }
  const saved = await saveReferenceSet(work.db, REFERENCE_SOURCE, data, now);
  work.log.info(
    {
      event: "reference.list_stored",
      ...saved,
      skipped: data.skipped.branches,
      durationMs: work.clock().getTime() - now.getTime(),
    },
    "carrier branch list stored",
  );
  await remapOrdersOfShops(work, now);
  return { nextRunAt: new Date(work.clock().getTime() + pacing.describeEveryMs), cursor: null };
}

/**
 * Orders held for a branch the directory did not have yet (none stored, or a branch opened since) are mapped
 * again, for every shop with a key (the set is theirs too): the matcher may find their branch now. Once a
 * day, from the one shop's refresh that fetched the list.
 */
async function remapOrdersOfShops(work: ShopWork, now: Date): Promise<void> {
  const shops = await work.db.shopSettings.findMany({
    where: { apiKeyDigest: { not: null } },
    select: { shop: true },
  });
  for (const { shop } of shops) await requestRun(work.db, shop, REMAP_KIND, now);
}

async function describeNextCity(
  work: ShopWork,
  schedule: Schedule,
  pacing: ReferencePacing,
  listDueAt: Date,
  setChangedAt: Date,
  lastError: string | null,
): Promise<ScheduledRun | StepResult> {
  const { db } = work;
  const source = REFERENCE_SOURCE;
  const next = await db.carrierCity.findFirst({
    where: { source, describedAt: null },
    // The biggest cities first: most orders go to them, and their Russian names are the most written.
    orderBy: [{ branchCount: "desc" }, { name: "asc" }, { ref: "asc" }],
    select: { name: true },
  });
  if (!next) {
    // Every city described: the set needs nothing until the next day's list, and every shop's run that
    // finds it so sleeps until then.
    await db.referenceSet.updateMany({
      where: { source },
      data: { dueAt: listDueAt, updatedAt: setChangedAt },
    });
    await releaseSet(work);
    return { nextRunAt: listDueAt, cursor: null };
  }
  const waiting = await waitFor(work, OPERATIONS.getCities);
  if (waiting) return waiting;
  if (!(await claimSet(work, pacing.claimMs, setChangedAt))) return claimedElsewhere(work, schedule, pacing);
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
  await describeCities(db, source, next.name, described, now, false);
  const remaining = await db.carrierCity.count({ where: { source, describedAt: null } });
  // A burst's end makes its names searchable too: the first burst holds the biggest cities.
  const burstEnds = asked >= pacing.describeBurst;
  if (
    remaining === 0 ||
    burstEnds ||
    now.getTime() - setChangedAt.getTime() >= REBUILD_EVERY_MS ||
    lastError !== null
  ) {
    await db.referenceSet.update({
      where: { source },
      data: {
        version: { increment: 1 },
        lastError: null,
        ...(remaining === 0 && { dueAt: listDueAt, claimedBy: null, claimedUntil: null }),
      },
    });
  }
  // The last city described: nothing more until the next day's list (the claim let go above).
  if (remaining === 0) return { nextRunAt: listDueAt, cursor: null };
  if (burstEnds) {
    return { nextRunAt: new Date(now.getTime() + pacing.describeRestMs), cursor: `${ASKED}0:${next.name}` };
  }
  return { nextRunAt: new Date(now.getTime() + pacing.describeEveryMs), cursor };
}

/**
 * Hourly: a shop with a key but no refresh scheduled (saved before this kind existed) gets one. Nothing is
 * pruned: the set is the deployment's, and no shop leaving or changing its key takes it away.
 */
export const referenceUpkeep: PeriodicTask = {
  name: "reference_upkeep",
  everyMs: 3600_000,
  async run({ db, clock }) {
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
