// What runs under a shop's lease: kinds of work (orders, statuses, catalogue, stock, returns, reference data
// and the rest: assembly.server.ts lists them), each opening a step per lease that does one request's worth
// of work at a time and says when it next has work. The engine (machinery.server.ts) knows nothing of orders
// or any other kind.
import type { Clock, ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type { WarehouseAccess } from "../warehouse/access";
import type { WarehouseClient } from "../warehouse/client.server";
import { WarehouseRateLimited, WarehouseUnauthorized, type WarehouseError } from "../warehouse/errors";

/** What a step did: work done, nothing due, due again at a known instant, or the shop's work must stop. */
export type StepResult =
  | { did: "work" }
  | { did: "nothing" }
  | { did: "wait"; until: Date }
  /** `keyRefused`: the warehouse refused the key (401); the engine pauses the shop for that key. */
  | { did: "stop"; keyRefused?: boolean };

export const WORK = { did: "work" } as const satisfies StepResult;
export const NOTHING = { did: "nothing" } as const satisfies StepResult;
export const STOP = { did: "stop" } as const satisfies StepResult;
export const KEY_REFUSED = { did: "stop", keyRefused: true } as const satisfies StepResult;

/**
 * A refused key or a rate limit as a step's outcome, the same for every kind: a refused key (401) stops the
 * shop's work, and the engine pauses the shop for that key; a rate limit that says when to come back (the
 * slot went to another caller on the same key first, or the warehouse said when) waits until then, not a
 * minute away. Any other failure: undefined, the kind's own to settle. `before` does what the kind must do
 * first (end its run, give up a claim); a wait is counted from when that is done.
 */
export async function keyOrLimitOutcome(
  error: WarehouseError,
  clock: Clock,
  before: { keyRefused?: () => Promise<unknown>; rateLimited?: () => Promise<unknown> } = {},
): Promise<StepResult | undefined> {
  if (error instanceof WarehouseUnauthorized) {
    await before.keyRefused?.();
    return KEY_REFUSED;
  }
  if (error instanceof WarehouseRateLimited && error.retryAfterMs !== undefined) {
    await before.rateLimited?.();
    return { did: "wait", until: new Date(clock().getTime() + error.retryAfterMs) };
  }
  return undefined;
}

/** The context of one lease: everything a step may use, for one shop. */
export interface ShopWork extends ServiceDeps {
  shop: string;
  /** The warehouse client for the shop's key, sharing the key's rate limits with every process. */
  warehouse: WarehouseClient;
  /** The digest of the key this lease runs with (see ShopSettings.apiKeyDigest). */
  keyDigest: string;
  /** The shop's warehouse settings as the lease began (a new key ends the lease). */
  settings: Omit<WarehouseAccess, "apiKey">;
  /** The shop's Admin API client (offline session), made on first use. */
  admin(): Promise<ShopAdmin>;
  /** Aborted when the lease is lost, the shop is uninstalled or its key changes, or the engine stops. */
  signal: AbortSignal;
  /**
   * The shop's schedule rows by kind, read once for a pass of its steps and once for the wake after it
   * (the engine's loop sets it): a pass asked each scheduled kind for its own row, twice, about twenty
   * statements a pass for a shop with nothing to do. Absent, each kind reads its own row.
   */
  scheduleRows?: () => Promise<ReadonlyMap<string, ScheduleRow>>;
}

/** A shop's ShopSchedule row, as a pass of its steps reads it. */
export interface ScheduleRow {
  kind: string;
  nextRunAt: Date;
  cursor: string | null;
  version: number;
  lastRunAt: Date | null;
  lastError: string | null;
}

/** One kind of work's step for one lease. */
export interface ShopStep {
  /** Does one request's worth of work (or one batch's). */
  run(): Promise<StepResult>;
  /**
   * When this step next has work (ms since the epoch; at or before now means now), given what its last
   * run answered; null when it has none it knows of.
   */
  nextDueAt(last: StepResult): Promise<number | null>;
  /**
   * Until when (ms since the epoch) new work of this kind cannot go anyway (held by the rate limits), so
   * a wake-up for it need not interrupt the loop: it leaves with the next request the limits allow.
   */
  heldUntil?(): number | null;
  /** The lease ends: wait for whatever the step left running in the background. */
  close?(): Promise<void>;
}

export interface WorkKind {
  readonly name: string;
  /** The shops with work of this kind due at `now`, for the engine's sweep. */
  dueShops(db: Db, now: Date): Promise<string[]>;
  /** The step for one lease of `work.shop`. */
  open(work: ShopWork): Promise<ShopStep>;
}

/** Work that is not any one shop's (pruning, sweeps that finish what was left), run from the sweep. */
export interface PeriodicTask {
  readonly name: string;
  everyMs: number;
  run(deps: ServiceDeps): Promise<void>;
}
