// Statuses coming back, end to end over real HTTP: an order sent to the simulator moves on there, and the
// worker's ReportStatusOrder moves it on here: the stage only forwards, the waybill is kept, Shopify is
// made due once the order has shipped with one. A hint (a notification) only says which orders to look
// at: nothing moves until the report says so.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { readTexts } from "../../app/i18n/texts";
import { requestStatusCheck } from "../../app/statuses/kinds.server";
import { notifyAddress } from "../../app/statuses/notify-token.server";
import { takeWarehouseNotification } from "../../app/statuses/notify.server";
import { loadStatusSettings } from "../../app/statuses/settings.server";
import { wakeWorker } from "../../app/work/worker.server";
import { eventually, orderPayload, ordersInState, SHOP, startOrderFlow, type OrderFlow } from "./harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;

/** Orders taken in through the webhook and accepted by the simulator. */
async function acceptedOrders(numbers: number[]) {
  flow = await startOrderFlow();
  for (const n of numbers) await flow.post({ topic: "orders/create", payload: orderPayload(n) });
  await eventually(
    async () => (await ordersInState("accepted")) === numbers.length,
    "the orders to be accepted",
  );
  return db().warehouseOrder.findMany({ orderBy: { idOrder: "asc" } });
}

/** What a notification does: marks the orders, then asks for a check now. */
async function hint(idOrders: string[]) {
  const now = new Date();
  await db().warehouseOrder.updateMany({ where: { idOrder: { in: idOrders } }, data: { statusHintAt: now } });
  await requestStatusCheck(db(), SHOP, now);
  wakeWorker(SHOP);
}

async function eventKinds(orderId: string) {
  const events = await db().orderEvent.findMany({ where: { orderId }, orderBy: { id: "asc" } });
  return events.map((event) => event.kind);
}

describe("an order's status", () => {
  it("moves to shipped with the warehouse's waybill once the report confirms a hint, and makes Shopify due", async () => {
    const [order] = await acceptedOrders([2101]);
    const atWarehouse = flow!.sim.advanceOrder({ id_order: order!.idOrder, to: "shipped" });
    expect(atWarehouse.TTN).toMatch(/^\d{14}$/);

    await hint([order!.idOrder]);
    const moved = await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      // The hint is cleared just after the order's own write, by a statement of its own.
      return row.stage === "shipped" && row.statusHintAt === null ? row : null;
    }, "the order to be shipped");
    expect(moved).toMatchObject({
      ttn: atWarehouse.TTN,
      statusHintAt: null,
      fulfillmentDueAt: expect.any(Date),
      attention: null,
    });
    expect(JSON.parse(moved.warehouseStatus!)).toMatchObject({ name: "Отгружен" });
    expect(await eventKinds(order!.id)).toEqual(
      expect.arrayContaining(["accepted", "shipped", "ttn_assigned"]),
    );
    expect(flow!.sim.stats().requests.ReportStatusOrder).toBe(1);
  });

  it("moves nothing on a hint the report does not bear out, and clears the hint", async () => {
    const [order] = await acceptedOrders([2102]);
    await hint([order!.idOrder]);
    const checked = await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      return row.statusHintAt === null ? row : null;
    }, "the hint to be looked at");
    expect(checked).toMatchObject({
      stage: null,
      ttn: null,
      fulfillmentDueAt: null,
      version: order!.version + 1,
    });
    expect(await eventKinds(order!.id)).not.toContain("shipped");
  });

  it("is caught by polling when no notification came, the longest unchecked first, and goes forward only", async () => {
    const [first, second] = await acceptedOrders([2103, 2104]);
    flow!.sim.advanceOrder({ id_order: first!.idOrder, to: "delivered" });
    flow!.sim.advanceOrder({ id_order: second!.idOrder, to: "picked" });
    // As if the shop's polling interval had passed since the warehouse last answered for them.
    const longAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await db().warehouseOrder.updateMany({ data: { statusCheckedAt: longAgo } });
    await requestStatusCheck(db(), SHOP, new Date());
    wakeWorker(SHOP);
    await eventually(async () => {
      const rows = await db().warehouseOrder.findMany({ orderBy: { idOrder: "asc" } });
      return rows.map((row) => row.stage).join() === "delivered,picked";
    }, "both orders to move on");
    const delivered = await db().warehouseOrder.findUniqueOrThrow({ where: { id: first!.id } });
    expect(delivered.fulfillmentDueAt).toEqual(expect.any(Date));
    expect(delivered.statusCheckedAt!.getTime()).toBeGreaterThan(longAgo.getTime());
    // Delivered is past what polling looks at; the picked one is looked at again after the interval.
    // Written once the run is over, just after the orders' own writes.
    await eventually(async () => {
      const schedule = await db().shopSchedule.findUniqueOrThrow({
        where: { shop_kind: { shop: SHOP, kind: "statuses" } },
      });
      return schedule.nextRunAt.getTime() > Date.now() + 25 * 60_000;
    }, "the next look-up to be half an hour away");
  });

  it("follows the simulator's own notifications to the app's address, each change looked up by one report", async () => {
    const [order] = await acceptedOrders([2105]);
    const address = await notifyAddress(db(), SHOP);
    if (!address.ok) throw new Error(address.message.key);
    flow!.sim.setNotificationUrl(`${flow!.app.url}${new URL(address.url).pathname}`);
    // Shipped, with the notification repeated three times over (the simulator's fault switch).
    flow!.sim.faults.repeatNotifications(2);
    flow!.sim.advanceOrder({ id_order: order!.idOrder, to: "shipped" });
    await flow!.sim.notificationsIdle();
    const shipped = await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      return row.stage === "shipped" && row.statusHintAt === null ? row : null;
    }, "the notified order to be shipped");
    expect(shipped.ttn).toMatch(/^\d{14}$/);
    const attempts = flow!.sim.notificationAttempts();
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.every((attempt) => attempt.status === 200)).toBe(true);
    expect((await eventKinds(order!.id)).filter((kind) => kind === "shipped")).toHaveLength(1);
  });

  it("keeps the orders as they were when the report fails, says why on the settings, and clears it once one works", async () => {
    const [order] = await acceptedOrders([2106]);
    flow!.sim.advanceOrder({ id_order: order!.idOrder, to: "shipped" });
    flow!.sim.faults.failNext({ count: 10, status: 503, operations: ["ReportStatusOrder"] });
    await hint([order!.idOrder]);
    const failed = await eventually(async () => {
      const { lastCheck } = await loadStatusSettings(db(), SHOP);
      return lastCheck?.problem ? lastCheck : null;
    }, "the failed look-up to be recorded");
    // Kept in the merchant's words (a Message), not the client's English.
    expect(readTexts(failed.problem)).toEqual([message("warehouse:error.serverError", { status: 503 })]);
    expect(await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } })).toMatchObject({
      stage: null,
      ttn: null,
      // Still hinted: the report that would have borne it out never came.
      statusHintAt: expect.any(Date),
    });

    flow!.sim.faults.clear();
    await requestStatusCheck(db(), SHOP, new Date());
    wakeWorker(SHOP);
    await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      return row.stage === "shipped";
    }, "the order to move on at the next look-up");
    await eventually(
      async () => (await loadStatusSettings(db(), SHOP)).lastCheck?.problem === null,
      "the problem to be cleared",
    );
  });

  it("waits only as long as the warehouse asks when its rate limit answers, and records no problem", async () => {
    const [order] = await acceptedOrders([2107]);
    flow!.sim.advanceOrder({ id_order: order!.idOrder, to: "shipped" });
    flow!.sim.faults.failNext({
      count: 1,
      status: 429,
      retryAfterSeconds: 1,
      operations: ["ReportStatusOrder"],
    });
    await hint([order!.idOrder]);
    // A minute's retry (what any other failure waits) would outlast this wait.
    await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      return row.stage === "shipped";
    }, "the order to move on at the slot the warehouse named");
    expect(flow!.sim.stats().requests.ReportStatusOrder).toBe(2);
    expect((await loadStatusSettings(db(), SHOP)).lastCheck?.problem ?? null).toBeNull();
  });

  it("keeps a notification that came while a report was out, even from a web host whose clock lags an hour", async () => {
    const [order] = await acceptedOrders([2108]);
    flow!.sim.faults.holdNext({ count: 1, operations: ["ReportStatusOrder"] });
    await hint([order!.idOrder]);
    await eventually(() => flow!.sim.faults.heldAnswers === 1, "the report to be out");
    // The report's answer was made before this: it still says the order waits.
    flow!.sim.advanceOrder({ id_order: order!.idOrder, to: "shipped" });
    const token = (await notifyAddress(db(), SHOP)) as { ok: true; url: string };
    const lagging = { ...appContext(), clock: () => new Date(Date.now() - 3600_000) };
    const answer = await takeWarehouseNotification(
      lagging,
      token.url.split("/").at(-1),
      new Request(token.url, { method: "POST", body: JSON.stringify({ id_order: order!.idOrder }) }),
    );
    expect(answer.status).toBe(200);
    flow!.sim.faults.releaseHeld();

    // The hint outlives the report that was out, so the next report (a second later at these limits)
    // looks again; a cleared hint would leave the order for the half-hourly poll.
    await eventually(async () => {
      const row = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order!.id } });
      return row.stage === "shipped" && row.statusHintAt === null;
    }, "the order to move on at the next report");
    expect(flow!.sim.stats().requests.ReportStatusOrder).toBe(2);
  });
});
