// Orders as a kind of the engine's work: under a shop's lease, look up in-doubt orders, send ready ones
// in AddOrder batches, and send edits and cancellations, each pass doing one request's worth of each.
import type { Db } from "../db.server";
import type { BACKOFF } from "../work/backoff";
import { NOTHING, WORK, type ShopWork, type StepResult, type WorkKind } from "../work/steps.server";
import { ORDER_STATE } from "./states";
import { lookUpInDoubtOrders, recoverInterruptedSubmissions, type InDoubtSettings } from "./in-doubt.server";
import { sendPendingChange } from "./changes.server";
import type { ShopWorkDeps } from "./step.server";
import { BatchesInFlight, dueWorkWhere, submitFullBatches } from "./submit.server";
import { lookAtScheduledOrders } from "../routing/reconcile.server";

export interface OrdersWorkOptions {
  /** AddOrder batches of one shop out at once (see BatchesInFlight). */
  addOrderBatchesInFlight?: number;
  inDoubtSettleMs?: number;
  inDoubt?: Partial<InDoubtSettings>;
  backoff?: typeof BACKOFF;
  /**
   * An order left `submitting` is taken as interrupted only once its claim is older than a lease and a
   * whole request: a holder stalled past its lease may still have that batch out.
   */
  recovery: { leaseTtlMs: number; requestTimeoutMs: number };
}

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

async function dueOrderShops(db: Db, now: Date): Promise<string[]> {
  // Grouped in SQL: Prisma's `distinct` reads every matching row and drops the repeats itself, which
  // with a backlog of thousands of orders was most of a sweep.
  const [due, interrupted] = await Promise.all([
    db.warehouseOrder.groupBy({ by: ["shop"], where: dueWorkWhere(now) }),
    // Orders left mid-send by a worker that died: its lease expires, then someone must take over.
    db.warehouseOrder.groupBy({ by: ["shop"], where: { state: ORDER_STATE.submitting } }),
  ]);
  return [...new Set([...due, ...interrupted].map((row) => row.shop))];
}

export function ordersWork(options: OrdersWorkOptions): WorkKind {
  const batchesInFlight = options.addOrderBatchesInFlight ?? 4;
  return {
    name: "orders",
    dueShops: dueOrderShops,
    async open(work: ShopWork) {
      const { db, shop } = work;
      const deps: ShopWorkDeps = {
        db,
        log: work.log,
        clock: work.clock,
        warehouse: work.warehouse,
        ...(options.inDoubtSettleMs !== undefined && { inDoubtSettleMs: options.inDoubtSettleMs }),
        ...(options.backoff && { backoff: options.backoff }),
      };
      // One order a request (the batch switch off) leaves one at a time: each takes a place in the window.
      const batches = new BatchesInFlight(work.settings.batchAddOrder ? batchesInFlight : 1);
      /** When claims too young to recover now will be old enough (a step's wait like any other). */
      let recoveryAt: number | null = work.clock().getTime();
      const recover = async () => {
        if (recoveryAt === null || recoveryAt > work.clock().getTime()) return;
        const { nextAt } = await recoverInterruptedSubmissions(deps, shop, options.recovery);
        recoveryAt = nextAt?.getTime() ?? null;
      };
      await recover();
      let waits: number[] = [];
      let heldUntil: number | null = null;
      return {
        async run(): Promise<StepResult> {
          waits = [];
          await recover();
          const results: StepResult[] = [];
          for (const step of [
            () => lookUpInDoubtOrders(deps, shop, options.inDoubt),
            () => submitFullBatches(deps, shop, batches),
            () => sendPendingChange(deps, shop),
            async (): Promise<StepResult> => ((await lookAtScheduledOrders(deps, shop)) ? WORK : NOTHING),
          ]) {
            if (work.signal.aborted) break;
            const result = await step();
            if (result.did === "stop") return result;
            results.push(result);
          }
          const submitted = results[1];
          heldUntil = submitted?.did === "wait" ? submitted.until.getTime() : null;
          waits = results.flatMap((result) => (result.did === "wait" ? [result.until.getTime()] : []));
          if (recoveryAt !== null) waits.push(recoveryAt);
          if (results.some((result) => result.did === "work")) return WORK;
          return waits.length ? { did: "wait", until: new Date(Math.min(...waits)) } : NOTHING;
        },
        async nextDueAt() {
          const now = work.clock();
          // While a step waits, only an order falling due between now and that wait can make the loop look
          // sooner: the range keeps the read to those few (every due order, read on each wait, cost 9 ms
          // once thousands were queued).
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
          return nextWakeAt({
            waits,
            earliestDue: row?.nextAttemptAt?.getTime() ?? null,
            now: now.getTime(),
          });
        },
        heldUntil: () => heldUntil,
        async close() {
          // The lease covers the batches still out until their answers are recorded.
          await batches.all();
        },
      };
    },
  };
}
