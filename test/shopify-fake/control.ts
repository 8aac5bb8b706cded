// What a benchmark or a test needs of the fake when it runs in a process of its own (cli.ts): seed a shop,
// locations, stock and orders (in bulk), drive fulfillment orders through Shopify's lifecycle as a merchant
// would, move the fake's clock, list, drain or deliver the webhooks the shops raised, and read back what the app
// did and what it cost. Served under /__control, beside Shopify's /admin paths, and answered 400 with the reason
// when a body does not fit or a change breaks one of Shopify's rules (then with the rule's `code`).
import { z } from "zod";
import { orderWebhookPayload } from "./payloads";
import type { RecordedRequest } from "./recorded-request";
import {
  FulfillmentRuleError,
  type FakeState,
  type FulfillmentOrderRecord,
  type FulfillmentHoldReason,
  type Gid,
  type ShopStore,
} from "./state";
import type { WebhookDelivery } from "./webhooks";

/** A control call that cannot be carried out; answered 400 with its message. */
class ControlError extends Error {}

/** One call's answer stays a few megabytes of ids. */
const MAX_ORDERS_A_CALL = 100_000;

const shopSchema = z.strictObject({ domain: z.string().min(1), accessToken: z.string().min(1) });
const locationSchema = z.strictObject({
  shop: z.string().min(1),
  name: z.string().min(1).optional(),
  isActive: z.boolean().optional(),
  fulfillsOnlineOrders: z.boolean().optional(),
});
const isoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "an ISO date and time");
const DELIVERY_METHODS = ["SHIPPING", "PICK_UP", "LOCAL", "PICKUP_POINT", "RETAIL", "NONE"] as const;
const ordersSchema = z.strictObject({
  shop: z.string().min(1),
  count: z.number().int().positive().max(MAX_ORDERS_A_CALL),
  /** A custom item by its title, or a product's variant by its SKU (add the product first). */
  lineItems: z
    .array(
      z.union([
        z.strictObject({ title: z.string().min(1), quantity: z.number().int().positive() }),
        z.strictObject({
          sku: z.string().min(1),
          quantity: z.number().int().positive(),
          /** A pre-order or subscription line: its own fulfillment order, SCHEDULED until `fulfillAt`. */
          sellingPlan: z.strictObject({ name: z.string().min(1), fulfillAt: isoDate.optional() }).optional(),
        }),
      ]),
    )
    .min(1),
  /** The location every line goes to; absent: each line is routed by the shop's routing list. */
  locationId: z.string().min(1).optional(),
  /** The orders' fulfillment orders are SCHEDULED until then (when it is still to come). */
  fulfillAt: isoDate.optional(),
  deliveryMethod: z.enum(DELIVERY_METHODS).optional(),
  /** The order's name, for a single order (count 1). */
  name: z.string().min(1).optional(),
});
const routingSchema = z.strictObject({ shop: z.string().min(1), locationIds: z.array(z.string().min(1)) });
const stockSchema = z.strictObject({
  shop: z.string().min(1),
  locationId: z.string().min(1),
  /** Each SKU is stocked at the location (routing then counts it there) with this `available`, 0 unless told. */
  skus: z.array(z.string().min(1)).min(1).max(20_000),
  available: z.number().int().optional(),
});
const lineQuantities = z.array(z.strictObject({ id: z.string().min(1), quantity: z.number().int() })).min(1);
const foSchema = z.strictObject({ shop: z.string().min(1), id: z.string().min(1) });
const HOLD_REASONS = [
  "AWAITING_PAYMENT",
  "AWAITING_RETURN_ITEMS",
  "HIGH_RISK_OF_FRAUD",
  "INCORRECT_ADDRESS",
  "INVENTORY_OUT_OF_STOCK",
  "ONLINE_STORE_POST_PURCHASE_CROSS_SELL",
  "OTHER",
  "UNKNOWN_DELIVERY_DATE",
] as const satisfies readonly FulfillmentHoldReason[];
const shopOnly = z.strictObject({ shop: z.string().min(1).optional() });

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

/** What the control routes reach: the fake's state, its request log and its webhook delivery. */
export interface ControlContext {
  state: FakeState;
  requests: readonly RecordedRequest[];
  webhooks: WebhookDelivery;
}

/** A fulfillment order as the control routes answer it: the record, its holds' ids and reasons included. */
function foJson(fo: FulfillmentOrderRecord) {
  const { statusBeforeHold: _before, supportedActions: _actions, ...record } = fo;
  return record;
}

export function handleControl(
  { state, requests, webhooks }: ControlContext,
  method: string,
  route: string,
  body: unknown,
): ControlAnswer {
  const foOf = (store: ShopStore, id: Gid) => {
    const fo = store.fulfillmentOrders.get(id);
    if (!fo) throw new ControlError(`shop ${store.shop.myshopifyDomain} has no fulfillment order ${id}`);
    return fo;
  };
  const locationOf = (store: ShopStore, id: Gid) => {
    if (!store.locations.has(id))
      throw new ControlError(`shop ${store.shop.myshopifyDomain} has no location ${id}`);
    return id;
  };
  const outboxes = (shop: string | undefined) =>
    (shop ? [storeFor(state, shop)] : state.shops()).map((store) => ({
      shop: store.shop.myshopifyDomain,
      outbox: store.webhookOutbox,
    }));
  const routes: Record<string, () => unknown> = {
    "POST shops": () => {
      const { domain, accessToken } = shopSchema.parse(body);
      if (state.shop(domain)) throw new ControlError(`shop ${domain} is already added`);
      return { domain, id: state.addShop({ domain, accessToken }).shop.id };
    },
    "POST locations": () => {
      const { shop, ...fields } = locationSchema.parse(body);
      const { id, name } = storeFor(state, shop).addLocation(fields);
      return { id, name };
    },
    // A location's flags (deactivated, or no longer fulfilling online orders) or name, as the merchant edits it.
    "POST locations/update": () => {
      const { shop, id, ...fields } = locationSchema.extend({ id: z.string().min(1) }).parse(body);
      const store = storeFor(state, shop);
      const location = store.locations.get(locationOf(store, id))!;
      Object.assign(
        location,
        Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      );
      const { isActive, fulfillsOnlineOrders, name } = location;
      return { id, name, isActive, fulfillsOnlineOrders };
    },
    // The shop's routing list, first choice first (locations join it as they are added).
    "POST routing": () => {
      const { shop, locationIds } = routingSchema.parse(body);
      const store = storeFor(state, shop);
      for (const id of locationIds) locationOf(store, id);
      store.setRouting(locationIds);
      return { routing: store.routing };
    },
    "POST stock": () => {
      const { shop, locationId, skus, available = 0 } = stockSchema.parse(body);
      const store = storeFor(state, shop);
      locationOf(store, locationId);
      const variants = skus.map((sku) => {
        const variant = store.variantBySku(sku);
        if (!variant)
          throw new ControlError(`shop ${shop} has no variant with SKU ${sku}: add its product first`);
        return variant;
      });
      for (const variant of variants) store.stock(variant.inventoryItemId, locationId, { available });
      return { stocked: variants.length };
    },
    "POST orders": () => {
      const { shop, count, lineItems, locationId, fulfillAt, deliveryMethod, name } =
        ordersSchema.parse(body);
      const store = storeFor(state, shop);
      // Checked before the first order is added, so a refused call leaves the shop as it was.
      if (store.locations.size === 0) throw new ControlError(`shop ${shop} has no location: add one first`);
      if (locationId !== undefined) locationOf(store, locationId);
      if (name !== undefined && count !== 1) throw new ControlError("a name is for a single order (count 1)");
      for (const line of lineItems) {
        if ("sku" in line && !store.variantBySku(line.sku))
          throw new ControlError(`shop ${shop} has no variant with SKU ${line.sku}: add its product first`);
      }
      const placed = Array.from({ length: count }, () =>
        store.addOrder({ name, lineItems, locationId, fulfillAt, deliveryMethod }),
      );
      return {
        ids: placed.map(({ order }) => order.id),
        fulfillmentOrderIds: placed.map(({ fulfillmentOrders }) => fulfillmentOrders.map((fo) => fo.id)),
      };
    },
    // The REST orders/create body of an order the fake holds (payloads.ts), to send the app as Shopify would.
    "POST orders/webhook-payload": () => {
      const { shop, orderId, changes } = z
        .strictObject({
          shop: z.string().min(1),
          orderId: z.string().min(1),
          changes: z.record(z.string(), z.unknown()).optional(),
        })
        .parse(body);
      const store = storeFor(state, shop);
      if (!store.orders.has(orderId)) throw new ControlError(`shop ${shop} has no order ${orderId}`);
      return orderWebhookPayload(store, orderId, changes);
    },
    // The shop's fulfillment orders (of one order when named), closed ones too, as the fake holds them.
    "POST fulfillment-orders": () => {
      const { shop, orderId } = z
        .strictObject({ shop: z.string().min(1), orderId: z.string().min(1).optional() })
        .parse(body);
      const store = storeFor(state, shop);
      const all = [...store.fulfillmentOrders.values()];
      return { fulfillmentOrders: all.filter((fo) => !orderId || fo.orderId === orderId).map(foJson) };
    },
    "POST fulfillment-orders/move": () => {
      const input = foSchema.extend({ locationId: z.string().min(1), lineItems: lineQuantities.optional() });
      const { shop, id, locationId, lineItems } = input.parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      const moved = store.moveFulfillmentOrder(id, locationOf(store, locationId), lineItems);
      return { moved: foJson(moved), original: foJson(foOf(store, id)) };
    },
    // A hold as the merchant (or fraud analysis) places it in the admin; `byRequestingApp` makes it the app's.
    "POST fulfillment-orders/hold": () => {
      const input = foSchema.extend({
        reason: z.enum(HOLD_REASONS).optional(),
        reasonNotes: z.string().optional(),
        handle: z.string().optional(),
        byRequestingApp: z.boolean().optional(),
        lineItems: lineQuantities.optional(),
      });
      const { shop, id, ...hold } = input.parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      const placed = store.placeHold(id, hold);
      return {
        hold: placed.hold,
        fulfillmentOrder: foJson(placed.fulfillmentOrder),
        remainingFulfillmentOrder:
          placed.remainingFulfillmentOrder && foJson(placed.remainingFulfillmentOrder),
      };
    },
    "POST fulfillment-orders/release-hold": () => {
      const input = foSchema.extend({ holdIds: z.array(z.string().min(1)).optional() });
      const { shop, id, holdIds } = input.parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      store.releaseHolds(id, holdIds);
      return { fulfillmentOrder: foJson(foOf(store, id)) };
    },
    "POST fulfillment-orders/split": () => {
      const { shop, id, lineItems } = foSchema.extend({ lineItems: lineQuantities }).parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      const split = store.splitFulfillmentOrder(id, lineItems);
      return {
        fulfillmentOrder: foJson(split.fulfillmentOrder),
        remainingFulfillmentOrder: foJson(split.remainingFulfillmentOrder),
        replacementFulfillmentOrder:
          split.replacementFulfillmentOrder && foJson(split.replacementFulfillmentOrder),
      };
    },
    "POST fulfillment-orders/merge": () => {
      const { shop, intents } = z
        .strictObject({
          shop: z.string().min(1),
          intents: z
            .array(z.strictObject({ id: z.string().min(1), lineItems: lineQuantities.optional() }))
            .min(1),
        })
        .parse(body);
      const store = storeFor(state, shop);
      for (const intent of intents) foOf(store, intent.id);
      const merged = store.mergeFulfillmentOrders(
        intents.map(({ id, lineItems }) => ({ fulfillmentOrderId: id, lineItems })),
      );
      return { fulfillmentOrder: foJson(merged) };
    },
    "POST fulfillment-orders/cancel": () => {
      const { shop, id } = foSchema.parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      const cancelled = store.cancelFulfillmentOrder(id);
      const replacement = cancelled.replacementFulfillmentOrder;
      return {
        fulfillmentOrder: foJson(cancelled.fulfillmentOrder),
        replacementFulfillmentOrder: replacement && foJson(replacement),
      };
    },
    "POST fulfillment-orders/reschedule": () => {
      const { shop, id, fulfillAt } = foSchema.extend({ fulfillAt: isoDate }).parse(body);
      const store = storeFor(state, shop);
      foOf(store, id);
      return { fulfillmentOrder: foJson(store.rescheduleFulfillmentOrder(id, fulfillAt)) };
    },
    // Moves the fake's clock on: schedules fall due (on the next read), timestamps follow.
    "POST clock": () => {
      const { advanceSeconds } = z.strictObject({ advanceSeconds: z.number().nonnegative() }).parse(body);
      state.advanceClock(advanceSeconds * 1000);
      for (const store of state.shops()) store.releaseDueSchedules();
      return { now: new Date(state.now()).toISOString() };
    },
    // The webhooks waiting in the outboxes (of one shop when named), oldest first, left there.
    "POST webhooks": () => {
      const { shop } = shopOnly.parse(body ?? {});
      return {
        webhooks: outboxes(shop).flatMap(({ shop, outbox }) => outbox.map((entry) => ({ shop, ...entry }))),
      };
    },
    // The same, taken out: a test that sends them itself drains them so the fake does not deliver them too.
    "POST webhooks/drain": () => {
      const { shop } = shopOnly.parse(body ?? {});
      return {
        webhooks: outboxes(shop).flatMap(({ shop, outbox }) =>
          outbox.splice(0, outbox.length).map((entry) => ({ shop, ...entry })),
        ),
      };
    },
    // Turns delivery on (`appUrl` and `secret`) or off (`appUrl: null`).
    "POST webhooks/delivery": () => {
      const target = z
        .union([
          z.strictObject({ appUrl: z.url(), secret: z.string().min(1) }),
          z.strictObject({ appUrl: z.null() }),
        ])
        .parse(body);
      webhooks.deliverTo(target.appUrl === null ? null : { appUrl: target.appUrl, secret: target.secret });
      return { deliveringTo: webhooks.deliveringTo?.appUrl ?? null };
    },
    // Every webhook delivered or given up so far, with its attempts and last answer.
    "GET webhooks/deliveries": () => ({ deliveries: webhooks.deliveries }),
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
    if (error instanceof FulfillmentRuleError)
      return { status: 400, body: { error: error.message, code: error.code } };
    throw error;
  }
}
