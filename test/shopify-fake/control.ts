// What a benchmark needs of the fake when it runs in a process of its own (cli.ts): seed a shop, a location
// and orders in bulk, and read back what the app did to them and what it cost. Served under /__control,
// beside Shopify's /admin paths, and answered 400 with the reason when a body does not fit.
import { z } from "zod";
import type { RecordedRequest } from "./server";
import type { FakeState, ShopStore } from "./state";

/** A control call that cannot be carried out; answered 400 with its message. */
class ControlError extends Error {}

/** One call's answer stays a few megabytes of ids. */
const MAX_ORDERS_A_CALL = 100_000;

const shopSchema = z.strictObject({ domain: z.string().min(1), accessToken: z.string().min(1) });
const locationSchema = z.strictObject({ shop: z.string().min(1), name: z.string().min(1).optional() });
const ordersSchema = z.strictObject({
  shop: z.string().min(1),
  count: z.number().int().positive().max(MAX_ORDERS_A_CALL),
  /** A custom item by its title, or a product's variant by its SKU (add the product first). */
  lineItems: z
    .array(
      z.union([
        z.strictObject({ title: z.string().min(1), quantity: z.number().int().positive() }),
        z.strictObject({ sku: z.string().min(1), quantity: z.number().int().positive() }),
      ]),
    )
    .min(1),
  /** The location the orders' fulfillment orders are assigned to; absent: the shop's first. */
  locationId: z.string().min(1).optional(),
});

/** At most this many SKUs a call, for the stock routes (a 10,000-SKU catalogue takes a few calls). */
const MAX_SKUS_A_CALL = 20_000;

const productsSchema = z.strictObject({
  shop: z.string().min(1),
  /** Each variant is stocked at this location alone, with its `available`. */
  locationId: z.string().min(1),
  products: z
    .array(
      z.strictObject({
        title: z.string().min(1),
        variants: z
          .array(
            z.strictObject({
              sku: z.string().min(1),
              barcode: z.string().min(1).optional(),
              available: z.number().int().nonnegative(),
            }),
          )
          .min(1)
          .max(2_048),
      }),
    )
    .min(1)
    .max(MAX_SKUS_A_CALL),
});
const skusSchema = z.strictObject({
  shop: z.string().min(1),
  locationId: z.string().min(1),
  skus: z.array(z.string().min(1)).min(1).max(MAX_SKUS_A_CALL),
});

export interface ControlAnswer {
  status: number;
  body: unknown;
}

function storeFor(state: FakeState, domain: string): ShopStore {
  const store = state.shop(domain);
  if (!store) throw new ControlError(`no shop ${domain}: add it first`);
  return store;
}

export function handleControl(
  state: FakeState,
  requests: readonly RecordedRequest[],
  method: string,
  route: string,
  body: unknown,
): ControlAnswer {
  const routes: Record<string, () => unknown> = {
    "POST shops": () => {
      const { domain, accessToken } = shopSchema.parse(body);
      if (state.shop(domain)) throw new ControlError(`shop ${domain} is already added`);
      return { domain, id: state.addShop({ domain, accessToken }).shop.id };
    },
    "POST locations": () => {
      const { shop, name } = locationSchema.parse(body);
      const { id, name: given } = storeFor(state, shop).addLocation({ name });
      return { id, name: given };
    },
    "POST orders": () => {
      const { shop, count, lineItems, locationId } = ordersSchema.parse(body);
      const store = storeFor(state, shop);
      // Checked before the first order is added, so a refused call leaves the shop as it was.
      const location = locationId ?? [...store.locations.keys()][0];
      if (!location) throw new ControlError(`shop ${shop} has no location: add one first`);
      if (!store.locations.has(location)) throw new ControlError(`shop ${shop} has no location ${location}`);
      for (const line of lineItems) {
        if ("sku" in line && !store.variantBySku(line.sku))
          throw new ControlError(`shop ${shop} has no variant with SKU ${line.sku}: add its product first`);
      }
      const ids = Array.from(
        { length: count },
        () => store.addOrder({ lineItems, locationId: location }).order.id,
      );
      return { ids };
    },
    "POST products": () => {
      const { shop, locationId, products } = productsSchema.parse(body);
      const store = storeFor(state, shop);
      if (!store.locations.has(locationId))
        throw new ControlError(`shop ${shop} has no location ${locationId}`);
      let variants = 0;
      for (const product of products) {
        store.addProduct({
          title: product.title,
          variants: product.variants.map(({ sku, barcode, available }, index) => ({
            title: `${index + 1}`,
            sku,
            ...(barcode && { barcode }),
            inventory: [{ locationId, available }],
          })),
        });
        variants += product.variants.length;
      }
      return { products: products.length, variants };
    },
    // A sale of one unit of each SKU, as an order placed in Shopify: available to committed, on_hand kept.
    "POST sales": () => {
      const { shop, locationId, skus } = skusSchema.parse(body);
      const store = storeFor(state, shop);
      const levels = skus.map((sku) => {
        const variant = store.variantBySku(sku);
        const level = variant && store.level(variant.inventoryItemId, locationId);
        if (!level) throw new ControlError(`no ${sku} stocked at ${locationId}`);
        return level;
      });
      for (const level of levels) {
        level.quantities.available -= 1;
        level.quantities.committed += 1;
      }
      return { sold: levels.length };
    },
    "POST levels": () => {
      const { shop, locationId, skus } = skusSchema.parse(body);
      const store = storeFor(state, shop);
      return {
        levels: skus.map((sku) => {
          const variant = store.variantBySku(sku);
          const level = variant && store.level(variant.inventoryItemId, locationId);
          return {
            sku,
            available: level?.quantities.available ?? null,
            committed: level?.quantities.committed ?? null,
          };
        }),
      };
    },
    // Counters since the fake started; a caller wanting a span differences two readings.
    "GET stats": () => {
      let orders = 0;
      let fulfilledOrders = 0;
      let extraFulfillments = 0;
      for (const store of state.shops())
        for (const order of store.orders.values()) {
          orders++;
          if (order.fulfillmentIds.length > 0) fulfilledOrders++;
          extraFulfillments += Math.max(0, order.fulfillmentIds.length - 1);
        }
      const actualCost = requests.reduce((sum, request) => sum + (request.actualCost ?? 0), 0);
      const operations: Record<string, number> = {};
      for (const { operationName } of requests) {
        if (operationName) operations[operationName] = (operations[operationName] ?? 0) + 1;
      }
      return {
        requests: requests.length,
        actualCost,
        orders,
        fulfilledOrders,
        extraFulfillments,
        operations,
      };
    },
  };
  const answer = routes[`${method} ${route}`];
  if (!answer)
    return {
      status: 404,
      body: { error: `no control route ${method} /${route}`, routes: Object.keys(routes) },
    };
  try {
    return { status: 200, body: answer() };
  } catch (error) {
    if (error instanceof z.ZodError) return { status: 400, body: { error: z.prettifyError(error) } };
    if (error instanceof ControlError) return { status: 400, body: { error: error.message } };
    throw error;
  }
}
