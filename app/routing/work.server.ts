// The scheduled kind `fulfillment_orders`: the shop's fulfillment orders changed since a watermark, read from the
// top-level `fulfillmentOrders` query page by page (250 listed a page, oldest change first, closed ones too, the
// facts read only of those whose stored row is not the newest: read.server.ts), each page stored
// (storeFulfillmentOrders) and the orders it changed reconciled (reconcileRouting) before the watermark moves past
// it. Never a query per order.
//
// The fulfillment orders a fulfillment_orders/* webhook named (RoutingHint, noted by the route) are read by id
// first, in place of a listing tip pass: a point or so for fifty, where listing costs a point each.
//
// Shopify's search index lags behind its writes: a `updated_at:>=` search made now may not yet see a change made
// a moment ago, while it sees a later one, and a watermark moved to the later one would skip the earlier for
// good. So two watermarks, in the cursor:
// - `tip`, the newest updatedAt read: a *tip pass* (asked for by a webhook or an order waiting for routing)
//   reads from it, for speed;
// - `settled`, before which every change has been read by a read that began SETTLE_MARGIN_MS or more after it:
//   a *settle pass* reads from it up to its own start less the margin, and moves it there. One is due
//   SETTLE_AFTER_TIP_MS after a tip pass began, and at the sweep (SWEEP_EVERY_MS; sooner while an order has
//   waited for routing: ROUTING_WAIT_MS after it began to wait, then every ROUTING_REREAD_MS while it waits).
// A change is so read at most about twice (once by a tip pass, once by a settle pass), not once per run within
// the margin, which would multiply the cost by the runs a busy minute has. Re-reading is harmless: storing is
// idempotent, and a row whose facts changed stays owed its reconcile (reconcilePending) until one has taken it.
//
// An order whose reconcile fails for a reason of its own does not hold the page: reconcileRouting applies the
// others and answers it, its rows stay owed, tried again after 1, 2, 4, 8 minutes, then put aside with the
// merchant told (failures.server.ts). Only a reconcile that fails as a whole (the database) keeps the page, read
// again a minute later (RECONCILE_RETRY_MS) until it works; it counts against no order.
import { reconcileRouting, type ReconcileFailure } from "./reconcile.server";
import { ShopifyThrottled } from "../shopify/admin-graphql.server";
import type { ShopWork, StepResult } from "../work/steps.server";
import { requestRun, scheduledKind, type Schedule, type ScheduledRun } from "../work/schedule.server";
import { FULFILLMENT_ORDERS_KIND, ONLINE_LOCATIONS_KIND } from "./kinds.server";
import { ONLINE_LOCATIONS_EVERY_MS } from "./locations.server";
import { readFulfillmentOrders, readFulfillmentOrdersPage } from "./read.server";
import { nextReconcileRetry, reconcilesFailed } from "./failures.server";
import { owedReconciles, reconcilesTaken, storeFulfillmentOrders } from "./store.server";

/**
 * How long a change may take to reach Shopify's search index. Shopify documents no bound; the lag seen is
 * seconds. A minute is ten times that and more, and costs nothing but the second read's delay: the settle pass
 * that catches a change the tip pass missed runs a minute after it.
 */
export const SETTLE_MARGIN_MS = 60_000;
/**
 * A settle pass follows a tip pass this much later: past the margin, and past the engine's hold wait (65 s), so
 * no shop keeps its lease idle for it (the engine's sweep starts it).
 */
export const SETTLE_AFTER_TIP_MS = 2 * 60_000;
/** The safety net when no webhook comes: a settle pass at least this often. */
export const SWEEP_EVERY_MS = 10 * 60_000;
/** An order waiting for routing longer than this makes a settle pass due... */
export const ROUTING_WAIT_MS = 60_000;
/** ...and another this often while it still waits (beyond the engine's hold wait, as SETTLE_AFTER_TIP_MS). */
export const ROUTING_REREAD_MS = 2 * 60_000;
/** A first read starts this far back at most, whatever waits (an order waiting for routing since long ago). */
export const FIRST_READ_AT_MOST_MS = 3 * 24 * 3600_000;
/**
 * A tip pass that began this long after the newest updatedAt it read moves its watermark a second past it: that
 * second was whole when read, allowing for this much difference between this app's clock and Shopify's.
 */
export const WHOLE_SECOND_AFTER_MS = 5_000;
/**
 * After a reconcile that failed as a whole (the database), the same page is read again this much later. An order
 * that fails on its own does not hold the others: it is counted and tried again apart (failures.server.ts).
 */
export const RECONCILE_RETRY_MS = 60_000;

export interface RoutingPass {
  kind: "tip" | "settle";
  /** ISO: the pass reads fulfillment orders updated at or after this. */
  from: string;
  /** ISO, settle passes: read until a page reaches this updatedAt; then `settled` moves here. */
  to: string | null;
  /** The page cursor of the next page; null: the first. */
  after: string | null;
  /** Orders a page changed that reconcileRouting has not yet taken (it failed): taken with the page read again. */
  pending: string[];
  /** ISO: when the pass began (by this app's clock). */
  startedAt?: string;
}

export interface RoutingCursor {
  tip: string;
  settled: string;
  /** ISO: when the first tip pass not yet covered by a settle pass began; null: none. */
  unsettledTipAt: string | null;
  /** ISO: when the last tip pass began. */
  lastTipAt: string | null;
  /** ISO: when the last settle pass began. */
  lastSettleAt: string;
  pass: RoutingPass | null;
  /** ISO: the next run this kind planned itself (a run due then and not asked for sooner may read nothing). */
  plannedAt?: string;
}

/** reconcileRouting's shape (a test's spy may answer nothing: no order failed on its own). */
export type Reconcile = (...args: Parameters<typeof reconcileRouting>) => Promise<ReconcileFailure[] | void>;

function iso(at: Date | number): string {
  return new Date(at).toISOString();
}

export function readRoutingCursor(text: string | null): RoutingCursor | null {
  if (!text) return null;
  try {
    const cursor = JSON.parse(text) as RoutingCursor;
    return typeof cursor.tip === "string" && typeof cursor.settled === "string" ? cursor : null;
  } catch {
    return null;
  }
}

/** Since when the oldest order recorded as waiting for routing has waited; null: none waits. */
async function oldestRoutingWait(work: Pick<ShopWork, "db" | "shop">): Promise<Date | null> {
  const oldest = await work.db.warehouseOrder.findFirst({
    where: { shop: work.shop, state: "waiting", waitReason: "routing" },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  return oldest?.createdAt ?? null;
}

/** When the next settle pass is due (the sweep, a tip pass's margin, an order waiting for routing). */
export function settleDueAt(cursor: RoutingCursor, routingWaitSince: Date | null): number {
  const lastSettle = Date.parse(cursor.lastSettleAt);
  const due = [lastSettle + SWEEP_EVERY_MS];
  if (cursor.unsettledTipAt) due.push(Date.parse(cursor.unsettledTipAt) + SETTLE_AFTER_TIP_MS);
  if (routingWaitSince) {
    // A minute after the order began to wait; once a settle pass has run since then, every ROUTING_REREAD_MS.
    const first = routingWaitSince.getTime() + ROUTING_WAIT_MS;
    due.push(lastSettle < first ? first : lastSettle + ROUTING_REREAD_MS);
  }
  return Math.min(...due);
}

/** The kind, with the reconcile it calls (tests give a spy; the engine the real one). */
export function fulfillmentOrdersKind(options: { reconcile?: Reconcile } = {}) {
  const reconcile = options.reconcile ?? reconcileRouting;
  return scheduledKind(FULFILLMENT_ORDERS_KIND, (work, schedule) => readRun(work, schedule, reconcile));
}

export const fulfillmentOrdersWork = fulfillmentOrdersKind();

async function readRun(
  work: ShopWork,
  schedule: Schedule,
  reconcile: Reconcile,
): Promise<ScheduledRun | StepResult> {
  const now = work.clock();
  const waitSince = await oldestRoutingWait(work);
  let cursor = readRoutingCursor(schedule.cursor);
  if (!cursor) {
    const start = Math.max(
      now.getTime() - FIRST_READ_AT_MOST_MS,
      Math.min(now.getTime(), waitSince?.getTime() ?? Infinity) - SETTLE_MARGIN_MS,
    );
    cursor = {
      tip: iso(start),
      settled: iso(start),
      unsettledTipAt: null,
      lastTipAt: null,
      lastSettleAt: iso(now),
      pass: null,
    };
  }
  await askForLocationsIfStale(work, now);
  let pass = cursor.pass;
  const settleDue = settleDueAt(cursor, waitSince);
  // Due at the time the last run planned, not asked for sooner by anyone, and no settle pass due (the order that
  // waited for routing has its answer): nothing to read until the next one.
  // An order that failed on its own may be due to be tried again meanwhile: only what is owed is reconciled.
  if (!pass && settleDue > now.getTime() && cursor.plannedAt === iso(schedule.nextRunAt)) {
    const retried = await reconcileOwed(work, reconcile, []);
    if (retried.failed) return reconcileFailed(work, retried, cursor);
    return planned(cursor, await nextRunAt(work, settleDue));
  }
  // Fulfillment orders a webhook named: read by id (a point or so for fifty) instead of listing every change
  // since the tip watermark; this counts as a tip pass (the settle pass lists everything a margin later), and
  // goes before a settle pass that is due, which only catches what no webhook named.
  if (!pass) {
    let hinted;
    try {
      hinted = await readHinted(work, reconcile, now);
    } catch (error) {
      if (error instanceof ShopifyThrottled)
        return { did: "wait", until: new Date(work.clock().getTime() + error.retryAfterMs) };
      throw error;
    }
    if (hinted) {
      cursor = { ...cursor, lastTipAt: iso(now), unsettledTipAt: cursor.unsettledTipAt ?? iso(now) };
      if (hinted === "failed")
        return {
          nextRunAt: new Date(work.clock().getTime() + RECONCILE_RETRY_MS),
          cursor: JSON.stringify(cursor),
        };
      // More hinted, or asked for meanwhile: on at once; else the settle pass.
      return hinted === "more"
        ? { nextRunAt: work.clock(), cursor: JSON.stringify(cursor) }
        : planned(cursor, await nextRunAt(work, settleDueAt(cursor, waitSince)));
    }
  }
  if (!pass) {
    if (settleDue <= now.getTime()) {
      pass = {
        kind: "settle",
        from: cursor.settled,
        to: iso(now.getTime() - SETTLE_MARGIN_MS),
        after: null,
        pending: [],
        startedAt: iso(now),
      };
      cursor = { ...cursor, lastSettleAt: iso(now) };
    } else {
      pass = { kind: "tip", from: cursor.tip, to: null, after: null, pending: [], startedAt: iso(now) };
      cursor = { ...cursor, lastTipAt: iso(now), unsettledTipAt: cursor.unsettledTipAt ?? iso(now) };
    }
  }

  let page;
  try {
    page = await readFulfillmentOrdersPage(
      work,
      await work.admin(),
      work.shop,
      new Date(pass.from),
      pass.after,
    );
  } catch (error) {
    // Waited out by the client as long as it waits; longer, the run waits with the row still due.
    if (error instanceof ShopifyThrottled)
      return { did: "wait", until: new Date(work.clock().getTime() + error.retryAfterMs) };
    throw error;
  }
  const changed = await storeFulfillmentOrders(work, work.shop, page.nodes, now);
  const reconciled = await reconcileOwed(work, reconcile, [...pass.pending, ...changed]);
  if (reconciled.failed) {
    work.log.error(
      { event: "routing.reconcile_failed", orders: reconciled.orders.length, err: reconciled.failed?.error },
      "the orders a page of fulfillment orders changed could not be reconciled; the page is read again later",
    );
    // Where the pass was, with the orders still owed: the watermark does not move past them.
    return {
      nextRunAt: new Date(work.clock().getTime() + RECONCILE_RETRY_MS),
      cursor: JSON.stringify({ ...cursor, pass: { ...pass, pending: reconciled.orders } }),
      problem: messageOf(reconciled.failed?.error),
    };
  }
  const last = page.listed.at(-1)?.updatedAt;
  const newest = last && Date.parse(last) > Date.parse(cursor.tip) ? iso(Date.parse(last)) : cursor.tip;
  cursor = { ...cursor, tip: newest };
  work.log.info(
    {
      event: "routing.fulfillment_orders_read",
      pass: pass.kind,
      from: pass.from,
      listed: page.listed.length,
      read: page.nodes.length,
      changedOrders: changed.length,
    },
    "a page of fulfillment orders read",
  );
  const reachedEnd =
    !page.hasNextPage ||
    !page.endCursor ||
    (pass.kind === "settle" && last !== undefined && Date.parse(last) >= Date.parse(pass.to!));
  if (!reachedEnd) {
    return {
      nextRunAt: work.clock(),
      cursor: JSON.stringify({ ...cursor, pass: { ...pass, after: page.endCursor, pending: [] } }),
    };
  }
  if (pass.kind === "settle") {
    const settled = pass.to!;
    const stillUnsettled = cursor.lastTipAt && Date.parse(cursor.lastTipAt) > Date.parse(settled);
    cursor = {
      ...cursor,
      settled: Date.parse(settled) > Date.parse(cursor.settled) ? settled : cursor.settled,
      unsettledTipAt: stillUnsettled ? cursor.lastTipAt : null,
    };
  }
  // Shopify's updatedAt has whole seconds and the search is `>=`: the newest second read is read again by the
  // next tip pass, unless the pass began well after it (then that second was whole when read; a change of it
  // the index showed late is the settle pass's). A burst is so not read twice by every tip pass.
  if (
    pass.kind === "tip" &&
    Date.parse(pass.startedAt ?? cursor.lastTipAt ?? iso(now)) - Date.parse(cursor.tip) >=
      WHOLE_SECOND_AFTER_MS
  )
    cursor = { ...cursor, tip: iso(Date.parse(cursor.tip) + 1000) };
  return planned({ ...cursor, pass: null }, await nextRunAt(work, settleDueAt(cursor, waitSince)));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What reconcileOwed did: the orders it reconciled, and the error if the reconcile failed as a whole. */
interface Reconciled {
  orders: string[];
  failed?: { error: unknown };
}

/**
 * Reconciles these orders and every owed one that is due (this read's changes among them: also those a run
 * that died between storing and reconciling left, which a read now finds equal and so would not answer). The
 * rows taken are no longer owed; an order that failed on its own keeps its rows owed and is counted
 * (failures.server.ts), the others going on. A reconcile that failed as a whole answers its error, nothing
 * taken and nothing counted.
 */
async function reconcileOwed(work: ShopWork, reconcile: Reconcile, orders: string[]): Promise<Reconciled> {
  const owed = await owedReconciles(work, work.shop);
  const toReconcile = [...new Set([...orders, ...owed.map((row) => row.shopifyOrderId)])];
  if (!toReconcile.length) return { orders: toReconcile };
  try {
    const failures = (await reconcile(work, work.shop, toReconcile)) ?? [];
    const failed = new Set(failures.map((failure) => failure.shopifyOrderId));
    await reconcilesTaken(
      work,
      work.shop,
      owed.filter((row) => !failed.has(row.shopifyOrderId)),
    );
    await reconcilesFailed(work, work.shop, failures);
  } catch (error) {
    return { orders: toReconcile, failed: { error } };
  }
  return { orders: toReconcile };
}

/** A reconcile that failed as a whole, outside a pass: tried again a minute later, the cursor as it was. */
function reconcileFailed(work: ShopWork, reconciled: Reconciled, cursor: RoutingCursor): ScheduledRun {
  work.log.error(
    { event: "routing.reconcile_failed", orders: reconciled.orders.length, err: reconciled.failed?.error },
    "the orders owed a reconcile could not be reconciled; they are tried again later",
  );
  return {
    nextRunAt: new Date(work.clock().getTime() + RECONCILE_RETRY_MS),
    cursor: JSON.stringify(cursor),
    problem: messageOf(reconciled.failed?.error),
  };
}

/** The next run: at `at`, or sooner when an order that failed on its own is to be tried again before. */
async function nextRunAt(work: ShopWork, at: number): Promise<number> {
  const retry = await nextReconcileRetry(work, work.shop);
  return retry ? Math.max(work.clock().getTime(), Math.min(at, retry.getTime())) : at;
}

/** Hinted fulfillment orders read a run at most. */
export const HINTS_A_RUN = 250;

/**
 * Reads the fulfillment orders webhooks named (RoutingHint), stores them, reconciles what is owed, and forgets
 * the hints read. Answers null when none was hinted, "more" when more are, "done", or "failed" (a reconcile
 * failed: the hints are kept, the rows stay owed).
 */
async function readHinted(
  work: ShopWork,
  reconcile: Reconcile,
  now: Date,
): Promise<null | "more" | "done" | "failed"> {
  const hints = await work.db.routingHint.findMany({
    where: { shop: work.shop, at: { lte: now } },
    orderBy: { at: "asc" },
    take: HINTS_A_RUN + 1,
  });
  if (!hints.length) return null;
  const taken = hints.slice(0, HINTS_A_RUN);
  const nodes = await readFulfillmentOrders(
    await work.admin(),
    taken.map((hint) => hint.fulfillmentOrderId),
  );
  const changed = await storeFulfillmentOrders(work, work.shop, nodes, now);
  const reconciled = await reconcileOwed(work, reconcile, changed);
  if (reconciled.failed) {
    work.log.error(
      { event: "routing.reconcile_failed", orders: reconciled.orders.length, err: reconciled.failed?.error },
      "the orders hinted fulfillment orders changed could not be reconciled; they are read again later",
    );
    return "failed";
  }
  // Forgotten only as noted before the read began: a webhook that named one again meanwhile moved its time past
  // `now`, and it is read again.
  await work.db.routingHint.deleteMany({
    where: {
      shop: work.shop,
      fulfillmentOrderId: { in: taken.map((hint) => hint.fulfillmentOrderId) },
      at: { lte: now },
    },
  });
  work.log.info(
    { event: "routing.hinted_fulfillment_orders_read", read: nodes.length, changedOrders: changed.length },
    "fulfillment orders named by webhooks read",
  );
  return hints.length > HINTS_A_RUN ? "more" : "done";
}

/** The run's answer when no pass goes on: the next settle pass, the time noted in the cursor as its own. */
function planned(cursor: RoutingCursor, at: number): ScheduledRun {
  return { nextRunAt: new Date(at), cursor: JSON.stringify({ ...cursor, plannedAt: iso(at) }) };
}

/** The online locations never read, or not for longer than their daily read: a read is asked for. */
async function askForLocationsIfStale(work: ShopWork, now: Date): Promise<void> {
  const settings = await work.db.shopSettings.findUnique({
    where: { shop: work.shop },
    select: { onlineLocationsAt: true },
  });
  const readAt = settings?.onlineLocationsAt?.getTime();
  if (readAt !== undefined && now.getTime() - readAt < ONLINE_LOCATIONS_EVERY_MS + 3600_000) return;
  const scheduled = await work.db.shopSchedule.findUnique({
    where: { shop_kind: { shop: work.shop, kind: ONLINE_LOCATIONS_KIND } },
    select: { nextRunAt: true },
  });
  if (!scheduled || scheduled.nextRunAt > now)
    await requestRun(work.db, work.shop, ONLINE_LOCATIONS_KIND, now);
}
