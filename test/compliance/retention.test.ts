// Customers' details kept no longer than the work needs: orders taken in over real HTTP and accepted by the
// warehouse simulator, then finished; the engine, on a clock the test moves forward by days, removes each
// finished order's payload and personal fields once the shop's retention has passed, and nothing sooner.
import { afterEach, describe, expect, it } from "vitest";
import {
  erasedWords,
  PERSONAL_DATA_KIND,
  personalDataOfIdleShops,
  savePersonalDataDays,
} from "../../app/compliance/retention.server";
import { appContext } from "../../app/context.server";
import { orderDetail } from "../../app/orders/queries.server";
import { wakeWorker } from "../../app/work/worker.server";
import {
  eventually,
  orderPayload,
  SCALED_LIMITS,
  SHOP,
  startOrderFlow,
  type OrderFlow,
} from "../e2e/harness";

const DAY_MS = 24 * 3600_000;
const db = () => appContext().db;

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/**
 * A flow whose engine runs on `engineClock`. Its limiter then counts windows days apart where the
 * simulator, on the real clock, sees seconds: the simulator's report limit is lifted so the status and
 * returns checks the engine makes on each day it is moved to are not refused.
 */
const startFlow = () =>
  startOrderFlow({
    worker: { clock: engineClock },
    simulator: { rateLimits: { ...SCALED_LIMITS, reportRequestsPerWindow: 1_000 } },
  });

/** The engine's clock: the real one, `days` ahead. */
let aheadDays = 0;
const engineClock = () => new Date(Date.now() + aheadDays * DAY_MS);

const orderOf = (n: number) =>
  db().warehouseOrder.findFirstOrThrow({
    where: { shop: SHOP, shopifyOrderId: String(orderPayload(n).id) },
    include: { shopifyOrder: true, events: true },
  });

/** Moves the engine's clock on and waits for a retention run at the new time or after. */
async function runAt(days: number) {
  aheadDays = days;
  const from = engineClock().getTime() - 1_000;
  wakeWorker(SHOP);
  await eventually(async () => {
    const row = await db().shopSchedule.findUnique({
      where: { shop_kind: { shop: SHOP, kind: PERSONAL_DATA_KIND } },
    });
    return row?.lastRunAt && row.lastRunAt.getTime() >= from;
  }, `a retention run ${days} days on`);
}

/** Takes three orders in and has the warehouse accept them; answers them as numbers. */
async function acceptedOrders(...numbers: number[]) {
  for (const n of numbers) await flow!.post({ topic: "orders/create", payload: orderPayload(n) });
  await eventually(
    async () =>
      (await db().warehouseOrder.count({ where: { shop: SHOP, state: "accepted" } })) === numbers.length,
    "the orders to be accepted",
  );
}

async function finish(n: number, stage: string, at: Date) {
  const row = await orderOf(n);
  await db().warehouseOrder.update({ where: { id: row.id }, data: { stage, stageAt: at } });
}

function expectKept(order: Awaited<ReturnType<typeof orderOf>>) {
  expect(order.dataErasedAt).toBeNull();
  expect(order.shopifyOrder!.payload).toContain("Коваленко");
  expect(order.sentOrder).toContain("Коваленко");
}

describe("customer details of finished orders", { timeout: 120_000 }, () => {
  it("are removed the shop's retention after the order finished, by the engine, and no sooner", async () => {
    aheadDays = 0;
    flow = await startFlow();
    await acceptedOrders(6101, 6102, 6103);
    const now = Date.now();
    await finish(6101, "delivered", new Date(now));
    await finish(6102, "returned", new Date(now + 50 * DAY_MS));
    // 6103 stays accepted at the warehouse: not finished, kept whatever the time.

    await runAt(89);
    expectKept(await orderOf(6101));

    await runAt(91);
    const erased = await eventually(async () => {
      const order = await orderOf(6101);
      return order.dataErasedAt ? order : null;
    }, "the delivered order's details to be removed");
    expect(erased.shopifyOrder!.payload).toBe("{}");
    expect(erased).toMatchObject({
      mapped: null,
      sentOrder: null,
      customerId: null,
      state: "accepted",
      stage: "delivered",
    });
    expect(erased.idOrderFF).not.toBeNull();
    const texts = JSON.stringify(erased.events);
    expect(texts).not.toMatch(/Коваленко|Хрещатик|380671234567/);
    const kept = erased.events.filter((event) => event.kind !== "data_erased");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((event) => event.message === erasedWords(90) && event.data === null)).toBe(true);
    expect(erased.events.filter((event) => event.kind === "data_erased")).toHaveLength(1);
    expectKept(await orderOf(6102));
    expectKept(await orderOf(6103));

    // The order page's query still reads the erased order: its numbers, stage and timeline's kinds.
    const detail = await orderDetail(db(), SHOP, erased.id);
    expect(detail).toMatchObject({ idOrder: erased.idOrder, sentOrder: null, mapped: null });
    expect(detail!.dataErasedAt).toEqual(erased.dataErasedAt);

    // A late webhook for the erased order (a refund, an archive) brings nothing back.
    const later = new Date(Date.now() + 60_000).toISOString();
    await flow.post({
      topic: "orders/updated",
      payload: orderPayload(6101, { updated_at: later, note: "Повернення коштів" }),
    });
    const after = await orderOf(6101);
    expect(after.shopifyOrder!.payload).toBe("{}");
    expect(after).toMatchObject({ mapped: null, sentOrder: null, pending: null });

    await runAt(141);
    await eventually(async () => (await orderOf(6102)).dataErasedAt, "the returned order's details to go");
    expectKept(await orderOf(6103));
  });

  it("follow the retention the merchant sets, which refuses what is out of range and a save over another's", async () => {
    aheadDays = 0;
    flow = await startFlow();
    await acceptedOrders(6201);
    await finish(6201, "delivered", new Date());
    const deps = { db: db(), clock: engineClock };

    for (const days of ["3", "3651", "twenty", "10.5"]) {
      const refused = await savePersonalDataDays(deps, SHOP, { days, shownDays: "90" });
      expect(refused.ok, days).toBe(false);
    }
    expect((await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).personalDataDays).toBe(90);
    expect(await savePersonalDataDays(deps, SHOP, { days: "30", shownDays: "90" })).toEqual({
      ok: true,
      days: 30,
    });
    // Another admin's page still showed 90.
    expect(await savePersonalDataDays(deps, SHOP, { days: "60", shownDays: "90" })).toMatchObject({
      ok: false,
      error: { key: "privacy:retention.error.changedMeanwhile" },
    });

    await runAt(29);
    expectKept(await orderOf(6201));
    await runAt(31);
    await eventually(
      async () => (await orderOf(6201)).dataErasedAt,
      "the order's details to go after 30 days",
    );
    const events = (await orderOf(6201)).events.filter((event) => event.kind !== "data_erased");
    expect(events.every((event) => event.message === erasedWords(30))).toBe(true);
  });

  it("go from a shop whose loop does not run (its key refused) by the engine's sweep, once", async () => {
    aheadDays = 0;
    flow = await startFlow();
    await acceptedOrders(6301);
    await finish(6301, "delivered", new Date());
    await flow.worker.stop();
    // The warehouse refused the key: no loop runs for the shop until a new one is saved.
    await db().shopSettings.update({
      where: { shop: SHOP },
      data: { pausedAt: new Date(), pauseReason: "refused" },
    });
    const sweep = (days: number) =>
      personalDataOfIdleShops.run({ ...appContext(), clock: () => new Date(Date.now() + days * DAY_MS) });

    await sweep(89);
    expectKept(await orderOf(6301));
    // A day on, still not due: the sweep's own claim said when.
    await db().shopSchedule.updateMany({
      where: { shop: SHOP, kind: PERSONAL_DATA_KIND },
      data: { nextRunAt: new Date(Date.now() + 89 * DAY_MS) },
    });
    // Two processes' sweeps at once: one claims the run, the other leaves it.
    await Promise.all([sweep(91), sweep(91)]);
    const erased = await orderOf(6301);
    expect(erased.dataErasedAt).not.toBeNull();
    expect(erased.shopifyOrder!.payload).toBe("{}");
    expect(erased.events.filter((event) => event.kind === "data_erased")).toHaveLength(1);
  });
});
