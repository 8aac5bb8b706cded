// One order whose fulfillment orders cannot be applied to it (its stored payload unreadable) must not hold the
// shop's others: the fulfillment_orders kind against the Shopify fake over real HTTP, the real reconcileRouting,
// the real database, the engine's clock. The good orders are routed in the same run; the bad one is tried again
// a minute, two, four and eight later, then put aside (its rows no longer owed, an attention, a timeline event,
// an error log) and no later read tries it, until its fulfillment orders change or the merchant retries. A
// reconcile that fails as a whole (the database) is still tried again a minute later, counts against no order,
// and ends once it works.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../app/context.server";
import type { Log } from "../../app/logger.server";
import { submitNow } from "../../app/orders/actions.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { ATTENTION, EVENT, ORDER_STATE } from "../../app/orders/states";
import { ROUTING_FAILURES_TOLERATED, routingRetryDelayMs } from "../../app/routing/failures.server";
import { FULFILLMENT_ORDERS_KIND, requestRoutingRead } from "../../app/routing/kinds.server";
import { reconcileRouting } from "../../app/routing/reconcile.server";
import {
  fulfillmentOrdersKind,
  readRoutingCursor,
  RECONCILE_RETRY_MS,
  type Reconcile,
} from "../../app/routing/work.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import type { ShopStep, ShopWork } from "../../app/work/steps.server";
import {
  orderWebhookPayload,
  startShopifyFake,
  type LocationRecord,
  type ShopifyFake,
  type ShopStore,
} from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const SHOP = "kharkiv-tea.myshopify.com";
const START = Date.parse("2026-11-27T10:00:00Z");
let now = START;
const clock = () => new Date(now);
const db = () => appContext().db;

let fake: ShopifyFake;
let store: ShopStore;
let warehouse: LocationRecord;
let showroom: LocationRecord;
let test = 0;
/** What the kind and the reconcile logged at warn and error, as { level, event }. */
let logged: Array<{ level: string; event: unknown; fields: Record<string, unknown> }> = [];

beforeAll(async () => {
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
  logged = [];
  const token = `shpat_failures_${test}`;
  store = fake.state.shop(SHOP) ?? fake.state.addShop({ domain: SHOP, accessToken: token });
  store.shop.accessToken = token;
  store.fulfillmentOrders.clear();
  store.orders.clear();
  warehouse = store.addLocation({ name: `Склад ${test}` });
  showroom = store.addLocation({ name: `Шоурум ${test}` });
  await db().session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: token, scope: "" },
  });
  await db().shopSettings.create({
    data: {
      shop: SHOP,
      locationId: warehouse.id,
      onlineLocations: JSON.stringify([warehouse.id, showroom.id]),
      // Read at the test's time: no read of the locations is asked for.
      onlineLocationsAt: new Date(now),
    },
  });
});

function recordingLog(): Log {
  const record =
    (level: string) =>
    (fields: unknown, ..._rest: unknown[]) => {
      if (fields && typeof fields === "object") {
        const object = fields as Record<string, unknown>;
        logged.push({ level, event: object.event, fields: object });
      }
    };
  const log = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: record("warn"),
    error: record("error"),
    fatal: record("fatal"),
    child: () => log,
  };
  return log as unknown as Log;
}

/** The deps of the shop's work, on the test's clock. */
function shopWork(): ShopWork {
  const signal = new AbortController().signal;
  return {
    ...appContext(),
    clock,
    log: recordingLog(),
    shop: SHOP,
    signal,
    admin: () => offlineShopAdmin(SHOP, signal),
  } as unknown as ShopWork;
}

/** The kind's step for one lease, with `reconcile` as the engine would give reconcileRouting. */
async function openStep(reconcile: Reconcile): Promise<ShopStep> {
  return fulfillmentOrdersKind({ reconcile }).open(shopWork());
}

const schedule = () =>
  db().shopSchedule.findUniqueOrThrow({
    where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } },
  });

/** Runs the step while its schedule is due on the clock; answers how many runs it took. */
async function runWhileDue(step: ShopStep): Promise<number> {
  let runs = 0;
  for (;;) {
    const row = await schedule();
    if (row.nextRunAt.getTime() > now) return runs;
    await step.run();
    if (++runs > 50) throw new Error("the kind kept running");
  }
}

const numeric = (gid: string) => gid.split("/").at(-1)!;

const pageReads = () =>
  fake.requests.filter((request) => request.operationName === "RoutingFulfillmentOrdersList").length;

/** Orders placed in the fake at the warehouse's location, and taken in by the app (waiting for routing). */
async function placeOrders(count: number): Promise<OrderRow[]> {
  const rows: OrderRow[] = [];
  for (let i = 0; i < count; i++) {
    const { order } = store.addOrder({
      lineItems: [{ title: "Чай", quantity: 2 }],
      locationId: warehouse.id,
    });
    const payload = shopifyOrderSchema.parse(orderWebhookPayload(store, order.id));
    await takeInOrderWebhook(
      { ...appContext(), clock },
      { shop: SHOP, topic: "orders/create", order: payload, eventId: `failures-${order.id}` },
    );
    rows.push(
      await db().warehouseOrder.findFirstOrThrow({
        where: { shop: SHOP, shopifyOrderId: numeric(order.id) },
      }),
    );
  }
  return rows;
}

/** An order's stored payload made unreadable, as a payload stored by an older app or cut short would be. */
const corrupt = (row: OrderRow) =>
  db().orderPayload.update({ where: { orderId: row.id }, data: { payload: '{"id": 1, "line_items": ' } });

const read = (row: OrderRow) => db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
const rowsOf = (row: OrderRow) =>
  db().shopifyFulfillmentOrder.findMany({ where: { shop: SHOP, shopifyOrderId: row.shopifyOrderId } });
const eventsOf = async (row: OrderRow, kind: string) =>
  db().orderEvent.findMany({ where: { orderId: row.id, kind } });
const reconciledIn = (spy: ReturnType<typeof vi.fn<Reconcile>>) =>
  spy.mock.calls.flatMap(([, , ids]) => [...ids]);

/** An order as routing left it: not waiting for Shopify any more. */
const routed = async (row: OrderRow) => (await read(row)).state !== ORDER_STATE.waiting;

/** The corrupt order's failures counted so far, on every one of its rows. */
async function failuresOf(row: OrderRow) {
  const rows = await rowsOf(row);
  return {
    failures: [...new Set(rows.map((each) => each.reconcileFailures))],
    pending: [...new Set(rows.map((each) => each.reconcilePending))],
    retryAt: rows[0]!.reconcileRetryAt?.getTime() ?? null,
  };
}

/** Lets the kind fail the corrupt order until it is put aside; answers when each try ran. */
async function untilPutAside(step: ShopStep, bad: OrderRow): Promise<number[]> {
  const tries = [now];
  for (let failures = 1; failures < ROUTING_FAILURES_TOLERATED; failures++) {
    const counted = await failuresOf(bad);
    expect(counted).toEqual({
      failures: [failures],
      pending: [true],
      retryAt: now + routingRetryDelayMs(failures),
    });
    // Not tried before it is due, whatever runs meanwhile.
    now = counted.retryAt! - 1_000;
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    await runWhileDue(step);
    expect((await failuresOf(bad)).failures).toEqual([failures]);
    now = counted.retryAt!;
    await runWhileDue(step);
    tries.push(now);
  }
  return tries;
}

describe("an order whose reconcile keeps failing", () => {
  it("does not hold the others of its batch: they are routed in the same run", async () => {
    const orders = await placeOrders(4);
    const bad = orders[1]!;
    await corrupt(bad);
    now += 5_000;
    const reconcile = vi.fn<Reconcile>(reconcileRouting);
    const step = await openStep(reconcile);
    await step.run();

    const good = orders.filter((row) => row.id !== bad.id);
    expect(await Promise.all(good.map(routed))).toEqual([true, true, true]);
    expect(await routed(bad)).toBe(false);
    // The pass is over and the watermark moved: the page is not read again for the bad order's sake.
    const cursor = readRoutingCursor((await schedule()).cursor)!;
    expect(cursor.pass).toBeNull();
    expect(Date.parse(cursor.tip)).toBeGreaterThan(START);
    // The bad order stays owed, counted once, tried again a minute later; the others' rows are taken.
    expect(await failuresOf(bad)).toEqual({
      failures: [1],
      pending: [true],
      retryAt: now + RECONCILE_RETRY_MS,
    });
    for (const row of good) expect((await rowsOf(row)).map((fo) => fo.reconcilePending)).toEqual([false]);
    expect(logged.filter((line) => line.event === "routing.reconcile_failed")).toEqual([]);
    expect(logged.find((line) => line.event === "routing.order_reconcile_failed")?.fields.orders).toEqual([
      expect.objectContaining({ orderId: bad.id, failure: "payload" }),
    ]);
    // The next run comes by the retry's minute at the latest.
    expect((await schedule()).nextRunAt.getTime()).toBeLessThanOrEqual(now + RECONCILE_RETRY_MS);
  });

  it("is tried again with backoff, then put aside with an attention, an event and an error log; later reads leave it", async () => {
    const orders = await placeOrders(3);
    const bad = orders[2]!;
    await corrupt(bad);
    now += 5_000;
    const reconcile = vi.fn<Reconcile>(reconcileRouting);
    const step = await openStep(reconcile);
    await runWhileDue(step);
    const first = now;
    const tries = await untilPutAside(step, bad);
    // A minute, two, four, eight apart.
    expect(tries.map((at) => (at - first) / 60_000)).toEqual([0, 1, 3, 7, 15]);

    expect(await failuresOf(bad)).toEqual({
      failures: [ROUTING_FAILURES_TOLERATED],
      pending: [false],
      retryAt: null,
    });
    const row = await read(bad);
    expect(row.state).toBe(ORDER_STATE.waiting);
    expect(row.attention).toBe(ATTENTION.routingFailed);
    expect(JSON.parse(row.attentionMessage!)).toEqual([
      { key: "orders:timeline.routingFailedPayload", values: { attempts: ROUTING_FAILURES_TOLERATED } },
    ]);
    const [event, ...more] = await eventsOf(bad, EVENT.routingFailed);
    expect(more).toEqual([]);
    expect(JSON.parse(event!.data!)).toEqual({ failure: "payload", attempts: ROUTING_FAILURES_TOLERATED });
    expect(logged.filter((line) => line.event === "routing.order_put_aside")).toEqual([
      expect.objectContaining({
        level: "error",
        fields: expect.objectContaining({ orderId: bad.id, attempts: ROUTING_FAILURES_TOLERATED }),
      }),
    ]);
    // In the list of orders that need the merchant.
    expect(await db().warehouseOrder.count({ where: { shop: SHOP, attention: { not: null } } })).toBe(1);

    // Later reads, a webhook's and the sweep's, no longer try it.
    reconcile.mockClear();
    const listed = pageReads();
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    await runWhileDue(step);
    now += 30 * 60_000;
    await runWhileDue(step);
    expect(pageReads()).toBeGreaterThanOrEqual(listed + 2);
    expect(reconciledIn(reconcile)).not.toContain(bad.shopifyOrderId);
    expect((await failuresOf(bad)).failures).toEqual([ROUTING_FAILURES_TOLERATED]);
    expect(await eventsOf(bad, EVENT.routingFailed)).toHaveLength(1);

    // New facts in Shopify (the merchant holds it): tried again, counted afresh (it fails again: deciding
    // whether its fulfillment orders cover its lines needs its payload).
    const [fo] = await rowsOf(bad);
    store.holdFulfillmentOrder(fo!.id, { reason: "OTHER" });
    now += 5_000;
    await requestRoutingRead(db(), SHOP, "webhook", clock());
    await runWhileDue(step);
    expect(reconciledIn(reconcile)).toContain(bad.shopifyOrderId);
    expect(await failuresOf(bad)).toEqual({
      failures: [1],
      pending: [true],
      retryAt: clock().getTime() + routingRetryDelayMs(1),
    });
  });

  it("is tried again when the merchant retries, and routed once it can be", async () => {
    const [bad] = await placeOrders(1);
    const { payload: good } = await db().orderPayload.findUniqueOrThrow({ where: { orderId: bad!.id } });
    await corrupt(bad!);
    now += 5_000;
    const step = await openStep(reconcileRouting);
    await runWhileDue(step);
    await untilPutAside(step, bad!);
    expect((await read(bad!)).attention).toBe(ATTENTION.routingFailed);

    // Mended (support put the payload right), and the merchant presses Retry.
    await db().orderPayload.update({ where: { orderId: bad!.id }, data: { payload: good } });
    now += 60 * 60_000;
    const answer = await submitNow({ ...appContext(), clock }, SHOP, bad!.id);
    expect([answer.ok, answer.text.key]).toEqual([true, "orders:answer.routingAgain"]);
    expect(await eventsOf(bad!, EVENT.retryRequested)).toHaveLength(1);
    await runWhileDue(step);
    const after = await read(bad!);
    // Routed (held or ready by its mapping, as any order), the problem gone.
    expect(after.state).not.toBe(ORDER_STATE.waiting);
    expect([after.attention, after.attentionMessage]).toEqual([null, null]);
    expect(await failuresOf(bad!)).toEqual({ failures: [0], pending: [false], retryAt: null });
  });
});

describe("a reconcile that fails as a whole (the database)", () => {
  it("is tried again a minute later with the page, counts against no order, and ends once it works", async () => {
    const orders = await placeOrders(3);
    now += 5_000;
    let down = 2;
    const reconcile = vi.fn<Reconcile>(async (...args) => {
      if (down-- > 0) throw new Error("Can't reach database server");
      return reconcileRouting(...args);
    });
    const step = await openStep(reconcile);
    for (let run = 0; run < 2; run++) {
      await step.run();
      const row = await schedule();
      expect(row.nextRunAt.getTime()).toBe(now + RECONCILE_RETRY_MS);
      const cursor = readRoutingCursor(row.cursor)!;
      // The watermark waits, the orders kept with the pass.
      expect(new Set(cursor.pass?.pending)).toEqual(new Set(orders.map((each) => each.shopifyOrderId)));
      for (const order of orders) {
        expect(await routed(order)).toBe(false);
        expect(await failuresOf(order)).toEqual({ failures: [0], pending: [true], retryAt: null });
      }
      now += RECONCILE_RETRY_MS;
    }
    // The database answers again: the pass ends, every order routed, nothing owed.
    expect(await runWhileDue(step)).toBeGreaterThanOrEqual(1);
    expect(readRoutingCursor((await schedule()).cursor)!.pass).toBeNull();
    for (const order of orders) {
      expect(await routed(order)).toBe(true);
      expect(await failuresOf(order)).toEqual({ failures: [0], pending: [false], retryAt: null });
    }
    expect(logged.filter((line) => line.event === "routing.reconcile_failed")).toHaveLength(2);
  });
});
