// What the demo shows and what its check counts: the store view's page, and the figures --check judges the
// run by (orders delivered with their fulfillment, stock synced, routing kept, nothing oversold, and in
// service mode the requests and cancellations answered as they should be).
import { serviceAnswers } from "../../test/shopify-fake";
import type { DemoApp } from "./app";
import { storeViewPage } from "./frame";
import type { CancellationOutcomes } from "./orders";
import { DEMO_SHOP, DEMO_SHOP_NAME } from "./samples";
import type { DemoWorld } from "./world";

/** The store view's page: the fake store's orders, fulfillments and stock at the warehouse's location. */
export function storeView(world: DemoWorld): string {
  const { store, warehouseLocationId } = world;
  const events = (id: string) => store.fulfillments.get(id);
  return storeViewPage({
    shopName: DEMO_SHOP_NAME,
    location: store.locations.get(warehouseLocationId)!.name,
    orders: [...store.orders.values()].reverse().map((order) => ({
      name: order.name,
      createdAt: order.createdAt,
      fulfillmentOrderStatus: order.fulfillmentOrderIds
        .map((id) => store.fulfillmentOrders.get(id)?.status)
        .join(", "),
      fulfillments: order.fulfillmentIds.flatMap((id) => {
        const fulfillment = events(id);
        if (!fulfillment) return [];
        return [
          {
            status: fulfillment.displayStatus,
            tracking: fulfillment.trackingInfo.map((info) => ({
              company: info.company,
              number: info.number,
              url: info.url,
            })),
            events: fulfillment.events.map((event) => event.status),
          },
        ];
      }),
    })),
    inventory: [...store.products.values()].flatMap((product) =>
      product.variantIds.map((variantId) => {
        const variant = store.variants.get(variantId)!;
        const level = store.level(variant.inventoryItemId, warehouseLocationId);
        return {
          product: product.title,
          variant: variant.title,
          sku: variant.sku ?? "",
          available: level ? (store.quantity(level, "available") ?? 0) : 0,
          onHand: level ? (store.quantity(level, "on_hand") ?? 0) : 0,
        };
      }),
    ),
  });
}

export type DemoFigures = ReturnType<typeof demoFigures>;

/** The check's figures, read from the app's database, the fake store and the simulator when asked. */
export function demoFigures(
  world: DemoWorld,
  db: DemoApp["db"],
  serviceMode: boolean,
  settled: CancellationOutcomes,
) {
  const { sim, fake, store, variantsBySku, addedOrders } = world;
  const warehouseLocationId = () => world.warehouseLocationId;

  /**
   * The units, over all SKUs, by which the store's `available` at the warehouse location exceeds what may be sold:
   * the warehouse's free stock less the units the store still commits to orders the warehouse has not taken (no
   * order with its id_order at the warehouse). Read from the store stand-in and the simulator at one moment;
   * 0 unless the stock sync put promised units back on sale. A negative "may be sold" counts as 0: a store at 0
   * sells nothing more.
   */
  async function oversold(): Promise<number> {
    const idOrders = new Map(
      (
        await db.warehouseOrder.findMany({
          where: { shop: DEMO_SHOP },
          select: { shopifyOrderId: true, idOrder: true },
        })
      ).map((row) => [row.shopifyOrderId, row.idOrder]),
    );
    // From here on nothing awaits: the store and the warehouse are read as they are at one moment.
    const taken = new Set(sim.orders().map((order) => order.id_order));
    const notTaken = new Map<string, number>();
    for (const order of store.orders.values()) {
      const idOrder = idOrders.get(order.id.split("/").at(-1)!);
      if (idOrder !== undefined && taken.has(idOrder)) continue;
      for (const fo of order.fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)) {
        if (
          fo.assignedLocationId !== warehouseLocationId() ||
          fo.status === "CLOSED" ||
          fo.status === "CANCELLED"
        )
          continue;
        for (const line of fo.lineItems) {
          const sku = order.lineItems.find((item) => item.id === line.lineItemId)?.sku;
          if (sku) notTaken.set(sku, (notTaken.get(sku) ?? 0) + line.remainingQuantity);
        }
      }
    }
    const warehouse = sim.store();
    let units = 0;
    for (const [sku, variant] of variantsBySku) {
      const level = store.level(variant.inventoryItemId, warehouseLocationId());
      if (!level) continue;
      const mayBeSold = Math.max(0, warehouse.available(sku) - (notTaken.get(sku) ?? 0));
      units += Math.max(0, level.quantities.available - mayBeSold);
    }
    return units;
  }

  /**
   * What Shopify's routing made of the sample orders, against what the warehouse got. From the fake's fulfillment
   * orders: `routedElsewhere` (orders with no line at the warehouse's location), `splitOrders` (lines there and
   * elsewhere). From the simulator's orders against them: `linesSentForElsewhere`, the units the warehouse
   * received beyond what its location was assigned, SKU by SKU (0 unless a line routed elsewhere was sent).
   * And whether those orders ended as they should: `routedElsewhereRecorded` (recorded by the app as not the
   * warehouse's, nothing at the warehouse), `splitOrdersSent` (at the warehouse with exactly its location's lines).
   */
  async function routingFigures() {
    const rows = new Map(
      (
        await db.warehouseOrder.findMany({
          where: { shop: DEMO_SHOP },
          select: { shopifyOrderId: true, idOrder: true, state: true },
        })
      ).map((row) => [row.shopifyOrderId, row]),
    );
    // Per id_order and SKU, the most units the warehouse held of the order: as first added, or as edited since.
    const received = new Map<string, Map<string, number>>();
    const held = [
      ...addedOrders,
      ...sim.orders().map((order) => ({ idOrder: order.id_order, lines: order.lines })),
    ];
    for (const order of held) {
      const units = received.get(order.idOrder) ?? new Map<string, number>();
      const lines = new Map<string, number>();
      for (const line of order.lines) lines.set(line.sku, (lines.get(line.sku) ?? 0) + line.count);
      for (const [sku, count] of lines) units.set(sku, Math.max(units.get(sku) ?? 0, count));
      received.set(order.idOrder, units);
    }
    const figures = {
      routedElsewhere: 0,
      routedElsewhereRecorded: 0,
      splitOrders: 0,
      splitOrdersSent: 0,
      linesSentForElsewhere: 0,
    };
    for (const order of store.orders.values()) {
      const atWarehouse = new Map<string, number>();
      let elsewhere = 0;
      for (const fo of order.fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)) {
        for (const line of fo.lineItems) {
          if (fo.assignedLocationId !== warehouseLocationId()) {
            elsewhere += line.totalQuantity;
            continue;
          }
          const sku = order.lineItems.find((item) => item.id === line.lineItemId)?.sku ?? "";
          atWarehouse.set(sku, (atWarehouse.get(sku) ?? 0) + line.totalQuantity);
        }
      }
      const row = rows.get(order.id.split("/").at(-1)!);
      const got = row ? received.get(row.idOrder) : undefined;
      for (const [sku, count] of got ?? [])
        figures.linesSentForElsewhere += Math.max(0, count - (atWarehouse.get(sku) ?? 0));
      if (elsewhere === 0) continue;
      if (atWarehouse.size === 0) {
        figures.routedElsewhere++;
        if (row?.state === "elsewhere" && !got) figures.routedElsewhereRecorded++;
      } else {
        figures.splitOrders++;
        const same =
          got?.size === atWarehouse.size && [...atWarehouse].every(([sku, count]) => got.get(sku) === count);
        if (same) figures.splitOrdersSent++;
      }
    }
    return figures;
  }

  /**
   * Service mode's figures: the fulfillment requests the app accepted and the cancellation requests it answered
   * (from the fake's record of the app's answers), and whether the two cancellations ended as they should: the
   * one asked before picking accepted with the order cancelled at the warehouse unpicked, the one asked after
   * picking rejected with the order still at the warehouse, picked.
   */
  function serviceFigures() {
    const answers = serviceAnswers(store).filter((answer) => answer.refused === null);
    const count = (...mutations: string[]) =>
      answers.filter((answer) => mutations.includes(answer.mutation)).length;
    const before = settled.beforePicking;
    const after = settled.afterPicking;
    return {
      requestsAccepted: count("fulfillmentOrderAcceptFulfillmentRequest"),
      cancellationRequestsAnswered: count(
        "fulfillmentOrderAcceptCancellationRequest",
        "fulfillmentOrderRejectCancellationRequest",
      ),
      cancelledBeforePicking:
        before?.answer === "CANCELLATION_ACCEPTED" && before.warehouseStage === "cancelled" && !before.picked,
      refusedAfterPicking:
        after?.answer === "CANCELLATION_REJECTED" && after.warehouseStage !== "cancelled" && after.picked,
    };
  }

  async function summary() {
    const rows = await db.warehouseOrder.findMany({
      where: { shop: DEMO_SHOP },
      select: { stage: true, state: true, ttn: true, fulfillmentId: true, createdAt: true },
    });
    const firstHeld = rows
      .filter((row) => row.state === "held")
      .reduce<Date | null>((first, row) => (first && first <= row.createdAt ? first : row.createdAt), null);
    const deliveredRows = rows.filter((row) => row.stage === "delivered");
    const fulfilledWithTracking = deliveredRows.filter((row) => {
      const fulfillment = row.fulfillmentId ? store.fulfillments.get(row.fulfillmentId) : undefined;
      return !!row.ttn && !!fulfillment?.trackingInfo.some((info) => info.number === row.ttn);
    });
    const syncs = await db.stockSync.findMany({
      where: { shop: DEMO_SHOP, finishedAt: { not: null }, error: null },
    });
    return {
      orders: rows.length,
      held: rows.filter((row) => row.state === "held").length,
      accepted: rows.filter((row) => row.state === "accepted").length,
      delivered: deliveredRows.length,
      fulfillments: store.fulfillments.size,
      deliveredWithFulfillment: fulfilledWithTracking.length,
      stockSyncs: syncs.length,
      inventoryWrites: fake.requests.filter((request) => request.query.includes("inventorySetQuantities"))
        .length,
      itemsChanged: syncs.reduce((sum, sync) => sum + sync.changed, 0),
      /** Whether a stock sync started after the first held order was taken in (so it had a promise to keep). */
      syncedAfterHeld: firstHeld !== null && syncs.some((sync) => sync.startedAt > firstHeld),
      ...(await routingFigures()),
      ...(serviceMode && serviceFigures()),
    };
  }

  return { oversold, routingFigures, summary };
}
