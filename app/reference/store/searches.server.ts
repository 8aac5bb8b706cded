// The in-memory search over a reference set, per process, and the one builder that makes it.
//
// A build reads a whole set and indexes it: about a second of the event loop for 50,000 branches
// (docs/benchmarks.md), during which the process answers nobody. So a build never runs inside a request:
// a request that finds no search for the set's version hands the set to the builder, which runs one build
// at a time for the whole process, on a later turn of the event loop; the storefront is answered "not
// ready, try again" meanwhile (app/reference/proxy.server.ts), order intake and the admin wait for the
// build. A burst of requests over many sets therefore costs one build per set, one after another, never one
// per request.
//
// Built searches stay while their estimated size fits the budget (REFERENCE_SEARCH_BUDGET_MB), the least
// recently used let go first. With one set for the deployment a process keeps one search (every shop reads
// it); the budget and the eviction stay for sets kept apart (tests, bench:branches' `keys: 8`).
import { getHeapStatistics } from "node:v8";
import type { Db } from "../../db.server";
import { sqlQuery } from "../../db/sql.server";
import { env } from "../../env.server";
import type { Log } from "../../logger.server";
import { REFERENCE_SOURCE } from "../kinds.server";
import { buildReferenceSearch } from "../search";
import type { ReferenceSearch } from "../types";
import { loadReferenceData } from "./sets.server";

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

/** Forgets every built search and pending build (tests; a process that wants its memory back). */
export function forgetReferenceSearches(): void {
  kept.clear();
  pending.clear();
  generation++;
}
