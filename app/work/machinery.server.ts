// The work engine: finds shops with due work, takes each shop's lease, and runs that shop's kinds of work
// (orders, and whatever scheduled work the shop has) until nothing is due soon. It knows nothing of any
// kind: it is given them (app/assembly/assembly.server.ts lists them), and each opens a step per lease
// (app/work/steps.server.ts). One instance runs inside the web process by default; `npm run worker` runs one alone
// (both built by createEngine, app/assembly/engine.server.ts). Any number may run against one PostgreSQL
// database: the lease keeps each shop to one worker at a time.
// The process-wide worker and the wake-ups that reach it are in worker.server.ts; the slots in slots.ts.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Clock, WakeReason } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import {
  pauseShop,
  PAUSE_REASONS,
  sharedKeyConflict,
  warehouseAccess,
  type WarehouseAccess,
} from "../settings/settings.server";
import { SecretUnreadable } from "../settings/secret-box.server";
import type { AdminWait, ShopAdmin } from "../shopify/admin-graphql.server";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import type { RateLimits } from "../warehouse/limiter.server";
import { shopWarehouseClient } from "./shop-client.server";
import { LeaseKeeper, releaseLease, takeLease, type Lease } from "./lease.server";
import { SlotHold, Slots } from "./slots";
import type { PeriodicTask, ScheduleRow, ShopStep, ShopWork, StepResult, WorkKind } from "./steps.server";
import type { Worker } from "./worker.server";

/**
 * What the machinery runs and with what: every kind of work and every periodic task are given whole (the
 * assembly, app/assembly/assembly.server.ts, lists them), so the machinery itself names none.
 */
export interface WorkerMachineryOptions {
  db: Db;
  log: Log;
  clock: Clock;
  /** The key the shops' ApiKeys are read with (the app context's); absent, the configured one. */
  encryptionKey?: Buffer;
  endpoints: WarehouseEndpoints;
  /** This worker's name in lease rows; unique per process. */
  holder?: string;
  /** How often the database is swept for due work that no wake-up announced. */
  sweepIntervalMs?: number;
  leaseTtlMs?: number;
  /**
   * Shops working at once in this process: the slots. A shop holds one while a pass of its steps runs
   * (requests out included); it gives it back while it only waits (see Slots).
   */
  concurrency?: number;
  /** A shop whose next work is due within this keeps its lease and waits (without a slot); later, the sweep. */
  holdWaitMs?: number;
  /**
   * How long (engine's clock) a shop with work left keeps its slot, pass after pass, while another shop waits
   * for one: then it goes to the back of the queue. A pass is never cut short.
   */
  timeSliceMs?: number;
  /** The kinds of work, each run in this order in a shop's pass. */
  kinds: WorkKind[];
  /** Work of no one shop, run from the sweep. */
  periodic: PeriodicTask[];
  /** The shop's Admin API client for background work (the offline session); none: steps cannot use it. */
  admin?: (shop: string, signal: AbortSignal, wait?: AdminWait) => Promise<ShopAdmin>;
  /** The warehouse's limits: the real ones unless a test scales them down. */
  rateLimits?: Partial<RateLimits>;
  fetch?: typeof fetch;
}

/** How long a lease lasts unless renewed, unless the options say otherwise. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** Why a shop's loop ended early, for the logs. */
type StopReason = "lease_lost" | "shop_changed" | "engine_stopping" | "lease_released";

/**
 * Whether the lease's key may still work for the shop: installed, not paused, and the key saved is the one
 * the lease began with. Read between passes, so another process's uninstall or new key stops this loop.
 */
async function shopStillWorks(db: Db, shop: string, keyDigest: string): Promise<boolean> {
  const [record, settings] = await Promise.all([
    db.shop.findUnique({ where: { shop }, select: { uninstalledAt: true } }),
    db.shopSettings.findUnique({ where: { shop }, select: { apiKeyDigest: true, pausedAt: true } }),
  ]);
  return (
    record !== null &&
    record.uninstalledAt === null &&
    settings?.pausedAt === null &&
    settings.apiKeyDigest === keyDigest
  );
}

/** The engine's machinery, running the kinds and periodic tasks it is given (see WorkerMachineryOptions). */
export function createWorkerMachinery(options: WorkerMachineryOptions): Worker {
  const { db, log, clock } = options;
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const sweepIntervalMs = options.sweepIntervalMs ?? 2_000;
  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const slots = new Slots(options.concurrency ?? 4);
  const holdWaitMs = options.holdWaitMs ?? 65_000;
  const timeSliceMs = options.timeSliceMs ?? 1_000;
  const { kinds, periodic } = options;
  const lastPeriodicRun = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  const wokenAgain = new Set<string>();
  /** Each running shop loop's abort: the lease lost, the shop changed, the engine stopping. */
  const loops = new Map<string, AbortController>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let sweeping: Promise<void> | null = null;
  /** The shop loops sleeping now, each with what ends its sleep early. */
  const sleepers = new Map<string, () => void>();
  /** Shops woken while their loop was busy with a pass: the pass may have missed what woke them. */
  const wokenDuringPass = new Set<string>();
  /** Shops whose new work must wait for the rate limits anyway, and until when (ms since the epoch). */
  const heldByLimits = new Map<string, number>();
  /**
   * Shops whose lease another worker held when this one last asked, and until when at most (ms since the
   * epoch). A wake-up all engines hear reaches that holder too: the others would only find the lease busy,
   * four statements each per NOTIFY, so they leave it to the holder until then (or until the sweep).
   */
  const leasedElsewhere = new Map<string, number>();
  function heardByHolder(shop: string): boolean {
    const until = leasedElsewhere.get(shop);
    if (until === undefined) return false;
    if (until > clock().getTime()) return true;
    leasedElsewhere.delete(shop);
    return false;
  }

  /**
   * Waits `ms` unless the loop ends or the shop is woken. A wake or a stop that came while the pass was
   * still working (no sleeper to end yet) ends the sleep before it starts, so neither waits a whole
   * sleep for nothing.
   */
  function sleep(shop: string, ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted || stopping || wokenDuringPass.has(shop)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(handle);
        signal.removeEventListener("abort", done);
        sleepers.delete(shop);
        resolve();
      };
      const handle = setTimeout(done, ms);
      signal.addEventListener("abort", done);
      sleepers.set(shop, done);
    });
  }

  async function dueShops(): Promise<string[]> {
    const now = clock();
    const perKind = await Promise.all(kinds.map((kind) => kind.dueShops(db, now)));
    return [...new Set(perKind.flat())];
  }

  /** One sweep at a time: a sweep slower than the interval is not joined by another doing the same reads. */
  function sweepOnce(): Promise<void> {
    sweeping ??= sweepForDueShops().finally(() => (sweeping = null));
    return sweeping;
  }

  async function sweepForDueShops(): Promise<void> {
    if (stopping) return;
    try {
      await runPeriodicTasks();
      const shops = await dueShops();
      for (const shop of shops) {
        if (stopping) break;
        // Each queues for a slot (Slots): the sweep itself never waits for one.
        if (!running.has(shop)) startShop(shop);
      }
    } catch (error) {
      log.error(
        { event: "worker.sweep_failed", err: error },
        "work sweep failed; trying again at the next sweep",
      );
    }
  }

  async function runPeriodicTasks() {
    const now = clock().getTime();
    for (const task of periodic) {
      if (now - (lastPeriodicRun.get(task.name) ?? 0) < task.everyMs) continue;
      lastPeriodicRun.set(task.name, now);
      try {
        await task.run({ db, log, clock });
      } catch (error) {
        log.error({ event: "worker.periodic_failed", task: task.name, err: error }, "periodic task failed");
      }
    }
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
    // Taken before the lease: a shop queued for a slot leaves its lease to any worker with one free.
    const slot = new SlotHold(slots, () => clock().getTime());
    await slot.take();
    try {
      await runShopInSlot(shop, slot);
    } finally {
      slot.give();
    }
  }

  async function runShopInSlot(shop: string, slot: SlotHold): Promise<void> {
    if (stopping) return;
    const active = await db.shop.findUnique({ where: { shop }, select: { uninstalledAt: true } });
    if (!active || active.uninstalledAt) return;
    let access;
    try {
      access = await warehouseAccess(db, shop, options);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      const saved = await db.shopSettings.findUnique({ where: { shop }, select: { apiKeyDigest: true } });
      await pauseShop(db, shop, saved?.apiKeyDigest ?? null, clock(), PAUSE_REASONS.unreadable);
      log.error({ shop, event: "shop.key_unreadable" }, error.message);
      return;
    }
    if (!access) return;
    // Two shops on one key whose prefixes could give two orders one id_order: nothing is sent for either
    // until one changes its prefix (Settings says so). Refused on save; this catches rows saved before.
    const conflict = await sharedKeyConflict(db, shop);
    if (conflict) {
      log.warn({ shop, event: "shop.key_shared", otherShop: conflict.otherShop }, conflict.message);
      return;
    }
    const lease = await takeLease(db, shop, holder, clock(), leaseTtlMs);
    if (!lease) {
      leasedElsewhere.set(shop, clock().getTime() + leaseTtlMs);
      log.debug({ shop, event: "worker.lease_busy" }, "another worker holds the shop's lease");
      return;
    }
    leasedElsewhere.delete(shop);
    log.debug({ shop, event: "worker.lease_taken", holder }, "working for the shop");
    const loop = new AbortController();
    loops.set(shop, loop);
    try {
      await workWhileLeased(shop, lease, access, loop, slot);
    } finally {
      // Anything a step left waiting on the signal learns that the lease is over.
      stopLoop(loop, "lease_released");
      loops.delete(shop);
      await releaseLease(db, lease);
    }
  }

  function stopLoop(loop: AbortController, reason: StopReason) {
    if (!loop.signal.aborted) loop.abort(reason);
  }

  async function workWhileLeased(
    shop: string,
    lease: Lease,
    access: WarehouseAccess,
    loop: AbortController,
    slot: SlotHold,
  ): Promise<void> {
    const { apiKey, ...settings } = access;
    const ending = () => stopping || loop.signal.aborted;
    const shopLog = log.child({ shop });
    // A holder that cannot renew its lease stops sending before it could expire: no request leaves once
    // the keeper gives up (those already out finish), and the loop ends, even from its sleep.
    const keeper = new LeaseKeeper({ db, lease, ttlMs: leaseTtlMs, clock, log: shopLog });
    keeper.signal.addEventListener("abort", () => stopLoop(loop, "lease_lost"));
    const { warehouse } = shopWarehouseClient({
      db,
      clock,
      shop,
      apiKey,
      engine: { endpoints: options.endpoints, rateLimits: options.rateLimits },
      batchAddOrder: access.batchAddOrder,
      stopSending: keeper.signal,
      ...(options.fetch && { fetch: options.fetch }),
    });
    let admin: Promise<ShopAdmin> | undefined;
    // The shop's schedule rows, read once a pass (and once more for the wake after it): forgotten below at
    // the start of each pass and before the wake is worked out, so neither sees what a pass before it saw.
    let scheduleRows: Promise<ReadonlyMap<string, ScheduleRow>> | undefined;
    const readScheduleRows = () =>
      (scheduleRows ??= db.shopSchedule
        .findMany({
          where: { shop },
          select: {
            kind: true,
            nextRunAt: true,
            cursor: true,
            version: true,
            lastRunAt: true,
            lastError: true,
          },
        })
        .then((rows) => new Map(rows.map((row) => [row.kind, row]))));
    const work: ShopWork = {
      db,
      log: shopLog,
      clock,
      shop,
      warehouse,
      keyDigest: access.keyDigest,
      settings,
      signal: loop.signal,
      scheduleRows: readScheduleRows,
      admin() {
        if (!options.admin) return Promise.reject(new Error("this worker has no Admin API client"));
        // A Shopify throttle is waited out without the slot: the shop only waits for its own bucket.
        admin ??= options.admin(shop, loop.signal, (ms, signal) =>
          slot.without(() => abortableSleep(ms, signal), ending),
        );
        return admin;
      },
    };
    const steps: ShopStep[] = [];
    try {
      for (const kind of kinds) steps.push(await kind.open(work));
      while (!stopping && !loop.signal.aborted) {
        // What woke the shop before this point is seen by this pass.
        wokenDuringPass.delete(shop);
        scheduleRows = undefined;
        const results: StepResult[] = [];
        for (const step of steps) {
          if (loop.signal.aborted) break;
          const result = await step.run();
          if (result.did === "stop") {
            if (result.keyRefused) await keyRefused(work);
            return;
          }
          results.push(result);
        }
        const held = steps.flatMap((step) => step.heldUntil?.() ?? []);
        if (held.length) heldByLimits.set(shop, Math.min(...held));
        else heldByLimits.delete(shop);
        if (loop.signal.aborted) break;
        if (!(await keeper.renewNow())) break;
        if (!(await shopStillWorks(db, shop, access.keyDigest))) {
          stopLoop(loop, "shop_changed");
          break;
        }
        if (results.some((result) => result.did === "work")) {
          // Work left: on, after the event loop's other work (a database that answers without I/O, as
          // SQLite's does, would otherwise never let a timer, a socket or the sweep run), and unless another
          // shop waits for a slot and this one has had its time slice.
          await new Promise((resolve) => setImmediate(resolve));
          if (slots.wanted && clock().getTime() - slot.since >= timeSliceMs) {
            await slot.without(() => Promise.resolve(), ending);
          }
          continue;
        }

        scheduleRows = undefined;
        const dues = await Promise.all(steps.map((step, index) => step.nextDueAt(results[index]!)));
        const next = dues.filter((due): due is number => due !== null);
        if (!next.length) return;
        const waitMs = Math.min(...next) - clock().getTime();
        if (waitMs > holdWaitMs) return;
        // Keep the lease while waiting, so the batch after a rate-limit wait leaves on time; give the slot
        // back, so no other shop waits for this one's wait.
        await slot.without(
          () => sleep(shop, Math.max(0, Math.min(waitMs, leaseTtlMs / 3)), loop.signal),
          ending,
        );
      }
      if (loop.signal.aborted) {
        shopLog.info(
          { event: "worker.shop_loop_stopped", reason: loop.signal.reason as StopReason },
          "stopped working for the shop before its next step",
        );
      }
    } finally {
      heldByLimits.delete(shop);
      wokenDuringPass.delete(shop);
      // The lease covers what the steps left out (batches still to be settled): renewed until they are.
      await Promise.all(steps.map((step) => step.close?.()));
      keeper.stop();
    }
  }

  /** The one place a refused key pauses a shop: only if that key is still the one saved. */
  async function keyRefused(work: ShopWork) {
    const paused = await pauseShop(db, work.shop, work.keyDigest, clock(), PAUSE_REASONS.refused);
    if (paused) {
      work.log.warn({ event: "shop.paused" }, "warehouse refused the ApiKey; the shop's work is paused");
    } else {
      work.log.info(
        { event: "shop.refused_key_replaced" },
        "warehouse refused a key that is no longer the saved one; the shop is not paused",
      );
    }
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
      for (const loop of loops.values()) stopLoop(loop, "engine_stopping");
      await sweeping;
      await Promise.allSettled([...running.values()]);
    },
    wake(shop: string, reason: WakeReason = "due_now", heard?: "heard") {
      if (stopping) return;
      if (heard && !running.has(shop) && heardByHolder(shop)) return;
      if (running.has(shop)) {
        // Held by the rate limits, new orders leave with the next batch they allow: waking the loop for
        // each would only ask the limiter again, a hundred times a second under load. Anything else (a
        // notification's status check, say) is due now whatever the orders wait for.
        if (reason === "new_orders" && (heldByLimits.get(shop) ?? 0) > clock().getTime()) return;
        // It may be sleeping until later work; what just arrived is due now.
        wokenAgain.add(shop);
        wokenDuringPass.add(shop);
        sleepers.get(shop)?.();
        return;
      }
      startShop(shop);
    },
    shopChanged(shop: string, heard?: "heard") {
      if (stopping) return;
      if (heard && !running.has(shop) && heardByHolder(shop)) return;
      const loop = loops.get(shop);
      if (loop) stopLoop(loop, "shop_changed");
      // Once this loop has ended, the next starts from what is saved now (a new key, say).
      if (running.has(shop)) wokenAgain.add(shop);
      else startShop(shop);
    },
    async sweep() {
      await sweepOnce();
      await Promise.allSettled([...running.values()]);
    },
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
