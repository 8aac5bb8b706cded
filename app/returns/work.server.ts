// The returns register as a kind of the engine's work: every half hour (and when a key is saved), the
// warehouse's ListReturnOrder is swept over a period of Kyiv dates, one page a run, after the shop's orders
// and its due status look-ups. Each record is read on its own (read.ts) and kept once per shop
// (WarehouseReturn, by its identity); a return seen for the first time is written on its order's timeline,
// moves the order to returned, and, when the stock settings say so, asks for a stock sync at once. A page
// the warehouse keeps refusing is moved past, kept in the cursor and tried again on its own (SkippedPage,
// cursor.ts).
import { randomUUID } from "node:crypto";
import { writeTexts } from "../i18n/texts";
import { applyToOrders, asChange, type Change } from "../orders/commit.server";
import { isRefusal, transition } from "../orders/state-machine";
import { ordersGoFirst } from "../orders/submit.server";
import type { OrderEventInput } from "../orders/timeline.server";
import { insertStatement, sqlTransaction, type SqlTransaction } from "../db/sql.server";
import { STATUSES_KIND } from "../statuses/kinds.server";
import { requestStockSync } from "../stock/kinds.server";
import { parseStockSettings } from "../stock/settings";
import { WarehouseError } from "../warehouse/errors";
import { storedWarehouseError, warehouseErrorText } from "../warehouse/texts";
import { LIST_PAGE_SIZE, OPERATIONS } from "../warehouse/wire";
import { scheduledKind, type Schedule, type ScheduledRun } from "../work/schedule.server";
import { keyOrLimitOutcome, type ShopWork, type StepResult } from "../work/steps.server";
import {
  dueSkipped,
  nextPass,
  nextSkippedAt,
  readCursor,
  SAME_PAGE_FAILURES,
  samePage,
  withRefusal,
  type ReturnsCursor,
  type SkippedPage,
} from "./cursor";
import { RETURNS_KIND } from "./kinds.server";
import { linesOf, readReturnRecord, saleableUnits, type ReadReturn } from "./read";

/**
 * A sweep every half hour: a return is the start of a refund the merchant decides over days, so half an
 * hour late costs nothing, while each sweep spends one of the key's ListReturnOrder slots (one a minute) and
 * its share of the 60 a minute the orders need. It matches the status polling's default.
 */
export const SWEEP_EVERY_MS = 30 * 60_000;

/** While the shop's orders have work due, the sweep waits this long: orders go first. */
const ORDERS_FIRST_MS = 15_000;

/** While the shop's status look-ups are due, the sweep waits this long, for at most STATUSES_FIRST_AT_MOST_MS. */
const STATUSES_FIRST_MS = 15_000;
/** A shop with orders in flight always has look-ups due: past this, the sweep goes anyway. */
const STATUSES_FIRST_AT_MOST_MS = 10 * 60_000;

/** After a failure the warehouse may recover from (5xx, a timeout), the next try. */
const RETRY_MS = 5 * 60_000;

// Up to 5 of its 30 minutes early, with a pass that runs anyway (decision 023).
export const returnsWork = scheduledKind(RETURNS_KIND, sweepReturns, { earlyMs: 5 * 60_000 });

async function sweepReturns(work: ShopWork, schedule: Schedule): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
  if (ordersFirst) return { nextRunAt: ordersFirst };
  const now = work.clock();
  // Status look-ups due now go first, but a sweep due for long goes anyway (see STATUSES_FIRST_AT_MOST_MS).
  // A wait leaves the row due as it was, so how long it has waited is measured from when it fell due.
  if (now.getTime() - schedule.nextRunAt.getTime() < STATUSES_FIRST_AT_MOST_MS) {
    const statuses = await db.shopSchedule.findUnique({
      where: { shop_kind: { shop, kind: STATUSES_KIND } },
      select: { nextRunAt: true },
    });
    if (statuses && statuses.nextRunAt <= now)
      return { did: "wait", until: new Date(now.getTime() + STATUSES_FIRST_MS) };
  }
  const allowedAt = await work.warehouse.nextAllowedAt(OPERATIONS.listReturnOrder);
  if (allowedAt > work.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };

  const cursor = readCursor(schedule.cursor);
  // Between sweeps, a skipped page that is due goes first; a sweep follows at once (one page a minute).
  const retry = cursor.pass ? undefined : dueSkipped(cursor.skipped, now);
  if (retry) return retrySkipped(work, cursor, retry);
  const pass = cursor.pass ?? nextPass(cursor.sweptTo, now);
  let records: unknown[];
  try {
    records = await work.warehouse.listReturnOrder({
      datefrom: pass.from,
      dateto: pass.to,
      page: pass.page,
    });
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const outcome = await keyOrLimitOutcome(error, work.clock);
    if (outcome) return outcome;
    const failures = pass.failures + 1;
    const at = work.clock();
    // A failure the warehouse may recover from (5xx, a timeout): the same page again a few minutes on,
    // while it keeps failing: after SAME_PAGE_FAILURES in a row, it is refused like any other.
    if (error.retryable && failures < SAME_PAGE_FAILURES) {
      work.log.warn(
        { event: "returns.sweep_failed", page: pass.page, failures, err: error },
        "ListReturnOrder failed; the sweep goes on from the same page later",
      );
      return {
        nextRunAt: new Date(at.getTime() + RETRY_MS),
        cursor: JSON.stringify({ ...cursor, pass: { ...pass, failures } }),
        problem: storedWarehouseError(error),
      };
    }
    const skipped = withRefusal(cursor.skipped, pass, warehouseErrorText(error), at);
    // Two pages refused in a row: the warehouse refuses the register, not a page of it. The sweep stops
    // here, without moving what it covered, and starts again at the next sweep.
    if (pass.afterSkip) {
      work.log.error(
        { event: "returns.sweep_refused", from: pass.from, to: pass.to, page: pass.page, err: error },
        "ListReturnOrder refused two pages in a row; the sweep stops until the next one",
      );
      return {
        nextRunAt: new Date(at.getTime() + SWEEP_EVERY_MS),
        cursor: JSON.stringify({ ...cursor, pass: null, skipped }),
        problem: storedWarehouseError(error),
      };
    }
    work.log.error(
      { event: "returns.page_skipped", from: pass.from, to: pass.to, page: pass.page, err: error },
      "ListReturnOrder refused a page; the sweep moves past it and tries it again later",
    );
    return {
      nextRunAt: at,
      cursor: JSON.stringify({
        ...cursor,
        pass: { ...pass, page: pass.page + 1, failures: 0, afterSkip: true },
        skipped,
      }),
    };
  }
  const stored = await recordReturns(work, records.map(readReturnRecord));
  work.log.info(
    {
      event: "returns.swept",
      from: pass.from,
      to: pass.to,
      page: pass.page,
      records: records.length,
      ...stored,
    },
    "a page of the returns register read",
  );
  // A page read is no longer skipped, whoever read it.
  const skipped = cursor.skipped.filter((entry) => !samePage(entry, pass));
  // A full page may have more behind it: the next goes as soon as the report limit allows.
  if (records.length >= LIST_PAGE_SIZE) {
    return {
      nextRunAt: work.clock(),
      cursor: JSON.stringify({
        ...cursor,
        pass: { ...pass, page: pass.page + 1, failures: 0, afterSkip: false },
        skipped,
      }),
    };
  }
  const done: ReturnsCursor = { sweptTo: pass.to, pass: null, skipped };
  const nextSweep = work.clock().getTime() + SWEEP_EVERY_MS;
  const nextSkipped = nextSkippedAt(skipped);
  return {
    nextRunAt: new Date(nextSkipped === null ? nextSweep : Math.min(nextSweep, nextSkipped)),
    cursor: JSON.stringify(done),
  };
}

/**
 * One more try of a page the sweep moved past: read, its returns are kept as any page's and it leaves the
 * list; refused again, it waits longer (skippedPageWait), or is given up after SKIPPED_PAGE_TRIES. A sweep
 * follows at once either way, so a run taken by a try never delays newer returns by more than a minute.
 */
async function retrySkipped(
  work: ShopWork,
  cursor: ReturnsCursor,
  entry: SkippedPage,
): Promise<ScheduledRun | StepResult> {
  let records: unknown[];
  try {
    records = await work.warehouse.listReturnOrder({
      datefrom: entry.from,
      dateto: entry.to,
      page: entry.page,
    });
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const outcome = await keyOrLimitOutcome(error, work.clock);
    if (outcome) return outcome;
    const skipped = withRefusal(cursor.skipped, entry, warehouseErrorText(error), work.clock());
    const givenUp = skipped.find((other) => samePage(other, entry))?.nextTryAt === null;
    work.log.error(
      { event: givenUp ? "returns.page_given_up" : "returns.page_refused_again", ...entry, err: error },
      givenUp
        ? "ListReturnOrder refused a skipped page once too often; it is shown on the Returns page and no longer tried"
        : "ListReturnOrder refused a skipped page again; it is tried again later",
    );
    return { nextRunAt: work.clock(), cursor: JSON.stringify({ ...cursor, skipped }) };
  }
  const stored = await recordReturns(work, records.map(readReturnRecord));
  work.log.info(
    { event: "returns.skipped_page_read", from: entry.from, to: entry.to, page: entry.page, ...stored },
    "a page of the returns register the warehouse had refused is read",
  );
  const skipped = cursor.skipped.filter((other) => !samePage(other, entry));
  return { nextRunAt: work.clock(), cursor: JSON.stringify({ ...cursor, skipped }) };
}

/** Whether another shop's settings name this shop's warehouse key. */
async function keyShared(work: { db: ShopWork["db"]; shop: string; keyDigest?: string }): Promise<boolean> {
  if (!work.keyDigest) return false;
  const others = await work.db.shopSettings.count({
    where: { apiKeyDigest: work.keyDigest, shop: { not: work.shop } },
  });
  return others > 0;
}

/** What a page changed, for the log. */
interface Recorded {
  fresh: number;
  seenAgain: number;
  linked: number;
  unreadable: number;
  restock: number;
}

/**
 * Keeps a page's records: those seen before only have `lastSeenAt` moved; each new one is inserted, and
 * those naming an order of ours it can read whole are written on that order's timeline, in the same
 * transaction as the inserts (conditional on each order's version, decided again on a clash). A new return
 * with units fit for sale asks for the stock sync first, when the stock settings say so and a location is
 * chosen: a sync asked for needlessly costs one report, a return kept without its sync would be missed.
 */
export async function recordReturns(
  work: Pick<ShopWork, "db" | "log" | "clock" | "shop"> & Partial<Pick<ShopWork, "keyDigest">>,
  page: ReadReturn[],
): Promise<Recorded> {
  const { db, shop } = work;
  const now = work.clock();
  const byKey = new Map<string, ReadReturn>();
  for (const record of page) if (!byKey.has(record.returnKey)) byKey.set(record.returnKey, record);
  const keys = [...byKey.keys()];
  const known = keys.length
    ? await db.warehouseReturn.findMany({
        where: { shop, returnKey: { in: keys } },
        select: { returnKey: true },
      })
    : [];
  const seen = new Set(known.map((row) => row.returnKey));
  if (seen.size) {
    await db.warehouseReturn.updateMany({
      where: { shop, returnKey: { in: [...seen] } },
      data: { lastSeenAt: now },
    });
  }
  let fresh = [...byKey.values()].filter((record) => !seen.has(record.returnKey));
  const recorded: Recorded = {
    fresh: fresh.length,
    seenAgain: seen.size,
    linked: 0,
    unreadable: fresh.filter((record) => record.problems.length > 0).length,
    restock: 0,
  };
  if (!fresh.length) return recorded;

  const idOrders = [...new Set(fresh.flatMap((record) => (record.idOrder ? [record.idOrder] : [])))];
  const orders = idOrders.length
    ? await db.warehouseOrder.findMany({
        where: { shop, idOrder: { in: idOrders } },
        select: { id: true, idOrder: true },
      })
    : [];
  const orderOf = new Map(orders.map((order) => [order.idOrder, order.id]));
  // Shops on one key read one register: each keeps the returns of its own orders (their prefixes differ),
  // never another's, whose records may name that store's buyers. What names no order is kept by each.
  if (fresh.some((record) => record.idOrder && !orderOf.has(record.idOrder)) && (await keyShared(work))) {
    const foreign = fresh.filter((record) => record.idOrder && !orderOf.has(record.idOrder));
    recorded.fresh -= foreign.length;
    recorded.unreadable -= foreign.filter((record) => record.problems.length > 0).length;
    fresh = fresh.filter((record) => !foreign.includes(record));
    if (!fresh.length) return recorded;
  }

  const settings = await db.shopSettings.findUnique({
    where: { shop },
    select: { stockSettings: true, locationId: true },
  });
  const restocking = parseStockSettings(settings?.stockSettings).settings.restockReturns;
  const restock = (record: ReadReturn) =>
    restocking &&
    Boolean(settings?.locationId) &&
    record.problems.length === 0 &&
    saleableUnits(record.lines) > 0;
  recorded.restock = fresh.filter(restock).length;
  if (recorded.restock) await requestStockSync(db, shop, now);

  const rows = fresh.map((record) => ({
    id: randomUUID(),
    shop,
    returnKey: record.returnKey,
    idOrder: record.idOrder,
    orderId: (record.idOrder && orderOf.get(record.idOrder)) || null,
    returnedAt: record.returnedAt,
    ttn: record.ttn,
    lines: JSON.stringify(record.lines),
    units: record.units,
    defective: record.defective,
    raw: record.raw,
    problem: writeTexts(record.problems),
    restockRequestedAt: restock(record) ? now : null,
    firstSeenAt: now,
    lastSeenAt: now,
  }));
  const insert = async (tx: SqlTransaction) => {
    const { sql, args } = insertStatement("WarehouseReturn", rows);
    await tx.execute(sql, args);
  };
  // What cannot be read whole is kept and shown, but moves no order: nobody knows what came back.
  const toOrders = new Map<string, ReadReturn[]>();
  fresh.forEach((record, index) => {
    const orderId = rows[index]!.orderId;
    if (orderId && record.problems.length === 0)
      toOrders.set(orderId, [...(toOrders.get(orderId) ?? []), record]);
  });
  recorded.linked = [...toOrders.values()].reduce((sum, list) => sum + list.length, 0);
  if (!toOrders.size) {
    await sqlTransaction(db, insert);
    return recorded;
  }
  // What came back before, per order: a return completes an order only with the returns before it.
  const earlier = await db.warehouseReturn.findMany({
    where: { shop, orderId: { in: [...toOrders.keys()] }, problem: null },
    select: { orderId: true, lines: true },
  });
  const before = new Map<string, { sku: string; count: number }[]>();
  for (const row of earlier) {
    const lines = linesOf(row.lines).map(({ sku, count }) => ({ sku, count }));
    before.set(row.orderId!, [...(before.get(row.orderId!) ?? []), ...lines]);
  }
  let inserted = false;
  await applyToOrders(
    work,
    [...toOrders.keys()],
    (current, at) => {
      const changes: Change[] = [];
      const events: OrderEventInput[] = [];
      for (const row of current) {
        // One transition after another: a second return of the order in this page sees the first's stage.
        let facts = row;
        let patch = {};
        const rowEvents: OrderEventInput[] = [];
        const cameBack = [...(before.get(row.id) ?? [])];
        for (const record of toOrders.get(row.id) ?? []) {
          const booked = {
            returnKey: record.returnKey,
            ttn: record.ttn,
            lines: record.lines,
            units: record.units,
            before: [...cameBack],
          };
          cameBack.push(...record.lines.map(({ sku, count }) => ({ sku, count })));
          const result = transition(facts, { type: "return_booked", booked }, at);
          if (isRefusal(result)) continue;
          const { events: more } = asChange(row, result, at);
          patch = { ...patch, ...result.patch };
          facts = { ...facts, ...result.patch };
          rowEvents.push(...more);
        }
        if (Object.keys(patch).length) changes.push({ row, data: patch });
        events.push(...rowEvents);
      }
      return { changes, events };
    },
    {
      also: async (tx) => {
        await insert(tx);
        inserted = true;
      },
    },
  );
  // Every order it named was gone meanwhile (an erasure): the returns are kept all the same.
  if (!inserted) await sqlTransaction(db, insert);
  return recorded;
}
