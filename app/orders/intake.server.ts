// Order intake: a Shopify order webhook becomes (or updates) one WarehouseOrder row, mapped at once (the
// mapping is pure and fast), with the work it now needs made due. Nothing here calls the warehouse or
// Shopify, so the webhook is answered in milliseconds and nothing is lost while the warehouse is down.
import { randomUUID } from "node:crypto";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { insertRows, isUniqueViolation, type Db } from "../db.server";
import { parseMapping } from "../settings/settings.server";
import { mapOrder, idOrderFor, type HoldReason, type MappingResult } from "./mapping";
import { customerIdOf, shopifyOrderSchema, type ShopifyOrder } from "./payload";
import { orderOverridesSchema, type OrderOverrides, type OrderSettings } from "./settings";
import { ATTENTION, ORDER_STATE, PENDING, type OrderState } from "./states";
import { EVENT, insertEvents, recordEvents, type OrderEventInput } from "./timeline.server";

export const ORDER_TOPICS = ["orders/create", "orders/updated", "orders/cancelled"] as const;
export type OrderTopic = (typeof ORDER_TOPICS)[number];

export type IntakeOutcome =
  "recorded" | "updated" | "unchanged" | "stale" | "duplicate" | "ignored_before_install";

/** The mapped order, or the hold reasons, as the columns keep them. */
export function mappingColumns(result: MappingResult) {
  return result.ok
    ? { mapped: JSON.stringify(result.order), holdReasons: null }
    : { mapped: null, holdReasons: JSON.stringify(result.hold) };
}

export function holdSummary(hold: HoldReason[]): string {
  return hold.map((reason) => reason.message).join(" ");
}

/** The shop's mapping settings, its defaults when it has saved none. */
export async function shopMapping(db: Db, shop: string): Promise<OrderSettings> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { mapping: true } });
  return parseMapping(row?.mapping);
}

function isCancelled(topic: OrderTopic, order: ShopifyOrder): boolean {
  return topic === "orders/cancelled" || Boolean(order.cancelled_at);
}

/** An order webhook as the steps of intake take it. */
type OrderWebhook = { shop: string; topic: OrderTopic; order: ShopifyOrder };

/** Takes in one order webhook. Redeliveries (same event id) and older versions of the order change nothing. */
export async function takeInOrderWebhook(
  deps: ServiceDeps,
  input: OrderWebhook & { eventId: string },
): Promise<IntakeOutcome> {
  const { shop, eventId } = input;
  const delivery: Delivery = { shop, eventId, topic: input.topic, receivedAt: deps.clock() };
  const outcome =
    (input.topic === "orders/create" && (await recordIfNew(deps, input, delivery))) ||
    (await takeInCarefully(deps, input, delivery));
  deps.log.info(
    { shop, event: "order.webhook", topic: input.topic, shopifyOrderId: input.order.id, outcome },
    "order webhook taken in",
  );
  if (outcome === "recorded" || outcome === "updated") deps.wake?.(shop);
  return outcome;
}

/**
 * The usual orders/create, a new order's first delivery, recorded without looking first: the delivery's
 * and the order's unique keys turn any other case into a unique violation, which rolls the whole commit
 * back, and then the careful path runs. Two reads fewer per webhook is a third of intake's database time.
 */
async function recordIfNew(
  deps: ServiceDeps,
  input: OrderWebhook,
  delivery: Delivery,
): Promise<"recorded" | null> {
  try {
    await createOrder(deps, input, delivery);
    return "recorded";
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

async function takeInCarefully(
  deps: ServiceDeps,
  input: OrderWebhook,
  delivery: Delivery,
): Promise<IntakeOutcome> {
  const { db } = deps;
  const { shop, eventId } = delivery;
  const seen = await db.webhookEvent.findUnique({ where: { shop_eventId: { shop, eventId } } });
  if (seen) return "duplicate";
  const outcome = await applyOrderWebhook(deps, input, delivery);
  // A new order is committed together with its delivery. Anything else records the delivery after the
  // order: a crash in between only means the redelivery is applied again, which changes nothing, because
  // the order's own updated_at makes applying it idempotent.
  if (outcome !== "recorded") {
    try {
      await db.webhookEvent.create({ data: delivery });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return outcome;
}

/** The webhook delivery as WebhookEvent keeps it. */
interface Delivery {
  shop: string;
  eventId: string;
  topic: string;
  receivedAt: Date;
}

async function applyOrderWebhook(
  deps: ServiceDeps,
  input: OrderWebhook,
  delivery: Delivery,
): Promise<IntakeOutcome> {
  const { db } = deps;
  const { shop, order } = input;
  const existing = await db.warehouseOrder.findUnique({
    where: { shop_shopifyOrderId: { shop, shopifyOrderId: order.id } },
  });
  if (existing) return updateOrder(deps, existing, input);

  // An order placed before the app was installed is not ours to ship: its edits do not bring it in.
  // One placed since is, and its create was lost on the way: it is taken in from the edit, which
  // carries the whole order (cancelled if it says so), and the timeline says how it came.
  const createMissed = input.topic !== "orders/create";
  if (createMissed) {
    const installed = await db.shop.findUnique({ where: { shop }, select: { installedAt: true } });
    if (!installed || new Date(order.created_at) < installed.installedAt) return "ignored_before_install";
  }
  try {
    await createOrder(deps, input, delivery);
    if (createMissed) await noteCreateMissed(deps, input);
    return "recorded";
  } catch (error) {
    // The same order arriving twice at once (create and updated together, or a redelivery racing the
    // first delivery): the other one made the row.
    if (!isUniqueViolation(error)) throw error;
    const row = await db.warehouseOrder.findUniqueOrThrow({
      where: { shop_shopifyOrderId: { shop, shopifyOrderId: order.id } },
    });
    return updateOrder(deps, row, input);
  }
}

/** Tells the merchant (and the log) that an order came in by a later webhook, its create never seen. */
async function noteCreateMissed(deps: ServiceDeps, input: OrderWebhook): Promise<void> {
  const { db, log, clock } = deps;
  const { shop, order, topic } = input;
  const row = await db.warehouseOrder.findUniqueOrThrow({
    where: { shop_shopifyOrderId: { shop, shopifyOrderId: order.id } },
    select: { id: true },
  });
  const message =
    topic === "orders/cancelled"
      ? `Shopify's notice that ${order.name} was placed never arrived; the order was taken in from its cancellation.`
      : `Shopify's notice that ${order.name} was placed never arrived; the order was taken in from a later change to it.`;
  await recordEvents(db, [{ shop, orderId: row.id, at: clock(), kind: EVENT.received, message }]);
  log.warn(
    { shop, event: "order.create_missed", topic, shopifyOrderId: order.id },
    "order taken in from a later webhook: its orders/create never arrived",
  );
}

/** Records a new order, its first timeline events and the delivery that brought it, in one commit. */
async function createOrder(deps: ServiceDeps, input: OrderWebhook, delivery: Delivery): Promise<void> {
  const { db, clock } = deps;
  const { shop, order } = input;
  const now = clock();
  const settings = await shopMapping(db, shop);
  const idOrder = idOrderFor(order, settings);
  const cancelled = isCancelled(input.topic, order);
  const result = mapOrder({ order, settings, idOrder });
  const state: OrderState = cancelled
    ? ORDER_STATE.cancelled
    : result.ok
      ? ORDER_STATE.ready
      : ORDER_STATE.held;
  const events: Omit<OrderEventInput, "orderId">[] = [
    { shop, at: now, kind: EVENT.received, message: `Order ${order.name} received from Shopify.` },
  ];
  if (cancelled) {
    events.push({
      shop,
      at: now,
      kind: EVENT.cancelled,
      message: "Cancelled in Shopify before it was sent.",
    });
  } else if (result.ok) {
    events.push({
      shop,
      at: now,
      kind: EVENT.ready,
      message: "Mapped; waiting to be sent.",
      data: result.order,
    });
  } else {
    events.push({ shop, at: now, kind: EVENT.held, message: holdSummary(result.hold), data: result.hold });
  }
  // The id is ours, so the events can name their order in the same commit. Written as SQL: this is the
  // write every new order makes, and Prisma's create cost about twice the statement (and more again when
  // it read the row, payload and all, back).
  const id = randomUUID();
  await db.$transaction([
    insertRows(db, "WarehouseOrder", [
      {
        id,
        shop,
        shopifyOrderId: order.id,
        orderName: order.name,
        customerId: customerIdOf(order),
        idOrder,
        state,
        orderCreatedAt: new Date(order.created_at),
        orderUpdatedAt: new Date(order.updated_at ?? order.created_at),
        cancelledAt: cancelled ? new Date(order.cancelled_at ?? now) : null,
        ...mappingColumns(result),
        nextAttemptAt: state === ORDER_STATE.ready ? now : null,
        createdAt: now,
        updatedAt: now,
      },
    ]),
    insertRows(db, "OrderPayload", [{ orderId: id, shop, payload: JSON.stringify(order) }]),
    insertEvents(
      db,
      events.map((event) => ({ ...event, orderId: id })),
    ),
    insertRows(db, "WebhookEvent", [{ ...delivery }]),
  ]);
}

async function updateOrder(deps: ServiceDeps, row: OrderRow, input: OrderWebhook): Promise<IntakeOutcome> {
  const { order } = input;
  const updatedAt = new Date(order.updated_at ?? order.created_at);
  const cancelled = isCancelled(input.topic, order);
  if (updatedAt < row.orderUpdatedAt) return "stale";
  if (updatedAt.getTime() === row.orderUpdatedAt.getTime() && (!cancelled || row.cancelledAt))
    return "unchanged";
  const settings = await shopMapping(deps.db, input.shop);
  const changed = await applyChange(deps, row, {
    order,
    settings,
    cancelled,
    payload: JSON.stringify(order),
    extra: { orderUpdatedAt: updatedAt, orderName: order.name },
  });
  return changed ? "updated" : "unchanged";
}

/**
 * Re-maps an order after its Shopify data, the shop's settings or the merchant's corrections changed, and
 * makes due whatever that calls for. Answers whether anything the warehouse needs changed.
 */
export async function applyChange(
  deps: ServiceDeps,
  row: OrderRow,
  change: {
    order: ShopifyOrder;
    settings: OrderSettings;
    cancelled: boolean;
    overrides?: OrderOverrides;
    /** The order as Shopify sent it now, when a webhook brought it (see OrderPayload). */
    payload?: string;
    extra?: Partial<Pick<OrderRow, "orderUpdatedAt" | "orderName" | "overrides">>;
  },
): Promise<boolean> {
  const { db, clock } = deps;
  const now = clock();
  const shop = row.shop;
  const overrides = change.overrides ?? orderOverridesSchema.parse(JSON.parse(row.overrides));
  const events: OrderEventInput[] = [];
  const event = (kind: OrderEventInput["kind"], message: string, data?: unknown) =>
    events.push({ shop, orderId: row.id, at: now, kind, message, data });
  let data: Partial<OrderRow> = { ...change.extra };
  const state = row.state as OrderState;

  if (change.cancelled) {
    data.cancelledAt = row.cancelledAt ?? new Date(change.order.cancelled_at ?? now);
    if (state === ORDER_STATE.cancelled || row.pending === PENDING.cancel) {
      // already handled
    } else if (state === ORDER_STATE.held || state === ORDER_STATE.ready || state === ORDER_STATE.rejected) {
      data = { ...data, state: ORDER_STATE.cancelled, nextAttemptAt: null, pending: null };
      event(EVENT.cancelled, "Cancelled in Shopify before the warehouse had it; nothing was sent.");
    } else {
      // The warehouse has it, or may have it: cancel there (after the in-doubt lookup, if one is due).
      data = { ...data, pending: PENDING.cancel, nextAttemptAt: now };
      event(EVENT.cancelQueued, "Cancelled in Shopify; the cancellation will be sent to the warehouse.");
    }
    await save(db, row, { data, events, payload: change.payload });
    return events.length > 0;
  }

  const result = mapOrder({
    order: change.order,
    settings: change.settings,
    overrides,
    idOrder: row.idOrder,
  });
  const columns = mappingColumns(result);
  const mappedChanged = columns.mapped !== row.mapped || columns.holdReasons !== row.holdReasons;
  data = { ...data, ...columns };

  switch (state) {
    case ORDER_STATE.held:
    case ORDER_STATE.ready:
    case ORDER_STATE.rejected: {
      if (!mappedChanged && state !== ORDER_STATE.held) break;
      if (result.ok) {
        if (state === ORDER_STATE.rejected && !mappedChanged) break;
        data = { ...data, state: ORDER_STATE.ready, nextAttemptAt: now, attempts: 0, lastError: null };
        if (state !== ORDER_STATE.ready) event(EVENT.ready, "Mapped; waiting to be sent.", result.order);
      } else if (mappedChanged || state !== ORDER_STATE.held) {
        data = { ...data, state: ORDER_STATE.held, nextAttemptAt: null };
        event(EVENT.held, holdSummary(result.hold), result.hold);
      }
      break;
    }
    case ORDER_STATE.accepted: {
      if (!mappedChanged) break;
      if (!result.ok) {
        data = { ...data, attention: ATTENTION.editHeld, attentionMessage: holdSummary(result.hold) };
        event(
          EVENT.held,
          `The change cannot be sent to the warehouse: ${holdSummary(result.hold)}`,
          result.hold,
        );
      } else if (columns.mapped !== row.sentOrder) {
        data = {
          ...data,
          pending: PENDING.edit,
          nextAttemptAt: now,
          attention: null,
          attentionMessage: null,
        };
        event(EVENT.editQueued, "The order changed; the change will be sent to the warehouse.", result.order);
      }
      break;
    }
    case ORDER_STATE.submitting:
    case ORDER_STATE.inDoubt:
      // Kept in `mapped`; once the warehouse's copy is known, the difference becomes an edit.
      if (mappedChanged)
        event(EVENT.updated, "The order changed while it was being sent; the change follows.");
      break;
    case ORDER_STATE.cancelled:
      break;
  }
  await save(db, row, { data, events, payload: change.payload });
  return mappedChanged;
}

async function save(
  db: Db,
  row: OrderRow,
  change: { data: Partial<OrderRow>; events: OrderEventInput[]; payload: string | undefined },
) {
  const { data, events, payload } = change;
  await db.$transaction(async (tx) => {
    // Conditional on the state read, so a worker that moved the order meanwhile is never overwritten.
    const { count } = await tx.warehouseOrder.updateMany({ where: { id: row.id, state: row.state }, data });
    if (count === 0) throw new OrderMovedMeanwhile(row.id);
    if (payload !== undefined)
      await tx.orderPayload.update({ where: { orderId: row.id }, data: { payload } });
    await recordEvents(tx, events);
  });
}

export class OrderMovedMeanwhile extends Error {
  constructor(orderId: string) {
    super(`order ${orderId} changed state while it was being updated; the webhook will be retried`);
    this.name = "OrderMovedMeanwhile";
  }
}

/** The Shopify order an order row was made from, as intake last stored it. */
export function storedShopifyOrder(orderId: string, stored: { payload: string } | null): ShopifyOrder {
  if (!stored) throw new Error(`order ${orderId} has no stored Shopify payload`);
  return shopifyOrderSchema.parse(JSON.parse(stored.payload));
}

/** After the shop's mapping settings changed: orders not yet sent are mapped again with the new rules. */
export async function remapOpenOrders(deps: ServiceDeps, shop: string): Promise<number> {
  const settings = await shopMapping(deps.db, shop);
  const rows = await deps.db.warehouseOrder.findMany({
    where: { shop, state: { in: [ORDER_STATE.held, ORDER_STATE.ready] } },
    include: { shopifyOrder: true },
  });
  let changed = 0;
  for (const { shopifyOrder, ...row } of rows) {
    const order = storedShopifyOrder(row.id, shopifyOrder);
    try {
      if (await applyChange(deps, row, { order, settings, cancelled: false })) changed++;
    } catch (error) {
      // Claimed by the worker meanwhile: it is being sent as it was mapped, like any order in flight.
      if (!(error instanceof OrderMovedMeanwhile)) throw error;
    }
  }
  return changed;
}
