// Sending orders to the warehouse, for one shop, by the worker holding that shop's lease. The steps live
// by job: submit.server.ts (ready orders in AddOrder batches), changes.server.ts (edits and
// cancellations), commit.server.ts (the version-conditional writes); the in-doubt recovery and look-up
// below. The worker imports them all from here.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { pauseShop } from "../settings/settings.server";
import { toCompactDate } from "../warehouse/dates";
import { WarehouseError, WarehouseUnauthorized } from "../warehouse/errors";
import { LIST_PAGE_SIZE, OPERATIONS } from "../warehouse/wire";
import { backoffMs } from "../work/backoff";
import { commit as commitChanges, type Change } from "./commit.server";
import { transition, isRefusal, type OrderPatch } from "./state-machine";
import { ORDER_STATE, PENDING } from "./states";
import {
  limiterWait,
  NOTHING,
  STOP,
  UNAUTHORIZED_REASON,
  WORK,
  type ShopWorkDeps,
  type StepResult,
} from "./step.server";
import { EVENT, recordEvents, type OrderEventInput } from "./timeline.server";

export { BatchesInFlight, dueWorkWhere, submitReadyOrders } from "./submit.server";
export { sendPendingChange } from "./changes.server";
export { IN_DOUBT_SETTLE_MS, type ShopWorkDeps, type StepResult } from "./step.server";

// The look-up below writes what it finds over rows that may have moved meanwhile, skipping those.
const commit = (deps: ServiceDeps, changes: Change[], events: OrderEventInput[]) =>
  commitChanges(deps, changes, events, { strict: false });

/** The columns of an order the warehouse now has, by the order rules. */
function acceptedColumns(row: OrderRow, at: Date, idOrderFF: string, keyOrder: string): OrderPatch {
  const result = transition(row, { type: "accepted", idOrderFF, keyOrder }, at);
  return isRefusal(result) ? {} : result.patch;
}

/**
 * Orders left `submitting` by a worker that died mid-request: the request may have reached the warehouse,
 * so they are in doubt. Called by a new lease holder before it sends anything.
 */
export async function recoverInterruptedSubmissions(deps: ServiceDeps, shop: string): Promise<number> {
  const now = deps.clock();
  const rows = await deps.db.warehouseOrder.findMany({ where: { shop, state: ORDER_STATE.submitting } });
  if (!rows.length) return 0;
  await deps.db.warehouseOrder.updateMany({
    where: { id: { in: rows.map((row) => row.id) }, state: ORDER_STATE.submitting },
    data: { state: ORDER_STATE.inDoubt, nextAttemptAt: now },
  });
  await recordEvents(
    deps.db,
    rows.map((row) => ({
      shop,
      orderId: row.id,
      at: now,
      kind: EVENT.inDoubt,
      message:
        "The worker stopped while this order was being sent. It will be looked up at the warehouse before it is sent again.",
    })),
  );
  return rows.length;
}

/**
 * The running look-up of in-doubt orders: ListOrder (one page a minute) over the days they were sent,
 * until each is found or the pages run out. Kept in memory by the lease holder; if it is lost, the
 * next holder starts again from the first page, which is only slower.
 */
export interface InDoubtLookup {
  datefrom: string;
  dateto: string;
  page: number;
  /** id_order → order row id, of the orders not found yet. */
  missing: Map<string, string>;
}

export async function lookUpInDoubtOrders(
  deps: ShopWorkDeps,
  shop: string,
  cursor: { current: InDoubtLookup | null },
): Promise<StepResult> {
  const { db } = deps;
  const now = deps.clock();
  if (!cursor.current) {
    const due = await db.warehouseOrder.findMany({
      where: { shop, state: ORDER_STATE.inDoubt, nextAttemptAt: { lte: now } },
      orderBy: { submittedAt: "asc" },
      take: 1000,
      select: { id: true, idOrder: true, submittedAt: true, createdAt: true },
    });
    if (!due.length) return NOTHING;
    const first = due[0]!.submittedAt ?? due[0]!.createdAt;
    // A day earlier than our own clock says, in case the warehouse's clock dated it across midnight.
    cursor.current = {
      datefrom: toCompactDate(new Date(first.getTime() - 24 * 3600_000)),
      dateto: toCompactDate(now),
      page: 1,
      missing: new Map(due.map((row) => [row.idOrder, row.id])),
    };
  }
  const lookup = cursor.current;
  const wait = await limiterWait(deps, OPERATIONS.listOrder);
  if (wait) return { did: "wait", until: wait };

  let records;
  try {
    records = await deps.warehouse.listOrder({
      datefrom: lookup.datefrom,
      dateto: lookup.dateto,
      page: lookup.page,
    });
  } catch (error) {
    cursor.current = null;
    return lookupFailed(deps, shop, [...lookup.missing.values()], error);
  }
  const at = deps.clock();
  const found = records.filter((record) => lookup.missing.has(record.id_order));
  if (found.length) {
    const rows = await db.warehouseOrder.findMany({
      where: {
        id: { in: found.map((record) => lookup.missing.get(record.id_order)!) },
        state: ORDER_STATE.inDoubt,
      },
    });
    const byIdOrder = new Map(rows.map((row) => [row.idOrder, row]));
    const changes: Change[] = [];
    const events: OrderEventInput[] = [];
    for (const record of found) {
      lookup.missing.delete(record.id_order);
      const row = byIdOrder.get(record.id_order);
      if (!row) continue;
      changes.push({ row, data: acceptedColumns(row, at, record.id_order_FF ?? "", record.key_order ?? "") });
      events.push({
        shop,
        orderId: row.id,
        at,
        kind: EVENT.foundAtWarehouse,
        message: `Found at the warehouse as ${record.id_order_FF ?? "(no id given)"}: it had arrived, so it is not sent again.`,
        data: { record },
      });
    }
    await commit(deps, changes, events);
  }
  if (lookup.missing.size === 0) {
    cursor.current = null;
  } else if (records.length < LIST_PAGE_SIZE) {
    // The whole period was read and these are not in it: the warehouse never took them, send again.
    cursor.current = null;
    const rows = await db.warehouseOrder.findMany({
      where: { id: { in: [...lookup.missing.values()] }, state: ORDER_STATE.inDoubt },
    });
    await commit(
      deps,
      rows.map((row) =>
        row.pending === PENDING.cancel
          ? { row, data: { state: ORDER_STATE.cancelled, pending: null, nextAttemptAt: null } }
          : { row, data: { state: ORDER_STATE.ready, nextAttemptAt: at } },
      ),
      rows.map((row) => ({
        shop,
        orderId: row.id,
        at,
        kind: row.pending === PENDING.cancel ? EVENT.cancelled : EVENT.notAtWarehouse,
        message:
          row.pending === PENDING.cancel
            ? "Not at the warehouse, and cancelled in Shopify: nothing to send."
            : "Not at the warehouse: it never arrived, so it will be sent again.",
      })),
    );
  } else {
    lookup.page += 1;
  }
  return WORK;
}

async function lookupFailed(
  deps: ShopWorkDeps,
  shop: string,
  ids: string[],
  error: unknown,
): Promise<StepResult> {
  if (!(error instanceof WarehouseError)) throw error;
  if (error instanceof WarehouseUnauthorized) {
    await pauseShop(deps.db, shop, deps.clock(), UNAUTHORIZED_REASON);
    return STOP;
  }
  const at = deps.clock();
  const rows = await deps.db.warehouseOrder.findMany({
    where: { id: { in: ids }, state: ORDER_STATE.inDoubt },
  });
  await commit(
    deps,
    rows.map((row) => ({
      row,
      data: {
        attempts: row.attempts + 1,
        lastError: error.message,
        nextAttemptAt: new Date(at.getTime() + backoffMs(row.attempts + 1, deps.random, deps.backoff)),
      },
    })),
    rows.map((row) => ({
      shop,
      orderId: row.id,
      at,
      kind: EVENT.retryScheduled,
      message: `Could not look the order up at the warehouse: ${error.message}. Trying again later.`,
    })),
  );
  return WORK;
}
