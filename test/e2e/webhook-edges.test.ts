// Bad and hostile order webhooks over HTTP: each gets a clear 4xx and leaves nothing behind.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { MAX_WEBHOOK_BYTES } from "../../app/webhooks/receive.server";
import { orderPayload, startOrderFlow, type OrderFlow } from "./harness";

let flow: OrderFlow;
beforeEach(async () => {
  flow = await startOrderFlow({ noWorker: true });
});
afterEach(() => flow.close());

async function nothingStored() {
  const { db } = appContext();
  expect(await db.warehouseOrder.count()).toBe(0);
  expect(await db.webhookEvent.count()).toBe(0);
  expect(await db.orderEvent.count()).toBe(0);
}

describe("order webhooks refuse bad input and change nothing", () => {
  it("401 for a wrong signature", async () => {
    const response = await flow.post({
      topic: "orders/create",
      payload: orderPayload(1),
      secret: "forged",
      expectStatus: 401,
    });
    expect(response.status).toBe(401);
    await nothingStored();
  });

  it("400 for a body that is not JSON", async () => {
    const response = await flow.post({
      topic: "orders/create",
      rawBody: '{"id": 1, "name": ',
      expectStatus: 400,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The webhook body is not valid JSON." });
    await nothingStored();
  });

  it("400 naming the field for an order that is not what Shopify sends", async () => {
    const payload = orderPayload(2, { line_items: "everything", created_at: "yesterday" });
    const response = await flow.post({ topic: "orders/create", payload, expectStatus: 400 });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toMatch(/orders\/create payload is not what Shopify sends/);
    expect(error).toMatch(/line_items/);
    expect(error).toMatch(/created_at/);
    await nothingStored();
  });

  it("400 for JSON that is not an object at all", async () => {
    for (const rawBody of ["[]", "null", '"order"', "12"]) {
      const response = await flow.post({ topic: "orders/updated", rawBody, expectStatus: 400 });
      expect(response.status, rawBody).toBe(400);
    }
    await nothingStored();
  });

  it("413 for a body larger than any order, before it is read", async () => {
    const rawBody = JSON.stringify({ ...orderPayload(3), note: "x".repeat(MAX_WEBHOOK_BYTES) });
    const response = await flow.post({ topic: "orders/create", rawBody, expectStatus: 413 });
    expect(response.status).toBe(413);
    await nothingStored();
  });

  it("keeps hostile text as data: markup and SQL in names and notes are stored and mapped verbatim", async () => {
    const note = `'); DROP TABLE "WarehouseOrder"; -- <script>alert(1)</script>`;
    const response = await flow.post({ topic: "orders/create", payload: orderPayload(4, { note }) });
    expect(response.status).toBe(200);
    const row = await appContext().db.warehouseOrder.findFirstOrThrow();
    expect(JSON.parse(row.mapped!).comment).toBe(note);
  });
});
