// Carrier reference data as our database keeps it: one set for the deployment (ReferenceSet, keyed by its
// source, REFERENCE_SOURCE), since the data is the carrier's, public, and the same whatever warehouse key
// asked for it (decision 020; it was one set per key, a copy per shop). Written by the refresh
// (refresh.server.ts), one shop's at a time; read into an in-memory search (search.ts) that each process
// builds once per version of the set. The functions take the source, so tests can keep sets apart.
//
// Replacing a set never shows a reader half of one. The new rows are upserted in batches, each its own short
// transaction (SQLite has one writer: 50,000 rows in one transaction would hold every webhook for seconds);
// then, in one transaction, the rows this save did not see are deleted and the set's version is bumped. A
// reader between the two sees the old set with some rows already updated in place and none missing (a
// superset); the bump makes every process rebuild from the finished set. A set is read only once it has a
// version (its first save finished), so a first save half-written is never searched.
import { getHeapStatistics } from "node:v8";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import { env } from "../env.server";
import { insertStatement, sqlQuery, sqlTransaction, type SqlArg } from "../db/sql.server";
import type { WarehouseClient } from "../warehouse/client.server";
import { streetRecordSchema, type StreetRecord } from "../warehouse/schemas";
import { fold } from "./fold";
import { REFERENCE_SOURCE } from "./kinds.server";
import { buildReferenceSearch } from "./search";
import type { CarrierBranch, CarrierCity, ReferenceSearch } from "./types";

/** Rows per INSERT: 13 columns × 500 stays far below SQLite's and PostgreSQL's limits on arguments. */
const BATCH = 500;

/** How long a getStreet answer is used before it is asked again. */
export const STREETS_KEPT_MS = 7 * 24 * 3600_000;

export interface ReferenceData {
  cities: readonly CarrierCity[];
  branches: readonly CarrierBranch[];
}

/** What a save stored (the set's counts) and its new version. */
export interface SavedReferenceSet {
  version: number;
  cityCount: number;
  branchCount: number;
}

/**
 * Stores `data` as the whole set of the source: its cities and branches written (batched upserts), those
 * not among them removed, the version bumped, the refresh time set and the last error cleared. Cities
 * getCities described keep their Russian name, region, kind and when they were described.
 */
export async function saveReferenceSet(
  db: Db,
  source: string,
  data: ReferenceData,
  now: Date,
): Promise<SavedReferenceSet> {
  // The rows this save did not see are those stamped before it: the stamp must come after the last save's,
  // whatever the clocks of the processes that made them.
  const last = await db.referenceSet.findUnique({ where: { source }, select: { refreshedAt: true } });
  const stamp = last?.refreshedAt && last.refreshedAt >= now ? new Date(last.refreshedAt.getTime() + 1) : now;
  const cities = [...new Map(data.cities.map((city) => [city.ref, city])).values()];
  const branches = [...new Map(data.branches.map((branch) => [branch.ref, branch])).values()];
  const branchCounts = new Map<string, number>();
  for (const branch of branches)
    branchCounts.set(branch.cityRef, (branchCounts.get(branch.cityRef) ?? 0) + 1);
  for (let start = 0; start < cities.length; start += BATCH) {
    const rows = cities
      .slice(start, start + BATCH)
      .map((city) => cityRow(source, city, stamp, branchCounts.get(city.ref) ?? 0));
    const { sql, args } = insertStatement("CarrierCity", rows);
    await sqlTransaction(db, (tx) =>
      tx.execute(
        `${sql} ON CONFLICT ("source", "ref") DO UPDATE SET "name" = excluded."name",
           "nameRu" = COALESCE(excluded."nameRu", "CarrierCity"."nameRu"),
           "area" = COALESCE(excluded."area", "CarrierCity"."area"),
           "kind" = COALESCE(excluded."kind", "CarrierCity"."kind"),
           "describedAt" = COALESCE(excluded."describedAt", "CarrierCity"."describedAt"),
           "seenAt" = excluded."seenAt", "branchCount" = excluded."branchCount"`,
        args,
      ),
    );
  }
  for (let start = 0; start < branches.length; start += BATCH) {
    const rows = branches.slice(start, start + BATCH).map((branch) => branchRow(source, branch, stamp));
    const { sql, args } = insertStatement("CarrierBranch", rows);
    const updates = Object.keys(rows[0]!)
      .filter((column) => column !== "source" && column !== "ref")
      .map((column) => `"${column}" = excluded."${column}"`)
      .join(", ");
    await sqlTransaction(db, (tx) =>
      tx.execute(`${sql} ON CONFLICT ("source", "ref") DO UPDATE SET ${updates}`, args),
    );
  }
  const version = await sqlTransaction(db, async (tx) => {
    await tx.execute(`DELETE FROM "CarrierBranch" WHERE "source" = ? AND "seenAt" < ?`, [source, stamp]);
    await tx.execute(`DELETE FROM "CarrierCity" WHERE "source" = ? AND "seenAt" < ?`, [source, stamp]);
    return bumpVersion(tx, source, {
      refreshedAt: stamp,
      cityCount: cities.length,
      branchCount: branches.length,
      lastError: null,
      dueAt: null,
      updatedAt: stamp,
    });
  });
  return { version, cityCount: cities.length, branchCount: branches.length };
}

/** Makes the set's version one more (creating the row at version 1), with `fields`; answers the version. */
async function bumpVersion(
  tx: { query(sql: string, args?: readonly SqlArg[]): Promise<Record<string, unknown>[]> },
  source: string,
  fields: Record<string, SqlArg>,
): Promise<number> {
  const columns = Object.keys(fields);
  const { sql, args } = insertStatement("ReferenceSet", [{ source, version: 1, ...fields }]);
  const [row] = await tx.query(
    `${sql} ON CONFLICT ("source") DO UPDATE SET "version" = "ReferenceSet"."version" + 1,
       ${columns.map((column) => `"${column}" = excluded."${column}"`).join(", ")}
     RETURNING "version"`,
    args,
  );
  return Number(row!.version);
}

function cityRow(source: string, city: CarrierCity, now: Date, branchCount: number): Record<string, SqlArg> {
  const described = city.nameRu !== undefined || city.area !== undefined || city.kind !== undefined;
  return {
    source,
    ref: city.ref,
    name: city.name,
    nameRu: city.nameRu ?? null,
    area: city.area ?? null,
    kind: city.kind ?? null,
    describedAt: described ? now : null,
    seenAt: now,
    branchCount,
  };
}

function branchRow(source: string, branch: CarrierBranch, now: Date): Record<string, SqlArg> {
  return {
    source,
    ref: branch.ref,
    cityRef: branch.cityRef,
    number: branch.number,
    category: branch.kind,
    description: branch.description,
    descriptionRu: branch.descriptionRu ?? null,
    shortAddress: branch.shortAddress ?? null,
    postcode: branch.postcode ?? null,
    maxWeightKg: branch.maxWeightKg ?? null,
    working: branch.working,
    seenAt: now,
  };
}

/**
 * getCities' answer for `asked` kept on the set's cities it names (their Russian name, region and kind); the
 * set's cities of that name are described then even when the answer left them out (the warehouse caps its
 * answers), so the refresh goes on to the next name. Cities not in the set are not added: they have no
 * branches. `bump`: make the set's version one more, so searches rebuild with the new names (the refresh does
 * it every so many answers rather than each). Answers the number of cities described.
 */
export async function describeCities(
  db: Db,
  source: string,
  asked: string,
  described: readonly CarrierCity[],
  now: Date,
  bump: boolean,
): Promise<number> {
  return sqlTransaction(db, async (tx) => {
    let count = 0;
    for (const city of described) {
      count += await tx.execute(
        `UPDATE "CarrierCity" SET "nameRu" = ?, "area" = ?, "kind" = ?, "describedAt" = ?
         WHERE "source" = ? AND "ref" = ?`,
        [city.nameRu ?? null, city.area ?? null, city.kind ?? null, now, source, city.ref],
      );
    }
    count += await tx.execute(
      `UPDATE "CarrierCity" SET "describedAt" = ?
       WHERE "source" = ? AND "name" = ? AND "describedAt" IS NULL`,
      [now, source, asked],
    );
    if (bump) {
      await tx.execute(
        `UPDATE "ReferenceSet" SET "version" = "version" + 1, "updatedAt" = ? WHERE "source" = ?`,
        [now, source],
      );
    }
    return count;
  });
}

/** The set's standing for the Settings page; null when there is none yet. */
export async function referenceSetStatus(db: Db, source: string) {
  const set = await db.referenceSet.findUnique({ where: { source } });
  // A row made only for a refresh's claim holds no data and no problem yet.
  if (!set || (set.refreshedAt === null && set.lastError === null)) return null;
  const undescribed = await db.carrierCity.count({ where: { source, describedAt: null } });
  return {
    cityCount: set.cityCount,
    branchCount: set.branchCount,
    undescribedCities: undescribed,
    refreshedAt: set.refreshedAt,
    lastError: set.lastError,
    version: set.version,
  };
}

/** What the Settings page says of the shop's carrier reference data. */
export interface ReferenceCard {
  hasKey: boolean;
  cityCount: number;
  branchCount: number;
  /** Cities known only by their branches so far (getCities has not described them yet). */
  undescribedCities: number;
  /** ISO time of the last full list stored; null: none yet. */
  refreshedAt: string | null;
  /** What kept the last refresh from finishing, in English (the warehouse's own words included). */
  lastError: string | null;
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
    lastError: status?.lastError ?? schedule?.lastError ?? null,
    nextRunAt: schedule?.nextRunAt.toISOString() ?? null,
  };
}

/** Keeps what kept the set's refresh from finishing (English, for the log and Settings); null clears it. */
export async function recordReferenceProblem(db: Db, source: string, problem: string | null, now: Date) {
  await db.referenceSet.upsert({
    where: { source },
    create: { source, lastError: problem, updatedAt: now },
    update: { lastError: problem },
  });
}

// ---------------------------------------------------------------------------------------------------
// The in-memory search, per process.
//
// A build reads a whole set and indexes it: about a second of the event loop for 50,000 branches
// (docs/benchmarks.md), during which the process answers nobody. So a build never runs inside a request:
// a request that finds no search for the set's version hands the set to the builder, which runs one build
// at a time for the whole process, on a later turn of the event loop; the storefront is answered "not
// ready, try again" meanwhile (proxy.server.ts), order intake and the admin wait for the build. A burst of
// requests over many sets therefore costs one build per set, one after another, never one per request.
//
// Built searches stay while their estimated size fits the budget (REFERENCE_SEARCH_BUDGET_MB), the least
// recently used let go first. With one set for the deployment a process keeps one search (every shop reads
// it); the budget and the eviction stay for sets kept apart (tests, bench:branches' `keys: 8`).

/**
 * A built search's size, estimated from its rows: bench:branches measured 45 MB of heap for 50,000
 * branches and 1,992 cities, records and indexes together; these round it up.
 */
const BYTES_PER_BRANCH = 1_000;
const BYTES_PER_CITY = 600;
/** The budget when none is set: half a gigabyte, and never more than 40 % of the heap V8 allows. */
const DEFAULT_BUDGET_MB = 512;
const DEFAULT_BUDGET_SHARE = 0.4;
const MB = 1024 * 1024;

interface Kept {
  version: number;
  search: ReferenceSearch;
  bytes: number;
}

/** Built searches, most recently used last. */
const kept = new Map<string, Kept>();

interface Pending {
  version: number;
  search: Promise<ReferenceSearch>;
}

/** Builds asked for and not finished, per set (at most one runs; the rest wait their turn). */
const pending = new Map<string, Pending>();
/** The end of the last build asked for: the next one starts after it. */
let builderQueue: Promise<unknown> = Promise.resolve();
/** Moves on each forgetReferenceSearches, so a build begun before it does not fill the emptied cache. */
let generation = 0;
let budgetOverrideBytes: number | undefined;
const counters = { builds: 0, evictions: 0, running: 0 };

export interface SearchOptions {
  /**
   * Wait for the search of the set's current version even when a previous one is built (the default answers
   * the previous one while the new one builds: a buyer's type-ahead should not wait for a rebuild).
   */
  newest?: boolean;
  /** Where a failed build and a search let go for the budget are told (the operator raises the budget). */
  log?: Log;
}

/** Where a set's search stands for a caller that must not wait: the storefront. */
export type SearchState =
  | { state: "ready"; search: ReferenceSearch }
  /** The set is there but its search is being built (or waits its turn): ask again shortly. */
  | { state: "building" }
  /** No key, or no set saved yet: nothing to build. */
  | { state: "none" };

const NONE: SearchState = { state: "none" };
const BUILDING: SearchState = { state: "building" };

/** The search over the shared reference data for the shop; null when it has no key or there is no data yet. */
export async function referenceSearchFor(
  db: Db,
  shop: string,
  options: SearchOptions = {},
): Promise<ReferenceSearch | null> {
  const set = await setOfShop(db, shop);
  return set ? searchOf(db, set, options) : null;
}

/**
 * The search over the source's set, waiting for the builder when the set's version has none yet (one read of
 * one row by its source otherwise); answered the previous version's search while a new one builds unless the
 * caller asks for the newest. Null until the set's first save finished.
 */
export async function referenceSearchForSource(
  db: Db,
  source: string,
  options: SearchOptions = {},
): Promise<ReferenceSearch | null> {
  const set = await db.referenceSet.findUnique({ where: { source }, select: { version: true } });
  return searchOf(db, { source, version: set?.version ?? 0 }, options);
}

/** The shop's search as it stands now, never waiting for a build (which it asks for when one is due). */
export async function referenceSearchStateFor(db: Db, shop: string, log?: Log): Promise<SearchState> {
  const set = await setOfShop(db, shop);
  return set ? stateOf(db, set, log) : NONE;
}

export async function referenceSearchStateForSource(db: Db, source: string, log?: Log): Promise<SearchState> {
  const set = await db.referenceSet.findUnique({ where: { source }, select: { version: true } });
  return stateOf(db, { source, version: set?.version ?? 0 }, log);
}

interface SetVersion {
  source: string;
  /** 0 while the set has no finished save (or no row). */
  version: number;
}

/**
 * Whether the shop has a key, and the shared set's version, in one statement given to the driver: every
 * storefront search and every order intake asks it, and two Prisma reads cost several times the search
 * itself. A shop without a key has nothing to search (it sends nothing yet).
 */
async function setOfShop(db: Db, shop: string): Promise<SetVersion | null> {
  const [row] = await sqlQuery(
    db,
    `SELECT s."apiKeyDigest" AS "keyDigest", r."version" AS "version"
     FROM "ShopSettings" s LEFT JOIN "ReferenceSet" r ON r."source" = ?
     WHERE s."shop" = ?`,
    [REFERENCE_SOURCE, shop],
  );
  if (!row || row.keyDigest === null || row.keyDigest === undefined) return null;
  return { source: REFERENCE_SOURCE, version: Number(row.version ?? 0) };
}

function searchOf(
  db: Db,
  set: SetVersion,
  options: SearchOptions,
): Promise<ReferenceSearch | null> | ReferenceSearch | null {
  const found = standing(set);
  if (!found) return null;
  if (found.current) return found.current;
  const building = buildFor(db, set.source, set.version, options.log);
  return found.previous && !options.newest ? found.previous : building;
}

function stateOf(db: Db, set: SetVersion, log: Log | undefined): SearchState {
  const found = standing(set);
  if (!found) return NONE;
  if (found.current) return { state: "ready", search: found.current };
  void buildFor(db, set.source, set.version, log);
  return found.previous ? { state: "ready", search: found.previous } : BUILDING;
}

/** What is built of the set: `current` for its version, else `previous` (an older one); null: no set. */
function standing({ source, version }: SetVersion): {
  current?: ReferenceSearch;
  previous?: ReferenceSearch;
} | null {
  if (version === 0) {
    kept.delete(source);
    return null;
  }
  const entry = kept.get(source);
  if (!entry) return {};
  // Most recently used last, for the budget's eviction.
  kept.delete(source);
  kept.set(source, entry);
  return entry.version === version ? { current: entry.search } : { previous: entry.search };
}

/**
 * The build of the source's set at `version` (or a later one already asked for): queued behind the builds
 * before it, so only one runs in the process at a time. Labelled with the version read before loading:
 * rows written during the load bump it past this one, so the next caller asks for another build.
 */
function buildFor(db: Db, source: string, version: number, log?: Log): Promise<ReferenceSearch> {
  const waiting = pending.get(source);
  if (waiting && waiting.version >= version) return waiting.search;
  const asked = generation;
  const search = builderQueue.then(async () => {
    counters.running++;
    try {
      // Never in the turn of the request that asked: it is answered first.
      await new Promise((resolve) => setImmediate(resolve));
      const { cities, branches } = await loadReferenceData(db, source);
      const built = buildReferenceSearch(cities, branches);
      counters.builds++;
      const bytes = cities.length * BYTES_PER_CITY + branches.length * BYTES_PER_BRANCH;
      if (asked === generation) keep(source, { version, search: built, bytes }, log);
      return built;
    } finally {
      counters.running--;
    }
  });
  const mine: Pending = { version, search };
  pending.set(source, mine);
  const settle = () => {
    if (pending.get(source) === mine) pending.delete(source);
  };
  // A failed build (the database unreachable) is asked for again by the next caller, never here: a caller
  // that does not wait (the storefront) has its failure told and handled here rather than left unhandled.
  search.then(settle, (error: unknown) => {
    settle();
    log?.warn(
      { event: "reference.build_failed", source: source.slice(0, 12), version, err: error },
      "the carrier reference search could not be built; the next search asks for it again",
    );
  });
  builderQueue = search.catch(() => undefined);
  return search;
}

/** Keeps a build's search (builds finish in the order asked, so a later version is never replaced by an
 * earlier one), then lets the least recently used go while the total is above the budget. */
function keep(source: string, entry: Kept, log: Log | undefined): void {
  kept.delete(source);
  kept.set(source, entry);
  const budget = budgetBytes();
  let total = 0;
  for (const each of kept.values()) total += each.bytes;
  // The least recently used first; the one just built stays even alone above the budget.
  for (const [key, each] of kept) {
    if (total <= budget) break;
    if (key === source) continue;
    kept.delete(key);
    total -= each.bytes;
    counters.evictions++;
    log?.warn(
      {
        event: "reference.search_evicted",
        source: key.slice(0, 12),
        budgetMb: Math.round(budget / MB),
        keptMb: Math.round(total / MB),
      },
      "a carrier reference search was let go to stay within REFERENCE_SEARCH_BUDGET_MB; it is built again when next asked, so raise the budget if this repeats",
    );
  }
}

/** The memory the built searches may take, in bytes. */
function budgetBytes(): number {
  if (budgetOverrideBytes !== undefined) return budgetOverrideBytes;
  const set = env().REFERENCE_SEARCH_BUDGET_MB;
  if (set !== undefined) return set * MB;
  return Math.min(DEFAULT_BUDGET_MB * MB, getHeapStatistics().heap_size_limit * DEFAULT_BUDGET_SHARE);
}

/** Sets the budget in bytes (tests, the benchmark); undefined goes back to the environment's. */
export function setReferenceSearchBudget(bytes: number | undefined): void {
  budgetOverrideBytes = bytes;
}

/** What the builder and the cache have done in this process (the benchmark, the tests, an operator). */
export function referenceSearchStats() {
  let keptBytes = 0;
  for (const each of kept.values()) keptBytes += each.bytes;
  return {
    builds: counters.builds,
    evictions: counters.evictions,
    sets: kept.size,
    /** Builds asked for and not finished (waiting their turn included). */
    building: pending.size,
    /** Builds under way: loading or indexing (never more than one). */
    running: counters.running,
    estimatedMb: Math.round(keptBytes / MB),
    budgetMb: Math.round(budgetBytes() / MB),
  };
}

/**
 * The source's cities and branches from the database, as the search takes them. Plain SQL (sqlQuery): Prisma's
 * conversion of 50,000 rows took several times as long as reading them.
 */
export async function loadReferenceData(
  db: Db,
  source: string,
): Promise<{ cities: CarrierCity[]; branches: CarrierBranch[] }> {
  const cityRows = await sqlQuery(
    db,
    `SELECT "ref", "name", "nameRu", "area", "kind" FROM "CarrierCity" WHERE "source" = ?`,
    [source],
  );
  const branchRows = await sqlQuery(
    db,
    `SELECT "ref", "cityRef", "number", "category", "description", "descriptionRu", "shortAddress",
       "postcode", "maxWeightKg", "working"
     FROM "CarrierBranch" WHERE "source" = ?`,
    [source],
  );
  return {
    cities: cityRows.map((row) => ({
      ref: String(row.ref),
      name: String(row.name),
      nameRu: optionalText(row.nameRu),
      area: optionalText(row.area),
      kind: optionalText(row.kind),
    })),
    branches: branchRows.map((row) => ({
      ref: String(row.ref),
      cityRef: String(row.cityRef),
      number: String(row.number),
      kind: row.category === "postomat" || row.category === "branch" ? row.category : "store",
      description: String(row.description),
      descriptionRu: optionalText(row.descriptionRu),
      shortAddress: optionalText(row.shortAddress),
      postcode: optionalText(row.postcode),
      maxWeightKg:
        row.maxWeightKg === null || row.maxWeightKg === undefined ? undefined : Number(row.maxWeightKg),
      // SQLite answers 0 and 1, PostgreSQL a boolean.
      working: row.working === true || Number(row.working) === 1,
    })),
  };
}

function optionalText(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

/** Forgets every built search and pending build (tests; a process that wants its memory back). */
export function forgetReferenceSearches(): void {
  kept.clear();
  pending.clear();
  generation++;
}

// ---------------------------------------------------------------------------------------------------
// Streets (getStreet), on demand.

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
