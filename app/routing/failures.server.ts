// An order whose fulfillment orders cannot be applied to it, for a reason of its own (its stored payload
// unreadable, its mapping or a look-up throwing, a state the order rules did not foresee): reconcileRouting
// leaves it out of its batch and answers it (the others are applied), and the fulfillment_orders kind counts
// here. Its owed rows are tried again after a minute, two, four, eight; the fifth failure puts the order
// aside: its rows no longer owed (so the shop's reads stop trying it), an attention and a timeline event on
// the order, an error log. New facts of its fulfillment orders (storeFulfillmentOrders resets the count) or the
// merchant's Retry (app/orders/actions.server.ts) try it again.
//
// The counts live on the order's ShopifyFulfillmentOrder rows (reconcileFailures, reconcileRetryAt), written
// conditionally on the version read, so a change of facts stored meanwhile keeps its fresh count; the kinds of
// a shop run one at a time under the shop's lease (app/work/lease.server.ts), so no two runs count one failure.
import type { ServiceDeps } from "../context.server";
import { applyToOrders, asChange, type Change } from "../orders/commit.server";
import { isRefusal, transition } from "../orders/state-machine";
import type { OrderEventInput } from "../orders/timeline.server";
import type { ReconcileFailure } from "./reconcile.server";

/**
 * Failures of an order's reconcile before it is put aside. A failure of the order's own is mostly the same
 * every time (an unreadable payload stays unreadable): more tries only keep the merchant from hearing of it.
 * Five, a minute to eight apart, give a passing cause (a deploy midway, reference data being rebuilt) a quarter
 * of an hour.
 */
export const ROUTING_FAILURES_TOLERATED = 5;
/** The wait after the first failure; doubled after each next. */
export const ROUTING_RETRY_MS = 60_000;

/** The wait before the try after `failures` failures: 1, 2, 4, 8 minutes. */
export function routingRetryDelayMs(failures: number): number {
  return ROUTING_RETRY_MS * 2 ** Math.max(0, failures - 1);
}

/**
 * Counts a failure of each of these orders on its owed rows: tried again when due, or, the last one tolerated,
 * put aside with the merchant told. Answers the orders put aside.
 */
export async function reconcilesFailed(
  deps: ServiceDeps,
  shop: string,
  failures: readonly ReconcileFailure[],
): Promise<ReconcileFailure[]> {
  if (!failures.length) return [];
  const now = deps.clock();
  const byOrder = new Map(failures.map((failure) => [failure.shopifyOrderId, failure]));
  const rows = await deps.db.shopifyFulfillmentOrder.findMany({
    where: { shop, shopifyOrderId: { in: [...byOrder.keys()] }, reconcilePending: true },
    select: { id: true, shopifyOrderId: true, version: true, reconcileFailures: true },
  });
  const owed = new Map<string, typeof rows>();
  for (const row of rows) owed.set(row.shopifyOrderId, [...(owed.get(row.shopifyOrderId) ?? []), row]);
  const putAside: Array<ReconcileFailure & { attempts: number }> = [];
  const counted: Array<{ failure: ReconcileFailure; rows: typeof rows; attempts: number }> = [];
  for (const [shopifyOrderId, orderRows] of owed) {
    // A row of new facts counts from nothing: the order is tried as often as a first time.
    const attempts = Math.min(...orderRows.map((row) => row.reconcileFailures)) + 1;
    const failure = byOrder.get(shopifyOrderId)!;
    counted.push({ failure, rows: orderRows, attempts });
    if (attempts >= ROUTING_FAILURES_TOLERATED) putAside.push({ ...failure, attempts });
  }
  // The merchant told first: should the rows' write fail, the order is put aside again, not left untold.
  if (putAside.length) await tellMerchant(deps, putAside);
  for (const { failure, rows: orderRows, attempts } of counted) {
    const aside = attempts >= ROUTING_FAILURES_TOLERATED;
    await deps.db.shopifyFulfillmentOrder.updateMany({
      // Only the rows as read: one whose facts changed meanwhile keeps its fresh count and stays owed.
      where: { shop, OR: orderRows.map(({ id, version }) => ({ id, version })) },
      data: aside
        ? { reconcilePending: false, reconcileFailures: attempts, reconcileRetryAt: null }
        : {
            reconcileFailures: attempts,
            reconcileRetryAt: new Date(now.getTime() + routingRetryDelayMs(attempts)),
          },
    });
    if (aside)
      deps.log.error(
        {
          shop,
          event: "routing.order_put_aside",
          orderId: failure.orderId,
          shopifyOrderId: failure.shopifyOrderId,
          failure: failure.failure,
          attempts,
          error: failure.error,
        },
        "an order's fulfillment orders could not be applied, time after time: put aside, the merchant told",
      );
  }
  return putAside;
}

/** The attention and timeline event of each order put aside, through the order rules. */
async function tellMerchant(
  deps: ServiceDeps,
  putAside: ReadonlyArray<ReconcileFailure & { attempts: number }>,
): Promise<void> {
  const byId = new Map(putAside.map((failure) => [failure.orderId, failure]));
  await applyToOrders(deps, [...byId.keys()], (current, at) => {
    const changes: Change[] = [];
    const events: OrderEventInput[] = [];
    for (const row of current) {
      const failure = byId.get(row.id);
      if (!failure || row.dataErasedAt) continue;
      const result = transition(
        row,
        { type: "routing_failed", failure: failure.failure, attempts: failure.attempts },
        at,
      );
      if (isRefusal(result)) continue;
      const written = asChange(row, result, at);
      if (written.change) changes.push(written.change);
      events.push(...written.events);
    }
    return { changes, events };
  });
}

/** When the next owed row of a failed order is due to be tried again; null: none waits. */
export async function nextReconcileRetry(deps: Pick<ServiceDeps, "db">, shop: string): Promise<Date | null> {
  const next = await deps.db.shopifyFulfillmentOrder.findFirst({
    where: { shop, reconcilePending: true, reconcileRetryAt: { not: null } },
    orderBy: { reconcileRetryAt: "asc" },
    select: { reconcileRetryAt: true },
  });
  return next?.reconcileRetryAt ?? null;
}
