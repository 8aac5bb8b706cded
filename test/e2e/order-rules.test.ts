// The order rules end to end, against the simulator over real HTTP: what arrives while a request is out
// is never overwritten by its answer, batched AddOrder proves its shape before it is used, and loops end
// (nothing undue spins the worker, answers that will never change stop with their reason).
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { dueWorkWhere } from "../../app/orders/submit.server";
import { eventually, orderPayload, ordersInState, SHOP, startOrderFlow, type OrderFlow } from "./harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  if (flow) {
    // Whatever happened, the simulator saw nothing it did not expect and ignored no field we sent.
    expect(flow.sim.stats().unexpectedErrors).toEqual([]);
    expect(flow.sim.stats().ignoredFields).toEqual({});
  }
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;
const theOrder = () => db().warehouseOrder.findFirstOrThrow();

/** The order as Shopify sends it again later, with `changes`. */
const later = (payload: Record<string, unknown>, changes: Record<string, unknown>, ms = 1000) => ({
  ...payload,
  updated_at: new Date(Date.now() + ms).toISOString(),
  ...changes,
});
const withPhone = (payload: Record<string, unknown>, phone: string) => ({
  shipping_address: { ...(payload.shipping_address as Record<string, unknown>), phone },
});

async function post(topic: string, payload: Record<string, unknown>) {
  const response = await flow!.post({ topic, payload });
  expect(response.status).toBe(200);
}

async function acceptedOrder(n: number) {
  flow = await startOrderFlow();
  const payload = orderPayload(n);
  await post("orders/create", payload);
  await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");
  return payload;
}

describe("what arrives while a request is out", () => {
  it("sends a cancellation that arrived while an edit was out, after the edit is refused", async () => {
    const payload = await acceptedOrder(7101);
    // Picked: the warehouse refuses edits now, but still takes a cancellation.
    flow!.sim.advanceOrder({ id_order: "7101", to: "picked" });
    flow!.expectWarehouseErrors({ count: 1, operation: "EditOrder" });
    flow!.sim.faults.holdNext({ count: 1, operations: ["EditOrder"] });
    await post("orders/updated", later(payload, withPhone(payload, "+380 50 765 43 21")));
    await eventually(() => flow!.sim.faults.heldAnswers === 1, "the edit to be out");
    await post("orders/cancelled", later(payload, { cancelled_at: new Date().toISOString() }, 2000));
    flow!.sim.faults.releaseHeld();

    await eventually(async () => (await theOrder()).state === "cancelled", "the order to be cancelled");
    expect(flow!.sim.orders()[0]!.stage).toBe("cancelled");
    expect(flow!.sim.stats().requests).toMatchObject({ AddOrder: 1, EditOrder: 1, CancelOrder: 1 });
    expect(await theOrder()).toMatchObject({ pending: null, attention: null });
  });

  it("sends a cancellation that arrived while an edit was out, after the edit is accepted", async () => {
    const payload = await acceptedOrder(7102);
    flow!.sim.faults.holdNext({ count: 1, operations: ["EditOrder"] });
    await post("orders/updated", later(payload, withPhone(payload, "+380 50 765 43 21")));
    await eventually(() => flow!.sim.faults.heldAnswers === 1, "the edit to be out");
    await post("orders/cancelled", later(payload, { cancelled_at: new Date().toISOString() }, 2000));
    flow!.sim.faults.releaseHeld();

    await eventually(async () => (await theOrder()).state === "cancelled", "the order to be cancelled");
    expect(flow!.sim.orders()[0]!).toMatchObject({ stage: "cancelled" });
    expect(flow!.sim.orders()[0]!.submitted.rec_phone).toBe("380507654321");
    expect(flow!.sim.stats().requests).toMatchObject({ AddOrder: 1, EditOrder: 1, CancelOrder: 1 });
  });

  it("never submits an order cancelled in Shopify while its AddOrder failed cleanly", async () => {
    flow = await startOrderFlow();
    // A 429 is a clean failure: the warehouse certainly did not take the order.
    flow.sim.faults.failNext({ count: 1, status: 429, operations: ["AddOrder"], retryAfterSeconds: 1 });
    flow.sim.faults.holdNext({ count: 1, operations: ["AddOrder"] });
    const payload = orderPayload(7201);
    await post("orders/create", payload);
    await eventually(() => flow!.sim.faults.heldAnswers === 1, "the AddOrder to be out");
    await post("orders/cancelled", later(payload, { cancelled_at: new Date().toISOString() }));
    flow.sim.faults.releaseHeld();

    await eventually(async () => (await theOrder()).state === "cancelled", "the order to be cancelled");
    // Nothing is left due: a sweep sends nothing.
    await flow.worker.sweep();
    expect(flow.sim.orders()).toEqual([]);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect(flow.sim.stats().requests.CancelOrder).toBeUndefined();
    expect(await theOrder()).toMatchObject({ pending: null, nextAttemptAt: null });
  });
});

describe("batched AddOrder proves itself", () => {
  async function postOrders(numbers: number[]) {
    for (const n of numbers) await post("orders/create", orderPayload(n));
  }
  const batchProof = async () =>
    (await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).batchProof;

  it("sends one batch of two first, one order a request while it is out, and batches once it is answered as expected", async () => {
    flow = await startOrderFlow({ noWorker: true, batchProof: "unproven" });
    expect(await batchProof()).toBe("unproven");
    await postOrders([7301, 7302, 7303, 7304, 7305]);
    flow.sim.faults.holdNext({ count: 1, operations: ["AddOrder"] });
    flow.worker.start();
    await eventually(() => flow!.sim.faults.heldAnswers === 1, "the batch of two to be out");
    // Meanwhile the other three go one a request.
    await eventually(async () => (await ordersInState("accepted")) === 3, "three orders sent alone");
    expect(flow.sim.stats().requests.AddOrder).toBe(4);
    flow.sim.faults.releaseHeld();
    await eventually(async () => (await ordersInState("accepted")) === 5, "the batch of two to be accepted");
    expect(await batchProof()).toBe("proven");

    // Taken in while the worker is stopped, so the three are due together when it looks.
    await flow.worker.stop();
    await postOrders([7306, 7307, 7308]);
    flow.worker.start();
    await eventually(async () => (await ordersInState("accepted")) === 8, "the next orders to be accepted");
    expect(flow.sim.stats().requests.AddOrder).toBe(5);
  });

  it("looks up both orders of a batch answered in another shape, and keeps batches off with a banner", async () => {
    flow = await startOrderFlow({ noWorker: true, batchProof: "unproven" });
    flow.sim.faults.answerBatchesAs("single");
    await postOrders([7401, 7402]);
    flow.worker.start();
    await eventually(async () => (await batchProof()) === "failed", "the proof to fail");
    // Both were taken by the warehouse (it read the batch its own way): found by the look-up, never resent.
    await eventually(async () => (await ordersInState("accepted")) === 2, "both found at the warehouse");
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect(
      flow.sim
        .orders()
        .map((order) => order.id_order)
        .sort(),
    ).toEqual(["7401", "7402"]);
    expect(await db().orderEvent.count({ where: { kind: "in_doubt" } })).toBe(2);

    await postOrders([7403, 7404]);
    await eventually(async () => (await ordersInState("accepted")) === 4, "the next two to be accepted");
    expect(flow.sim.stats().requests.AddOrder).toBe(3);
  });

  it("never batches when the merchant turned batches off", async () => {
    flow = await startOrderFlow({ noWorker: true, batchProof: "unproven" });
    await db().shopSettings.update({ where: { shop: SHOP }, data: { batchAddOrder: false } });
    await postOrders([7501, 7502, 7503]);
    flow.worker.start();
    await eventually(async () => (await ordersInState("accepted")) === 3, "the orders to be accepted");
    expect(flow.sim.stats().requests.AddOrder).toBe(3);
    expect(await batchProof()).toBe("unproven");
  });
});

describe("loops end", () => {
  it("leaves alone a ready order with nothing mapped: the worker goes idle instead of spinning", async () => {
    flow = await startOrderFlow({ noWorker: true });
    await post("orders/create", orderPayload(7601));
    // A row no rule makes any more (written by an older version): ready, but nothing to send.
    await db().warehouseOrder.updateMany({ data: { mapped: null } });
    // Not due by the sweep's own measure (before, it was due and never claimed: the loop spun on it).
    expect(await db().warehouseOrder.count({ where: dueWorkWhere(new Date()) })).toBe(0);
    const idle = flow.worker.sweep();
    // A sweep of one order ends in milliseconds; a spinning one never does. Bounded well above the first
    // on a loaded machine, and below the test's own timeout so that the failure says what went wrong.
    const spinning = new Promise((_, reject) =>
      setTimeout(() => reject(new Error("the worker never went idle")), 15_000).unref(),
    );
    await Promise.race([idle, spinning]);
    expect(flow.sim.stats().requests.AddOrder).toBeUndefined();
  });

  it("stops an AddOrder the warehouse cannot read (HTTP 400) with the reason, instead of retrying", async () => {
    flow = await startOrderFlow();
    flow.sim.faults.failNext({ count: 50, status: 400, operations: ["AddOrder"] });
    await post("orders/create", orderPayload(7701));
    await eventually(async () => (await theOrder()).state === "rejected", "the order to stop");
    expect((await theOrder()).lastError).toMatch(/400|read/i);
    await flow.worker.sweep();
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
  });

  it("stops an edit the warehouse answers 404 for, flagging it, instead of retrying", async () => {
    const payload = await acceptedOrder(7801);
    flow!.sim.faults.failNext({ count: 50, status: 404, operations: ["EditOrder"] });
    await post("orders/updated", later(payload, withPhone(payload, "+380 50 765 43 21")));
    await eventually(async () => (await theOrder()).attention === "edit_refused", "the edit to stop");
    expect(await theOrder()).toMatchObject({ pending: null, nextAttemptAt: null });
    await flow!.worker.sweep();
    expect(flow!.sim.stats().requests.EditOrder).toBe(1);
  });
});
