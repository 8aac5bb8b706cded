// The Shopify side as the worker runs it (the fulfillment kind's own step), on a real database and over real
// HTTP to the Shopify fake: what a lost answer, a changed waybill or an edit the warehouse did not take leave
// in Shopify. The order is taken in through intake and moved on by the order rules, as the app does.
import type { WarehouseOrder } from "@prisma/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { fulfillmentWork } from "../../app/fulfillment/work.server";
import { applyToOrder } from "../../app/orders/commit.server";
import { ATTENTION, PENDING } from "../../app/orders/states";
import { createShopAdmin, type AdminGraphql, type ShopAdmin } from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import { FULFILLMENT_KIND } from "../../app/statuses/kinds.server";
import type { ShopWork } from "../../app/work/steps.server";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { seedOrder, type SeededOrder } from "../support/orders";
import { routeShopifyTo } from "../support/network";
import { inEnglishWords } from "../support/orders";

const { db, log } = appContext();
const TTN = "20450000000101";
const NEW_TTN = "20450000000202";
const CUP = "CUP-KARP-BLUE";
const TEA = "TEA-POL-100";

let fake: ShopifyFake;
let store: ShopStore;
let warehouse: LocationRecord;
let shop: string;
/** The worker's clock: moved on by a test to let a retry fall due. */
let now: number;

beforeAll(async () => {
  fake = await startShopifyFake();
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});

let shopCount = 0;
beforeEach(async () => {
  shop = `tell-shop-${++shopCount}.myshopify.com`;
  store = fake.state.addShop({ domain: shop, accessToken: `shpat_tell_${shopCount}` });
  warehouse = store.addLocation({ name: "Склад" });
  store.addProduct({ title: "Чашка «Карпати»", variants: [{ title: "Синя", sku: CUP, price: "450.00" }] });
  store.addProduct({ title: "Чай «Полонина»", variants: [{ sku: TEA, price: "120.00" }] });
  now = Date.now();
  await db.session.create({
    data: { id: `offline_${shop}`, shop, state: "", accessToken: store.shop.accessToken, scope: "" },
  });
  await db.shopSettings.create({ data: { shop, locationId: warehouse.id, locationName: warehouse.name } });
});

/** The app's client for the shop; `intercept` may act around a request, as a lost answer. */
async function shopAdmin(
  intercept?: (query: string, send: () => Promise<Response>) => Promise<Response>,
): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(shop);
  const graphql: AdminGraphql = (query, options) =>
    intercept ? intercept(String(query), () => admin.graphql(query, options)) : admin.graphql(query, options);
  return createShopAdmin(graphql, { sleep: async () => {} });
}

/** Shopify does what was asked, and the answer of the first call to `operation` never comes back. */
function losingAnswerOf(operation: string) {
  let lost = false;
  return shopAdmin(async (query, send) => {
    const response = await send();
    if (!lost && query.includes(`mutation ${operation}`)) {
      lost = true;
      throw new TypeError("fetch failed: socket hang up");
    }
    return response;
  });
}

/** One run of the fulfillment kind for the shop, as the worker makes it. */
async function runFulfillment(admin?: Promise<ShopAdmin>) {
  const at = new Date(now);
  await db.shopSchedule.upsert({
    where: { shop_kind: { shop, kind: FULFILLMENT_KIND } },
    create: { shop, kind: FULFILLMENT_KIND, nextRunAt: at },
    update: { nextRunAt: at },
  });
  const work = {
    db,
    log,
    clock: () => new Date(now),
    shop,
    admin: () => admin ?? shopAdmin(),
    signal: new AbortController().signal,
  } as unknown as ShopWork;
  const step = await fulfillmentWork.open(work);
  await step.run();
}

/** The Shopify order and the app's order for it, accepted by the warehouse with what intake mapped. */
async function acceptedOrder(
  number: number,
  lines: Array<{ sku: string; quantity: number }>,
  seed: Partial<SeededOrder> = {},
) {
  const { order, fulfillmentOrder } = store.addOrder({ lineItems: lines, locationId: warehouse.id });
  const shopifyOrderId = Number(order.id.split("/").at(-1));
  const row = await seedOrder(db, { shop, number, state: "accepted", shopifyOrderId, ...seed });
  return { order, fulfillmentOrder, row };
}

const current = (row: WarehouseOrder) => db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });

/** The warehouse's status report, read by the order rules as the status check reads it. */
async function reported(row: WarehouseOrder, stage: "shipped" | "delivered", ttn: string) {
  // Nova Poshta's 1 (waybill made) adds no event; its 9 is delivered.
  const status = { id: stage === "shipped" ? "1" : "9", name: stage, date: "2026-11-27" };
  await applyToOrder({ db, log, clock: () => new Date(now) }, await current(row), {
    type: "status_reported",
    report: { stage, known: true, ttn, warehouseStatus: status, carrierStatus: status, record: {} },
  });
}

/** As if the time of the retry had come. */
const later = () => void (now += 3_600_000);

const sentSkus = (row: WarehouseOrder) =>
  (JSON.parse(row.sentOrder!) as { products: Array<{ sku: string; count: string }> }).products.map(
    ({ sku, count }) => `${sku}×${count}`,
  );

describe("a lost answer never leaves a dead waybill", () => {
  it("finds a fulfillment made with the old waybill after the warehouse changed it, and updates its tracking", async () => {
    const { order, row } = await acceptedOrder(4101, [
      { sku: CUP, quantity: 2 },
      { sku: TEA, quantity: 1 },
    ]);
    await reported(row, "shipped", TTN);
    // Shopify makes the fulfillment; the answer is lost on its way back.
    await runFulfillment(losingAnswerOf("FulfillmentCreate"));
    expect(order.fulfillmentIds).toHaveLength(1);
    expect((await current(row)).fulfillmentId).toBeNull();

    // Meanwhile the warehouse gives the parcel another waybill.
    await reported(row, "shipped", NEW_TTN);
    later();
    await runFulfillment();

    const after = await current(row);
    expect(order.fulfillmentIds).toHaveLength(1);
    expect(after).toMatchObject({
      fulfillmentId: order.fulfillmentIds[0],
      fulfilledTtn: NEW_TTN,
      fulfillmentProblem: null,
      fulfillmentDueAt: null,
    });
    expect(JSON.parse(after.waybills!)).toEqual([TTN, NEW_TTN]);
    // Both written at the worker's one clock reading: compared as a set.
    const told = await db.orderEvent.findMany({
      where: { orderId: row.id, kind: { in: ["fulfilled", "tracking_updated"] } },
    });
    expect(told.map((event) => inEnglishWords(event.message)).sort()).toEqual([
      `Shopify already had this order's fulfillment with waybill ${TTN}: it was kept, not made again.`,
      `Shopify's tracking now shows waybill ${NEW_TTN}.`,
    ]);
    const fulfillment = store.fulfillments.get(order.fulfillmentIds[0]!)!;
    expect(fulfillment.trackingInfo.map((info) => info.number)).toEqual([NEW_TTN]);
  });

  it("a retried tracking update sends the buyer no second e-mail", async () => {
    const { order, row } = await acceptedOrder(4102, [{ sku: CUP, quantity: 2 }]);
    await reported(row, "shipped", TTN);
    await runFulfillment();
    await reported(row, "shipped", NEW_TTN);
    await runFulfillment(losingAnswerOf("FulfillmentTrackingUpdate"));
    expect((await current(row)).fulfilledTtn).toBe(TTN);

    later();
    await runFulfillment();
    expect((await current(row)).fulfilledTtn).toBe(NEW_TTN);
    const fulfillment = store.fulfillments.get(order.fulfillmentIds[0]!)!;
    expect(fulfillment.buyerEmails).toEqual([
      { kind: "shipping_confirmation", trackingNumbers: [TTN] },
      { kind: "shipping_update", trackingNumbers: [NEW_TTN] },
    ]);
  });

  it("a retried delivered event puts no second event on the buyer's status page", async () => {
    const { order, row } = await acceptedOrder(4103, [{ sku: CUP, quantity: 2 }]);
    await reported(row, "shipped", TTN);
    await runFulfillment();
    await reported(row, "delivered", TTN);
    await runFulfillment(losingAnswerOf("FulfillmentEventAdd"));
    expect((await current(row)).fulfillmentEvent).toBeNull();

    later();
    await runFulfillment();
    expect(await current(row)).toMatchObject({ fulfillmentEvent: "DELIVERED", fulfillmentDueAt: null });
    const { events } = store.fulfillments.get(order.fulfillmentIds[0]!)!;
    expect(events.map((event) => event.status)).toEqual(["DELIVERED"]);
  });
});

describe("a fulfillment carries what the warehouse shipped, nothing more", () => {
  it("an edit the warehouse refused: fulfils the units sent, and flags the unit the order gained", async () => {
    // Sent with two cups; the order then gained a third, and the warehouse refused that change.
    const { order, fulfillmentOrder, row } = await acceptedOrder(
      4104,
      [
        { sku: CUP, quantity: 3 },
        { sku: TEA, quantity: 1 },
      ],
      { attention: ATTENTION.editRefused },
    );
    expect(sentSkus(row)).toEqual([`${CUP}×2`, `${TEA}×1`]);
    await reported(row, "shipped", TTN);
    await runFulfillment();

    const fulfillment = store.fulfillments.get(order.fulfillmentIds[0]!)!;
    expect(fulfillment.lines.map((line) => line.quantity)).toEqual([2, 1]);
    expect(fulfillmentOrder.lineItems.map((line) => line.remainingQuantity)).toEqual([1, 0]);
    const after = await current(row);
    expect(JSON.parse(after.unshipped!)).toEqual([
      { sku: CUP, title: "Чашка «Карпати» - Синя", quantity: 1 },
    ]);
    expect(after).toMatchObject({ fulfilledTtn: TTN, fulfillmentProblem: null, attention: "edit_refused" });
    const flagged = await db.orderEvent.findMany({ where: { orderId: row.id, kind: "unshipped" } });
    expect(flagged.map((event) => inEnglishWords(event.message))).toEqual([
      expect.stringContaining(`Чашка «Карпати» - Синя (${CUP}) × 1 stay unfulfilled`),
    ]);
  });

  it("an edit still out: fulfils what was sent, and leaves the new item unfulfilled and flagged", async () => {
    store.addProduct({ title: "Листівка", variants: [{ sku: "CARD-1", price: "20.00" }] });
    const { order, fulfillmentOrder, row } = await acceptedOrder(
      4105,
      [
        { sku: CUP, quantity: 2 },
        { sku: TEA, quantity: 1 },
        { sku: "CARD-1", quantity: 1 },
      ],
      { pending: PENDING.edit },
    );
    expect((await current(row)).pending).toBe("edit");
    await reported(row, "shipped", TTN);
    await runFulfillment();

    expect(store.fulfillments.get(order.fulfillmentIds[0]!)!.lines.map((line) => line.quantity)).toEqual([
      2, 1,
    ]);
    expect(fulfillmentOrder.status).toBe("IN_PROGRESS");
    expect(JSON.parse((await current(row)).unshipped!)).toEqual([
      { sku: "CARD-1", title: "Листівка", quantity: 1 },
    ]);
  });

  it("an order shipped as Shopify has it: everything fulfilled, nothing flagged", async () => {
    const { order, fulfillmentOrder, row } = await acceptedOrder(4106, [
      { sku: CUP, quantity: 2 },
      { sku: TEA, quantity: 1 },
    ]);
    await reported(row, "shipped", TTN);
    await runFulfillment();
    expect(order.fulfillmentIds).toHaveLength(1);
    expect(fulfillmentOrder.status).toBe("CLOSED");
    expect(await current(row)).toMatchObject({ unshipped: null, fulfilledTtn: TTN });
  });
});
