// What the warehouse's staff and carriers do, as calls a test can make: seed stock, advance orders, receive
// inbound deliveries, book returns, move the clock, switch faults. Served under /__control and in process.
import { z } from "zod";
import { OPERATION_NAMES } from "./spec-literals";
import { compactDate } from "./clock";
import type { SimulatorCore } from "./core";
import { rateLimitSettings } from "./limits";
import { deliveryRequestReport, returnRecord } from "./operations";
import {
  type DeliveryRequestRecord,
  type KeyStore,
  MOVEMENT_DOCUMENT,
  type OrderRecord,
  type ProductRecord,
  type ReturnRecord,
} from "./state";
import { ORDER_STATUS_TABLE, type ProgressStage, STAGE_SEQUENCE } from "./statuses";

/** A control call that cannot be carried out; answered 400 over HTTP, thrown in process. */
export class ControlError extends Error {}

const nonNegativeInteger = z.number().int().nonnegative();
const positiveInteger = z.number().int().positive();
const instant = z.union([z.number(), z.string().min(1)]);
const operations = z.array(z.enum(OPERATION_NAMES as [string, ...string[]])).min(1);

export const seedProductSchema = z.strictObject({
  sku: z.string().min(1),
  name: z.string().optional(),
  barcode: z.string().optional(),
  /** The on-hand level to reach; the difference is booked as a capitalisation or write-off movement. */
  quantity: nonNegativeInteger.optional(),
});
export type SeedProduct = z.infer<typeof seedProductSchema>;

export const receiveDeliverySchema = z.strictObject({
  id: z.string().min(1),
  /** Actual counts received now; absent: everything still outstanding arrives. */
  products: z.array(z.strictObject({ sku: z.string().min(1), count: positiveInteger })).optional(),
  /** Close the request (status 3) even if less than planned arrived. */
  complete: z.boolean().optional(),
});
export type ReceiveDelivery = z.infer<typeof receiveDeliverySchema>;

export const addReturnSchema = z.strictObject({
  id_order: z.string().min(1),
  products: z
    .array(
      z.strictObject({ sku: z.string().min(1), count: positiveInteger, marriage: z.boolean().optional() }),
    )
    .min(1),
  TTN: z.string().optional(),
});
export type AddReturn = z.infer<typeof addReturnSchema>;

export const advanceOrderSchema = z
  .strictObject({
    id_order: z.string().min(1).optional(),
    key_order: z.string().min(1).optional(),
    /** The stage to reach, through every stage before it; absent: the next stage. */
    to: z.enum(STAGE_SEQUENCE.slice(1) as ["picked", "shipped", "delivered"]).optional(),
  })
  .refine((value) => value.id_order || value.key_order, "id_order or key_order is required");
export type AdvanceOrder = z.infer<typeof advanceOrderSchema>;

export const failFaultSchema = z.strictObject({
  count: positiveInteger.default(1),
  status: z.number().int().min(400).max(599),
  operations: operations.optional(),
  retryAfterSeconds: positiveInteger.optional(),
  message: z.string().optional(),
  when: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export const dropFaultSchema = z.strictObject({
  count: positiveInteger.default(1),
  operations: operations.optional(),
});
export const stageDelaysSchema = z
  .strictObject({ picked: nonNegativeInteger, shipped: nonNegativeInteger, delivered: nonNegativeInteger })
  .nullable();
export const rateLimitsSchema = z.union([
  z.literal(false),
  z.strictObject({
    requestsPerWindow: positiveInteger.optional(),
    reportRequestsPerWindow: positiveInteger.optional(),
    windowMs: positiveInteger.optional(),
  }),
]);

export function storeFor(core: SimulatorCore, apiKey: string): KeyStore {
  const store = core.state.store(apiKey);
  if (!store) throw new ControlError(`unknown ApiKey ${apiKey}`);
  return store;
}

function findOrder(store: KeyStore, by: { id_order?: string; key_order?: string }): OrderRecord {
  const order = by.key_order ? store.orderByKey.get(by.key_order) : store.latestOrder(by.id_order ?? "");
  if (!order) throw new ControlError(`no order ${by.key_order ?? by.id_order} for this key`);
  return order;
}

export function seedProducts(core: SimulatorCore, apiKey: string, products: SeedProduct[]): ProductRecord[] {
  const store = storeFor(core, apiKey);
  const parsed = z.array(seedProductSchema).parse(products);
  const now = core.clock.now();
  return parsed.map((seed) => {
    const existing = store.products.get(seed.sku);
    const { product } = store.upsertProduct(
      seed.sku,
      seed.name ?? existing?.name ?? seed.sku,
      seed.barcode ?? existing?.barcode ?? "",
    );
    const delta = seed.quantity === undefined ? 0 : seed.quantity - product.quantity;
    if (delta !== 0) {
      const number = core.state.nextAdjustmentNumber();
      const document =
        delta > 0 ? MOVEMENT_DOCUMENT.capitalisation(number, now) : MOVEMENT_DOCUMENT.writeOff(number, now);
      store.move(product.sku, delta, document, now);
    }
    return { ...product };
  });
}

export function advanceOrder(core: SimulatorCore, apiKey: string, input: AdvanceOrder): OrderRecord {
  const store = storeFor(core, apiKey);
  const request = advanceOrderSchema.parse(input);
  const order = findOrder(store, request);
  const current = STAGE_SEQUENCE.indexOf(order.stage as ProgressStage);
  const target = request.to ?? STAGE_SEQUENCE[current + 1];
  if (order.stage === "cancelled") throw new ControlError(`order ${order.id_order_FF} is cancelled`);
  if (!target || STAGE_SEQUENCE.indexOf(target) <= current)
    throw new ControlError(`order ${order.id_order_FF} is already ${order.stage}`);
  if (order.draft && target !== "picked")
    throw new ControlError(`order ${order.id_order_FF} is a draft: reserved, never shipped`);
  core.lifecycle.advanceTo(store, order, target, core.clock.now());
  return order;
}

/**
 * Every order of the key not yet at `to` (and not cancelled or a draft) moved to it, each as advanceOrder
 * would: the warehouse's whole day at once, for benchmarks. Answers how many moved.
 */
export function advanceAllOrders(core: SimulatorCore, apiKey: string, to: ProgressStage): number {
  const store = storeFor(core, apiKey);
  let moved = 0;
  for (const order of store.orders) {
    const current = STAGE_SEQUENCE.indexOf(order.stage as ProgressStage);
    if (order.stage === "cancelled" || order.draft || current < 0 || current >= STAGE_SEQUENCE.indexOf(to))
      continue;
    core.lifecycle.advanceTo(store, order, to, core.clock.now());
    moved++;
  }
  return moved;
}

export function receiveDelivery(
  core: SimulatorCore,
  apiKey: string,
  input: ReceiveDelivery,
): DeliveryRequestRecord {
  const store = storeFor(core, apiKey);
  const receipt = receiveDeliverySchema.parse(input);
  const request = store.deliveries.get(receipt.id);
  if (!request) throw new ControlError(`no delivery request ${receipt.id} for this key`);
  if (request.status === 3) throw new ControlError(`delivery request ${receipt.id} is already received`);
  const arrived =
    receipt.products ??
    request.products.map((line) => ({ sku: line.sku, count: Math.max(0, line.count - line.received) }));
  for (const { sku } of arrived)
    if (!store.products.has(sku)) throw new ControlError(`sku ${sku} is not in this key's catalogue`);
  const now = core.clock.now();
  for (const { sku, count } of arrived) {
    if (count === 0) continue;
    let line = request.products.find((each) => each.sku === sku);
    if (!line) {
      // Goods nobody announced still get booked, as a line planned at zero.
      line = { sku, name: store.products.get(sku)!.name, count: 0, price: "", received: 0 };
      request.products.push(line);
    }
    line.received += count;
    store.move(sku, count, MOVEMENT_DOCUMENT.receipt(request.id, now), now);
  }
  const everything = request.products.every((line) => line.received >= line.count);
  request.status = receipt.complete || (receipt.products === undefined ? true : everything) ? 3 : 2;
  return request;
}

export function addReturn(core: SimulatorCore, apiKey: string, input: AddReturn): ReturnRecord {
  const store = storeFor(core, apiKey);
  const booked = addReturnSchema.parse(input);
  const order = findOrder(store, { id_order: booked.id_order });
  if (order.stage !== "shipped" && order.stage !== "delivered")
    throw new ControlError(`order ${order.id_order_FF} was never shipped (${order.stage})`);
  for (const line of booked.products) {
    const ordered = order.lines
      .filter((each) => each.sku === line.sku)
      .reduce((sum, each) => sum + each.count, 0);
    if (line.count > ordered)
      throw new ControlError(
        `order ${order.id_order_FF} shipped ${ordered} of ${line.sku}, not ${line.count}`,
      );
  }
  const now = core.clock.now();
  const record: ReturnRecord = {
    id_return: core.state.nextReturnId(),
    id_order: order.id_order,
    id_order_FF: order.id_order_FF,
    at: now,
    createdDate: compactDate(now),
    TTN: booked.TTN ?? order.TTN,
    products: booked.products.map((line) => ({
      sku: line.sku,
      count: line.count,
      marriage: line.marriage ?? false,
    })),
  };
  // Defective goods go to the defect store, not back on sale.
  for (const line of record.products)
    if (!line.marriage)
      store.move(line.sku, line.count, MOVEMENT_DOCUMENT.customerReturn(record.id_return, now), now);
  store.returns.push(record);
  return record;
}

export function setNotificationUrl(core: SimulatorCore, apiKey: string, url: string | null): void {
  const parsed = z
    .url({ protocol: /^https?$/ })
    .nullable()
    .parse(url);
  storeFor(core, apiKey).notificationUrl = parsed;
}

/** A key's data as plain JSON, for tests that look behind the API. */
export function describeStore(store: KeyStore) {
  return {
    apiKey: store.apiKey,
    environment: store.environment,
    notificationUrl: store.notificationUrl,
    products: [...store.products.values()],
    orders: store.orders.map((order) => ({
      ...order,
      status_mtp: ORDER_STATUS_TABLE[order.stage].name,
      status_mtp_id: ORDER_STATUS_TABLE[order.stage].id,
    })),
    movements: store.movements,
    returns: store.returns.map(returnRecord),
    deliveries: [...store.deliveries.values()].map(deliveryRequestReport),
  };
}

export function setStageDelays(core: SimulatorCore, delays: z.input<typeof stageDelaysSchema>): void {
  core.settings.stageDelays = stageDelaysSchema.parse(delays);
  core.lifecycle.rescheduleAll(core.state.allStores());
}

export function setRateLimits(core: SimulatorCore, limits: z.input<typeof rateLimitsSchema>): void {
  core.limiter.settings = rateLimitSettings(rateLimitsSchema.parse(limits));
}

// ---------------------------------------------------------------------------------------------------
// The same calls over HTTP, JSON in and out. `apiKey` defaults to the first account's production key.

export interface ControlHost {
  core: SimulatorCore;
  defaultApiKey: string;
  reset(): void;
}

export interface ControlAnswer {
  status: number;
  body: unknown;
}

const withKey = <T extends z.ZodRawShape>(shape: T) =>
  z.looseObject({ apiKey: z.string().optional(), ...shape });

export function handleControl(
  host: ControlHost,
  method: string,
  route: string,
  query: URLSearchParams,
  body: unknown,
): ControlAnswer {
  const { core } = host;
  const input = (body ?? {}) as Record<string, unknown>;
  const keyOf = (given: unknown) => (typeof given === "string" && given ? given : host.defaultApiKey);
  const without = (key: string) => Object.fromEntries(Object.entries(input).filter(([name]) => name !== key));
  const clock = () => ({
    now: core.clock.now(),
    iso: new Date(core.clock.now()).toISOString(),
    frozen: core.clock.frozen,
  });
  const routes: Record<string, () => unknown> = {
    "GET stats": () => ({
      ...core.stats,
      notifications: {
        attempts: core.notifier.attempts.length,
        delivered: core.notifier.attempts.filter((attempt) => attempt.delivered).length,
        gaveUp: core.notifier.attempts.filter((attempt) => attempt.gaveUp).length,
      },
    }),
    "GET state": () => describeStore(storeFor(core, keyOf(query.get("apiKey")))),
    "GET orders": () => describeStore(storeFor(core, keyOf(query.get("apiKey")))).orders,
    "GET notifications": () => core.notifier.attempts,
    "GET clock": clock,
    "POST clock/advance": () => {
      core.clock.advance(z.strictObject({ ms: z.number().nonnegative() }).parse(input).ms);
      return clock();
    },
    "POST clock/set": () => {
      core.clock.set(z.strictObject({ at: instant }).parse(input).at);
      return clock();
    },
    "POST clock/freeze": () => {
      core.clock.freeze(z.strictObject({ at: instant.optional() }).parse(input).at);
      return clock();
    },
    "POST clock/unfreeze": () => {
      core.clock.unfreeze();
      return clock();
    },
    "GET faults": () => core.faults.snapshot(),
    "POST faults/fail": () => {
      core.faults.failNext(failFaultSchema.parse(input));
      return core.faults.snapshot();
    },
    "POST faults/drop": () => {
      core.faults.dropNext(dropFaultSchema.parse(input));
      return core.faults.snapshot();
    },
    "POST faults/delay": () => {
      core.faults.setDelay(z.strictObject({ ms: z.number().nonnegative() }).parse(input).ms);
      return core.faults.snapshot();
    },
    "POST faults/hold": () => {
      core.faults.holdAnswers();
      return core.faults.snapshot();
    },
    "POST faults/release": () => {
      core.faults.releaseAnswers();
      return core.faults.snapshot();
    },
    "POST faults/repeat-notifications": () => {
      core.faults.repeatNotifications(z.strictObject({ repeats: nonNegativeInteger }).parse(input).repeats);
      return core.faults.snapshot();
    },
    "POST faults/batch-answer": () => {
      core.faults.answerBatchesAs(z.strictObject({ shape: z.enum(["batch", "single"]) }).parse(input).shape);
      return core.faults.snapshot();
    },
    "POST faults/clear": () => {
      core.faults.clear();
      return core.faults.snapshot();
    },
    "POST orders/advance": () => {
      const order = advanceOrder(core, keyOf(input.apiKey), advanceOrderSchema.parse(without("apiKey")));
      return { id_order: order.id_order, id_order_FF: order.id_order_FF, stage: order.stage, TTN: order.TTN };
    },
    "POST orders/advance-all": () => {
      const { apiKey, to } = withKey({
        to: z.enum(STAGE_SEQUENCE.slice(1) as ["picked", "shipped", "delivered"]),
      }).parse(input);
      return { moved: advanceAllOrders(core, keyOf(apiKey), to) };
    },
    "POST notification-url": () => {
      const { apiKey, url } = withKey({ url: z.string().nullable() }).parse(input);
      setNotificationUrl(core, keyOf(apiKey), url);
      return { apiKey: keyOf(apiKey), url };
    },
    "POST products": () => {
      const { apiKey, products } = withKey({ products: z.array(seedProductSchema) }).parse(input);
      return seedProducts(core, keyOf(apiKey), products);
    },
    "POST deliveries/receive": () =>
      deliveryRequestReport(
        receiveDelivery(core, keyOf(input.apiKey), receiveDeliverySchema.parse(without("apiKey"))),
      ),
    "POST returns": () =>
      returnRecord(addReturn(core, keyOf(input.apiKey), addReturnSchema.parse(without("apiKey")))),
    "POST limits": () => {
      setRateLimits(core, rateLimitsSchema.parse(body));
      return core.limiter.settings ?? false;
    },
    "POST stage-delays": () => {
      setStageDelays(core, stageDelaysSchema.parse(body));
      return core.settings.stageDelays;
    },
    "POST reset": () => {
      host.reset();
      return { reset: true };
    },
  };
  const route_ = routes[`${method} ${route}`];
  if (!route_)
    return {
      status: 404,
      body: { error: `no control route ${method} /${route}`, routes: Object.keys(routes) },
    };
  try {
    return { status: 200, body: route_() ?? null };
  } catch (error) {
    if (error instanceof z.ZodError) return { status: 400, body: { error: z.prettifyError(error) } };
    if (error instanceof ControlError) return { status: 400, body: { error: error.message } };
    throw error;
  }
}
