// Statuses coming back: under a shop's lease, one ReportStatusOrder at a time (the warehouse allows one a
// minute per key) for the orders a notification named first, then for those in flight that have gone
// longest unchecked. Each record is read through the status table and written by the order rules: the
// stage only forwards, the waybill and the statuses as reported, Shopify due to be told once the order has
// shipped with a waybill. A notification is only a hint: nothing moves without the report.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { applyToOrders, asChange, type Change } from "../orders/commit.server";
import { databaseNow } from "../db/clock.server";
import { transition, isRefusal } from "../orders/state-machine";
import { ORDER_STATE, STAGE } from "../orders/states";
import { ordersGoFirst } from "../orders/submit.server";
import type { OrderEventInput } from "../orders/timeline.server";
import { WarehouseError } from "../warehouse/errors";
import { storedWarehouseError } from "../warehouse/texts";
import type { OrderStatus } from "../warehouse/schemas";
import { OPERATIONS } from "../warehouse/wire";
import { scheduledKind, type ScheduledRun } from "../work/schedule.server";
import { keyOrLimitOutcome, type ShopWork, type StepResult } from "../work/steps.server";
import { requestFulfillment, STATUSES_KIND } from "./kinds.server";
import { parseStatusSettings, type StatusSettings } from "./settings";
import { readStatus } from "./status-table";

/** Stages after which the warehouse has nothing more to report (returned aside, which polling may miss). */
const IN_FLIGHT = { OR: [{ stage: null }, { stage: { in: [STAGE.picked, STAGE.shipped] } }] };

/** While the shop's orders have work of their own, the report waits this long: orders go first. */
const ORDERS_FIRST_MS = 15_000;

// Up to 5 of its 30 minutes early, with a pass that runs anyway (decision 023).
export const statusesWork = scheduledKind(STATUSES_KIND, checkStatuses, { earlyMs: 5 * 60_000 });

export async function statusSettingsOf(work: Pick<ShopWork, "db" | "log" | "shop">): Promise<StatusSettings> {
  const row = await work.db.shopSettings.findUnique({
    where: { shop: work.shop },
    select: { statusSettings: true },
  });
  const { settings, problem } = parseStatusSettings(row?.statusSettings);
  if (problem) {
    work.log.warn(
      { event: "settings.status_settings_invalid", problem },
      "the shop's saved status settings no longer validate; the defaults are used until they are saved again",
    );
  }
  return settings;
}

async function checkStatuses(work: ShopWork): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const now = work.clock();
  const settings = await statusSettingsOf(work);
  const pollMs = settings.pollMinutes * 60_000;
  // Orders first: their submissions, changes and look-ups share the key's minute with this report.
  const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
  if (ordersFirst) return { nextRunAt: ordersFirst };
  const hinted = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.accepted, statusHintAt: { not: null } },
    orderBy: { statusHintAt: "asc" },
    take: settings.idsPerReport,
  });
  const overdue =
    hinted.length < settings.idsPerReport
      ? await db.warehouseOrder.findMany({
          where: {
            shop,
            state: ORDER_STATE.accepted,
            statusHintAt: null,
            ...IN_FLIGHT,
            // Never checked (orders accepted before statuses came back) counts as longest unchecked.
            AND: [
              {
                OR: [
                  { statusCheckedAt: null },
                  { statusCheckedAt: { lte: new Date(now.getTime() - pollMs) } },
                ],
              },
            ],
          },
          orderBy: { statusCheckedAt: { sort: "asc", nulls: "first" } },
          take: settings.idsPerReport - hinted.length,
        })
      : [];
  const due = [...hinted, ...overdue];
  if (!due.length) return { nextRunAt: await nextPollAt(work, pollMs) };

  const allowedAt = await work.warehouse.nextAllowedAt(OPERATIONS.reportStatusOrder);
  if (allowedAt > work.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };
  const sentAt = work.clock();
  // The hints this report answers: those stamped before it went, by the clock that stamped them.
  const hintsBefore = await databaseNow(db);
  let records: OrderStatus[];
  try {
    records = await work.warehouse.reportStatusOrder(due.map((row) => row.idOrder));
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const outcome = await keyOrLimitOutcome(error, work.clock);
    if (outcome) return outcome;
    work.log.warn(
      { event: "statuses.report_failed", orders: due.length, err: error },
      "ReportStatusOrder failed; the orders are looked up again later",
    );
    // A report that failed for now goes again at the next report slot (a minute at the real limits).
    const { windowMs } = await work.warehouse.headroom(OPERATIONS.reportStatusOrder);
    return {
      nextRunAt: new Date(sentAt.getTime() + (error.retryable ? windowMs : pollMs)),
      // In the merchant's words (the settings page reads it back with readTexts); the log keeps the English.
      problem: storedWarehouseError(error),
    };
  }
  const settled = await settleReport(work, settings, due, records);
  if (settled.toShopify) await requestFulfillment(db, shop, work.clock());
  // Only hints that came before the report: one that came while it was out is for a newer status (one in
  // the same millisecond stays too, and costs at most one more look-up).
  await db.warehouseOrder.updateMany({
    where: { id: { in: due.map((row) => row.id) }, statusHintAt: { lt: hintsBefore } },
    data: { statusHintAt: null },
  });
  work.log.info(
    {
      event: "statuses.reported",
      orders: due.length,
      hinted: hinted.length,
      listed: records.length,
      moved: settled.moved,
      unmatched: settled.unmatched,
      toShopify: settled.toShopify,
    },
    "order statuses looked up with ReportStatusOrder",
  );
  // A full report leaves more to check: the next goes when the limits allow.
  const more = due.length === settings.idsPerReport;
  return { nextRunAt: more ? work.clock() : await nextPollAt(work, pollMs) };
}

/** When the longest-unchecked order in flight falls due; null when none is in flight. */
async function nextPollAt(work: ShopWork, pollMs: number): Promise<Date | null> {
  const oldest = await work.db.warehouseOrder.findFirst({
    where: { shop: work.shop, state: ORDER_STATE.accepted, ...IN_FLIGHT },
    orderBy: { statusCheckedAt: { sort: "asc", nulls: "first" } },
    select: { statusCheckedAt: true },
  });
  if (!oldest) return null;
  const now = work.clock().getTime();
  return new Date(Math.max(now, (oldest.statusCheckedAt?.getTime() ?? now) + pollMs));
}

/**
 * The record that is this order's. The warehouse may list one id_order more than once (a key shared by
 * two shops, say): a record naming another key_order or id_order_FF than the order's is not its.
 */
function recordOf(row: OrderRow, records: OrderStatus[]): OrderStatus | undefined {
  const candidates = records.filter((record) => {
    for (const [field, mine] of [
      ["key_order", row.keyOrder],
      ["id_order_FF", row.idOrderFF],
    ] as const) {
      const theirs = (record as Record<string, unknown>)[field];
      if (typeof theirs === "string" && theirs !== "" && mine && theirs !== mine) return false;
    }
    return true;
  });
  return candidates.length === 1 ? candidates[0] : undefined;
}

async function settleReport(
  work: ShopWork,
  settings: StatusSettings,
  due: OrderRow[],
  records: OrderStatus[],
): Promise<{ moved: number; unmatched: number; toShopify: number }> {
  const byIdOrder = new Map<string, OrderStatus[]>();
  for (const record of records)
    byIdOrder.set(record.id_order, [...(byIdOrder.get(record.id_order) ?? []), record]);
  let moved = 0;
  let unmatched = 0;
  let toShopify = 0;
  await applyToOrders(
    work,
    due.map((row) => row.id),
    (rows, at) => {
      moved = 0;
      unmatched = 0;
      toShopify = 0;
      const changes: Change[] = [];
      const events: OrderEventInput[] = [];
      for (const row of rows) {
        const record = recordOf(row, byIdOrder.get(row.idOrder) ?? []);
        if (!record) {
          // Not in the answer (or not told apart from another's): checked all the same, so polling moves on.
          unmatched++;
          changes.push({ row, data: { statusCheckedAt: at } });
          continue;
        }
        const reading = readStatus(
          { id: record.status_mtp_id, name: record.status_mtp },
          settings.statusRules,
        );
        const result = transition(
          row,
          {
            type: "status_reported",
            report: {
              ...reading,
              ttn: record.TTN.trim(),
              warehouseStatus: {
                id: record.status_mtp_id,
                name: record.status_mtp,
                date: record.status_mtp_date,
              },
              carrierStatus: {
                id: record.status_TTN_id,
                name: record.status_TTN,
                date: record.status_TTN_date,
              },
              record,
            },
          },
          at,
        );
        if (isRefusal(result)) continue;
        if (result.patch.stage) moved++;
        if (result.patch.fulfillmentDueAt) toShopify++;
        const { change, events: more } = asChange(row, result, at);
        if (change) changes.push(change);
        events.push(...more);
      }
      return { changes, events };
    },
    { rows: due },
  );
  return { moved, unmatched, toShopify };
}
