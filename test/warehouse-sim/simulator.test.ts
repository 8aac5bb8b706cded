// The warehouse simulator's own behaviour, over real HTTP: stages moved by the clock and by control calls,
// notifications with retries, faults, stock and movements, per-key isolation, rate windows, and the CLI.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import {
  DELIVERY_METHOD,
  DELIVERY_REQUEST_COMMENT_FIELD,
  INBOUND_DELIVERY_METHOD,
  OPERATIONS,
  PAYMENT_METHOD,
  V2_OPERATIONS,
} from "./spec-literals";
import { startWarehouseSimulator, type WarehouseSimulator, type WarehouseSimulatorOptions } from "./index";
import { numberedAccounts } from "./server";
import { KYIV_CITY_REF } from "./reference-data";
import { ORDER_STATUS_TABLE } from "./statuses";

// 11:00 in Kyiv (UTC+2 before the March change to summer time).
const T0 = Date.parse("2026-03-10T09:00:00Z");
const MINUTE = 60_000;

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((thing) => thing.close()));
});

async function simulator(options: WarehouseSimulatorOptions = {}): Promise<WarehouseSimulator> {
  const sim = await startWarehouseSimulator({ clockFrozenAt: T0, ...options });
  running.push(sim);
  return sim;
}

type Reply = { status: number; json: unknown; headers: Headers };

async function call(
  sim: WarehouseSimulator,
  operation: string,
  body: Record<string, unknown>,
): Promise<Reply> {
  const response = await fetch(`${sim.url}/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ApiKey: sim.apiKey, ...body }),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

async function callV2(sim: WarehouseSimulator, body: Record<string, unknown>): Promise<Reply> {
  const response = await fetch(sim.urlV2, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

async function control(sim: WarehouseSimulator, route: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${sim.controlUrl}/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

function order(sim: WarehouseSimulator, fields: Record<string, unknown> = {}) {
  const branch = sim.reference.branchesInCity(KYIV_CITY_REF)[0]!;
  return {
    id_order: "1001",
    date_order: "10.03.2026",
    recipient: "Шевченко Тарас",
    rec_phone: "380671234567",
    Cost: 450,
    payment_method: PAYMENT_METHOD.cashOnDelivery,
    order_payment_sum: "450",
    delivery_method: DELIVERY_METHOD.novaPoshta,
    delivery_address: { WarehouseRef: branch.Ref },
    products: [{ sku: "MUG-1", name: "Чашка", count: "3", price: "150" }],
    ...fields,
  };
}

async function addOrder(sim: WarehouseSimulator, fields: Record<string, unknown> = {}, apiKey = sim.apiKey) {
  const reply = await call(sim, OPERATIONS.addOrder, { ApiKey: apiKey, order: order(sim, fields) });
  expect(reply.json).toMatchObject({ result: "ok" });
  return (reply.json as { Data: { id_order_FF: string; key_order: string } }).Data;
}

async function statusOf(sim: WarehouseSimulator, idOrder: string) {
  const reply = await call(sim, OPERATIONS.getStatusOrder, { id_order: idOrder });
  return (reply.json as { Data: Record<string, unknown> }).Data;
}

async function stock(sim: WarehouseSimulator, apiKey = sim.apiKey) {
  const reply = await call(sim, OPERATIONS.reportSklad, { ApiKey: apiKey });
  return reply.json as Array<{ sku: string; quantity: number; quantityAvailable: number }>;
}

/** A notification receiver that answers each request with the next status of `plan` (then 200). */
async function receiver(plan: number[] = []) {
  const received: Array<{ body: Record<string, unknown>; at: number }> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")), at: Date.now() });
      response.writeHead(plan.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const closable = {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  running.push(closable);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe("order stages", () => {
  it("advance on the simulator clock after the configured delays, each dated at its due moment", async () => {
    const sim = await simulator({
      stageDelaysMs: { picked: 10 * MINUTE, shipped: 60 * MINUTE, delivered: 24 * 60 * MINUTE },
    });
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    await addOrder(sim);

    sim.advanceClock(10 * MINUTE - 1);
    expect(await statusOf(sim, "1001")).toMatchObject({ status_mtp: ORDER_STATUS_TABLE.new.name, TTN: "" });
    sim.advanceClock(1);
    expect(await statusOf(sim, "1001")).toMatchObject({
      status_mtp: ORDER_STATUS_TABLE.picked.name,
      status_mtp_id: ORDER_STATUS_TABLE.picked.id,
      status_mtp_date: "10.03.2026 11:10:00",
    });

    // One long jump runs the two remaining changes, each at its own moment, not at the jump's end.
    sim.advanceClock(3 * 24 * 60 * MINUTE);
    const delivered = await statusOf(sim, "1001");
    expect(delivered).toMatchObject({
      status_mtp: ORDER_STATUS_TABLE.delivered.name,
      status_mtp_date: "11.03.2026 12:10:00",
      status_TTN_id: "9",
      DeliveryCost: 80,
    });
    expect(delivered.TTN).toMatch(/^\d{14}$/);
    expect(delivered.tracking_novaposhta).toEqual([
      expect.objectContaining({ Date: "10.03.2026 12:10:00", StatusCode: "5" }),
      expect.objectContaining({ Date: "11.03.2026 12:10:00", StatusCode: "9" }),
    ]);
    expect(sim.orders()[0]!.history.map((entry) => entry.stage)).toEqual([
      "new",
      "picked",
      "shipped",
      "delivered",
    ]);
  });

  it("stay put without delays, move by control call, and then refuse edits and cancellation", async () => {
    const sim = await simulator();
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    const { key_order } = await addOrder(sim);
    sim.advanceClock(365 * 24 * 60 * MINUTE);
    expect(await statusOf(sim, "1001")).toMatchObject({ status_mtp: ORDER_STATUS_TABLE.new.name });

    const picked = await control(sim, "orders/advance", { id_order: "1001" });
    expect(picked.json).toMatchObject({ stage: "picked", TTN: "" });
    const edit = await call(sim, OPERATIONS.editOrder, {
      order: order(sim, { key_order, recipient: "Інша Людина" }),
    });
    expect(edit.json).toMatchObject({
      result: "error",
      errors: [expect.stringContaining("изменение невозможно")],
    });

    const shipped = await control(sim, "orders/advance", { key_order, to: "shipped" });
    expect((shipped.json as { TTN: string }).TTN).toMatch(/^\d{14}$/);
    const cancel = await call(sim, OPERATIONS.cancelOrder, { order: { id_order: "1001" } });
    expect(cancel.json).toMatchObject({
      result: "error",
      errors: [expect.stringContaining("отмена невозможна")],
    });

    await control(sim, "orders/advance", { id_order: "1001", to: "delivered" });
    const beyond = await control(sim, "orders/advance", { id_order: "1001" });
    expect(beyond.status).toBe(400);
    expect(await statusOf(sim, "1001")).toMatchObject({ status_mtp: ORDER_STATUS_TABLE.delivered.name });
  });
});

describe("status notifications", () => {
  it("retry a failing receiver three times with exponential backoff, then give up", async () => {
    const sim = await simulator({ notificationBaseDelayMs: 40 });
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    const flaky = await receiver([500, 503]);
    const dead = await receiver([500, 500, 500, 500, 500]);
    await control(sim, "notification-url", { url: flaky.url });
    const added = await addOrder(sim);
    await sim.notificationsIdle();

    expect(flaky.received).toHaveLength(3);
    expect(flaky.received[0]!.body).toEqual({
      id_order: "1001",
      id_order_FF: added.id_order_FF,
      key_order: added.key_order,
      status_mtp: ORDER_STATUS_TABLE.new.name,
      status_mtp_id: ORDER_STATUS_TABLE.new.id,
      status_mtp_date: "10.03.2026 11:00:00",
      TTN: "",
    });
    const [first, second, third] = flaky.received.map((each) => each.at);
    expect(second! - first!).toBeGreaterThanOrEqual(35);
    expect(third! - second!).toBeGreaterThanOrEqual(75);
    expect(
      sim.notificationAttempts().map(({ attempt, status, delivered }) => ({ attempt, status, delivered })),
    ).toEqual([
      { attempt: 1, status: 500, delivered: false },
      { attempt: 2, status: 503, delivered: false },
      { attempt: 3, status: 200, delivered: true },
    ]);

    await control(sim, "notification-url", { url: dead.url });
    sim.advanceOrder({ id_order: "1001" });
    await sim.notificationsIdle();
    expect(dead.received).toHaveLength(4);
    expect(dead.received.every((each) => each.body.status_mtp === ORDER_STATUS_TABLE.picked.name)).toBe(true);
    const gaveUp = sim.notificationAttempts().filter((attempt) => attempt.url === dead.url);
    expect(gaveUp.map((attempt) => attempt.gaveUp)).toEqual([false, false, false, true]);
    expect(sim.stats().notifications).toEqual({ attempts: 7, delivered: 1, gaveUp: 1 });
  });

  it("are sent once per stage change, and N more times under the repeat fault", async () => {
    const sim = await simulator({ notificationBaseDelayMs: 10 });
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    const hook = await receiver();
    sim.setNotificationUrl(hook.url);
    await addOrder(sim);
    sim.advanceOrder({ id_order: "1001", to: "shipped" });
    await sim.notificationsIdle();
    expect(hook.received.map((each) => each.body.status_mtp_id)).toEqual(["1", "2", "3"]);
    expect(hook.received[2]!.body.TTN).toMatch(/^\d{14}$/);

    await control(sim, "faults/repeat-notifications", { repeats: 2 });
    sim.advanceOrder({ id_order: "1001" });
    await sim.notificationsIdle();
    const delivered = hook.received.slice(3);
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered.map((each) => JSON.stringify(each.body))).size).toBe(1);
    expect(delivered[0]!.body.status_mtp).toBe(ORDER_STATUS_TABLE.delivered.name);
  });

  it("go to each key's own URL", async () => {
    const sim = await simulator();
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }], sim.stagingApiKey);
    const production = await receiver();
    const staging = await receiver();
    sim.setNotificationUrl(production.url);
    await control(sim, "notification-url", { apiKey: sim.stagingApiKey, url: staging.url });
    await addOrder(sim, {}, sim.stagingApiKey);
    await sim.notificationsIdle();
    expect(staging.received).toHaveLength(1);
    expect(production.received).toHaveLength(0);
  });
});

describe("catalogue", () => {
  it("AddProduct upserts by the exact SKU, keeping the stock, and ReportSklad lists each SKU once with its barcode", async () => {
    const sim = await simulator({ rateLimits: false });
    await control(sim, "products", { products: [{ sku: "MUG-1", name: "Чашка", quantity: 10 }] });

    const updated = await call(sim, OPERATIONS.addProduct, {
      sku: "MUG-1",
      name: "Чашка керамічна - Синя",
      barcode: "4820000000017",
    });
    expect(updated.json).toMatchObject({
      result: "ok",
      Data: { sku: "MUG-1", name: "Чашка керамічна - Синя", barcode: "4820000000017" },
    });
    await call(sim, OPERATIONS.addProduct, { sku: "mug-1", name: "Чашка мала" });

    expect(await stock(sim)).toEqual([
      expect.objectContaining({ sku: "MUG-1", quantity: 10, barcode: "4820000000017" }),
      expect.objectContaining({ sku: "mug-1", quantity: 0, barcode: "" }),
    ]);
  });
});

describe("stock", () => {
  it("is reserved by orders, released by cancellation, taken off hand by shipping, with movement rows", async () => {
    const sim = await simulator({ rateLimits: false });
    await control(sim, "products", { products: [{ sku: "MUG-1", name: "Чашка", quantity: 10 }] });
    await addOrder(sim, { id_order: "A" });
    expect(await stock(sim)).toEqual([
      expect.objectContaining({ sku: "MUG-1", quantity: 10, quantityAvailable: 7 }),
    ]);

    const cancelled = await call(sim, OPERATIONS.cancelOrder, { order: { id_order: "A" } });
    expect(cancelled.json).toMatchObject({
      result: "ok",
      Data: { status_mtp: ORDER_STATUS_TABLE.cancelled.name },
    });
    expect((await stock(sim))[0]).toMatchObject({ quantity: 10, quantityAvailable: 10 });

    const tooMuch = await call(sim, OPERATIONS.addOrder, {
      order: order(sim, {
        id_order: "B",
        products: [{ sku: "MUG-1", name: "Чашка", count: "11", price: "1" }],
      }),
    });
    expect(tooMuch.json).toMatchObject({ result: "error", errors: [expect.stringContaining("доступно 10")] });

    sim.advanceClock(60 * MINUTE);
    const { id_order_FF } = await addOrder(sim, {
      id_order: "C",
      products: [{ sku: "MUG-1", name: "Чашка", count: "4", price: "150" }],
    });
    sim.advanceOrder({ id_order: "C", to: "shipped" });
    expect((await stock(sim))[0]).toMatchObject({ quantity: 6, quantityAvailable: 6 });

    const moves = await call(sim, OPERATIONS.reportMoveProduct, {
      dataStart: "20260310113000",
      dataFinish: "20260310235959",
      productSku: "MUG-1",
    });
    expect((moves.json as { Data: unknown }).Data).toEqual([
      {
        Period: "10.03.2026 12:00:00",
        MovementDoc: `Реализация товаров ${id_order_FF} от 10.03.2026`,
        sku: "MUG-1",
        Quantity: -4,
        EndingBalance: 6,
      },
    ]);
  });

  it("grows with inbound deliveries (partial, then complete) and non-defective returns", async () => {
    const sim = await simulator({ rateLimits: false });
    await call(sim, OPERATIONS.addProduct, { sku: "MUG-1", name: "Чашка", barcode: "4820000000017" });
    const inbound = await callV2(sim, {
      apiKey: sim.apiKey,
      method: OPERATIONS.addDeliveryRequest,
      properties: {
        idRequest: "IN-7",
        dateOfDelivery: "12.03.2026",
        deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
        seatsAmount: "2",
        [DELIVERY_REQUEST_COMMENT_FIELD]: "палета",
        products: [{ sku: "MUG-1", name: "Чашка", count: "10", price: "40" }],
      },
    });
    const { id } = (inbound.json as { Data: { id: string } }).Data;
    const report = async () =>
      (
        await callV2(sim, {
          apiKey: sim.apiKey,
          method: OPERATIONS.reportDeliveryRequest,
          properties: { id },
        })
      ).json;
    expect(await report()).toMatchObject({ success: true, Data: { id, status: 1 } });
    expect(await stock(sim)).toEqual([expect.objectContaining({ quantity: 0 })]);

    sim.advanceClock(24 * 60 * MINUTE);
    await control(sim, "deliveries/receive", { id, products: [{ sku: "MUG-1", count: 6 }] });
    expect(await report()).toMatchObject({
      Data: { status: 2, products: [{ sku: "MUG-1", count: "10", countReceived: "6" }] },
    });
    sim.receiveDelivery({ id });
    expect(await report()).toMatchObject({ Data: { status: 3, products: [{ countReceived: "10" }] } });
    expect((await stock(sim))[0]).toMatchObject({ quantity: 10, quantityAvailable: 10 });

    await addOrder(sim, {
      id_order: "R1",
      products: [{ sku: "MUG-1", name: "Чашка", count: "3", price: "150" }],
    });
    sim.advanceOrder({ id_order: "R1", to: "delivered" });
    const returned = await control(sim, "returns", {
      id_order: "R1",
      products: [
        { sku: "MUG-1", count: 2, marriage: false },
        { sku: "MUG-1", count: 1, marriage: true },
      ],
    });
    expect(returned.status).toBe(200);
    // 10 received, 3 shipped, 2 back on sale; the defective one is not.
    expect((await stock(sim))[0]).toMatchObject({ quantity: 9, quantityAvailable: 9 });

    const returns = await call(sim, OPERATIONS.listReturnOrder, {
      datefrom: "20260311",
      dateto: "20260311",
      page: 1,
    });
    expect((returns.json as { Data: unknown }).Data).toEqual([
      expect.objectContaining({
        id_order: "R1",
        date: "11.03.2026",
        products: [
          { sku: "MUG-1", count: "2", marriage: false },
          { sku: "MUG-1", count: "1", marriage: true },
        ],
      }),
    ]);
    const moves = await call(sim, OPERATIONS.reportMoveProduct, {
      dataStart: "20260101000000",
      dataFinish: "20261231235959",
    });
    const rows = (
      moves.json as { Data: Array<{ MovementDoc: string; Quantity: number; EndingBalance: number }> }
    ).Data;
    expect(rows.map((row) => [row.MovementDoc.split(" ")[0], row.Quantity, row.EndingBalance])).toEqual([
      ["Поступление", 6, 6],
      ["Поступление", 4, 10],
      ["Реализация", -3, 7],
      ["Возврат", 2, 9],
    ]);
  });
});

describe("keys", () => {
  it("keep production and staging data apart", async () => {
    const sim = await simulator({ rateLimits: false });
    await call(sim, OPERATIONS.addProduct, { sku: "MUG-1", name: "Чашка" });
    sim.seedProducts([{ sku: "MUG-1", quantity: 5 }]);
    await addOrder(sim);

    expect(await stock(sim, sim.stagingApiKey)).toEqual([]);
    const onStaging = await call(sim, OPERATIONS.addOrder, { ApiKey: sim.stagingApiKey, order: order(sim) });
    expect(onStaging.json).toMatchObject({
      result: "error",
      errors: [expect.stringContaining('"MUG-1" не найден')],
    });
    const listed = await call(sim, OPERATIONS.listOrder, {
      ApiKey: sim.stagingApiKey,
      datefrom: "20260310",
      dateto: "20260310",
    });
    expect(listed.json).toMatchObject({ result: "ok", Data: [] });
    const status = await call(sim, OPERATIONS.getStatusOrder, {
      ApiKey: sim.stagingApiKey,
      id_order: "1001",
    });
    expect(status.json).toMatchObject({ result: "error" });

    const token = await call(sim, OPERATIONS.getToken, { login: sim.login, password: sim.password });
    expect(token.json).toEqual({ result: "ok", Data: { ApiKey: sim.apiKey }, errors: [] });
    expect(sim.stagingApiKey).not.toBe(sim.apiKey);
  });

  it("have their own rate windows on the simulator clock, and refused calls do not count", async () => {
    const sim = await simulator({ rateLimits: { requestsPerWindow: 3 } });
    const bad = await call(sim, OPERATIONS.senderDetails, { ApiKey: "00000000-0000-0000-0000-000000000000" });
    expect(bad.status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await call(sim, OPERATIONS.senderDetails, {})).status).toBe(200);
    sim.advanceClock(20_000);
    const limited = await call(sim, OPERATIONS.senderDetails, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("40");
    expect((await call(sim, OPERATIONS.senderDetails, { ApiKey: sim.stagingApiKey })).status).toBe(200);

    const report = await call(sim, OPERATIONS.reportSklad, { ApiKey: sim.stagingApiKey });
    expect(report.status).toBe(200);
    expect((await call(sim, OPERATIONS.reportSklad, { ApiKey: sim.stagingApiKey })).status).toBe(429);
    sim.advanceClock(40_000);
    expect((await call(sim, OPERATIONS.senderDetails, {})).status).toBe(200);
    expect(sim.stats().rateLimited).toEqual({ overall: 1, report: 1 });
  });
});

describe("faults", () => {
  it("fail the chosen operation before any other check, and drop answers after committing", async () => {
    const sim = await simulator();
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    await control(sim, "faults/fail", { count: 1, status: 503, operations: [OPERATIONS.addOrder] });
    expect((await call(sim, OPERATIONS.senderDetails, {})).status).toBe(200);
    const malformed = await fetch(`${sim.url}/${OPERATIONS.addOrder}`, { method: "POST", body: "{" });
    expect(malformed.status).toBe(503);
    expect(await malformed.json()).toMatchObject({ result: "error", errors: [expect.any(String)] });
    expect((await fetch(`${sim.url}/${OPERATIONS.addOrder}`, { method: "POST", body: "{" })).status).toBe(
      400,
    );

    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addOrder] });
    await expect(call(sim, OPERATIONS.addOrder, { order: order(sim) })).rejects.toThrow();
    expect(sim.orders()).toHaveLength(1);
    await addOrder(sim);
    expect(sim.stats()).toMatchObject({ duplicateIdOrders: 1, droppedAnswers: 1, faultsInjected: 1 });
  });

  it("hold answers until released, after the operation is done", async () => {
    const sim = await simulator();
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    expect((await control(sim, "faults/hold", {})).json).toMatchObject({ answersHeld: true });
    let answered = false;
    const reply = addOrder(sim).then((data) => ((answered = true), data));
    await new Promise<void>((resolve) => {
      const check = () => (sim.orders().length === 1 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(answered).toBe(false);
    await control(sim, "faults/release", {});
    expect((await reply).id_order_FF).toBe(sim.orders()[0]!.id_order_FF);
    expect(sim.faults.snapshot().answersHeld).toBe(false);
  });

  it("reject a repeated id_order when switched to reject", async () => {
    const sim = await simulator({ duplicateIdOrder: "reject" });
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    const { id_order_FF } = await addOrder(sim);
    const again = await call(sim, OPERATIONS.addOrder, { order: order(sim) });
    expect(again.json).toMatchObject({ result: "error", errors: [expect.stringContaining(id_order_FF)] });
    expect(sim.orders()).toHaveLength(1);
    expect(sim.stats().duplicateIdOrders).toBe(1);
  });
});

describe("what a test can hold the client to", () => {
  it("records every refusal it chose and every field it ignored, but not the faults a test injected", async () => {
    const sim = await simulator();
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    await addOrder(sim, { delivery_address: { ...order(sim).delivery_address, Warehouse: "1" } });
    await call(sim, OPERATIONS.cancelOrder, { order: { id_order: "1001", reason: "x" }, note: "late" });
    await call(sim, OPERATIONS.cancelOrder, { order: { id_order: "1001" } });
    await call(sim, OPERATIONS.reportStatusOrder, { orders: ["1001"], page: 1 });
    sim.faults.failNext({ count: 1, status: 503 });
    expect((await call(sim, OPERATIONS.listOrder, { datefrom: "20260310", dateto: "20260310" })).status).toBe(
      503,
    );
    expect((await call(sim, OPERATIONS.listOrder, { ApiKey: "wrong" })).status).toBe(401);
    expect((await call(sim, "NoSuchOperation", {})).status).toBe(404);

    const { refusals, ignoredFields, statuses } = sim.stats();
    expect(ignoredFields).toEqual({
      "delivery_address.Warehouse": 1,
      "CancelOrder.note": 1,
      "CancelOrder.order.reason": 1,
      "ReportStatusOrder.page": 1,
    });
    expect(refusals).toEqual([
      { operation: OPERATIONS.cancelOrder, status: 200, errors: [expect.stringContaining("уже отменен")] },
      { operation: OPERATIONS.listOrder, status: 401, errors: ["Неверный ApiKey"] },
      { operation: "(unknown)", status: 404, errors: ["Метод NoSuchOperation не найден"] },
    ]);
    expect(statuses["503"]).toBe(1);
  });
});

describe("bad input", () => {
  it("never crashes an operation: every odd body gets an envelope, none a 500", async () => {
    const sim = await simulator({ rateLimits: false });
    sim.seedProducts([{ sku: "MUG-1", name: "Чашка", quantity: 10 }]);
    const odd: unknown[] = [null, 0, "x", true, [], {}, [null], [{}], { id_order: [] }, { sku: {} }];
    const fields = [
      "order",
      "orders",
      "id_order",
      "properties",
      "products",
      "datefrom",
      "page",
      "CityRef",
      "sku",
    ];
    for (const operation of Object.values(OPERATIONS)) {
      for (const value of odd) {
        const body = Object.fromEntries(fields.map((field) => [field, value]));
        const reply = (V2_OPERATIONS as readonly string[]).includes(operation)
          ? await callV2(sim, { ApiKey: sim.apiKey, apiKey: sim.apiKey, method: operation, ...body })
          : await call(sim, operation, body);
        expect(reply.status, `${operation} ${JSON.stringify(value)}`).toBe(200);
      }
    }
    const nested = order(sim, {
      delivery_address: [],
      products: [{ sku: 1, count: null, price: {} }],
      Cost: 1.5,
    });
    expect((await call(sim, OPERATIONS.addOrder, { order: [nested, "x", null] })).json).toMatchObject({
      result: "error",
      Data: [{ id_order: "1001" }, { id_order: "#2" }, { id_order: "#3" }],
    });
    expect(sim.stats().unexpectedErrors).toEqual([]);
  });
});

// The CLI runs as node with tsx's loader, one process: `npx tsx` is a wrapper (npx, then tsx, then node), whose
// exit after SIGTERM said nothing of the server beneath it, which could still answer (a CI failure).
describe("the CLI", () => {
  it("prints one JSON line whose addresses answer, and closes on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/warehouse-sim/cli.ts", "--port", "0", "--no-limits"],
      {
        cwd: new URL("../..", import.meta.url).pathname,
        stdio: ["ignore", "pipe", "ignore"],
        detached: true,
      },
    );
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`the CLI exited (${code}) before printing`)));
      });
      const printed = JSON.parse(line) as Record<string, string>;
      expect(Object.keys(printed).sort()).toEqual(
        ["apiKey", "controlUrl", "login", "password", "stagingApiKey", "url", "urlV2"].sort(),
      );
      const token = await fetch(`${printed.url}/${OPERATIONS.getToken}`, {
        method: "POST",
        body: JSON.stringify({ login: printed.login, password: printed.password }),
      });
      expect(await token.json()).toMatchObject({ result: "ok", Data: { ApiKey: printed.apiKey } });
      const list = await fetch(printed.urlV2!, {
        method: "POST",
        body: JSON.stringify({
          ApiKey: printed.stagingApiKey,
          method: OPERATIONS.listDeliveryRequest,
          properties: { datefrom: "20260101", dateto: "20261231" },
        }),
      });
      expect(await list.json()).toMatchObject({ success: true, Data: [] });
      const stats = await fetch(`${printed.controlUrl}/stats`);
      expect(await stats.json()).toMatchObject({ requests: { GetToken: 1, ListDeliveryRequest: 1 } });

      process.kill(-child.pid!, "SIGTERM");
      await exited;
      await expect(fetch(`${printed.controlUrl}/stats`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    }
  });

  it("starts with --accounts N accounts, each its own key and store, known from its number", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/warehouse-sim/cli.ts", "--port", "0", "--accounts", "3"],
      {
        cwd: new URL("../..", import.meta.url).pathname,
        stdio: ["ignore", "pipe", "ignore"],
        detached: true,
      },
    );
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`the CLI exited (${code}) before printing`)));
      });
      const printed = JSON.parse(line) as Record<string, string>;
      const accounts = numberedAccounts(3);
      expect(printed.apiKey).toBe(accounts[0]!.apiKey);
      const third = accounts[2]!;
      const token = await fetch(`${printed.url}/${OPERATIONS.getToken}`, {
        method: "POST",
        body: JSON.stringify({ login: third.login, password: third.password }),
      });
      expect(await token.json()).toMatchObject({ result: "ok", Data: { ApiKey: third.apiKey } });
      const seeded = await fetch(`${printed.controlUrl}/products`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ apiKey: third.apiKey, products: [{ sku: "ONLY-THIRD", quantity: 5 }] }),
      });
      expect(seeded.status).toBe(200);
      const stateOf = async (apiKey: string) =>
        (await (await fetch(`${printed.controlUrl}/state?apiKey=${apiKey}`)).json()) as {
          products: Array<{ sku: string }>;
        };
      expect((await stateOf(third.apiKey)).products.map((product) => product.sku)).toEqual(["ONLY-THIRD"]);
      expect((await stateOf(accounts[1]!.apiKey)).products).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
      await exited;
    }
  });
});
