// The warehouse and the Shopify store the demo runs against: the warehouse simulator stocked with the demo's
// products (recording every order as AddOrder first sent it), and the Shopify fake seeded with the demo store.
import { startShopifyFake } from "../../test/shopify-fake";
import { routeShopifyTo } from "../../test/support/network";
import { startWarehouseSimulator } from "../../test/warehouse-sim";
import { SCALED_LIMITS } from "../../test/warehouse-sim/limits";
import { defaultReferenceData } from "../../test/warehouse-sim/reference-data";
import { DEMO_ACCESS_TOKEN, DEMO_API_KEY, DEMO_API_SECRET } from "./environment";
import type { DemoOptions } from "./options";
import { DEMO_PRODUCTS } from "./samples";
import { seedDemoStore } from "./store";

export type DemoWorld = Awaited<ReturnType<typeof startWorld>>;

export async function startWorld(options: DemoOptions, scopes: string) {
  const reference = defaultReferenceData();
  const sim = await startWarehouseSimulator({
    rateLimits: SCALED_LIMITS,
    stageDelaysMs: options.stageDelays,
    referenceData: reference,
    notificationBaseDelayMs: 500,
    onUnexpectedError: (error) => console.error("warehouse simulator: unexpected error", error),
  });
  process.env.WAREHOUSE_API_URL = sim.url;
  // Every order as the warehouse received it by AddOrder: an order later edited (EditOrder changes the record in
  // place) or cancelled still counts what it was first sent with (see routingFigures).
  const addedOrders: Array<{ idOrder: string; lines: Array<{ sku: string; count: number }> }> = [];
  {
    const warehouse = sim.store();
    const addOrder = warehouse.addOrder.bind(warehouse);
    warehouse.addOrder = (order) => {
      addedOrders.push({
        idOrder: order.id_order,
        lines: order.lines.map(({ sku, count }) => ({ sku, count })),
      });
      addOrder(order);
    };
  }
  process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
  sim.seedProducts(
    DEMO_PRODUCTS.filter((product) => !product.showroomOnly).flatMap((product) =>
      product.variants.map((variant) => ({
        sku: variant.sku,
        name: variant.title ? `${product.title} (${variant.title})` : product.title,
        quantity: variant.warehouseQuantity,
      })),
    ),
  );

  const fake = await startShopifyFake({
    app: { apiKey: DEMO_API_KEY, apiSecretKey: DEMO_API_SECRET, scopes },
  });
  routeShopifyTo(fake.url);
  const { store, location, showroom, variantsBySku } = seedDemoStore(fake.state, DEMO_ACCESS_TOKEN);
  const warehouseLocationId: string = location.id;
  return {
    reference,
    sim,
    addedOrders,
    fake,
    store,
    location,
    showroom,
    variantsBySku,
    /** The location whose fulfillment orders are the warehouse's (service mode: the service's own, once registered). */
    warehouseLocationId,
  };
}
