// The Shopify side of an e2e file: one Shopify fake for the file, routed to, and the shop afresh for each test
// under a new access token (the fake keeps its state for the whole file), with a location of its own that
// stands for the warehouse and the offline session the worker's Admin client finds.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { appContext } from "../../app/context.server";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { SHOP } from "./harness";

export interface ShopifyShop {
  fake: ShopifyFake;
  store: ShopStore;
  /** The test's own location, new for each test. */
  warehouse: LocationRecord;
  /** The test's number in the file, from 1: for names that must differ from the last test's. */
  test: number;
}

/** Registers the file's hooks; the answer's fields are the current test's once its beforeEach has run. */
export function useShopifyShop(tokenPrefix: string): ShopifyShop {
  const shop = {} as ShopifyShop;
  beforeAll(async () => {
    shop.fake = await startShopifyFake();
    routeShopifyTo(shop.fake.url);
  });
  afterAll(async () => {
    routeShopifyTo(undefined);
    await shop.fake.close();
  });
  beforeEach(async () => {
    shop.test = (shop.test ?? 0) + 1;
    const token = `shpat_${tokenPrefix}_${shop.test}`;
    shop.store = shop.fake.state.shop(SHOP) ?? shop.fake.state.addShop({ domain: SHOP, accessToken: token });
    shop.store.shop.accessToken = token;
    shop.warehouse = shop.store.addLocation({ name: `Склад ${shop.test}` });
    await appContext().db.session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: token, scope: "" },
    });
  });
  return shop;
}
