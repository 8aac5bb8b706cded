// Returns end to end over real HTTP: an order the app sent is shipped at the simulator, the warehouse books a
// return of it, and the sweep keeps it linked to the order, which moves to returned with the return on its
// timeline; with restocking on and a location chosen, the return asks for a stock sync at once, which writes
// the warehouse's own figure (returned units included) to the Shopify shopify.fake.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { readTexts } from "../../app/i18n/texts";
import { requestReturnsSweep } from "../../app/returns/kinds.server";
import { saveStatusSettings } from "../../app/statuses/settings.server";
import { saveStockSettings } from "../../app/stock/settings.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { wakeWorker } from "../../app/work/worker.server";
import { eventually, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { useShopifyShop } from "./shopify-shop";

const db = () => appContext().db;
const shopify = useShopifyShop("returns");
let flow: OrderFlow | undefined;

afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const finishedSyncs = () =>
  db().stockSync.count({ where: { shop: SHOP, finishedAt: { not: null }, error: null } });

/** An order taken in through its webhook, accepted by the simulator and shipped there. */
async function shippedOrder(flow: OrderFlow, n: number) {
  await flow.post({ topic: "orders/create", payload: orderPayload(n) });
  const order = await eventually(
    () => db().warehouseOrder.findFirst({ where: { shop: SHOP, orderName: `#${n}`, state: "accepted" } }),
    "the order to be accepted",
  );
  flow.sim.advanceOrder({ id_order: order.idOrder, to: "shipped" });
  return order;
}

async function sweep() {
  await requestReturnsSweep(db(), SHOP, new Date());
  wakeWorker(SHOP);
}

describe("a return booked at the warehouse", { timeout: 90_000 }, () => {
  it("is kept linked to its order, which shows returned with the return on its timeline; restocking off asks for no sync", async () => {
    flow = await startOrderFlow();
    const order = await shippedOrder(flow, 4101);
    flow.sim.addReturn({
      id_order: order.idOrder,
      products: [
        { sku: "CUP-KARP-BLUE", count: 2 },
        { sku: "TEA-POL-100", count: 1, marriage: true },
      ],
      TTN: "20450000004101",
    });
    await sweep();
    const kept = await eventually(
      () => db().warehouseReturn.findFirst({ where: { shop: SHOP, orderId: order.id } }),
      "the return to be kept",
    );
    expect(kept).toMatchObject({
      idOrder: order.idOrder,
      ttn: "20450000004101",
      units: 3,
      defective: true,
      problem: null,
      restockRequestedAt: null,
    });
    expect(JSON.parse(kept.lines)).toEqual([
      { sku: "CUP-KARP-BLUE", count: 2, defective: false },
      { sku: "TEA-POL-100", count: 1, defective: true },
    ]);
    const returned = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(returned).toMatchObject({ stage: "returned", attention: "returned" });
    const events = await db().orderEvent.findMany({ where: { orderId: order.id, kind: "returned" } });
    expect(events).toHaveLength(1);
    expect(readTexts(events[0]!.message)).toEqual([
      { key: "orders:timeline.returnBooked", values: { ttn: "20450000004101", units: 3, defective: 1 } },
    ]);
    expect(await db().shopSchedule.count({ where: { shop: SHOP, kind: "stock" } })).toBe(0);

    // Seen again by the next sweep: nothing new on the timeline.
    await sweep();
    await eventually(async () => {
      const row = await db().warehouseReturn.findFirstOrThrow({ where: { id: kept.id } });
      return row.lastSeenAt > kept.lastSeenAt && row;
    }, "the next sweep to see the return again");
    expect(await db().orderEvent.count({ where: { orderId: order.id, kind: "returned" } })).toBe(1);
    expect(await db().warehouseReturn.count()).toBe(1);
  });

  it("a partial return marks only what came back; the order moves to returned once the rest comes back too", async () => {
    flow = await startOrderFlow();
    const order = await shippedOrder(flow, 4103);
    // Two cups and a tea were sent: one cup comes back.
    flow.sim.addReturn({ id_order: order.idOrder, products: [{ sku: "CUP-KARP-BLUE", count: 1 }] });
    await sweep();
    await eventually(
      () => db().warehouseReturn.findFirst({ where: { shop: SHOP, orderId: order.id } }),
      "the return to be kept",
    );
    const partly = await db().warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    // Not returned: it keeps its stage, flagged with what came back and what did not.
    expect(partly).toMatchObject({ stage: order.stage, attention: "partly_returned" });
    expect(readTexts(partly.attentionMessage)).toEqual([
      {
        key: "orders:timeline.partlyReturned",
        values: { back: "CUP-KARP-BLUE × 1", missing: "CUP-KARP-BLUE × 1, TEA-POL-100 × 1" },
      },
    ]);
    expect(await db().orderEvent.count({ where: { orderId: order.id, kind: "returned" } })).toBe(1);

    // The rest comes back in a second return: now the whole order is back.
    flow.sim.addReturn({
      id_order: order.idOrder,
      products: [
        { sku: "CUP-KARP-BLUE", count: 1 },
        { sku: "TEA-POL-100", count: 1 },
      ],
    });
    await sweep();
    await eventually(
      async () => (await db().warehouseReturn.count({ where: { shop: SHOP, orderId: order.id } })) === 2,
      "the second return to be kept",
    );
    expect(await db().warehouseOrder.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      stage: "returned",
      attention: "returned",
    });
    expect(await db().orderEvent.count({ where: { orderId: order.id, kind: "returned" } })).toBe(2);
  });

  it("with restocking on, asks for a stock sync at once, which writes the warehouse's figure with the returned units", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const { variants } = shopify.store.addProduct({
      title: "Чашка Карпати",
      variants: [{ sku: "CUP-KARP-BLUE", inventory: [{ locationId: shopify.warehouse.id, available: 0 }] }],
    });
    const item = variants[0]!.inventoryItemId;
    const saved = await saveStockSettings(appContext(), SHOP, {
      quantityName: "available",
      intervalMinutes: 1440,
      restockReturns: true,
    });
    expect(saved.ok).toBe(true);
    // Two cups shipped: the first sync writes what the warehouse has left.
    const order = await shippedOrder(flow, 4102);
    const onHand = () => flow!.sim.store().products.get("CUP-KARP-BLUE")!;
    const left = onHand().quantity - onHand().reserved;
    await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [shopify.warehouse]);
    wakeWorker(SHOP);
    await eventually(async () => (await finishedSyncs()) === 1, "the first stock sync");
    expect(shopify.store.level(item, shopify.warehouse.id)?.quantities.available).toBe(left);

    flow.sim.addReturn({ id_order: order.idOrder, products: [{ sku: "CUP-KARP-BLUE", count: 2 }] });
    // The warehouse took the two cups back on sale.
    expect(onHand().quantity - onHand().reserved).toBe(left + 2);
    await sweep();
    const kept = await eventually(
      () => db().warehouseReturn.findFirst({ where: { shop: SHOP, orderId: order.id } }),
      "the return to be kept",
    );
    expect(kept.restockRequestedAt).toBeInstanceOf(Date);
    // The sync the return asked for (the schedule's next is a day away) writes the warehouse's own figure.
    await eventually(async () => (await finishedSyncs()) === 2, "the stock sync the return asked for");
    expect(shopify.store.level(item, shopify.warehouse.id)?.quantities.available).toBe(left + 2);
  });
});
