// Orders that may or may not have reached the warehouse: found by ReportStatusOrder and taken as accepted,
// or, once the warehouse has had time enough and still does not have them, handed to the merchant. An
// order in doubt is never sent again by the worker: a second AddOrder could make a second parcel.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { WarehouseError, WarehouseUnauthorized } from "../warehouse/errors";
import type { OrderStatus } from "../warehouse/schemas";
import { OPERATIONS } from "../warehouse/wire";
import { decidesAnswer, requestAnswersFor } from "../service/kinds.server";
import { FIRST_CHECK_AFTER_MS, requestStatusCheck } from "../statuses/kinds.server";
import { ATTENTION, ORDER_STATE } from "./states";
import { foundAtWarehouse, lookUpFailed, notFoundAtWarehouse, type Transition } from "./state-machine";
import { failureOf, type ShopWorkDeps, type StepResult } from "./step.server";
import { EVENT, recordEvents, timelineText, type OrderEventInput } from "./timeline.server";

export interface InDoubtSettings {
  /**
   * How long after its last AddOrder left the warehouse could still be creating an order (a slow request,
   * its own queue): a miss before then proves nothing. Counted from the row's `submittedAt`, so a restart
   * does not start it again.
   */
  missBelievedAfterMs: number;
  /** Look-ups past that window that must all miss before the merchant is asked. */
  missesBeforeAttention: number;
  /** Between two look-ups of an order that was not found (ReportStatusOrder is one a minute anyway). */
  lookupIntervalMs: number;
  /** The most id_order values one ReportStatusOrder carries. */
  idsPerLookup: number;
}

export const IN_DOUBT: InDoubtSettings = {
  missBelievedAfterMs: 10 * 60_000,
  missesBeforeAttention: 3,
  lookupIntervalMs: 60_000,
  // The provider documents no limit for `orders`; AddOrder's 100 is the one size it is known to take.
  idsPerLookup: 100,
};

const WORK = { did: "work" } as const;
const NOTHING = { did: "nothing" } as const;

/**
 * The condition of every write that follows a request: the row is still at the version read (every write
 * to an order raises it, see commit.server.ts), so nothing decided from the old row lands on a newer one.
 */
function asRead(row: OrderRow) {
  return { id: row.id, version: row.version };
}

/** Every write raises the version, so a write decided on the row before this one cannot land after it. */
const NEXT_VERSION = { version: { increment: 1 } } as const;

/** When the order last left in an AddOrder: the claim sets `submittedAt` on every send. */
function lastSentAt(row: OrderRow): Date {
  return row.submittedAt ?? row.updatedAt;
}

/**
 * Orders left `submitting` by a worker that stopped mid-request: the request may have reached the
 * warehouse, so they are in doubt. Only claims older than a lease and a whole request are taken: a holder
 * whose lease lapsed in a stall may still have that batch out, and its answer is still to be recorded.
 * Answers how many became in doubt, and when the youngest claim left alone will be old enough.
 */
export async function recoverInterruptedSubmissions(
  deps: ServiceDeps,
  shop: string,
  timing: { leaseTtlMs: number; requestTimeoutMs: number },
): Promise<{ recovered: number; nextAt: Date | null }> {
  const now = deps.clock();
  const ageMs = timing.leaseTtlMs + timing.requestTimeoutMs;
  const rows = await deps.db.warehouseOrder.findMany({ where: { shop, state: ORDER_STATE.submitting } });
  // The claim sets both; an update that came in since moves `updatedAt` on, which only waits longer.
  const claimedAt = (row: OrderRow) => Math.max(row.updatedAt.getTime(), row.submittedAt?.getTime() ?? 0);
  const stale = rows.filter((row) => claimedAt(row) + ageMs <= now.getTime());
  const fresh = rows.filter((row) => claimedAt(row) + ageMs > now.getTime());
  const nextAt = fresh.length ? new Date(Math.min(...fresh.map(claimedAt)) + ageMs) : null;
  if (!stale.length) return { recovered: 0, nextAt };
  const recovered = await deps.db.$transaction(async (tx) => {
    const events: OrderEventInput[] = [];
    for (const row of stale) {
      const { count } = await tx.warehouseOrder.updateMany({
        where: asRead(row),
        data: { state: ORDER_STATE.inDoubt, nextAttemptAt: now, ...NEXT_VERSION },
      });
      if (count === 0) continue;
      events.push({
        shop,
        orderId: row.id,
        at: now,
        kind: EVENT.inDoubt,
        text: timelineText("workerStopped"),
      });
    }
    await recordEvents(tx, events);
    return events.length;
  });
  return { recovered, nextAt };
}

/** Why a row of the report cannot be this order: a field that differs; null when nothing says so. */
type Mismatch = { field: string; theirs: string; mine: string };

function notOurs(row: OrderRow, record: OrderStatus): Mismatch | null {
  // ReportStatusOrder's rows, as the notes give them, carry id_order, TTN, DeliveryCost, warnings, the
  // carrier's and the warehouse's status with their dates, and the carrier's tracking: nothing else that
  // tells our order from another with the same id_order (another shop on a shared key, say). The status
  // date is when the status last changed, not when the order was made, so it proves nothing either way.
  // Should the warehouse add identifiers (its ListOrder records carry some), each is checked against what
  // we sent or were told.
  const sent = row.sentOrder ? (JSON.parse(row.sentOrder) as Partial<Record<string, unknown>>) : {};
  const ours: [string, unknown][] = [
    ["external_id", sent.external_id],
    ["date_order", sent.date_order],
    ["id_order_FF", row.idOrderFF],
    ["key_order", row.keyOrder],
  ];
  for (const [field, mine] of ours) {
    const theirs = record[field];
    if (typeof theirs !== "string" || theirs === "" || typeof mine !== "string" || mine === "") continue;
    if (theirs !== mine) return { field, theirs, mine };
  }
  return null;
}

type Settled = { data: Partial<OrderRow>; event?: OrderEventInput };

function found(row: OrderRow, records: OrderStatus[], at: Date): Settled {
  return asSettled(row, at, foundAtWarehouse(row, records, at));
}

function missed(
  deps: ShopWorkDeps,
  settings: InDoubtSettings,
  row: OrderRow,
  others: { record: OrderStatus; reason: Mismatch }[],
  missesSoFar: number,
  at: Date,
): Settled {
  const result = notFoundAtWarehouse(
    row,
    {
      ...settings,
      sentAt: lastSentAt(row),
      missesSoFar,
      others: others.map(({ record, reason }) => ({ record, ...reason })),
    },
    at,
  );
  if (result.patch.attention === ATTENTION.notAtWarehouse) {
    deps.log.warn(
      { event: "orders.not_at_warehouse", orderId: row.id, misses: missesSoFar + 1 },
      "an order in doubt was not found at the warehouse; the merchant decides",
    );
  }
  return asSettled(row, at, result);
}

/** A transition of the order rules as this module writes it: the columns, and at most one event. */
function asSettled(row: OrderRow, at: Date, { patch, events }: Transition): Settled {
  const [event] = events;
  return {
    data: patch,
    ...(event && { event: { shop: row.shop, orderId: row.id, at, ...event } }),
  };
}

/**
 * Writes each order's outcome conditionally on the order being as read. One that changed while the
 * request was out (a cancellation came in, the merchant acted) is read again and, if still in doubt,
 * settled from what it is now: the warehouse's answer still holds, what we knew of the order did not.
 */
async function settle(
  deps: ShopWorkDeps,
  rows: OrderRow[],
  outcome: (row: OrderRow) => Settled,
): Promise<void> {
  let todo = rows;
  const answering: string[] = [];
  for (let round = 0; round < 3 && todo.length; round++) {
    const changed = await deps.db.$transaction(async (tx) => {
      const events: OrderEventInput[] = [];
      const moved: string[] = [];
      for (const row of todo) {
        const { data, event } = outcome(row);
        const { count } = await tx.warehouseOrder.updateMany({
          where: asRead(row),
          data: { ...data, ...NEXT_VERSION },
        });
        if (count === 0) moved.push(row.id);
        else {
          if (event) events.push(event);
          if (decidesAnswer(data)) answering.push(row.id);
        }
      }
      await recordEvents(tx, events);
      return moved;
    });
    todo = changed.length
      ? await deps.db.warehouseOrder.findMany({ where: { id: { in: changed }, state: ORDER_STATE.inDoubt } })
      : [];
  }
  // Still moving after three rounds: left due, for the next look-up.
  // Found at the warehouse (or not): a fulfillment service's answer may be owed now.
  await requestAnswersFor(deps, answering);
}

/**
 * One ReportStatusOrder for the shop's in-doubt orders that are due (up to `idsPerLookup` of them), and
 * what it says recorded for each. Answers `stop` with `keyRefused` on a 401: the engine pauses the shop
 * tied to the key that was refused.
 */
export async function lookUpInDoubtOrders(
  deps: ShopWorkDeps,
  shop: string,
  options: Partial<InDoubtSettings> = {},
): Promise<StepResult> {
  const settings = { ...IN_DOUBT, ...options };
  const { db } = deps;
  const now = deps.clock();
  const due = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.inDoubt, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: settings.idsPerLookup,
  });
  if (!due.length) return NOTHING;
  const allowedAt = await deps.warehouse.nextAllowedAt(OPERATIONS.reportStatusOrder);
  if (allowedAt > deps.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };

  let records: OrderStatus[];
  try {
    records = await deps.warehouse.reportStatusOrder(due.map((row) => row.idOrder));
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    if (error instanceof WarehouseUnauthorized) return { did: "stop", keyRefused: true };
    await lookupFailed(deps, due, error);
    return WORK;
  }
  const at = deps.clock();
  const byIdOrder = new Map<string, OrderStatus[]>();
  for (const record of records)
    byIdOrder.set(record.id_order, [...(byIdOrder.get(record.id_order) ?? []), record]);
  // Misses already counted since each order last left: durable, so a restart does not start them again.
  const earlier = await db.orderEvent.findMany({
    where: { orderId: { in: due.map((row) => row.id) }, kind: EVENT.notAtWarehouse },
    select: { orderId: true, at: true },
  });
  const missesSince = (row: OrderRow) =>
    earlier.filter((event) => event.orderId === row.id && event.at >= lastSentAt(row)).length;
  await settle(deps, due, (row) => {
    const listed = byIdOrder.get(row.idOrder) ?? [];
    const judged = listed.map((record) => ({ record, reason: notOurs(row, record) }));
    const ours = judged.filter(({ reason }) => reason === null).map(({ record }) => record);
    if (ours.length) return found(row, ours, at);
    const others = judged.flatMap(({ record, reason }) => (reason === null ? [] : [{ record, reason }]));
    return missed(deps, settings, row, others, missesSince(row), at);
  });
  if (records.length) {
    // Those found are the warehouse's now: their statuses are looked up from here on.
    await requestStatusCheck(db, shop, new Date(deps.clock().getTime() + FIRST_CHECK_AFTER_MS));
  }
  deps.log.info(
    {
      event: "orders.looked_up",
      orders: due.length,
      listed: records.length,
    },
    "in-doubt orders looked up with ReportStatusOrder",
  );
  return WORK;
}

/** A look-up without an answer changes nothing at the warehouse: it is simply tried again later. */
async function lookupFailed(deps: ShopWorkDeps, rows: OrderRow[], error: WarehouseError): Promise<void> {
  const at = deps.clock();
  await settle(deps, rows, (row) => {
    const failure = failureOf(deps, error, { attempts: row.attempts, at, addOrder: false });
    return asSettled(row, at, lookUpFailed(row, failure, at));
  });
}
