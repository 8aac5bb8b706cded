// The order webhooks' bare edge (app/webhooks/order-edge.server.ts, mounted by server.js before Remix)
// against the Remix routes it stands in front of: the same signed deliveries over real HTTP on loopback,
// one server with the edge and one without, get the same answers and leave the same rows.
import { request as httpRequest } from "node:http";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { signedWebhookRequest, subscriptionFor } from "../support/webhooks";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { orderPayload, SHOP, startOrderFlow, type OrderFlow } from "../e2e/harness";

let flow: OrderFlow;
let viaRemix: RouteServer;
beforeEach(async () => {
  // flow.app is the bare edge's server (as server.js serves order webhooks); viaRemix sends them through
  // the routes' Fetch conversion, as before the edge.
  flow = await startOrderFlow({ noWorker: true });
  viaRemix = await startRouteServer({ orderEdge: "fetch" });
});
afterEach(async () => {
  await viaRemix.close();
  await flow.close();
});

type Delivery = Parameters<typeof signedWebhookRequest>[0];

/** Posts a signed delivery over HTTP; answers its status, its body's text and the Connection header. */
async function post(server: RouteServer, delivery: Delivery, path?: string) {
  const signed = signedWebhookRequest(delivery);
  const response = await fetch(new URL(path ?? new URL(signed.url).pathname, server.url), {
    method: "POST",
    headers: signed.headers,
    body: await signed.text(),
  });
  return { status: response.status, text: await response.text() };
}

const stored = async () => {
  const { db } = appContext();
  return {
    orders: await db.warehouseOrder.count(),
    deliveries: await db.webhookEvent.count(),
    refusals: (await db.webhookRefusal.findMany()).map(({ topic, count }) => ({ topic, count })),
  };
};

/** The same kind of delivery to each door (each its own order `n`), compared answer for answer. */
async function bothDoors(make: (n: number) => Delivery, path?: string) {
  const bare = await post(flow.app, make(1), path);
  const remix = await post(viaRemix, make(2), path);
  expect(bare).toEqual(remix);
  return bare;
}

describe("the order webhooks' bare edge answers as their Remix routes do", () => {
  it("takes in a signed order; its redelivery (same event id) changes nothing", async () => {
    const eventIds = [randomUUID(), randomUUID()];
    const make = (n: number) => ({
      topic: "orders/create",
      shop: SHOP,
      payload: orderPayload(n),
      eventId: eventIds[n - 1],
    });
    expect(await bothDoors(make)).toEqual({ status: 200, text: "" });
    expect(await stored()).toEqual({ orders: 2, deliveries: 2, refusals: [] });
    // Redelivered, each through the other door.
    expect((await post(viaRemix, make(1))).status).toBe(200);
    expect((await post(flow.app, make(2))).status).toBe(200);
    expect(await stored()).toEqual({ orders: 2, deliveries: 2, refusals: [] });
  });

  it("401 for a wrong signature, nothing stored or counted", async () => {
    const answer = await bothDoors((n) => ({
      topic: "orders/create",
      shop: SHOP,
      payload: orderPayload(n),
      secret: "forged",
    }));
    expect(answer.status).toBe(401);
    expect(await stored()).toEqual({ orders: 0, deliveries: 0, refusals: [] });
  });

  it("400 with zod's reasons for a signed order that is not one, nothing stored, the refusal counted", async () => {
    const answer = await bothDoors((n) => ({
      topic: "orders/updated",
      shop: SHOP,
      payload: { ...orderPayload(n), id: undefined },
    }));
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/orders\/updated payload is not what Shopify sends/);
    expect(answer.text).toMatch(/at id/);
    expect(await stored()).toEqual({
      orders: 0,
      deliveries: 0,
      refusals: [{ topic: "orders/updated", count: 2 }],
    });
  });

  it("400 for a shop header that is not a shop's domain; an unknown shop's edit is ignored alike", async () => {
    const notAShop = await bothDoors((n) => ({
      topic: "orders/create",
      shop: "kyiv-goods.myshopify.com.evil.example",
      payload: orderPayload(n),
    }));
    expect(notAShop.status).toBe(400);
    // An edit from a shop that never installed the app: no install date, so not taken in.
    const unknown = await bothDoors((n) => ({
      topic: "orders/updated",
      shop: "never-installed.myshopify.com",
      payload: orderPayload(n),
    }));
    expect(unknown.status).toBe(200);
    expect((await stored()).orders).toBe(0);
  });

  it("413 for a declared length over the limit, nothing stored", async () => {
    const big = (n: number): Delivery => ({
      topic: "orders/create",
      shop: SHOP,
      rawBody: JSON.stringify({ ...orderPayload(n), note: "x".repeat(4 * 1024 * 1024) }),
    });
    const answer = await bothDoors(big);
    expect(answer.status).toBe(413);
    expect((await stored()).orders).toBe(0);
  });

  it("413 for a chunked body once it passes the limit, while it streams", async () => {
    const signed = signedWebhookRequest({ topic: "orders/create", shop: SHOP, payload: orderPayload(6) });
    const headers = Object.fromEntries(signed.headers);
    delete headers["content-length"];
    const chunk = Buffer.alloc(64 * 1024, "x");
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(new URL(subscriptionFor("orders/create").uri, flow.app.url), {
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
      request.on("error", (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && sent <= 16 * 1024 * 1024) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once("drain", pump);
        }
        if (!answered) reject(new Error(`the server read ${sent} bytes without answering`));
      };
      pump();
    });
    expect(status).toBe(413);
    expect((await stored()).orders).toBe(0);
  });

  it("leaves other webhooks and other methods to Remix", async () => {
    // products/create is not the edge's: the route answers it (an unknown product is taken in or ignored).
    const product = await post(flow.app, {
      topic: "products/create",
      shop: SHOP,
      payload: { id: 1, admin_graphql_api_id: "gid://shopify/Product/1", title: "Чашка", variants: [] },
    });
    expect(product.status).toBeLessThan(500);
    // A query string does not hide an order webhook from the edge.
    const withQuery = await post(
      flow.app,
      { topic: "orders/create", shop: SHOP, payload: orderPayload(9) },
      "/webhooks/orders/create?from=shopify",
    );
    expect(withQuery.status).toBe(200);
    expect((await stored()).orders).toBe(1);
  });
});
