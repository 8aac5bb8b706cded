// The fulfillment_orders kind against the Shopify fake over real HTTP, on the engine's clock: the shop's
// fulfillment orders read page by page from the watermark, stored, the orders that changed reconciled before
// the watermark moves; a failed reconcile reads the same page again; a change the search index showed late is
// caught by the settle pass; the sweep's timing (ten minutes, two minutes after a tip pass, a minute after an
// order began to wait for routing and every two while it waits). reconcileRouting is a spy given to the kind, as the engine gives the real one.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import {
  FULFILLMENT_ORDERS_KIND,
  hintFulfillmentOrders,
  requestRoutingRead,
} from "../../app/routing/kinds.server";
import { fulfillmentOrdersOf } from "../../app/routing/store.server";
import {
  fulfillmentOrdersKind,
  readRoutingCursor,
  RECONCILE_RETRY_MS,
  ROUTING_REREAD_MS,
  ROUTING_WAIT_MS,
  SETTLE_AFTER_TIP_MS,
  SETTLE_MARGIN_MS,
  SWEEP_EVERY_MS,
  type Reconcile,
} from "../../app/routing/work.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import type { ShopStep, ShopWork } from "../../app/work/steps.server";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const SHOP = "kyiv-goods.myshopify.com";
const START = Date.parse("2026-11-27T10:00:00Z");
let now = START;
const clock = () => new Date(now);
const db = () => appContext().db;

let fake: ShopifyFake;
let store: ShopStore;
let warehouse: LocationRecord;
let showroom: LocationRecord;
let test = 0;

beforeAll(async () => {
  // A bucket no test drains: the clock stands still between runs, so nothing would restore it.
  fake = await startShopifyFake({ now: () => now, maximumAvailable: 1_000_000, restoreRate: 1_000_000 });
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});
beforeEach(async () => {
  test++;
  now = START + test * 24 * 3600_000;
  const token = `shpat_routing_${test}`;
  store = fake.state.shop(SHOP) ?? fake.state.addShop({ domain: SHOP, accessToken: token });
  store.shop.accessToken = token;
  store.fulfillmentOrders.clear();
  store.orders.clear();
  warehouse = store.addLocation({ name: `Склад ${test}` });
  showroom = store.addLocation({ name: `Шоурум ${test}` });
  await db().session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: token, scope: "" },
  });
});

/** The kind's step for one lease, with `reconcile` as the engine would give reconcileRouting. */
async function openStep(reconcile: Reconcile): Promise<ShopStep> {
  const signal = new AbortController().signal;
  const work = {
    ...appContext(),
    clock,
    shop: SHOP,
    signal,
    admin: () => offlineShopAdmin(SHOP, signal),
  } as unknown as ShopWork;
  return fulfillmentOrdersKind({ reconcile }).open(work);
}

const schedule = () =>
  db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } } });

/** Runs the step while its schedule is due on the clock; answers how many runs it took. */
async function runWhileDue(step: ShopStep): Promise<number> {
  let runs = 0;
  for (;;) {
    const row = await schedule();
    if (!row || row.nextRunAt.getTime() > now) return runs;
    await step.run();
    if (++runs > 50) throw new Error("the kind kept running");
  }
}

const pageReads = () =>
  fake.requests.filter((request) => request.operationName === "RoutingFulfillmentOrdersList");

const factReads = () =>
  fake.requests.filter((request) => request.operationName === "RoutingFulfillmentOrderNodes");

function addOrders(count: number, locationId: string) {
  return Array.from({ length: count }, () =>
    store.addOrder({ lineItems: [{ title: "Чашка", quantity: 1 }], locationId }),
  );
}

const numeric = (gid: string) => gid.split("/").at(-1)!;

describe("the fulfillment_orders kind", () => {
  it("reads every page from the watermark, stores it, reconciles what changed, then reads only what is newer", async () => {
    const reconcile = vi.fn<Reconcile>(async () => undefined);
    const orders = addOrders(255, warehouse.id);
    const wide = store.addOrder({
      lineItems: Array.from({ length: 7 }, (_, i) => ({ title: `Товар ${i}`, quantity: i + 1 })),
      locationId: showroom.id,
    });
    now += 5_000;
    await requestRoutingRead(db(), SHOP, "order_waiting", clock());
    const step = await openStep(reconcile);
    const before = pageReads().length;
    const factsBefore = factReads().length;

    // 256 listed, 250 a page; the facts of all of them read, 50 a request.
    expect(await runWhileDue(step)).toBe(2);
    expect(pageReads().length - before).toBe(2);
    expect(factReads().length - factsBefore).toBe(6);
    const reconciled = reconcile.mock.calls.flatMap(([, shop, ids]) => (shop === SHOP ? ids : []));
    expect(new Set(reconciled)).toEqual(new Set([...orders, wide].map(({ order }) => numeric(order.id))));
    expect(reconciled).toHaveLength(256);
    expect(await db().shopifyFulfillmentOrder.count({ where: { shop: SHOP } })).toBe(256);
    // Seven lines, five a page: the other two read by the lines query.
    const [stored] = await fulfillmentOrdersOf(appContext(), SHOP, numeric(wide.order.id));
    expect(stored!.lines.map((line) => line.totalQuantity)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(stored!.locationId).toBe(showroom.id);

    // A tip pass was read: the settle pass is due a margin later.
    expect((await schedule())!.nextRunAt.getTime()).toBe(now + SETTLE_AFTER_TIP_MS);

    // One fulfillment order moves to the showroom: the next read answers that order alone.
    now += 10_000;
    store.moveFulfillmentOrder(orders[3]!.fulfillmentOrder.id, showroom.id);
    reconcile.mockClear();
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    expect(await runWhileDue(step)).toBe(1);
    expect(reconcile.mock.calls.map(([, , ids]) => ids)).toEqual([[numeric(orders[3]!.order.id)]]);
    const moved = await fulfillmentOrdersOf(appContext(), SHOP, numeric(orders[3]!.order.id));
    expect(moved.find((row) => row.status === "OPEN")?.locationId).toBe(showroom.id);
    expect(moved.filter((row) => row.locationId === warehouse.id && row.status === "OPEN")).toEqual([]);

    // The settle pass lists them all again, and reads the facts only of the one read within the second it
    // changed (a second change in that second would have the same updatedAt): nothing else is stale.
    now = (await schedule())!.nextRunAt.getTime();
    const facts = factReads().length;
    const lists = pageReads().length;
    reconcile.mockClear();
    await runWhileDue(step);
    expect(pageReads().length - lists).toBe(2);
    expect(
      factReads()
        .slice(facts)
        .map((request) => request.variables.ids),
    ).toEqual([[orders[3]!.fulfillmentOrder.id]]);
    expect(reconcile).not.toHaveBeenCalled();
  });

  it("reads the same page again after a reconcile that failed, and moves the watermark only then", async () => {
    let fail = true;
    const reconcile = vi.fn<Reconcile>(async () => {
      if (fail) throw new Error("reconcileRouting is not built yet");
    });
    const [first] = addOrders(1, warehouse.id);
    now += 5_000;
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    const step = await openStep(reconcile);
    await runWhileDue(step);
    const failed = (await schedule())!;
    expect(failed.nextRunAt.getTime()).toBe(now + RECONCILE_RETRY_MS);
    expect(failed.lastError).toMatch(/not built yet/);
    const cursor = readRoutingCursor(failed.cursor)!;
    expect(cursor.pass).toMatchObject({ kind: "tip", after: null, pending: [numeric(first!.order.id)] });
    // The row is stored: read again, it is no change, yet the order is still owed its reconcile.
    fail = false;
    now += RECONCILE_RETRY_MS;
    await runWhileDue(step);
    expect(reconcile).toHaveBeenCalledTimes(2);
    expect(reconcile.mock.calls[1]![2]).toEqual([numeric(first!.order.id)]);
    const done = (await schedule())!;
    expect(done.lastError).toBeNull();
    expect(readRoutingCursor(done.cursor)!.pass).toBeNull();
  });

  it("reconciles an order whose rows a run stored before the process died, though the next read finds them equal", async () => {
    const attempts: string[][] = [];
    let die = true;
    const reconcile = vi.fn<Reconcile>(async (_deps, _shop, ids) => {
      attempts.push([...ids]);
      // The process dies here: whatever this run would have written of its schedule is never written.
      if (die) throw new Error("process died");
    });
    const [order] = addOrders(1, warehouse.id);
    now += 5_000;
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    const step = await openStep(reconcile);
    const before = (await schedule())!;
    await step.run();
    expect(await db().shopifyFulfillmentOrder.count({ where: { shop: SHOP } })).toBe(1);
    // The schedule as the dead run left it: due, the same watermark, nothing owed in its cursor.
    await db().shopSchedule.update({
      where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } },
      data: { cursor: before.cursor, nextRunAt: before.nextRunAt, lastError: before.lastError },
    });
    die = false;
    await runWhileDue(step);
    expect(attempts).toEqual([[numeric(order!.order.id)], [numeric(order!.order.id)]]);

    // Taken: the next read of the same rows (the settle pass) owes nothing.
    now = (await schedule())!.nextRunAt.getTime();
    await runWhileDue(step);
    expect(attempts).toHaveLength(2);
  });

  it("reads by id the fulfillment orders webhooks named, listing nothing until the settle pass", async () => {
    const reconcile = vi.fn<Reconcile>(async () => undefined);
    const orders = addOrders(3, warehouse.id);
    now += 5_000;
    const ids = orders.map(({ fulfillmentOrder }) => fulfillmentOrder.id);
    await hintFulfillmentOrders(db(), SHOP, ids, clock());
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    const step = await openStep(reconcile);
    const lists = pageReads().length;
    const facts = factReads().length;
    await runWhileDue(step);
    expect(pageReads().length).toBe(lists);
    expect(
      factReads()
        .slice(facts)
        .map((request) => request.variables.ids),
    ).toEqual([ids]);
    expect(reconcile.mock.calls.map(([, , orderIds]) => [...orderIds].sort())).toEqual([
      orders.map(({ order }) => numeric(order.id)).sort(),
    ]);
    expect(await db().routingHint.count({ where: { shop: SHOP } })).toBe(0);
    // The settle pass, a margin later, lists them (and finds nothing new).
    expect((await schedule())!.nextRunAt.getTime()).toBe(now + SETTLE_AFTER_TIP_MS);
    now += SETTLE_AFTER_TIP_MS;
    await runWhileDue(step);
    expect(pageReads().length).toBe(lists + 1);
    expect(reconcile).toHaveBeenCalledTimes(1);
  });

  it("catches in the settle pass a change the search index showed only after a newer one", async () => {
    const reconcile = vi.fn<Reconcile>(async () => undefined);
    addOrders(1, warehouse.id);
    now += 5_000;
    addOrders(1, warehouse.id);
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    const step = await openStep(reconcile);
    await runWhileDue(step);
    expect(reconcile).toHaveBeenCalledTimes(1);

    // Changed two seconds before the newest one read, but not in the index when the tip pass read.
    const [late] = addOrders(1, warehouse.id);
    late!.fulfillmentOrder.updatedAt = new Date(now - 2_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    now += 5_000;
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    await runWhileDue(step);
    expect(reconcile).toHaveBeenCalledTimes(1);

    // The settle pass, a margin after the first tip pass, reads from the settled watermark and finds it.
    const due = (await schedule())!.nextRunAt.getTime();
    now = due;
    await runWhileDue(step);
    expect(reconcile.mock.calls.at(-1)![2]).toEqual([numeric(late!.order.id)]);
    const cursor = readRoutingCursor((await schedule())!.cursor)!;
    expect(Date.parse(cursor.settled)).toBe(due - SETTLE_MARGIN_MS);
  });

  it("sweeps every ten minutes, and sooner while an order has waited for routing over a minute", async () => {
    const reconcile = vi.fn<Reconcile>(async () => undefined);
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    const step = await openStep(reconcile);
    const tipAt = now;
    await runWhileDue(step);
    expect((await schedule())!.nextRunAt.getTime()).toBe(tipAt + SETTLE_AFTER_TIP_MS);
    now = tipAt + SETTLE_AFTER_TIP_MS;
    await runWhileDue(step);
    // Settled, quiet: the sweep in ten minutes.
    expect((await schedule())!.nextRunAt.getTime()).toBe(now + SWEEP_EVERY_MS);
    const settleAt = now;

    // An order recorded waiting for routing: a read a minute after it began to wait, and every minute after.
    const waitingSince = now + 20_000;
    await db().warehouseOrder.create({
      data: {
        shop: SHOP,
        shopifyOrderId: "9001",
        orderName: "#9001",
        idOrder: "KG-9001",
        state: "waiting",
        waitReason: "routing",
        orderUpdatedAt: new Date(waitingSince),
        orderCreatedAt: new Date(waitingSince),
        createdAt: new Date(waitingSince),
      },
    });
    now = waitingSince;
    await requestRoutingRead(db(), SHOP, "order_waiting", clock());
    await runWhileDue(step);
    // A tip pass now; the next read is the settle pass a margin after it (no later than the wait's minute).
    expect((await schedule())!.nextRunAt.getTime()).toBe(
      Math.min(waitingSince + ROUTING_WAIT_MS, now + SETTLE_AFTER_TIP_MS, settleAt + SWEEP_EVERY_MS),
    );
    now = (await schedule())!.nextRunAt.getTime();
    await runWhileDue(step);
    const afterSettle = now;
    expect((await schedule())!.nextRunAt.getTime()).toBe(afterSettle + ROUTING_REREAD_MS);
    now += ROUTING_REREAD_MS;
    const reads = pageReads().length;
    await runWhileDue(step);
    expect(pageReads().length).toBe(reads + 1);
    expect((await schedule())!.nextRunAt.getTime()).toBe(now + ROUTING_REREAD_MS);

    // No longer waiting: back to the ten-minute sweep.
    await db().warehouseOrder.updateMany({
      where: { shop: SHOP },
      data: { state: "ready", waitReason: null },
    });
    now += ROUTING_REREAD_MS;
    const quiet = pageReads().length;
    await runWhileDue(step);
    // Nothing read for the minute planned while it waited; the sweep ten minutes after the last settle pass.
    expect(pageReads().length).toBe(quiet);
    const { lastSettleAt } = readRoutingCursor((await schedule())!.cursor)!;
    expect((await schedule())!.nextRunAt.getTime()).toBe(Date.parse(lastSettleAt) + SWEEP_EVERY_MS);
  });
});
