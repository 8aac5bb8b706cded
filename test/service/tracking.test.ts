// Shopify's GET <callbackUrl>/fetch_tracking_numbers over real HTTP, signed as Shopify's fulfillment-service
// client signs it (the query string as sent, HMAC-SHA256 with the app's secret, base64, in
// X-Shopify-Hmac-Sha256): answered from the waybills the orders recorded, never a warehouse call; refused
// unsigned, signed with another secret, replayed late, or for a shop without the service.
import { createHmac } from "node:crypto";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { loader } from "../../app/routes/fulfillment-service.fetch_tracking_numbers";
import { loader as jsonLoader } from "../../app/routes/fulfillment-service.fetch_tracking_numbers[.]json";
import {
  configureServiceCallbacks,
  createFulfillmentService,
  fetchTrackingNumbers,
  startShopifyFake,
} from "../shopify-fake";
import { serveOnLoopback, type RouteServer } from "../support/route-server";
import { seedOrder } from "../support/orders";

const { db } = appContext();
const SHOP = "tracking-shop.myshopify.com";
let server: RouteServer;

beforeAll(async () => {
  server = await serveOnLoopback(async (request) => {
    const path = new URL(request.url).pathname;
    const route = path.endsWith(".json") ? jsonLoader : loader;
    return route({ request, params: {}, context: {} });
  });
});
afterAll(() => server.close());
beforeEach(async () => {
  await db.shopSettings.create({
    data: {
      shop: SHOP,
      fulfillmentMode: "service",
      fulfillmentServiceId: "gid://shopify/FulfillmentService/1",
    },
  });
});

/** The query as Shopify writes it (keys in order, brackets and # escaped), and the request signed over it. */
function shopifyGet(
  names: string[],
  options: { shop?: string; secret?: string; timestamp?: number; suffix?: string } = {},
) {
  const params = new URLSearchParams();
  for (const name of names) params.append("order_names[]", name);
  params.append("shop", options.shop ?? SHOP);
  params.append("timestamp", String(options.timestamp ?? Math.trunc(Date.now() / 1000)));
  const query = params.toString();
  const hmac = createHmac("sha256", options.secret ?? API_SECRET_KEY)
    .update(query, "utf8")
    .digest("base64");
  return fetch(`${server.url}/fulfillment-service/fetch_tracking_numbers${options.suffix ?? ""}?${query}`, {
    headers: { "X-Shopify-Hmac-Sha256": hmac, "X-Shopify-Shop-Domain": options.shop ?? SHOP },
  });
}

describe("fetch_tracking_numbers", () => {
  it("answers each fulfillment's waybill from the orders, leaving out orders without one", async () => {
    const shipped = await seedOrder(db, { shop: SHOP, number: 6101, state: "accepted" });
    await db.warehouseOrder.update({
      where: { id: shipped.id },
      data: { ttn: "20450000006101", stage: "shipped" },
    });
    await seedOrder(db, { shop: SHOP, number: 6102, state: "accepted" });
    const response = await shopifyGet(["#6101.1", "#6102.1", "#9999.1"]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      tracking_numbers: { "#6101.1": "20450000006101" },
      message: "Successfully received the tracking numbers",
      success: true,
    });
    // The older form of the address answers alike.
    const older = await shopifyGet(["#6101.1"], { suffix: ".json" });
    expect(await older.json()).toMatchObject({ tracking_numbers: { "#6101.1": "20450000006101" } });
  });

  it("refuses a request signed with another secret, replayed late, or for a shop without the service", async () => {
    expect((await shopifyGet(["#6101.1"], { secret: "another-secret" })).status).toBe(401);
    const late = Math.trunc(Date.now() / 1000) - 600;
    expect((await shopifyGet(["#6101.1"], { timestamp: late })).status).toBe(401);
    const unsigned = await fetch(`${server.url}/fulfillment-service/fetch_tracking_numbers?shop=${SHOP}`);
    expect(unsigned.status).toBe(401);
    expect((await shopifyGet(["#6101.1"], { shop: "stranger.myshopify.com" })).status).toBe(404);
  });
});

it("answers the fake's own signed GET, as Shopify sends it (the .json address, Rails' escaping, its timestamp)", async () => {
  const fake = await startShopifyFake();
  try {
    const store = fake.state.addShop({ domain: SHOP, accessToken: "shpat_tracking" });
    const { service } = createFulfillmentService(store, {
      name: "Sklad Sync",
      callbackUrl: "https://app.test/fulfillment-service",
      trackingSupport: true,
    });
    expect(service).not.toBeNull();
    configureServiceCallbacks(fake.state, { callbackOrigin: server.url });
    const shipped = await seedOrder(db, { shop: SHOP, number: 6103, state: "accepted" });
    await db.warehouseOrder.update({ where: { id: shipped.id }, data: { ttn: "20450000006103" } });
    const asked = await fetchTrackingNumbers(fake.state, store, { orderNames: ["#6103.1", "#6104.1"] });
    expect(asked.url).toContain("/fulfillment-service/fetch_tracking_numbers.json?");
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ tracking_numbers: { "#6103.1": "20450000006103" }, success: true });
  } finally {
    await fake.close();
  }
});
