// Shopify's fulfillment-service callback over real HTTP, signed as Shopify signs it (base64 HMAC-SHA256 of the
// body with the app's secret in X-Shopify-Hmac-Sha256, the shop in X-Shopify-Shop-Domain), verified by the
// library's authenticate.fulfillmentService: a good ping and the request webhooks mark the shop's requests
// due once, whatever the redeliveries; a bad signature, an unknown shop or an unknown kind change nothing.
import { createHmac } from "node:crypto";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { FULFILLMENT_REQUESTS_KIND } from "../../app/service/kinds.server";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { sendWebhook } from "../support/webhooks";

const { db } = appContext();
const SHOP = "callback-shop.myshopify.com";
let server: RouteServer;

beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await db.session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_callback", scope: "" },
  });
});

function ping(body: string, options: { shop?: string; secret?: string } = {}) {
  const hmac = createHmac("sha256", options.secret ?? API_SECRET_KEY)
    .update(body, "utf8")
    .digest("base64");
  return fetch(`${server.url}/fulfillment-service/fulfillment_order_notification`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Shop-Domain": options.shop ?? SHOP,
    },
  });
}

const schedules = () => db.shopSchedule.findMany({ where: { kind: FULFILLMENT_REQUESTS_KIND } });

describe("the fulfillment-service callback", () => {
  it("marks the shop's requests due once for pings and webhooks redelivered together", async () => {
    const before = Date.now();
    const answers = await Promise.all([
      ping(JSON.stringify({ kind: "FULFILLMENT_REQUEST" })),
      ping(JSON.stringify({ kind: "FULFILLMENT_REQUEST" })),
      sendWebhook({
        topic: "fulfillment_orders/fulfillment_request_submitted",
        shop: SHOP,
        payload: { original_fulfillment_order: { id: "gid://shopify/FulfillmentOrder/1", status: "open" } },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const rows = await schedules();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ shop: SHOP });
    expect(rows[0]!.nextRunAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(rows[0]!.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("takes a cancellation request's ping and webhook alike", async () => {
    expect((await ping(JSON.stringify({ kind: "CANCELLATION_REQUEST" }))).status).toBe(200);
    const webhook = await sendWebhook({
      topic: "fulfillment_orders/cancellation_request_submitted",
      shop: SHOP,
      payload: { fulfillment_order: { id: "gid://shopify/FulfillmentOrder/1", status: "in_progress" } },
    });
    expect(webhook.status).toBe(200);
    expect(await schedules()).toHaveLength(1);
  });

  it("refuses a ping signed with another secret, from a shop without a session, or of an unknown kind", async () => {
    const body = JSON.stringify({ kind: "FULFILLMENT_REQUEST" });
    expect((await ping(body, { secret: "not-the-app-secret" })).status).toBe(400);
    expect((await ping(body, { shop: "stranger.myshopify.com" })).status).toBe(400);
    expect((await ping(JSON.stringify({ kind: "SOMETHING_ELSE" }))).status).toBe(400);
    const get = await fetch(`${server.url}/fulfillment-service/fulfillment_order_notification`);
    expect(get.status).not.toBe(200);
    expect(await schedules()).toEqual([]);
  });
});
