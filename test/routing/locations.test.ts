// The shop's online locations, read from the Shopify fake over real HTTP: active locations that fulfil online
// orders only, kept on the settings with the time read, asked for again daily; isOneLocationShop is true only
// when the warehouse's location is the one online location, read lately.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { ONLINE_LOCATIONS_KIND } from "../../app/routing/kinds.server";
import { ONLINE_LOCATIONS_EVERY_MS, onlineLocationsWork } from "../../app/routing/locations.server";
import { isOneLocationShop, ONLINE_LOCATIONS_FRESH_MS } from "../../app/routing/online";
import { requestRun } from "../../app/work/schedule.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import type { ShopWork } from "../../app/work/steps.server";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const SHOP = "kyiv-goods.myshopify.com";
const NOW = new Date("2026-11-27T10:00:00Z");
const db = () => appContext().db;
let fake: ShopifyFake;

beforeAll(async () => {
  fake = await startShopifyFake({ now: () => NOW.getTime() });
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});

describe("the online locations read", () => {
  it("keeps the active locations that fulfil online orders, and is due again a day later", async () => {
    const store = fake.state.addShop({ domain: SHOP, accessToken: "shpat_locations" });
    const warehouse = store.addLocation({ name: "Склад" });
    store.addLocation({ name: "Старий склад", isActive: false });
    store.addLocation({ name: "Офіс", fulfillsOnlineOrders: false });
    await db().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_locations", scope: "" },
    });
    await db().shopSettings.create({ data: { shop: SHOP, locationId: warehouse.id } });
    await requestRun(db(), SHOP, ONLINE_LOCATIONS_KIND, NOW);
    const signal = new AbortController().signal;
    const work = {
      ...appContext(),
      clock: () => NOW,
      shop: SHOP,
      signal,
      admin: () => offlineShopAdmin(SHOP, signal),
    } as unknown as ShopWork;
    const step = await onlineLocationsWork.open(work);

    await step.run();
    const settings = (await db().shopSettings.findUnique({ where: { shop: SHOP } }))!;
    expect(JSON.parse(settings.onlineLocations!)).toEqual([warehouse.id]);
    expect(settings.onlineLocationsAt).toEqual(NOW);
    expect(isOneLocationShop(settings, NOW)).toBe(true);
    const row = await db().shopSchedule.findUnique({
      where: { shop_kind: { shop: SHOP, kind: ONLINE_LOCATIONS_KIND } },
    });
    expect(row!.nextRunAt.getTime()).toBe(NOW.getTime() + ONLINE_LOCATIONS_EVERY_MS);

    // A showroom opens: the next read sees two online locations, and the fast path is off.
    const showroom = store.addLocation({ name: "Шоурум у Києві" });
    await requestRun(db(), SHOP, ONLINE_LOCATIONS_KIND, NOW);
    await step.run();
    const after = (await db().shopSettings.findUnique({ where: { shop: SHOP } }))!;
    expect(JSON.parse(after.onlineLocations!)).toEqual([warehouse.id, showroom.id]);
    expect(isOneLocationShop(after, NOW)).toBe(false);
  });
});

describe("isOneLocationShop", () => {
  const WAREHOUSE = "gid://shopify/Location/1";
  const settings = (
    onlineLocations: string | null,
    readAt: Date | null = NOW,
    locationId: string | null = WAREHOUSE,
  ) => ({
    locationId,
    onlineLocations,
    onlineLocationsAt: readAt,
  });

  it("is true only for the warehouse's location alone, read lately", () => {
    expect(isOneLocationShop(settings(JSON.stringify([WAREHOUSE])), NOW)).toBe(true);
    expect(isOneLocationShop(settings(JSON.stringify([WAREHOUSE, "gid://shopify/Location/2"])), NOW)).toBe(
      false,
    );
    expect(isOneLocationShop(settings(JSON.stringify(["gid://shopify/Location/2"])), NOW)).toBe(false);
    expect(isOneLocationShop(settings(JSON.stringify([])), NOW)).toBe(false);
  });

  it("is false when not known: never read, unreadable, read too long ago, or no warehouse location", () => {
    expect(isOneLocationShop(settings(null, null), NOW)).toBe(false);
    expect(isOneLocationShop(settings("not json"), NOW)).toBe(false);
    const old = new Date(NOW.getTime() - ONLINE_LOCATIONS_FRESH_MS - 1);
    expect(isOneLocationShop(settings(JSON.stringify([WAREHOUSE]), old), NOW)).toBe(false);
    expect(isOneLocationShop(settings(JSON.stringify([WAREHOUSE]), NOW, null), NOW)).toBe(false);
  });
});
