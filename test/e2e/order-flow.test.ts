// A Shopify order reaching the warehouse, end to end over real HTTP: webhook in, AddOrder out.
import { afterEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import { retryOrders } from "../../app/orders/actions.server";
import { saveSettings } from "../../app/settings/settings.server";
import { wakeWorker } from "../../app/work/worker.server";
import {
  BRANCH_REF,
  eventually,
  orderPayload,
  ordersInState,
  SCALED_LIMITS,
  SHOP,
  startOrderFlow,
  type OrderFlow,
  warehouseProblems,
} from "./harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;

describe("a new order", () => {
  it("is answered at once, mapped, and sent with the right AddOrder body", async () => {
    flow = await startOrderFlow();
    const response = await flow.post({ topic: "orders/create", payload: orderPayload(1042) });
    expect(response.status).toBe(200);

    await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
    const [sent] = flow.sim.orders();
    expect(sent?.submitted).toEqual({
      id_order: "1042",
      external_id: "7000001042",
      date_order: expect.stringMatching(/^\d\d\.\d\d\.\d{4}$/),
      recipient: "Олена Коваленко",
      rec_phone: expect.stringMatching(/^380\d{9}$/),
      comment: "Зателефонуйте, будь ласка, перед відправкою.",
      Cost: expect.any(Number),
      payment_method: "Наличными",
      order_payment_sum: "1319.50",
      delivery_method: "Новая Почта",
      delivery_address: { WarehouseRef: BRANCH_REF },
      products: expect.arrayContaining([expect.objectContaining({ sku: "CUP-KARP-BLUE" })]),
    });
    const row = await db().warehouseOrder.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ idOrderFF: sent!.id_order_FF, keyOrder: sent!.key_order, pending: null });
    expect(JSON.parse(row.sentOrder!)).toEqual(sent!.submitted);
    const events = await db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { at: "asc" } });
    expect(events.map((event) => event.kind)).toEqual(["received", "ready", "accepted"]);
    expect(events.at(-1)!.data).not.toContain(flow.sim.apiKey);
  });
});

describe("exactly once", () => {
  it("takes a webhook delivered three times, and the same order under a new event, as one order sent once", async () => {
    flow = await startOrderFlow();
    const payload = orderPayload(2001);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await flow.post({ topic: "orders/create", payload, eventId: "event-2001" })).status);
    }
    statuses.push((await flow.post({ topic: "orders/create", payload, eventId: "event-2001-again" })).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
    await flow.worker.sweep();
    expect(await db().warehouseOrder.count()).toBe(1);
    expect(await db().webhookEvent.count({ where: { shop: SHOP } })).toBe(2);
    expect(flow.sim.orders()).toHaveLength(1);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
  });

  it("sends nothing twice after the warehouse fails for a while: what it may have is sent again only when the merchant asks", async () => {
    // A miss is believed at once here, and two misses hand the order to the merchant.
    flow = await startOrderFlow({
      worker: { inDoubt: { missBelievedAfterMs: 0, lookupIntervalMs: 0, missesBeforeAttention: 2 } },
    });
    flow.sim.faults.failNext({ count: 4, status: 503, operations: ["AddOrder"] });
    for (let n = 3001; n <= 3010; n++) await flow.post({ topic: "orders/create", payload: orderPayload(n) });

    const flaggedOrAccepted = async () =>
      (await ordersInState("accepted")) +
      (await db().warehouseOrder.count({ where: { shop: SHOP, attention: "not_at_warehouse" } }));
    await eventually(
      async () => (await flaggedOrAccepted()) === 10,
      "each order accepted or flagged",
      20_000,
    );
    // Every AddOrder failed until the four failures were spent; fewer when the lookups flagged every order
    // before a fourth AddOrder (how the orders batch depends on when they arrive). What is left unspent
    // must not meet the merchant's retry.
    const stats = flow.sim.stats();
    expect(stats.statuses["503"]).toBeGreaterThanOrEqual(1);
    expect(stats.statuses["503"]).toBe(Math.min(4, stats.requests.AddOrder ?? 0));
    flow.sim.faults.clear();
    const flagged = await db().warehouseOrder.findMany({
      where: { shop: SHOP, attention: "not_at_warehouse" },
    });
    expect(flagged.length).toBeGreaterThanOrEqual(1);
    expect(flagged.every((row) => row.state === "in_doubt")).toBe(true);
    expect(flow.sim.orders()).toHaveLength(10 - flagged.length);

    // The merchant sends them again.
    expect(
      await retryOrders(
        { ...appContext(), wake: wakeWorker },
        SHOP,
        flagged.map((row) => row.id),
      ),
    ).toEqual({
      retried: flagged.length,
      skipped: 0,
    });
    await eventually(async () => (await ordersInState("accepted")) === 10, "all ten to be accepted", 20_000);
    expect(flow.sim.orders()).toHaveLength(10);
    expect(flow.sim.stats().duplicateIdOrders).toBe(0);
    expect(flow.sim.stats().requests.ListOrder).toBeUndefined();
  });

  it("finds an order whose answer was lost after the warehouse took it, and never sends it again", async () => {
    flow = await startOrderFlow();
    // The report as the notes show it has no key_order; this one carries the ids, to be kept.
    flow.sim.settings.statusReportIdentifiers = true;
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    for (let n = 4001; n <= 4005; n++) {
      await flow.post({ topic: "orders/create", payload: orderPayload(n) });
    }
    await eventually(async () => (await ordersInState("accepted")) === 5, "all five to be accepted");
    expect(flow.sim.stats().droppedAnswers).toBe(1);
    expect(flow.sim.stats().duplicateIdOrders).toBe(0);
    expect(flow.sim.orders()).toHaveLength(5);
    const rows = await db().warehouseOrder.findMany({ where: { shop: SHOP } });
    const sim = new Map(flow.sim.orders().map((order) => [order.id_order, order]));
    for (const row of rows) {
      expect(row.idOrderFF).toBe(sim.get(row.idOrder)!.id_order_FF);
      expect(row.keyOrder).toBe(sim.get(row.idOrder)!.key_order);
    }
    expect(await db().orderEvent.count({ where: { kind: "found_at_warehouse" } })).toBeGreaterThanOrEqual(1);
  });

  it("sends the orders that come while the limits hold the shop together, in the next request they allow", async () => {
    // Our side allows one request in 1.5 s; the simulator's own limits are looser. Date stands still until
    // the test moves it, so the three that follow all come while the window is spent, however slowly.
    vi.useFakeTimers({ toFake: ["Date"] });
    flow = await startOrderFlow({
      worker: { rateLimits: { ...SCALED_LIMITS, windowMs: 1_500, requestsPerWindow: 1 } },
    });
    await flow.post({ topic: "orders/create", payload: orderPayload(5101) });
    await eventually(async () => (await ordersInState("accepted")) === 1, "the first order to be accepted");
    for (const n of [5102, 5103, 5104]) await flow.post({ topic: "orders/create", payload: orderPayload(n) });
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    // Past the window and the limiter's margin (its default 200 ms: these limits leave it out).
    vi.setSystemTime(Date.now() + 2_000);
    await eventually(async () => (await ordersInState("accepted")) === 4, "all four to be accepted");
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    expect(flow.sim.stats().statuses["429"]).toBeUndefined();
  });

  it("sends an order at once when nothing left for a pace, and gathers the ones that follow closely", async () => {
    // Four requests in 4 s on our side: the even pace is one a second. Date stands still (our limiter, the
    // worker's clock and the simulator all read it) and moves only when the test moves it, so what waits
    // for the pace waits however slow the machine, and nothing passes for a pace unless the test says so.
    vi.useFakeTimers({ toFake: ["Date"] });
    flow = await startOrderFlow({
      worker: { rateLimits: { ...SCALED_LIMITS, windowMs: 4_000, requestsPerWindow: 4 } },
    });
    const start = Date.now();
    await flow.post({ topic: "orders/create", payload: orderPayload(5201) });
    // Accepted with no time passing: nothing had been sent for a pace, so it did not wait for one.
    await eventually(async () => (await ordersInState("accepted")) === 1, "the first order to be accepted");
    for (const n of [5202, 5203]) await flow.post({ topic: "orders/create", payload: orderPayload(n) });
    expect(flow.sim.stats().requests.AddOrder).toBe(1);

    const paced = start + 1_500;
    vi.setSystemTime(paced);
    await eventually(async () => (await ordersInState("accepted")) === 3, "the next two to be accepted");
    // Two requests for three orders, the first carrying only 5201: the two that came within the pace left
    // together, and only once the pace had passed.
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    // Sorted: 5202 and 5203 fell due at the same (frozen) instant, and the databases break that tie apart.
    const sent = flow.sim.orders().map((order) => [order.id_order, order.createdAt] as const);
    expect([...sent].sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ["5201", start],
      ["5202", paced],
      ["5203", paced],
    ]);
  });

  it("honours a 429 and its Retry-After", async () => {
    flow = await startOrderFlow();
    flow.sim.faults.failNext({ count: 1, status: 429, operations: ["AddOrder"], retryAfterSeconds: 1 });
    await flow.post({ topic: "orders/create", payload: orderPayload(5001) });
    await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
    expect(flow.sim.stats().statuses["429"]).toBe(1);
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    const events = await db().orderEvent.findMany({ orderBy: { at: "asc" } });
    const refused = events.find((event) => event.kind === "retry_scheduled")!;
    const accepted = events.find((event) => event.kind === "accepted")!;
    expect(accepted.at.getTime() - refused.at.getTime()).toBeGreaterThanOrEqual(1_000);
  });

  it("pauses the shop when the warehouse refuses the key, loses nothing, and resumes with a new key", async () => {
    flow = await startOrderFlow();
    const context = appContext();
    const good = flow.sim.apiKey;
    const wrong = await saveSettings(context, SHOP, {
      apiKey: "wrong-key-0000",
      environment: "production",
      mapping: {},
    });
    expect(wrong.ok).toBe(true);
    // The one AddOrder sent with the wrong key is refused, and the shop pauses: nothing more is sent with it.
    flow.expectWarehouseErrors({ count: 1, operation: "AddOrder", status: 401 });
    await flow.post({ topic: "orders/create", payload: orderPayload(6001) });
    await eventually(
      async () => (await db().shopSettings.findUnique({ where: { shop: SHOP } }))?.pausedAt,
      "the shop to be paused",
    );
    expect(await ordersInState("ready")).toBe(1);
    expect(flow.sim.orders()).toHaveLength(0);

    await saveSettings({ ...context, wake: (shop) => flow!.worker.wake(shop) }, SHOP, {
      apiKey: good,
      environment: "production",
      mapping: {},
    });
    await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
    expect(flow.sim.orders()).toHaveLength(1);
  });
});

describe("edits and cancellations", () => {
  async function acceptedOrder(n: number) {
    flow = await startOrderFlow();
    const payload = orderPayload(n);
    await flow.post({ topic: "orders/create", payload });
    await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
    return payload;
  }
  const later = (payload: Record<string, unknown>, changes: Record<string, unknown>) => ({
    ...payload,
    updated_at: new Date(Date.now() + 1000).toISOString(),
    ...changes,
  });
  const shippingPhone = (payload: Record<string, unknown>, phone: string) => ({
    shipping_address: { ...(payload.shipping_address as object), phone },
  });

  it("sends an edit that changes the warehouse order, and nothing for one that does not", async () => {
    const payload = await acceptedOrder(7001);
    await flow!.post({ topic: "orders/updated", payload: later(payload, { tags: "vip" }) });
    await flow!.worker.sweep();
    expect(flow!.sim.stats().requests.EditOrder).toBeUndefined();

    const edited = later(payload, {
      ...shippingPhone(payload, "+380 50 765 43 21"),
      updated_at: new Date(Date.now() + 2000).toISOString(),
    });
    await flow!.post({ topic: "orders/updated", payload: edited });
    await eventually(
      () => flow!.sim.orders()[0]!.submitted.rec_phone === "380507654321",
      "the edit to arrive",
    );
    expect(flow!.sim.stats().requests.EditOrder).toBe(1);
    const row = await db().warehouseOrder.findFirstOrThrow();
    await eventually(
      async () => (await db().warehouseOrder.findFirstOrThrow()).pending === null,
      "the edit to settle",
    );
    expect(JSON.parse((await db().warehouseOrder.findFirstOrThrow()).sentOrder!).rec_phone).toBe(
      "380507654321",
    );
    expect(row.state).toBe("accepted");
  });

  /**
   * An order whose AddOrder is out when the next webhook comes: the warehouse has taken it, and its answer
   * waits until the test releases it (the worker waits long enough for any machine).
   */
  async function orderOnItsWay(n: number) {
    flow = await startOrderFlow({ warehouseTimeoutMs: 60_000 });
    flow.sim.faults.holdAnswers();
    const payload = orderPayload(n);
    await flow.post({ topic: "orders/create", payload });
    await eventually(
      async () => flow!.sim.orders().length === 1 && (await ordersInState("submitting")) === 1,
      "the order to be at the warehouse with its answer on the way",
    );
    return payload;
  }

  it("sends a change that came in while the order was on its way as an edit once it is accepted", async () => {
    const payload = await orderOnItsWay(7005);
    await flow!.post({
      topic: "orders/updated",
      payload: later(payload, shippingPhone(payload, "+380 50 765 43 21")),
    });
    expect(await ordersInState("submitting")).toBe(1);
    flow!.sim.faults.releaseAnswers();
    await eventually(
      () => flow!.sim.orders()[0]?.submitted.rec_phone === "380507654321",
      "the edit to arrive",
    );
    // Settled from its answer: no look-up, as there would be for an order left in doubt.
    expect(flow!.sim.stats().requests).toMatchObject({ AddOrder: 1, EditOrder: 1 });
    expect(flow!.sim.stats().requests).not.toHaveProperty("ListOrder");
    expect(flow!.sim.stats().requests).not.toHaveProperty("ReportStatusOrder");
    await eventually(
      async () => (await db().warehouseOrder.findFirstOrThrow()).pending === null,
      "the edit to settle",
    );
    const row = await db().warehouseOrder.findFirstOrThrow();
    expect(row.state).toBe("accepted");
    expect(JSON.parse(row.sentOrder!).rec_phone).toBe("380507654321");
  });

  it("cancels at the warehouse an order cancelled while it was on its way", async () => {
    const payload = await orderOnItsWay(7006);
    await flow!.post({
      topic: "orders/cancelled",
      payload: later(payload, { cancelled_at: new Date().toISOString() }),
    });
    expect(await ordersInState("submitting")).toBe(1);
    flow!.sim.faults.releaseAnswers();
    await eventually(async () => (await ordersInState("cancelled")) === 1, "the order to be cancelled");
    expect(flow!.sim.orders()[0]!.stage).toBe("cancelled");
    expect(flow!.sim.stats().requests).toMatchObject({ AddOrder: 1, CancelOrder: 1 });
    expect(flow!.sim.stats().requests).not.toHaveProperty("ListOrder");
    expect(flow!.sim.stats().requests).not.toHaveProperty("ReportStatusOrder");
  });

  it("flags an edit the warehouse refuses once the order is picked", async () => {
    const payload = await acceptedOrder(7002);
    flow!.sim.advanceOrder({ id_order: "7002", to: "picked" });
    flow!.expectWarehouseErrors({ count: 1, operation: "EditOrder" });
    await flow!.post({
      topic: "orders/updated",
      payload: later(payload, shippingPhone(payload, "0501112233")),
    });
    await eventually(
      async () => (await db().warehouseOrder.findFirstOrThrow()).attention === "edit_refused",
      "the refusal to be flagged",
    );
    const row = await db().warehouseOrder.findFirstOrThrow();
    expect(row.attentionMessage).toBeTruthy();
    expect(row.pending).toBeNull();
  });

  it("cancels at the warehouse", async () => {
    const payload = await acceptedOrder(7003);
    const cancelled = later(payload, { cancelled_at: new Date().toISOString(), cancel_reason: "customer" });
    await flow!.post({ topic: "orders/cancelled", payload: cancelled });
    await eventually(async () => (await ordersInState("cancelled")) === 1, "the order to be cancelled");
    expect(flow!.sim.orders()[0]!.stage).toBe("cancelled");
    expect(flow!.sim.stats().requests.CancelOrder).toBe(1);
  });

  it("flags a cancellation the warehouse refuses because the order shipped", async () => {
    const second = await acceptedOrder(7004);
    flow!.sim.advanceOrder({ id_order: "7004", to: "shipped" });
    flow!.expectWarehouseErrors({ count: 1, operation: "CancelOrder" });
    await flow!.post({
      topic: "orders/cancelled",
      payload: later(second, { cancelled_at: new Date().toISOString() }),
    });
    await eventually(
      async () => (await db().warehouseOrder.findFirstOrThrow()).attention === "cancel_refused",
      "the refusal to be flagged",
    );
    expect((await db().warehouseOrder.findFirstOrThrow()).state).toBe("accepted");
  });
});

describe("the flow's own checks", () => {
  it("fail a test on a refusal it did not announce, a field the warehouse ignored, or a simulator crash", () => {
    const refusal = { operation: "EditOrder", status: 200, errors: ["Заказ уже в работе"] };
    const clean = { refusals: [], ignoredFields: {}, unexpectedErrors: [] };
    expect(warehouseProblems(clean, [])).toEqual([]);
    expect(warehouseProblems({ ...clean, refusals: [refusal] }, [])).toEqual([
      "the simulator refused EditOrder (200) unannounced: Заказ уже в работе",
    ]);
    expect(
      warehouseProblems({ ...clean, refusals: [refusal] }, [{ count: 1, operation: "EditOrder" }]),
    ).toEqual([]);
    // An announced refusal that never came is as wrong as one that was not announced.
    expect(warehouseProblems(clean, [{ count: 1, operation: "EditOrder" }])).toHaveLength(1);
    expect(warehouseProblems({ ...clean, ignoredFields: { "order.Coment": 2 } }, [])).toEqual([
      "the simulator ignored the unknown field order.Coment (2 times)",
    ]);
    expect(warehouseProblems({ ...clean, unexpectedErrors: ["TypeError: boom"] }, [])).toHaveLength(1);
  });

  it("fail a webhook the app answers with another status than the test expects", async () => {
    flow = await startOrderFlow({ noWorker: true });
    await expect(
      flow.post({ topic: "orders/create", payload: orderPayload(8001), secret: "forged" }),
    ).rejects.toThrow(/orders\/create was answered 401, not 200/);
    await flow.post({
      topic: "orders/create",
      payload: orderPayload(8001),
      secret: "forged",
      expectStatus: 401,
    });
  });
});
