// Orders wait for their product cards: an order naming a SKU whose card the SKU map holds but the warehouse
// has not accepted yet (new in Shopify and still to be sent, or held with a problem) is not sent to be
// refused. It is parked (no longer due) with a line on its timeline, its cards go to the front of the
// AddProduct queue, and once the warehouse has accepted every one of them the order is due again.
// A SKU the map does not know at all is the warehouse's business as before: the app has no card for it.
import type { Db } from "../db.server";
import { EVENT, recordEvents, timelineText, type OrderEventInput } from "../orders/timeline.server";
import { ORDER_STATE } from "../orders/states";
import { CARD_SEND_PROBLEM } from "./send-problems";

/**
 * The SKUs of the shop whose cards the warehouse has never had (neither accepted from us nor listed by its
 * last report) and that are on their way to it, or that it refused: each with the warehouse's words when it
 * refused. A card held by a problem in Shopify (no SKU, a shared one) holds no order: the warehouse may well
 * have the SKU.
 */
export async function pendingCards(db: Db, shop: string): Promise<Map<string, string | null>> {
  const rows = await db.catalogueItem.findMany({
    where: {
      shop,
      deletedAt: null,
      sku: { not: null },
      sentAt: null,
      // Reported with a quantity: the warehouse has the SKU (reported without one: it has not).
      warehouseQuantity: null,
      OR: [{ dueAt: { not: null } }, { problem: { in: Object.values(CARD_SEND_PROBLEM) } }],
    },
    select: { sku: true, problemMessage: true },
  });
  return new Map(rows.map((row) => [row.sku!, row.problemMessage]));
}

/** The SKUs of a mapped order (the warehouse order's product lines). */
function skusOf(mapped: string | null): string[] {
  if (!mapped) return [];
  try {
    const order = JSON.parse(mapped) as { products?: { sku?: unknown }[] };
    return [
      ...new Set((order.products ?? []).flatMap((line) => (typeof line.sku === "string" ? [line.sku] : []))),
    ];
  } catch {
    return [];
  }
}

/**
 * Of the orders about to be claimed, parks those that name a pending card and answers the ids of the rest.
 * The cheap case first: a shop with no pending card (nearly always) costs one indexed read.
 */
export async function parkOrdersAwaitingCards(
  deps: { db: Db; clock: () => Date },
  shop: string,
  due: readonly { id: string; mapped: string | null; version: number }[],
): Promise<string[]> {
  const { db } = deps;
  const pending = await pendingCards(db, shop);
  if (!pending.size) return due.map((row) => row.id);
  const now = deps.clock();
  const go: string[] = [];
  const events: OrderEventInput[] = [];
  const waitedFor = new Set<string>();
  for (const order of due) {
    const awaiting = skusOf(order.mapped).filter((sku) => pending.has(sku));
    if (!awaiting.length) {
      go.push(order.id);
      continue;
    }
    const parked = await db.warehouseOrder.updateMany({
      where: { id: order.id, version: order.version, state: ORDER_STATE.ready },
      data: { awaitingCards: JSON.stringify(awaiting), nextAttemptAt: null, version: { increment: 1 } },
    });
    if (!parked.count) continue;
    for (const sku of awaiting) waitedFor.add(sku);
    const problems = awaiting.flatMap((sku) =>
      pending.get(sku) ? [{ sku, problem: pending.get(sku) }] : [],
    );
    events.push({
      shop,
      orderId: order.id,
      at: now,
      kind: EVENT.awaitingCards,
      text: timelineText(problems.length ? "awaitingRefused" : "awaitingCards"),
      data: { skus: awaiting, problems },
    });
  }
  await recordEvents(db, events);
  // The cards orders wait for go before the rest of the catalogue.
  if (waitedFor.size) {
    await db.catalogueItem.updateMany({
      where: { shop, sku: { in: [...waitedFor] }, dueAt: { gt: new Date(0) } },
      data: { dueAt: new Date(0) },
    });
  }
  return go;
}

/**
 * Makes due again the shop's parked orders that no longer wait for any card: the warehouse has accepted or
 * listed every one of them, or a card stopped being awaited otherwise (its product was deleted, its SKU is
 * now shared or no longer in the map). Called after every change that can end a wait: a card sent, a
 * product webhook, a page of the full sync, a ReportSklad kept on the map.
 */
export async function releaseOrdersWithCards(
  deps: { db: Db; clock: () => Date },
  shop: string,
): Promise<number> {
  const { db } = deps;
  // Parked orders are not due (nextAttemptAt null), which the (shop, state, nextAttemptAt) index finds
  // without reading the shop's due orders: this runs after every product webhook and stock report. One
  // made due meanwhile is looked at again when it is claimed.
  const parked = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.ready, nextAttemptAt: null, awaitingCards: { not: null } },
    select: { id: true, awaitingCards: true, version: true },
  });
  if (!parked.length) return 0;
  const pending = await pendingCards(db, shop);
  const waited = parked.map((order) => ({ ...order, skus: awaitedSkus(order.awaitingCards) }));
  const atWarehouse = await cardsAtWarehouse(db, shop, [...new Set(waited.flatMap((order) => order.skus))]);
  const now = deps.clock();
  const events: OrderEventInput[] = [];
  for (const order of waited) {
    const { skus } = order;
    if (skus.some((sku) => pending.has(sku))) continue;
    const released = await db.warehouseOrder.updateMany({
      where: { id: order.id, version: order.version, state: ORDER_STATE.ready },
      data: { awaitingCards: null, nextAttemptAt: now, version: { increment: 1 } },
    });
    if (!released.count) continue;
    const notAwaited = skus.filter((sku) => !atWarehouse.has(sku));
    events.push(
      notAwaited.length
        ? {
            shop,
            orderId: order.id,
            at: now,
            kind: EVENT.cardsNotAwaited,
            text: timelineText("cardsNotAwaited"),
            data: { skus, notAwaited },
          }
        : {
            shop,
            orderId: order.id,
            at: now,
            kind: EVENT.cardsAccepted,
            text: timelineText("cardsAccepted"),
            data: { skus },
          },
    );
  }
  await recordEvents(db, events);
  return events.length;
}

/** The SKUs a parked order waits for, as its row keeps them (a JSON array; anything else: none). */
function awaitedSkus(stored: string | null): string[] {
  try {
    const skus: unknown = JSON.parse(stored ?? "[]");
    return Array.isArray(skus) ? skus.filter((sku): sku is string => typeof sku === "string") : [];
  } catch {
    return [];
  }
}

/** Of `skus`, those a live card of the shop has at the warehouse: accepted from us, or listed by its report. */
async function cardsAtWarehouse(db: Db, shop: string, skus: string[]): Promise<Set<string>> {
  if (!skus.length) return new Set();
  const rows = await db.catalogueItem.findMany({
    where: {
      shop,
      deletedAt: null,
      sku: { in: skus },
      OR: [{ sentAt: { not: null } }, { warehouseQuantity: { not: null } }],
    },
    select: { sku: true },
  });
  return new Set(rows.map((row) => row.sku!));
}
