// Choosing fulfillment-service mode against the Shopify fake over real HTTP: the service is registered once,
// even when the answer to its creation was lost or the merchant clicks twice, its location gets the
// warehouse's address, and the settings say service mode at the service's location; back to a location later,
// the service stays for the orders sent under it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { chooseLocationMode, chooseServiceMode, SERVICE_NAME } from "../../app/service/register.server";
import { createShopAdmin, type AdminGraphql, type ShopAdmin } from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import { startShopifyFake, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { fulfillmentServices } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const { db, log } = appContext();
const deps = { db, log, clock: () => new Date() };
const APP_URL = "https://sklad-sync.example.com";
let fake: ShopifyFake;
let store: ShopStore;
let shop: string;

beforeAll(async () => {
  fake = await startShopifyFake();
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});
let count = 0;
beforeEach(async () => {
  shop = `register-${++count}.myshopify.com`;
  store = fake.state.addShop({ domain: shop, accessToken: `shpat_register_${count}` });
  store.addLocation({ name: "Магазин" });
  await db.session.create({
    data: { id: `offline_${shop}`, shop, state: "", accessToken: store.shop.accessToken, scope: "" },
  });
});

async function shopAdmin(loseFirst?: string): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(shop);
  let lost = false;
  const graphql: AdminGraphql = async (query, options) => {
    const response = await admin.graphql(query, options);
    if (loseFirst && !lost && String(query).includes(`mutation ${loseFirst}`)) {
      lost = true;
      throw new TypeError("fetch failed: socket hang up");
    }
    return response;
  };
  return createShopAdmin(graphql, { sleep: async () => {} });
}

const address = { address1: "вул. Складська, 1", city: "Бровари", zip: "07400" };

describe("choosing fulfillment-service mode", { timeout: 30_000 }, () => {
  it("registers the service once although the first answer was lost, and saves the mode at its location", async () => {
    const lost = await chooseServiceMode(deps, shop, await shopAdmin("ServiceFulfillmentServiceCreate"), {
      appUrl: APP_URL,
      address,
    });
    expect(lost).toMatchObject({ ok: false });
    expect(fulfillmentServices(store)).toHaveLength(1);
    const chosen = await chooseServiceMode(deps, shop, await shopAdmin(), { appUrl: APP_URL, address });
    expect(chosen).toMatchObject({ ok: true, mode: "service", locationName: SERVICE_NAME });
    const [service] = fulfillmentServices(store);
    expect(fulfillmentServices(store)).toHaveLength(1);
    expect(service).toMatchObject({
      serviceName: SERVICE_NAME,
      callbackUrl: `${APP_URL}/fulfillment-service`,
      inventoryManagement: false,
      trackingSupport: true,
      requiresShippingMethod: true,
    });
    expect(store.locations.get(service!.locationId)!.address).toMatchObject({
      ...address,
      countryCode: "UA",
    });
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop } })).toMatchObject({
      fulfillmentMode: "service",
      fulfillmentServiceId: service!.id,
      locationId: service!.locationId,
    });
    // A second click changes nothing in Shopify.
    await chooseServiceMode(deps, shop, await shopAdmin(), { appUrl: APP_URL });
    expect(fulfillmentServices(store)).toHaveLength(1);
    expect(await db.shopSchedule.findMany({ where: { shop, kind: "fulfillment_requests" } })).toHaveLength(1);
  });

  it("refuses a save over a settings page that changed meanwhile", async () => {
    const first = await chooseServiceMode(deps, shop, await shopAdmin(), { appUrl: APP_URL, shown: 0 });
    expect(first).toMatchObject({ ok: true });
    const stale = await chooseServiceMode(deps, shop, await shopAdmin(), { appUrl: APP_URL, shown: 0 });
    expect(stale).toMatchObject({ ok: false, problem: { key: "settings:errors.changedMeanwhile" } });
  });

  it("goes back to a location of the merchant's, keeping the service registered", async () => {
    await chooseServiceMode(deps, shop, await shopAdmin(), { appUrl: APP_URL });
    const own = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    const back = await chooseLocationMode(deps, shop, { location: { id: own.id, name: own.name } });
    expect(back).toMatchObject({ ok: true, mode: "location" });
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop } })).toMatchObject({
      fulfillmentMode: "location",
      locationId: own.id,
    });
    expect(fulfillmentServices(store)).toHaveLength(1);
  });
});
