// Routing, the order side: what Shopify's fulfillment orders (ShopifyFulfillmentOrder rows) say of each order
// becomes the order's state: waiting for Shopify, not the warehouse's, or the warehouse's lines, sent, edited or
// cancelled as they change. The decision is decide.ts's, the order's move the order rules' (a "routed" input of
// app/orders/state-machine/routing.ts), written conditionally on each order's version (app/orders/commit.server.ts), so
// the same rows applied twice, by two workers or a redelivery, change nothing the second time.
import type { ShopifyFulfillmentOrder, WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { applyToOrders, asChange, ChangedMeanwhile, type Change } from "../orders/commit.server";
import type { MappingResult } from "../orders/mapping";
import { shopifyOrderSchema, type ShopifyOrder } from "../orders/payload";
import { orderOverridesSchema, type ShopMapping } from "../orders/settings";
import { mapWithShopMapping } from "../orders/shop-mapping";
import { isRefusal, transition } from "../orders/state-machine";
import { ORDER_STATE } from "../orders/states";
import type { OrderEventInput } from "../orders/timeline.server";
import { orderMatchersFor } from "../reference/order-matcher.server";
import { checkedMapping } from "../settings/settings.server";
import {
  decideRouting,
  expectedUnits,
  INCOMPLETE_WAIT_MS,
  UNREADABLE_PAYLOAD_LINE,
  WAIT_REASON,
  type CompletenessGuard,
  type ExpectedUnits,
  type FulfillmentMode,
  type RoutingDecision,
} from "./decide";
import { requestRoutingRead } from "./kinds.server";

/** The order's stored Shopify payload is missing or unreadable. */
class UnreadablePayload extends Error {
  constructor(orderId: string, cause: unknown) {
    super(`order ${orderId}'s stored Shopify payload cannot be read: ${messageOf(cause)}`);
    this.name = "UnreadablePayload";
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The Shopify order a row was made from, as intake last stored it (intake's storedShopifyOrder, without the cycle). */
function storedShopifyOrder(orderId: string, stored: { payload: string } | null): ShopifyOrder {
  try {
    if (!stored) throw new Error("none stored");
    return shopifyOrderSchema.parse(JSON.parse(stored.payload));
  } catch (error) {
    throw new UnreadablePayload(orderId, error);
  }
}

/**
 * An order whose fulfillment orders could not be applied, for a reason of its own (its payload, its mapping,
 * a look-up, a state the rules did not foresee): the others of its batch are applied all the same.
 */
export interface ReconcileFailure {
  shopifyOrderId: string;
  /** The WarehouseOrder's id. */
  orderId: string;
  failure: "payload" | "other";
  error: string;
}

/**
 * The database's own errors fail the whole batch (retried as a whole), never one order: a database that is
 * down must not count against every order it could not read.
 */
function isDatabaseError(error: unknown): boolean {
  return error instanceof Error && /^PrismaClient|^DriverAdapter/.test(error.name);
}

/** Orders decided in one commit. */
const CHUNK = 100;

/** The shop's side of a decision: the mode and location an order not yet sent goes under, and the mapping. */
interface ShopRouting {
  mode: FulfillmentMode;
  locationId: string | null;
  mapping: ShopMapping;
}

async function shopRouting(deps: ServiceDeps, shop: string): Promise<ShopRouting> {
  const row = await deps.db.shopSettings.findUnique({
    where: { shop },
    select: { fulfillmentMode: true, locationId: true, mapping: true },
  });
  return {
    mode: row?.fulfillmentMode === "service" ? "service" : "location",
    locationId: row?.locationId ?? null,
    mapping: checkedMapping(shop, row?.mapping, deps.log),
  };
}

/** The mode and location an order is decided under: its own once sent, else the shop's now. */
function routingOf(row: OrderRow, shop: ShopRouting): { mode: FulfillmentMode; locationId: string | null } {
  return {
    mode:
      row.fulfillmentMode === "service" || row.fulfillmentMode === "location"
        ? row.fulfillmentMode
        : shop.mode,
    locationId: row.locationId ?? shop.locationId,
  };
}

/**
 * Applies the stored fulfillment orders of these orders (numeric Shopify order ids) to their WarehouseOrder rows.
 * Idempotent: applying the same rows twice changes nothing the second time. Orders the app has not recorded are
 * skipped (intake applies the stored rows when the order arrives).
 *
 * An order that fails for a reason of its own is left out and answered (its rows marked owed again, so the
 * fulfillment_orders kind tries it again and, failing still, puts it aside: failures.server.ts); the others are
 * applied. What fails the batch as a whole (the database) throws.
 */
export async function reconcileRouting(
  deps: ServiceDeps,
  shop: string,
  shopifyOrderIds: readonly string[],
): Promise<ReconcileFailure[]> {
  const ids = [...new Set(shopifyOrderIds)];
  if (!ids.length) return [];
  const settings = await shopRouting(deps, shop);
  // One time for every decision of the call: the guard's bound is judged the same before and in the commit.
  const now = deps.clock();
  let woke = false;
  const failures: ReconcileFailure[] = [];
  const failed = (row: Pick<OrderRow, "id" | "shopifyOrderId">, error: unknown): ReconcileFailure => {
    if (isDatabaseError(error)) throw error;
    return {
      shopifyOrderId: row.shopifyOrderId,
      orderId: row.id,
      failure: error instanceof UnreadablePayload ? "payload" : "other",
      error: messageOf(error),
    };
  };
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const readFulfillmentOrders = async () => {
      const byOrder = new Map<string, ShopifyFulfillmentOrder[]>();
      const read = await deps.db.shopifyFulfillmentOrder.findMany({
        where: { shop, shopifyOrderId: { in: chunk } },
      });
      for (const fo of read) byOrder.set(fo.shopifyOrderId, [...(byOrder.get(fo.shopifyOrderId) ?? []), fo]);
      return byOrder;
    };
    const [rows, firstRead] = await Promise.all([
      deps.db.warehouseOrder.findMany({
        where: { shop, shopifyOrderId: { in: chunk }, dataErasedAt: null },
        include: { shopifyOrder: true },
      }),
      readFulfillmentOrders(),
    ]);
    if (!rows.length) continue;
    let byOrder = firstRead;
    // The mapping needs the order's payload and, for a branch the order does not name, the matcher (read
    // before the commit: a first read of the reference data builds its search).
    const payloads = new Map(rows.map(({ shopifyOrder, ...row }) => [row.id, shopifyOrder]));
    // Parsed once an order (the payload is intake's and does not change under the commit; the overrides are
    // parsed from the row the commit reads, as they may).
    const parsed = new Map<string, ShopifyOrder>();
    const orderOf = (id: string): ShopifyOrder => {
      let order = parsed.get(id);
      if (!order) parsed.set(id, (order = storedShopifyOrder(id, payloads.get(id) ?? null)));
      return order;
    };
    const expected = new Map<string, ExpectedUnits>();
    const guardOf = (
      row: OrderRow,
      fos: readonly ShopifyFulfillmentOrder[],
    ): CompletenessGuard | undefined => {
      if (!fos.length) return undefined;
      let units = expected.get(row.id);
      if (!units) {
        // No payload to read throws: the order's own failure (failures.server.ts), told to the merchant, where
        // waiting for the guard's bound would only delay that.
        units = expectedUnits(orderOf(row.id));
        expected.set(row.id, units);
      }
      const lastRead = Math.max(...fos.map((fo) => fo.readAt.getTime()));
      return { expected: units, decideBy: new Date(lastRead + INCOMPLETE_WAIT_MS), now };
    };
    const decisionOf = (row: OrderRow): RoutingDecision | null => {
      const { mode, locationId } = routingOf(row, settings);
      // No location stands for the warehouse yet: nothing can be decided, the order stays as it is.
      if (!locationId) return null;
      const fos = byOrder.get(row.shopifyOrderId) ?? [];
      return decideRouting(fos, mode, locationId, guardOf(row, fos));
    };
    const matchers = new Map<string, Awaited<ReturnType<typeof orderMatchersFor>>>();
    // Failed before the commit: left out of it.
    const before = new Map<string, ReconcileFailure>();
    const readMatchers = async () => {
      for (const { shopifyOrder: _payload, ...row } of rows) {
        if (matchers.has(row.id) || before.has(row.id)) continue;
        try {
          if (decisionOf(row)?.kind !== "lines") continue;
          const overrides = orderOverridesSchema.parse(JSON.parse(row.overrides));
          matchers.set(row.id, await orderMatchersFor(deps, shop, orderOf(row.id), overrides));
        } catch (error) {
          before.set(row.id, failed(row, error));
        }
      }
    };
    await readMatchers();
    // Failed deciding, in the commit's last (and written) decision.
    let deciding = new Map<string, ReconcileFailure>();
    const mapped = (row: OrderRow, decision: RoutingDecision): MappingResult | null => {
      if (decision.kind !== "lines") return null;
      return mapWithShopMapping({
        order: orderOf(row.id),
        shopMapping: settings.mapping,
        overrides: orderOverridesSchema.parse(JSON.parse(row.overrides)),
        idOrder: row.idOrder,
        warehouseLines: decision.lines,
        ...matchers.get(row.id),
      });
    };
    let ready = false;
    let givenUp: { id: string; name: string; uncovered: string[] }[] = [];
    await applyToOrders(
      deps,
      rows.map((row) => row.id),
      (current, at) => {
        ready = false;
        deciding = new Map();
        givenUp = [];
        const changes: Change[] = [];
        const events: OrderEventInput[] = [];
        for (const row of current) {
          if (row.dataErasedAt || before.has(row.id)) continue;
          try {
            const decision = decisionOf(row);
            if (!decision) continue;
            const result = transition(row, { type: "routed", decision, result: mapped(row, decision) }, at);
            if (isRefusal(result)) continue;
            const written = asChange(row, result, at);
            if (written.change) changes.push(written.change);
            if (decision.kind !== "waiting" && decision.uncovered?.length && written.change)
              givenUp.push({ id: row.id, name: row.orderName, uncovered: decision.uncovered });
            events.push(...written.events);
            if (result.patch.state === ORDER_STATE.ready || result.patch.pending) ready = true;
          } catch (error) {
            deciding.set(row.id, failed(row, error));
          }
        }
        return { changes, events };
      },
      {
        rows: rows.map(({ shopifyOrder: _payload, ...row }) => row),
        // The orders changed meanwhile, perhaps by a reconcile of fulfillment orders stored after these were
        // read: decided again from the fulfillment orders as they are now, never from the older copy.
        readAgain: async () => {
          byOrder = await readFulfillmentOrders();
          await readMatchers();
        },
        // Decided from fulfillment orders stored since (a hold released, a move): written, it would undo
        // the newer decision their own reconcile took, or found nothing to change. Locked until the commit,
        // so one stored after this look is reconciled after it, from the orders as this commit leaves them.
        also: async (tx) => {
          const now = await tx.query(
            `SELECT "id", "version" FROM "ShopifyFulfillmentOrder" WHERE "shop" = ? AND "shopifyOrderId" IN (${chunk.map(() => "?").join(", ")})${tx.forUpdate}`,
            [shop, ...chunk],
          );
          const decidedFrom = [...byOrder.values()].flat();
          const versions = new Map(decidedFrom.map((fo) => [fo.id, fo.version]));
          if (
            now.length !== decidedFrom.length ||
            now.some((fo) => versions.get(String(fo.id)) !== Number(fo.version))
          )
            throw new ChangedMeanwhile();
        },
      },
    );
    woke ||= ready;
    failures.push(...before.values(), ...deciding.values());
    for (const order of givenUp)
      deps.log.warn(
        {
          event: "routing.decided_incomplete",
          shop,
          orderId: order.id,
          order: order.name,
          uncovered: order.uncovered,
          unreadableLine: order.uncovered.includes(UNREADABLE_PAYLOAD_LINE),
          waitedMs: INCOMPLETE_WAIT_MS,
        },
        "the order's fulfillment orders still did not cover all its lines when the guard gave up; decided from those read",
      );
  }
  if (woke) deps.wake?.(shop, "new_orders");
  if (failures.length) await oweAgain(deps, shop, failures);
  return failures;
}

/**
 * The failed orders' fulfillment orders owed a reconcile again, whoever called (intake, the service mode's
 * requests): the fulfillment_orders kind tries them again, and counts (failures.server.ts).
 */
async function oweAgain(deps: ServiceDeps, shop: string, failures: readonly ReconcileFailure[]) {
  await deps.db.shopifyFulfillmentOrder.updateMany({
    where: {
      shop,
      shopifyOrderId: { in: failures.map((each) => each.shopifyOrderId) },
      reconcilePending: false,
    },
    data: { reconcilePending: true },
  });
  deps.log.warn(
    {
      shop,
      event: "routing.order_reconcile_failed",
      orders: failures.map(({ shopifyOrderId, orderId, failure, error }) => ({
        shopifyOrderId,
        orderId,
        failure,
        error,
      })),
    },
    "some orders' fulfillment orders could not be applied; the others were, these are tried again",
  );
}

/** How long after a scheduled date that Shopify has not yet made due the order looks again. */
export const SCHEDULED_RECHECK_MS = 5 * 60_000;

/**
 * Orders waiting for a scheduled date that has come (nextAttemptAt): Shopify is asked again (a read of the
 * shop's fulfillment orders, which finds them due and sends them), and the order looks again a few minutes
 * later should Shopify not have made them due yet. Orders waiting for fulfillment orders not read yet whose
 * completeness guard gives up now (nextAttemptAt, the decision's `decideBy`) are reconciled here: no read may
 * change their rows, and only a changed row makes a read reconcile an order. Answers how many were due.
 */
export async function lookAtScheduledOrders(deps: ServiceDeps, shop: string): Promise<number> {
  const now = deps.clock();
  const due = await deps.db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.waiting, nextAttemptAt: { lte: now } },
    select: { id: true, version: true, shopifyOrderId: true, waitReason: true },
    take: CHUNK,
  });
  if (!due.length) return 0;
  const incomplete = due.filter((row) => row.waitReason === WAIT_REASON.routing);
  if (incomplete.length)
    await reconcileRouting(
      deps,
      shop,
      incomplete.map((row) => row.shopifyOrderId),
    );
  await requestRoutingRead(deps.db, shop, "scheduled_due", deps.clock());
  const later = new Date(now.getTime() + SCHEDULED_RECHECK_MS);
  for (const row of due) {
    // Conditional: a routing decision written meanwhile keeps its own schedule.
    await deps.db.warehouseOrder.updateMany({
      where: { id: row.id, version: row.version, state: ORDER_STATE.waiting },
      data: { nextAttemptAt: later, version: { increment: 1 }, updatedAt: now },
    });
  }
  return due.length;
}
