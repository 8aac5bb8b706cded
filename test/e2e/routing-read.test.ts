// Routing's reading, wired end to end: a fulfillment_orders/* webhook signed and posted over HTTP to the app's
// route makes the shop's read due, the engine's worker reads the Shopify fake's fulfillment orders over HTTP and
// stores them; the warehouse location saved makes the worker read the shop's online locations.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { saveStatusSettings } from "../../app/statuses/settings.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { eventually, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { addFlowOrder, useShopifyShop } from "./shopify-shop";

const db = () => appContext().db;
const shopify = useShopifyShop("routing");
let flow: OrderFlow | undefined;

afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

describe("routing's reading through the engine", { timeout: 60_000 }, () => {
  it("stores the fulfillment orders a webhook announced, and the shop's online locations", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const showroom = shopify.store.addLocation({ name: `Шоурум ${shopify.test}` });
    const saved = await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [
      { id: shopify.warehouse.id, name: shopify.warehouse.name },
    ]);
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
    const online = await eventually(async () => {
      const settings = await db().shopSettings.findUnique({ where: { shop: SHOP } });
      return settings?.onlineLocations ? (JSON.parse(settings.onlineLocations) as string[]) : null;
    }, "the online locations to be read");
    expect(online).toEqual(expect.arrayContaining([shopify.warehouse.id, showroom.id]));

    // A pickup order routed to the showroom: Shopify says routing is complete.
    const { order, fulfillmentOrder } = addFlowOrder(shopify.store, showroom.id);
    await flow.post({
      topic: "fulfillment_orders/order_routing_complete",
      payload: { fulfillment_order: { id: fulfillmentOrder.id, status: "open" } },
    });
    const row = await eventually(
      () =>
        db().shopifyFulfillmentOrder.findUnique({
          where: { shop_id: { shop: SHOP, id: fulfillmentOrder.id } },
        }),
      "the fulfillment order to be stored",
    );
    expect(row).toMatchObject({
      shopifyOrderId: order.id.split("/").at(-1),
      locationId: showroom.id,
      status: "OPEN",
    });
    expect(JSON.parse(row.lines)).toHaveLength(2);
  });
});
