// Order intake: a Shopify order webhook becomes (or updates) one WarehouseOrder row, mapped at once (the
// mapping is pure and fast), with the work it now needs made due. Nothing here calls the warehouse or
// Shopify, so the webhook is answered in milliseconds and nothing is lost while the warehouse is down.
import { randomUUID } from "node:crypto";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { isUniqueViolation } from "../db.server";
import { insertStatement, sqlTransaction } from "../db/sql.server";
import { checkedMapping, shopMapping } from "../settings/settings.server";
import { idOrderFor } from "./mapping";
import { customerIdOf, shopifyOrderSchema, type ShopifyOrder } from "./payload";
import { orderOverridesSchema, type OrderOverrides, type ShopMapping } from "./settings";
import { mapWithShopMapping } from "./shop-mapping";
import { orderMatchersFor } from "../reference/order-matcher.server";
import { applyToOrders, asChange } from "./commit.server";
import {
  created,
  isRefusal,
  mappingColumnsOf,
  transition,
  type Refusal,
  type Transition,
} from "./state-machine";
import { EVENT, eventRow, recordEvents, timelineText } from "./timeline.server";
import { parseWarehouseLines } from "../routing/decide";
import { reconcileRouting } from "../routing/reconcile.server";
import { requestOnlineLocationsRead, requestRoutingRead } from "../routing/kinds.server";

export const ORDER_TOPICS = ["orders/create", "orders/updated", "orders/cancelled"] as const;
export type OrderTopic = (typeof ORDER_TOPICS)[number];

export type IntakeOutcome =
  "recorded" | "updated" | "unchanged" | "stale" | "duplicate" | "ignored_before_install";

/** The mapped order, or the hold reasons, as the columns keep them. */
export const mappingColumns = mappingColumnsOf;

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
  if (outcome === "recorded" || outcome === "updated") deps.wake?.(shop, "new_orders");
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
  const text = timelineText(
    topic === "orders/cancelled" ? "receivedFromCancellation" : "receivedFromChange",
    {
      order: order.name,
    },
  );
  await recordEvents(db, [{ shop, orderId: row.id, at: clock(), kind: EVENT.received, text }]);
  log.warn(
    { shop, event: "order.create_missed", topic, shopifyOrderId: order.id },
    "order taken in from a later webhook: its orders/create never arrived",
  );
}

/**
 * Records a new order, its first timeline events and the delivery that brought it, in one commit, with
 * the shop's mapping read in the same transaction. Written as SQL given to the driver (app/db/sql.server.ts):
 * this is the write every new order makes, and through Prisma's engine its statements cost more than
 * SQLite's work for them. The id is ours, so the events can name their order in the same commit.
 */
async function createOrder(deps: ServiceDeps, input: OrderWebhook, delivery: Delivery): Promise<void> {
  const { db, clock } = deps;
  const { shop, order } = input;
  const now = clock();
  const cancelled = isCancelled(input.topic, order);
  const id = randomUUID();
  // Read before the transaction: a first read of the reference data builds its search.
  const matchers = await orderMatchersFor(deps, shop, order);
  let waitForRouting = false;
  let locationsNeverRead = false;
  await sqlTransaction(db, async (tx) => {
    const [row] = await tx.query(
      `SELECT "mapping", "fulfillmentMode", "locationId", "onlineLocations" FROM "ShopSettings" WHERE "shop" = ?`,
      [shop],
    );
    const settings = checkedMapping(
      shop,
      typeof row?.mapping === "string" ? row.mapping : undefined,
      deps.log,
    );
    const routing = routingSettingsOf(row);
    waitForRouting = !cancelled && !wholeAtOnce(routing, order);
    locationsNeverRead = Boolean(routing?.locationId) && routing?.onlineLocations === null;
    const idOrder = idOrderFor(order, settings.mapping);
    const result = mapWithShopMapping({ order, shopMapping: settings, idOrder, ...matchers });
    const { columns, events } = created({ result, cancelled, orderName: order.name, now, waitForRouting });
    const statements = [
      insertStatement("WarehouseOrder", [
        {
          id,
          shop,
          shopifyOrderId: order.id,
          orderName: order.name,
          customerId: customerIdOf(order),
          idOrder,
          orderCreatedAt: new Date(order.created_at),
          orderUpdatedAt: new Date(order.updated_at ?? order.created_at),
          cancelledAt: cancelled ? new Date(order.cancelled_at ?? now) : null,
          ...columns,
          createdAt: now,
          updatedAt: now,
        },
      ]),
      insertStatement("OrderPayload", [{ orderId: id, shop, payload: JSON.stringify(order) }]),
      insertStatement(
        "OrderEvent",
        events.map((event) => eventRow({ ...event, shop, at: now, orderId: id })),
      ),
      insertStatement("WebhookEvent", [{ ...delivery }]),
    ];
    for (const { sql, args } of statements) await tx.execute(sql, args);
  });
  if (waitForRouting && !cancelled) await routeNewOrder(deps, shop, order.id);
  // A location stands for the warehouse but the shop's locations were never read (a shop set up before
  // routing): the order went whole, as before, and the read is asked for, so the next orders are routed.
  if (locationsNeverRead) await requestOnlineLocationsRead(db, shop, now);
}

/** What intake needs of the shop's routing (ShopSettings), read in its transaction. */
interface RoutingSettings {
  fulfillmentMode: string;
  locationId: string | null;
  onlineLocations: string | null;
}

function routingSettingsOf(row: Record<string, unknown> | undefined): RoutingSettings | null {
  if (!row) return null;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    fulfillmentMode: text(row.fulfillmentMode) ?? "location",
    locationId: text(row.locationId),
    onlineLocations: text(row.onlineLocations),
  };
}

/**
 * Whether the order is the warehouse's whole at once, with no Shopify read (today's speed): in location mode,
 * when the only location that fulfils online orders is the warehouse's and no line has a selling plan (a
 * pre-order or a subscription, which Shopify may schedule). Also while no location stands for the warehouse
 * (nothing could be routed to it) or the shop's locations were never read (ShopSettings.onlineLocations null:
 * until the first read the order goes whole, as before routing). Otherwise it waits for Shopify's routing.
 */
export function wholeAtOnce(settings: RoutingSettings | null, order: ShopifyOrder): boolean {
  if (!settings?.locationId) return true;
  if (settings.fulfillmentMode !== "location") return false;
  if (
    (order.line_items ?? []).some(
      (line) => line.selling_plan_id != null || line.selling_plan_allocation != null,
    )
  )
    return false;
  if (settings.onlineLocations === null) return true;
  let online: unknown;
  try {
    online = JSON.parse(settings.onlineLocations);
  } catch {
    return false;
  }
  return Array.isArray(online) && online.length === 1 && online[0] === settings.locationId;
}

/**
 * A new order waiting for routing: its fulfillment orders read before it arrived (the read ran first) are
 * applied at once; otherwise a read is asked for.
 */
async function routeNewOrder(deps: ServiceDeps, shop: string, shopifyOrderId: string): Promise<void> {
  const stored = await deps.db.shopifyFulfillmentOrder.findFirst({
    where: { shop, shopifyOrderId },
    select: { id: true },
  });
  if (stored) await reconcileRouting(deps, shop, [shopifyOrderId]);
  else await requestRoutingRead(deps.db, shop, "order_waiting", deps.clock());
}

async function updateOrder(deps: ServiceDeps, row: OrderRow, input: OrderWebhook): Promise<IntakeOutcome> {
  const { order } = input;
  const updatedAt = new Date(order.updated_at ?? order.created_at);
  const cancelled = isCancelled(input.topic, order);
  if (updatedAt < row.orderUpdatedAt) return "stale";
  // Its customer's details were removed (finished long ago, or the customer asked): a later webhook (a
  // refund, an archive) must not bring them back, and a finished order needs nothing from it.
  if (row.dataErasedAt) return "unchanged";
  if (updatedAt.getTime() === row.orderUpdatedAt.getTime() && (!cancelled || row.cancelledAt))
    return "unchanged";
  const settings = await shopMapping(deps.db, input.shop, deps.log);
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
 * makes due whatever that calls for, by the order rules. Written conditionally on the order's version:
 * if the worker moved it meanwhile, the change is decided again from the order as it is now. Answers
 * whether anything the warehouse needs changed.
 */
export async function applyChange(
  deps: ServiceDeps,
  row: OrderRow,
  change: {
    order: ShopifyOrder;
    settings: ShopMapping;
    cancelled: boolean;
    overrides?: OrderOverrides;
    /** The order as Shopify sent it now, when a webhook brought it (see OrderPayload). */
    payload?: string;
    extra?: Partial<Pick<OrderRow, "orderUpdatedAt" | "orderName" | "overrides">>;
  },
): Promise<boolean> {
  let changed = false;
  const { payload } = change;
  // The matcher for the corrections as given; corrections read from the row below choose their branch,
  // if any, the same way (a row's saved branch is the merchant's and never needs the matcher).
  const storedOverrides = orderOverridesSchema.parse(JSON.parse(row.overrides));
  const matchers = change.cancelled
    ? null
    : await orderMatchersFor(deps, row.shop, change.order, change.overrides ?? storedOverrides);
  await applyToOrders(
    deps,
    [row.id],
    (rows, at) => {
      changed = false;
      const current = rows[0];
      const newer = change.extra?.orderUpdatedAt;
      // Gone, or a newer version of the order was taken in meanwhile: this one has nothing to add.
      // Its customer's details removed meanwhile: nothing of them is written back.
      if (!current || current.dataErasedAt || (newer && newer < current.orderUpdatedAt))
        return { changes: [], events: [] };
      let result: Transition | Refusal;
      if (change.cancelled) {
        const cancelledAt = new Date(change.order.cancelled_at ?? at);
        result = transition(current, { type: "shopify_cancelled", cancelledAt }, at);
        changed = !isRefusal(result) && result.events.length > 0;
      } else {
        const overrides = change.overrides ?? orderOverridesSchema.parse(JSON.parse(current.overrides));
        const lines = parseWarehouseLines(current.warehouseLines);
        const mapping = mapWithShopMapping({
          order: change.order,
          shopMapping: change.settings,
          overrides,
          idOrder: current.idOrder,
          // The warehouse's lines, when routing gave any (none left: the order is being cancelled there).
          warehouseLines: lines?.length ? lines : null,
          ...matchers,
        });
        const columns = mappingColumns(mapping);
        changed = columns.mapped !== current.mapped || columns.holdReasons !== current.holdReasons;
        result = transition(current, { type: "remapped", result: mapping }, at);
      }
      if (isRefusal(result)) return { changes: [], events: [] };
      const { events } = asChange(current, result, at);
      return { changes: [{ row: current, data: { ...change.extra, ...result.patch } }], events };
    },
    {
      rows: [row],
      also:
        payload === undefined
          ? undefined
          : (tx) =>
              tx.execute(`UPDATE "OrderPayload" SET "payload" = ? WHERE "orderId" = ?`, [payload, row.id]),
    },
  );
  return changed;
}

/** The Shopify order an order row was made from, as intake last stored it. */
export function storedShopifyOrder(orderId: string, stored: { payload: string } | null): ShopifyOrder {
  if (!stored) throw new Error(`order ${orderId} has no stored Shopify payload`);
  return shopifyOrderSchema.parse(JSON.parse(stored.payload));
}
