// The webhooks the fake's shops raise, delivered over real HTTP signed as Shopify signs them (checked with the
// app's own signature check), listed and drained through the control routes; the control routes that drive
// fulfillment orders; and the orders/create payload of a fake order, read by the app's own payload schema.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/api-version";
import { idOrderFor, mapOrder } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { DEFAULT_ORDER_SETTINGS } from "../../app/orders/settings";
import { checkWebhookSignature } from "../../app/webhooks/signature.server";
import { orderWebhookPayload } from "./payloads";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from ".";

const DOMAIN = "sklad-hooks.myshopify.com";
const TOKEN = "shpat_sklad_hooks";
const SECRET = "the-app-secret";

interface Received {
  path: string;
  headers: Headers;
  body: string;
}

/** A stand-in for the app: records every POST and answers each with the next status of `statuses` (then 200). */
async function startApp(statuses: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === "string") headers.set(name, value);
      received.push({ path: request.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let fake: ShopifyFake;
let app: Awaited<ReturnType<typeof startApp>> | undefined;
let clock: number;

beforeEach(() => {
  clock = Date.UTC(2026, 10, 2, 9);
});

afterEach(async () => {
  await fake.close();
  await app?.close();
  app = undefined;
});

function seed(): { shop: ShopStore; warehouse: LocationRecord; showroom: LocationRecord } {
  const shop = fake.state.addShop({ domain: DOMAIN, accessToken: TOKEN });
  const warehouse = shop.addLocation({ name: "Склад" });
  const showroom = shop.addLocation({ name: "Шоурум" });
  shop.addProduct({
    title: "Чашка",
    variants: [
      {
        sku: "CUP",
        price: "350.00",
        inventory: [
          { locationId: warehouse.id, available: 5 },
          { locationId: showroom.id, available: 5 },
        ],
      },
    ],
  });
  return { shop, warehouse, showroom };
}

async function control(route: string, body?: unknown) {
  const response = await fetch(`${fake.controlUrl}/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("webhook delivery", () => {
  it("is off unless asked: the webhooks wait in the outbox", async () => {
    fake = await startShopifyFake({ now: () => clock });
    const { shop } = seed();
    shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    await fake.webhooks.idle();
    expect(shop.webhookOutbox.map((entry) => entry.topic)).toEqual([
      "fulfillment_orders/order_routing_complete",
    ]);
    expect(fake.webhooks.deliveries).toEqual([]);
  });

  it("POSTs each webhook in order to <appUrl>/webhooks/<topic>, signed and with Shopify's headers", async () => {
    app = await startApp();
    fake = await startShopifyFake({ now: () => clock, webhooks: { appUrl: `${app.url}/`, secret: SECRET } });
    const { shop, showroom } = seed();
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    shop.moveFulfillmentOrder(fo.id, showroom.id);
    const raised = [...shop.webhookOutbox];
    await fake.webhooks.idle();

    expect(app.received.map((request) => request.path)).toEqual([
      "/webhooks/fulfillment_orders/order_routing_complete",
      "/webhooks/fulfillment_orders/moved",
    ]);
    app.received.forEach((request, index) => {
      const entry = raised[index]!;
      const check = checkWebhookSignature(request.body, request.headers, SECRET);
      expect(check).toEqual({
        ok: true,
        shop: DOMAIN,
        topic: entry.topic,
        apiVersion: ADMIN_API_VERSION,
        webhookId: entry.id,
        eventId: entry.eventId,
        triggeredAt: "2026-11-02T09:00:00Z",
      });
      expect(JSON.parse(request.body)).toEqual(entry.payload);
      expect(request.headers.get("content-type")).toBe("application/json");
      // Signed with another secret, the app would refuse it.
      expect(checkWebhookSignature(request.body, request.headers, "another-secret")).toMatchObject({
        ok: false,
        status: 401,
      });
    });
    expect(shop.webhookOutbox).toEqual([]);
    expect(
      fake.webhooks.deliveries.map(({ topic, attempts, status, delivered }) => ({
        topic,
        attempts,
        status,
        delivered,
      })),
    ).toEqual([
      { topic: "fulfillment_orders/order_routing_complete", attempts: 1, status: 200, delivered: true },
      { topic: "fulfillment_orders/moved", attempts: 1, status: 200, delivered: true },
    ]);
  });

  it("tries a failed delivery again with the same webhook id, and gives up after the last retry", async () => {
    app = await startApp([500, 503, 503, 503]);
    fake = await startShopifyFake({
      now: () => clock,
      webhooks: { appUrl: "http://127.0.0.1:1", secret: SECRET, retryDelaysMs: [1, 1] },
    });
    const { shop } = seed();
    // Nothing listens on port 1: three attempts, no answer, given up; the next webhook still goes.
    shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    await fake.webhooks.idle();
    expect(fake.webhooks.deliveries[0]).toMatchObject({
      attempts: 3,
      status: null,
      delivered: false,
      error: expect.any(String),
    });

    fake.webhooks.deliverTo({ appUrl: app.url, secret: SECRET });
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    shop.holdFulfillmentOrder(fo.id);
    await fake.webhooks.idle();
    // The first: 500, then 503, then 503: given up. The second: 503, then 200.
    expect(
      fake.webhooks.deliveries
        .slice(1)
        .map(({ topic, attempts, status, delivered }) => ({ topic, attempts, status, delivered })),
    ).toEqual([
      { topic: "fulfillment_orders/order_routing_complete", attempts: 3, status: 503, delivered: false },
      { topic: "fulfillment_orders/placed_on_hold", attempts: 2, status: 200, delivered: true },
    ]);
    const ids = app.received.map((request) => request.headers.get("x-shopify-webhook-id"));
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    expect(ids[3]).toBe(ids[4]);
    expect(ids[3]).not.toBe(ids[0]);
  });

  it("is listed, drained and turned on through the control routes", async () => {
    app = await startApp();
    fake = await startShopifyFake({ now: () => clock });
    const { shop } = seed();
    shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 2 }] });
    const listed = await control("webhooks", { shop: DOMAIN });
    expect(listed.json.webhooks).toEqual(shop.webhookOutbox.map((entry) => ({ shop: DOMAIN, ...entry })));
    const drained = await control("webhooks/drain", {});
    expect(drained.json.webhooks).toEqual(listed.json.webhooks);
    expect(shop.webhookOutbox).toEqual([]);

    expect(await control("webhooks/delivery", { appUrl: app.url, secret: SECRET })).toEqual({
      status: 200,
      json: { deliveringTo: app.url },
    });
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    await fake.webhooks.idle();
    expect(app.received.map((request) => JSON.parse(request.body) as unknown)).toEqual([
      { fulfillment_order: { id: fo.id, status: "open" } },
    ]);
    expect((await control("webhooks/deliveries")).json.deliveries).toMatchObject([
      { delivered: true, attempts: 1 },
    ]);
    expect(await control("webhooks/delivery", { appUrl: null })).toEqual({
      status: 200,
      json: { deliveringTo: null },
    });
    expect((await control("webhooks/delivery", { appUrl: "not a url", secret: SECRET })).status).toBe(400);
  });
});

describe("the fulfillment-order control routes", () => {
  it("route orders, move, hold, release, split, merge, cancel and reschedule them, and refuse a broken rule with its code", async () => {
    fake = await startShopifyFake({ now: () => clock });
    const { shop, warehouse, showroom } = seed();
    expect(await control("routing", { shop: DOMAIN, locationIds: [showroom.id, warehouse.id] })).toEqual({
      status: 200,
      json: { routing: [showroom.id, warehouse.id] },
    });
    const placed = await control("orders", {
      shop: DOMAIN,
      count: 1,
      lineItems: [{ sku: "CUP", quantity: 3 }],
      name: "#2001",
    });
    const [orderId] = placed.json.ids as string[];
    const foId = (placed.json.fulfillmentOrderIds as string[][])[0]![0]!;
    const fo = shop.fulfillmentOrders.get(foId)!;
    expect(fo.assignedLocationId).toBe(showroom.id);

    const moved = await control("fulfillment-orders/move", {
      shop: DOMAIN,
      id: foId,
      locationId: warehouse.id,
    });
    expect(moved.json.moved).toMatchObject({ id: foId, assignedLocationId: warehouse.id });
    const line = fo.lineItems[0]!;
    const split = await control("fulfillment-orders/split", {
      shop: DOMAIN,
      id: foId,
      lineItems: [{ id: line.id, quantity: 1 }],
    });
    const splitId = (split.json.remainingFulfillmentOrder as { id: string }).id;
    const held = await control("fulfillment-orders/hold", {
      shop: DOMAIN,
      id: splitId,
      reason: "INCORRECT_ADDRESS",
    });
    expect(held.json.fulfillmentOrder).toMatchObject({
      status: "ON_HOLD",
      holds: [{ reason: "INCORRECT_ADDRESS", byRequestingApp: false }],
    });
    const refusedMerge = await control("fulfillment-orders/merge", {
      shop: DOMAIN,
      intents: [{ id: foId }, { id: splitId }],
    });
    expect(refusedMerge).toEqual({
      status: 400,
      json: { error: expect.stringMatching(/cannot be merged/), code: null },
    });
    await control("fulfillment-orders/release-hold", { shop: DOMAIN, id: splitId });
    const merged = await control("fulfillment-orders/merge", {
      shop: DOMAIN,
      intents: [{ id: foId }, { id: splitId }],
    });
    expect(merged.json.fulfillmentOrder).toMatchObject({ id: foId, lineItems: [{ remainingQuantity: 3 }] });

    const refusedCancel = await control("fulfillment-orders/cancel", { shop: DOMAIN, id: foId });
    expect(refusedCancel.status).toBe(400);
    const duplicate = await control("fulfillment-orders/hold", {
      shop: DOMAIN,
      id: foId,
      byRequestingApp: true,
    });
    expect(duplicate.status).toBe(200);
    const again = await control("fulfillment-orders/hold", { shop: DOMAIN, id: foId, byRequestingApp: true });
    expect(again).toEqual({
      status: 400,
      json: { error: expect.any(String), code: "DUPLICATE_FULFILLMENT_HOLD_HANDLE" },
    });

    const later = await control("orders", {
      shop: DOMAIN,
      count: 1,
      lineItems: [{ sku: "CUP", quantity: 1 }],
      fulfillAt: "2026-11-02T10:00:00Z",
      deliveryMethod: "LOCAL",
    });
    const laterId = (later.json.fulfillmentOrderIds as string[][])[0]![0]!;
    expect(shop.fulfillmentOrders.get(laterId)).toMatchObject({
      status: "SCHEDULED",
      deliveryMethod: "LOCAL",
    });
    await control("fulfillment-orders/reschedule", {
      shop: DOMAIN,
      id: laterId,
      fulfillAt: "2026-11-02T09:30:00Z",
    });
    expect((await control("clock", { advanceSeconds: 1800 })).json).toEqual({
      now: "2026-11-02T09:30:00.000Z",
    });
    expect(shop.fulfillmentOrders.get(laterId)!.status).toBe("OPEN");

    const listed = await control("fulfillment-orders", { shop: DOMAIN, orderId });
    expect(
      (listed.json.fulfillmentOrders as Array<{ id: string; status: string }>).map(({ id, status }) => [
        id,
        status,
      ]),
    ).toEqual([
      [foId, "ON_HOLD"],
      [splitId, "CLOSED"],
    ]);
    expect(
      (
        await control("fulfillment-orders/move", {
          shop: DOMAIN,
          id: "gid://shopify/FulfillmentOrder/1",
          locationId: warehouse.id,
        })
      ).status,
    ).toBe(400);
  });

  it("stock a SKU at another location, routing sends it there, and not once that location stops fulfilling online orders", async () => {
    fake = await startShopifyFake({ now: () => clock });
    const { shop } = seed();
    const kyiv = (await control("locations", { shop: DOMAIN, name: "Київ", fulfillsOnlineOrders: true })).json
      .id as string;
    shop.addProduct({ title: "Ваза", variants: [{ sku: "VASE", inventory: [] }] });
    expect(await control("stock", { shop: DOMAIN, locationId: kyiv, skus: ["VASE"], available: 2 })).toEqual({
      status: 200,
      json: { stocked: 1 },
    });
    const placed = await control("orders", {
      shop: DOMAIN,
      count: 1,
      lineItems: [{ sku: "VASE", quantity: 1 }],
    });
    const foId = (placed.json.fulfillmentOrderIds as string[][])[0]![0]!;
    expect(shop.fulfillmentOrders.get(foId)!.assignedLocationId).toBe(kyiv);
    // Kyiv stops fulfilling online orders: routing passes it by, to the shop's first location.
    expect(
      await control("locations/update", { shop: DOMAIN, id: kyiv, fulfillsOnlineOrders: false }),
    ).toEqual({
      status: 200,
      json: { id: kyiv, name: "Київ", isActive: true, fulfillsOnlineOrders: false },
    });
    const next = await control("orders", {
      shop: DOMAIN,
      count: 1,
      lineItems: [{ sku: "VASE", quantity: 1 }],
    });
    const nextId = (next.json.fulfillmentOrderIds as string[][])[0]![0]!;
    expect(shop.fulfillmentOrders.get(nextId)!.assignedLocationId).toBe([...shop.locations.keys()][0]);
  });
});

describe("orderWebhookPayload", () => {
  it("is the fixture's orders/create body with the fake order's ids, lines and totals, as the app reads it", async () => {
    fake = await startShopifyFake({ now: () => clock });
    const { shop, showroom } = seed();
    const { order, fulfillmentOrders } = shop.addOrder({
      name: "#3001",
      lineItems: [
        { sku: "CUP", quantity: 2 },
        { title: "Листівка", quantity: 1, price: "20.00" },
        {
          sku: "CUP",
          quantity: 1,
          sellingPlan: { name: "Передзамовлення", fulfillAt: "2026-12-01T00:00:00Z" },
        },
      ],
    });
    expect(fulfillmentOrders).toHaveLength(2);
    shop.moveFulfillmentOrder(fulfillmentOrders[0]!.id, showroom.id, [
      { id: fulfillmentOrders[0]!.lineItems[0]!.id, quantity: 1 },
    ]);
    const payload = orderWebhookPayload(shop, order.id, { note: "Без дзвінка" });
    const parsed = shopifyOrderSchema.parse(payload);
    const numeric = (gid: string) => Number(gid.split("/").at(-1));
    expect(parsed).toMatchObject({
      id: String(numeric(order.id)),
      admin_graphql_api_id: order.id,
      name: "#3001",
      order_number: 3001,
      email: "customer@example.com",
      note: "Без дзвінка",
      total_price: "1070.00",
      current_total_price: "1070.00",
    });
    expect(payload.line_items).toEqual(
      order.lineItems.map((line) =>
        expect.objectContaining({
          id: numeric(line.id),
          admin_graphql_api_id: line.id,
          sku: line.sku,
          quantity: line.quantity,
          fulfillable_quantity: line.quantity,
          price: line.price,
          variant_id: line.variantId && numeric(line.variantId),
          requires_shipping: true,
          selling_plan_id: line.sellingPlan && numeric(line.sellingPlan.id),
        }),
      ),
    );
    // An order of goods with SKUs maps for the warehouse as it is: nothing in the shape holds it.
    const goods = shop.addOrder({ name: "#3002", lineItems: [{ sku: "CUP", quantity: 2 }] }).order;
    const goodsOrder = shopifyOrderSchema.parse(orderWebhookPayload(shop, goods.id));
    const idOrder = idOrderFor(goodsOrder, DEFAULT_ORDER_SETTINGS);
    expect(mapOrder({ order: goodsOrder, settings: DEFAULT_ORDER_SETTINGS, idOrder })).toMatchObject({
      ok: true,
    });
    // The same through the control route, for a fake in a process of its own.
    const routed = await control("orders/webhook-payload", {
      shop: DOMAIN,
      orderId: order.id,
      changes: { note: "Без дзвінка" },
    });
    expect(routed).toEqual({ status: 200, json: payload });
  });
});
