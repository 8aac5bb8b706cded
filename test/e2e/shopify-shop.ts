// The Shopify side of an e2e file: one Shopify fake for the file, routed to, and the shop afresh for each test
// under a new access token (the fake keeps its state for the whole file), with a location of its own that
// stands for the warehouse and the offline session the worker's Admin client finds.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { appContext } from "../../app/context.server";
import {
  orderWebhookPayload,
  startShopifyFake,
  type LocationRecord,
  type ShopifyFake,
  type ShopStore,
} from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { FLOW_LINES, FLOW_PRODUCTS, orderPayload, SHOP } from "./harness";

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

/**
 * The Shopify order behind orderPayload: the fixture's items with their SKUs (two cups and a pack of tea), at
 * `locationId`, the products added to the store first if it lacks them. A fulfillment carries what the
 * warehouse was sent by SKU, so the store's order must hold what the app's order does.
 */
export function addFlowOrder(store: ShopStore, locationId: string, name?: string) {
  for (const { sku, name } of FLOW_PRODUCTS) {
    if (!store.variantBySku(sku)) store.addProduct({ title: name, variants: [{ sku, price: "100.00" }] });
  }
  return store.addOrder({ name, lineItems: FLOW_LINES, locationId });
}

/**
 * The orders/create body of the store's order `orderId` (its ids, line items and totals: orderWebhookPayload),
 * with orderPayload's Nova Poshta branch in the note attributes, so it maps as the harness's orders do.
 */
export function flowOrderPayload(store: ShopStore, orderId: string, changes: Record<string, unknown> = {}) {
  const { note_attributes } = orderPayload(0);
  return orderWebhookPayload(store, orderId, { note_attributes, ...changes });
}
