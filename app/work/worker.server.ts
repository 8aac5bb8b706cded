// The work engine: finds shops with due work, takes each shop's lease, and runs that shop's steps
// (look up in-doubt orders, send ready orders, send edits and cancellations) until nothing is due soon.
// One instance runs inside the web process by default; `npm run worker` runs one alone. Any number may
// run against one PostgreSQL database: the lease keeps each shop to one worker at a time.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Clock, ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import {
  BatchesInFlight,
  dueWorkWhere,
  lookUpInDoubtOrders,
  recoverInterruptedSubmissions,
  sendPendingChange,
  submitReadyOrders,
  type InDoubtLookup,
  type ShopWorkDeps,
  type StepResult,
} from "../orders/submission.server";
import { ORDER_STATE } from "../orders/states";
import { UNAUTHORIZED_REASON } from "../orders/step.server";
import { pauseShop, warehouseAccess } from "../settings/settings.server";
import { SecretUnreadable } from "../settings/secret-box.server";
import { shopIsActive } from "../shops/lifecycle.server";
import { createWarehouseClient, type WarehouseEndpoints } from "../warehouse/client.server";
import { WarehouseRateLimiter, type RateLimits } from "../warehouse/limiter.server";
import type { BACKOFF } from "./backoff";
import { releaseLease, renewLease, takeLease, type Lease } from "./lease.server";
import { DatabaseRateLimitStore } from "./rate-limit-store.server";

export interface WorkerOptions {
  db: Db;
  log: Log;
  clock: Clock;
  endpoints: WarehouseEndpoints;
  /** This worker's name in lease rows; unique per process. */
  holder?: string;
  /** How often the database is swept for due work that no wake-up announced. */
  sweepIntervalMs?: number;
  leaseTtlMs?: number;
  /** Shops served at once by this process. */
  concurrency?: number;
  /** A shop whose next work is due within this keeps its lease and waits; later, the sweep comes back. */
  holdWaitMs?: number;
  /** AddOrder batches of one shop out at once (see BatchesInFlight). */
  addOrderBatchesInFlight?: number;
  inDoubtSettleMs?: number;
  /** The warehouse's limits and our retry timing: the real ones unless a test scales them down. */
  rateLimits?: Partial<RateLimits>;
  backoff?: typeof BACKOFF;
  fetch?: typeof fetch;
}

export { dueWorkWhere };

/**
 * When a shop's loop should look again (ms since the epoch), or null when nothing is due: the earliest of
 * the steps' waits and the earliest order due. A wait that has passed while the other steps ran means now;
 * the shop's lease must not be given up for it, which left the next batch to the sweep, seconds later.
 * An order due now whose step had to wait is covered by that wait.
 */
export function nextWakeAt(input: {
  waits: number[];
  earliestDue: number | null;
  now: number;
}): number | null {
  const { waits, earliestDue, now } = input;
  const rowDue = earliestDue !== null && (earliestDue > now || waits.length === 0) ? [earliestDue] : [];
  const candidates = [...waits, ...rowDue];
  return candidates.length ? Math.max(now, Math.min(...candidates)) : null;
}

/** Later than any nextAttemptAt, and still a date both databases store. */
const END_OF_TIME = new Date("9999-12-31T00:00:00Z");
const WEBHOOK_EVENT_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_INTERVAL_MS = 3600_000;

export interface Worker {
  start(): void;
  /** Stops taking work; resolves once the requests in flight have finished and leases are released. */
  stop(): Promise<void>;
  /** Work became due for the shop: look now instead of at the next sweep. */
  wake(shop: string): void;
  /** One sweep, resolved when every shop it found has run out of work due soon (for tests and benches). */
  sweep(): Promise<void>;
  readonly holder: string;
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, log, clock } = options;
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const sweepIntervalMs = options.sweepIntervalMs ?? 2_000;
  const leaseTtlMs = options.leaseTtlMs ?? 30_000;
  const concurrency = options.concurrency ?? 4;
  const holdWaitMs = options.holdWaitMs ?? 65_000;
  const addOrderBatchesInFlight = options.addOrderBatchesInFlight ?? 4;
  const running = new Map<string, Promise<void>>();
  const wokenAgain = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let sweeping: Promise<void> | null = null;
  let lastPrune = 0;
  /** The shop loops sleeping now, each with what ends its sleep early. */
  const sleepers = new Map<string, () => void>();
  /** Shops whose AddOrder must wait for the rate limits, and until when (ms since the epoch). */
  const heldByLimits = new Map<string, number>();

  function sleep(shop: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(handle);
        sleepers.delete(shop);
        resolve();
      };
      const handle = setTimeout(done, ms);
      sleepers.set(shop, done);
    });
  }

  async function dueShops(): Promise<string[]> {
    const now = clock();
    // Grouped in SQL: Prisma's `distinct` reads every matching row and drops the repeats itself, which
    // with a backlog of thousands of orders was most of a sweep.
    const [due, interrupted] = await Promise.all([
      db.warehouseOrder.groupBy({ by: ["shop"], where: dueWorkWhere(now) }),
      // Orders left mid-send by a worker that died: its lease expires, then someone must take over.
      db.warehouseOrder.groupBy({ by: ["shop"], where: { state: ORDER_STATE.submitting } }),
    ]);
    return [...new Set([...due, ...interrupted].map((row) => row.shop))];
  }

  /** One sweep at a time: a sweep slower than the interval is not joined by another doing the same reads. */
  function sweepOnce(): Promise<void> {
    sweeping ??= sweepForDueShops().finally(() => (sweeping = null));
    return sweeping;
  }

  async function sweepForDueShops(): Promise<void> {
    if (stopping) return;
    try {
      await pruneWebhookEvents();
      const shops = await dueShops();
      for (const shop of shops) {
        if (stopping) break;
        if (running.has(shop)) continue;
        while (running.size >= concurrency) await Promise.race(running.values());
        startShop(shop);
      }
    } catch (error) {
      log.error(
        { event: "worker.sweep_failed", err: error },
        "work sweep failed; trying again at the next sweep",
      );
    }
  }

  async function pruneWebhookEvents() {
    const now = clock().getTime();
    if (now - lastPrune < PRUNE_INTERVAL_MS) return;
    lastPrune = now;
    await db.webhookEvent.deleteMany({
      where: { receivedAt: { lt: new Date(now - WEBHOOK_EVENT_RETENTION_MS) } },
    });
  }

  function startShop(shop: string) {
    const run = runShop(shop)
      .catch((error: unknown) => {
        log.error(
          { shop, event: "worker.shop_failed", err: error },
          "work for the shop failed; it is retried at the next sweep",
        );
      })
      .finally(() => {
        running.delete(shop);
        if (wokenAgain.delete(shop) && !stopping) startShop(shop);
      });
    running.set(shop, run);
  }

  async function runShop(shop: string): Promise<void> {
    if (!(await shopIsActive(db, shop))) return;
    let access;
    try {
      access = await warehouseAccess(db, shop);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      await pauseShop(db, shop, clock(), error.message);
      log.error({ shop, event: "shop.key_unreadable" }, error.message);
      return;
    }
    if (!access) return;
    const lease = await takeLease(db, shop, holder, clock(), leaseTtlMs);
    if (!lease) {
      log.debug({ shop, event: "worker.lease_busy" }, "another worker holds the shop's lease");
      return;
    }
    log.debug({ shop, event: "worker.lease_taken", holder }, "working for the shop");
    try {
      await workWhileLeased(shop, lease, access);
    } finally {
      await releaseLease(db, lease);
    }
  }

  async function workWhileLeased(
    shop: string,
    lease: Lease,
    access: NonNullable<Awaited<ReturnType<typeof warehouseAccess>>>,
  ): Promise<void> {
    const warehouse = createWarehouseClient({
      apiKey: access.apiKey,
      endpoints: options.endpoints,
      limiter: new WarehouseRateLimiter(new DatabaseRateLimitStore(db, shop), {
        ...(options.rateLimits && { limits: options.rateLimits }),
      }),
      batchAddOrder: access.batchAddOrder,
      ...(options.fetch && { fetch: options.fetch }),
    });
    const deps: ShopWorkDeps = {
      db,
      log: log.child({ shop }),
      clock,
      warehouse,
      ...(options.inDoubtSettleMs !== undefined && { inDoubtSettleMs: options.inDoubtSettleMs }),
      ...(options.backoff && { backoff: options.backoff }),
    };
    const lookup: { current: InDoubtLookup | null } = { current: null };
    // One order a request (the batch switch off) leaves one at a time: each takes a place in the window.
    const batches = new BatchesInFlight(access.batchAddOrder ? addOrderBatchesInFlight : 1);
    // Renewed on a timer too, so a slow request (up to WAREHOUSE_TIMEOUT_MS) never outlives the lease.
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      void renewLease(db, lease, clock(), leaseTtlMs).then(
        (held) => (leaseLost ||= !held),
        () => undefined,
      );
    }, leaseTtlMs / 3);
    try {
      await recoverInterruptedSubmissions(deps, shop);
      while (!stopping && !leaseLost) {
        const lookedUp = await lookUpInDoubtOrders(deps, shop, lookup);
        if (lookedUp.did === "stop") return;
        const submitted = await submitReadyOrders(deps, shop, batches);
        if (submitted.did === "stop") return await stopped(shop, submitted);
        if (submitted.did === "wait") heldByLimits.set(shop, submitted.until.getTime());
        else heldByLimits.delete(shop);
        const changed = await sendPendingChange(deps, shop);
        if (changed.did === "stop") return await stopped(shop, changed);
        const results = [lookedUp, submitted, changed];
        if (leaseLost || !(await renewLease(db, lease, clock(), leaseTtlMs))) {
          log.warn({ shop, event: "worker.lease_lost" }, "lost the shop's lease; another worker continues");
          return;
        }
        if (results.some((result) => result.did === "work")) continue;

        const next = await nextDue(shop, results);
        if (!next) return;
        const waitMs = next.getTime() - clock().getTime();
        if (waitMs > holdWaitMs) return;
        // Keep the lease while waiting, so the batch after a rate-limit wait leaves on time.
        await sleep(shop, Math.max(0, Math.min(waitMs, leaseTtlMs / 3)));
      }
    } finally {
      heldByLimits.delete(shop);
      // The lease covers the batches still out until their answers are recorded.
      await batches.all();
      clearInterval(heartbeat);
    }
  }

  /** A step stopped the shop's work; a refused key pauses the shop until a key is saved. */
  async function stopped(shop: string, result: StepResult): Promise<void> {
    if (result.did !== "stop" || !result.keyRefused) return;
    await pauseShop(db, shop, clock(), UNAUTHORIZED_REASON);
    log.warn({ shop, event: "shop.paused" }, "warehouse refused the ApiKey; the shop's work is paused");
  }

  async function nextDue(shop: string, results: StepResult[]): Promise<Date | null> {
    const waits = results.flatMap((result) => (result.did === "wait" ? [result.until.getTime()] : []));
    const now = clock();
    // While a step waits, only an order falling due between now and that wait can make the loop look
    // sooner: the range keeps the read to those few (every due order, read on each wait, cost 9 ms once
    // thousands were queued).
    const horizon = waits.length ? new Date(Math.min(...waits)) : null;
    const row =
      horizon && horizon <= now
        ? null
        : await db.warehouseOrder.findFirst({
            where: {
              shop,
              ...dueWorkWhere(horizon ?? END_OF_TIME),
              ...(horizon && { nextAttemptAt: { gt: now, lte: horizon } }),
            },
            orderBy: { nextAttemptAt: "asc" },
            select: { nextAttemptAt: true },
          });
    const at = nextWakeAt({ waits, earliestDue: row?.nextAttemptAt?.getTime() ?? null, now: now.getTime() });
    return at === null ? null : new Date(at);
  }

  return {
    holder,
    start() {
      if (timer) return;
      stopping = false;
      timer = setInterval(() => void sweepOnce(), sweepIntervalMs);
      timer.unref();
      void sweepOnce();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      for (const wake of [...sleepers.values()]) wake();
      await sweeping;
      await Promise.allSettled([...running.values()]);
    },
    wake(shop: string) {
      if (stopping) return;
      if (running.has(shop)) {
        // Held by the rate limits, what just arrived leaves with the next batch they allow: waking the
        // loop for each new order would only ask the limiter again, a hundred times a second under load.
        if ((heldByLimits.get(shop) ?? 0) > clock().getTime()) return;
        // It may be sleeping until later work; what just arrived is due now.
        wokenAgain.add(shop);
        sleepers.get(shop)?.();
        return;
      }
      startShop(shop);
    },
    async sweep() {
      await sweepOnce();
      await Promise.allSettled([...running.values()]);
    },
  };
}

declare global {
  var skladSyncWorker: Worker | undefined;
}

/** Wakes this process's worker for a shop, if this process runs one. */
export function wakeWorker(shop: string): void {
  globalThis.skladSyncWorker?.wake(shop);
}

/** Starts this process's worker once (kept on globalThis across development reloads). */
export function startProcessWorker(deps: ServiceDeps, endpoints: WarehouseEndpoints): Worker {
  globalThis.skladSyncWorker ??= createWorker({ ...deps, endpoints });
  globalThis.skladSyncWorker.start();
  return globalThis.skladSyncWorker;
}

export async function stopProcessWorker(): Promise<void> {
  const worker = globalThis.skladSyncWorker;
  globalThis.skladSyncWorker = undefined;
  await worker?.stop();
}
