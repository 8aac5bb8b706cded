// The Shopify side of a shipped order, over real HTTP to the Shopify fake through the app's own Admin client
// (the library's offline session, createShopAdmin): one fulfillment exactly once, tracking updates, events,
// every problem the merchant must solve, throttling and userErrors.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { novaPoshtaEventStatus } from "../../app/fulfillment/carrier-events";
import { trackingFor } from "../../app/fulfillment/carriers";
import {
  addFulfillmentEvent,
  addFulfillmentEventOnce,
  fulfilOrder,
  readFulfillmentPicture,
  updateTracking,
  updateTrackingOnce,
  type FulfilOrderInput,
} from "../../app/fulfillment/fulfillment.server";
import { listLocations } from "../../app/fulfillment/locations.server";
import { FULFILLMENT_PROBLEM_MESSAGES } from "../../app/fulfillment/plan";
import {
  createShopAdmin,
  ShopifyThrottled,
  ShopifyUserErrors,
  type AdminGraphql,
  type ShopAdmin,
} from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import { DEFAULT_STATUS_SETTINGS } from "../../app/statuses/settings";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const TOKEN = "shpat_fulfil";
const TTN = "20450000000001";
const { db } = appContext();

let fake: ShopifyFake;
let store: ShopStore;
let warehouse: LocationRecord;
let shopFloor: LocationRecord;
let waits: number[];

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
  // A shop of its own per test: the fake keeps state for the whole file.
  const domain = `fulfil-shop-${++shopCount}.myshopify.com`;
  store = fake.state.addShop({ domain, accessToken: `${TOKEN}_${shopCount}` });
  warehouse = store.addLocation({ name: "Склад Київ" });
  shopFloor = store.addLocation({ name: "Магазин" });
  waits = [];
  await db.session.create({
    data: {
      id: `offline_${domain}`,
      shop: domain,
      state: "",
      accessToken: store.shop.accessToken,
      scope: "",
    },
  });
});
afterEach(() => {
  fake.setThrottle({ shop: store.shop.myshopifyDomain, currentlyAvailable: 2000, restoreRate: 100 });
});

/** The app's client for the shop; `intercept` may act around a request, as a lost answer or a race. */
async function shopAdmin(
  intercept?: (query: string, send: () => Promise<Response>) => Promise<Response>,
): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(store.shop.myshopifyDomain);
  const graphql: AdminGraphql = (query, options) =>
    intercept ? intercept(String(query), () => admin.graphql(query, options)) : admin.graphql(query, options);
  return createShopAdmin(graphql, { sleep: async (ms) => void waits.push(ms) });
}

function shippedOrder(quantity = 2, options: Partial<Parameters<ShopStore["addOrder"]>[0]> = {}) {
  return store.addOrder({
    lineItems: [
      { title: "Вишиванка", quantity },
      { title: "Листівка", quantity: 1 },
    ],
    locationId: warehouse.id,
    ...options,
  });
}

function input(orderId: string, overrides: Partial<FulfilOrderInput> = {}): FulfilOrderInput {
  const { company, url } = trackingFor("novaPoshta", TTN, DEFAULT_STATUS_SETTINGS);
  return { orderId, locationId: warehouse.id, ttn: TTN, company, url, notifyCustomer: true, ...overrides };
}

const operations = () =>
  fake.requests.filter((r) => r.shop === store.shop.myshopifyDomain).map((r) => r.operationName);

describe("fulfilOrder", () => {
  it("creates one fulfillment with the carrier, waybill and tracking page, notifying the buyer as asked", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    const admin = await shopAdmin();

    const result = await fulfilOrder(admin, input(order.id));

    expect(result).toEqual({
      kind: "created",
      fulfillmentId: order.fulfillmentIds[0],
      releasedHoldIds: [],
      unshipped: [],
    });
    const fulfillment = store.fulfillments.get(order.fulfillmentIds[0]!)!;
    expect(fulfillment.trackingInfo).toEqual([
      { company: "Nova Poshta", number: TTN, url: `https://novaposhta.ua/tracking/?cargo_number=${TTN}` },
    ]);
    expect(fulfillment.notifyCustomer).toBe(true);
    expect(fulfillment.lines.map((line) => line.quantity)).toEqual([2, 1]);
    expect(fulfillmentOrder.status).toBe("CLOSED");
    // Read before create, every time: that read is what makes a retry safe.
    expect(operations()).toEqual(["OrderFulfillmentPicture", "FulfillmentCreate"]);
  });

  it("leaves the buyer un-notified when the shop's setting says so", async () => {
    const { order } = shippedOrder();
    await fulfilOrder(await shopAdmin(), input(order.id, { notifyCustomer: false }));
    expect(store.fulfillments.get(order.fulfillmentIds[0]!)!.notifyCustomer).toBe(false);
  });

  it("fulfils what remains of a partly fulfilled fulfillment order, never more", async () => {
    const { order, fulfillmentOrder } = shippedOrder(3);
    const admin = await shopAdmin();
    const line = fulfillmentOrder.lineItems[0]!;
    await admin.mutate(
      `mutation MerchantShipsOne($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { field message } } }`,
      {
        f: {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: fulfillmentOrder.id,
              fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }],
            },
          ],
        },
      },
    );
    const result = await fulfilOrder(admin, input(order.id));
    expect(result.kind).toBe("created");
    expect(store.fulfillments.get(order.fulfillmentIds[1]!)!.lines.map((l) => l.quantity)).toEqual([2, 1]);
    expect(fulfillmentOrder.status).toBe("CLOSED");
  });

  it("after an answer that never came back, finds the fulfillment by its waybill and creates nothing", async () => {
    const { order } = shippedOrder();
    let dropped = false;
    const losing = await shopAdmin(async (query, send) => {
      const response = await send();
      // Shopify made the fulfillment; the answer is lost on the way back.
      if (!dropped && query.includes("mutation FulfillmentCreate")) {
        dropped = true;
        throw new TypeError("fetch failed: socket hang up");
      }
      return response;
    });
    await expect(fulfilOrder(losing, input(order.id))).rejects.toThrow(/socket hang up/);
    expect(order.fulfillmentIds).toHaveLength(1);

    const before = fake.requests.length;
    const again = await fulfilOrder(await shopAdmin(), input(order.id));
    expect(again).toEqual({
      kind: "found",
      fulfillmentId: order.fulfillmentIds[0],
      matchedBy: "tracking_number",
      trackingNumbers: [TTN],
      unshipped: [],
    });
    expect(order.fulfillmentIds).toHaveLength(1);
    expect(fake.requests.slice(before).map((r) => r.operationName)).toEqual(["OrderFulfillmentPicture"]);
  });

  it("recognises the waybill written with spaces, and the stored fulfillment id", async () => {
    const { order } = shippedOrder();
    const admin = await shopAdmin();
    const created = await fulfilOrder(admin, input(order.id));
    const spaced = await fulfilOrder(admin, input(order.id, { ttn: "20 4500 0000 0001" }));
    expect(spaced).toMatchObject({ kind: "found", matchedBy: "tracking_number" });
    // A changed waybill with the stored id: found, and its old number shows the tracking is stale.
    const known = await fulfilOrder(
      admin,
      input(order.id, { ttn: "20450000000099", knownFulfillmentId: order.fulfillmentIds[0] }),
    );
    expect(known).toEqual({
      kind: "found",
      fulfillmentId: created.kind === "created" ? created.fulfillmentId : "",
      matchedBy: "known_id",
      trackingNumbers: [TTN],
      unshipped: [],
    });
    expect(order.fulfillmentIds).toHaveLength(1);
  });

  it("releases a hold the app placed itself, then fulfils", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    const hold = store.holdFulfillmentOrder(fulfillmentOrder.id, { byRequestingApp: true, reason: "OTHER" });
    const result = await fulfilOrder(await shopAdmin(), input(order.id));
    expect(result).toEqual({
      kind: "created",
      fulfillmentId: order.fulfillmentIds[0],
      releasedHoldIds: [hold.id],
      unshipped: [],
    });
    expect(operations()).toEqual([
      "OrderFulfillmentPicture",
      "FulfillmentHoldRelease",
      "OrderFulfillmentPicture",
      "FulfillmentCreate",
    ]);
  });

  it("read in pages: an order with more fulfillment orders than a page still finds its warehouse part", async () => {
    const { order } = shippedOrder();
    // Eleven more fulfillment orders at the shop floor put the warehouse's on the first page of two.
    for (let index = 0; index < 11; index++) {
      const extra = store.addOrder({ lineItems: [{ title: "x", quantity: 1 }], locationId: shopFloor.id });
      // Re-parented onto the shipped order, lines and all, as a split order would hold them.
      order.lineItems.push(...extra.order.lineItems);
      order.fulfillmentOrderIds.push(extra.fulfillmentOrder.id);
      store.fulfillmentOrders.get(extra.fulfillmentOrder.id)!.orderId = order.id;
    }
    const picture = await readFulfillmentPicture(await shopAdmin(), order.id);
    expect(picture?.fulfillmentOrders).toHaveLength(12);
    expect(operations()).toEqual(["OrderFulfillmentPicture", "OrderFulfillmentPicture"]);
  });
});

describe("what the warehouse shipped", () => {
  it("fulfils the SKUs and units sent, line by line, past the first page of a fulfillment order's lines", async () => {
    const skus = Array.from({ length: 30 }, (_, index) => `SKU-${String(index).padStart(2, "0")}`);
    for (const sku of skus) store.addProduct({ title: `Item ${sku}`, variants: [{ sku }] });
    const { order, fulfillmentOrder } = store.addOrder({
      lineItems: skus.map((sku) => ({ sku, quantity: 2 })),
      locationId: warehouse.id,
    });
    // The warehouse was sent every SKU but the first, and one unit of the last.
    const shipped = skus.slice(1).map((sku, index) => ({ sku, count: index === 28 ? 1 : 2 }));
    const used: string[] = [];
    const result = await fulfilOrder(
      await shopAdmin(),
      input(order.id, {
        shipped,
        beforeCreate: async (ttn) => {
          used.push(ttn);
          // Kept before the call is made: nothing is fulfilled yet.
          expect(order.fulfillmentIds).toEqual([]);
        },
      }),
    );
    expect(used).toEqual([TTN]);
    expect(result).toMatchObject({
      kind: "created",
      unshipped: [
        { sku: "SKU-00", title: "Item SKU-00", quantity: 2 },
        { sku: "SKU-29", title: "Item SKU-29", quantity: 1 },
      ],
    });
    const lines = store.fulfillments.get(order.fulfillmentIds[0]!)!.lines;
    expect(lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(28 * 2 + 1);
    expect(fulfillmentOrder.lineItems.map((line) => line.remainingQuantity)).toEqual([
      2,
      ...Array<number>(28).fill(0),
      1,
    ]);
    expect(operations()).toEqual(["OrderFulfillmentPicture", "FulfillmentOrderLines", "FulfillmentCreate"]);
  });

  it("makes nothing when the waybill cannot be kept first", async () => {
    const { order } = shippedOrder();
    const refused = fulfilOrder(
      await shopAdmin(),
      input(order.id, {
        beforeCreate: () => Promise.reject(new Error("the order changed meanwhile")),
      }),
    );
    await expect(refused).rejects.toThrow(/changed meanwhile/);
    expect(order.fulfillmentIds).toEqual([]);
  });
});

describe("problems the merchant must solve", () => {
  async function problemOf(orderId: string, overrides: Partial<FulfilOrderInput> = {}) {
    const result = await fulfilOrder(await shopAdmin(), input(orderId, overrides));
    if (result.kind !== "problem") throw new Error(`expected a problem, got ${JSON.stringify(result)}`);
    expect(result.problem.message).toBe(FULFILLMENT_PROBLEM_MESSAGES[result.problem.code]);
    expect(operations()).not.toContain("FulfillmentCreate");
    return result.problem;
  }

  it("on_hold: a merchant's or fraud hold is shown, not released", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    store.holdFulfillmentOrder(fulfillmentOrder.id, { reason: "HIGH_RISK_OF_FRAUD" });
    store.holdFulfillmentOrder(fulfillmentOrder.id, { byRequestingApp: true });
    expect(await problemOf(order.id)).toMatchObject({
      code: "on_hold",
      holds: [{ reason: "HIGH_RISK_OF_FRAUD", displayReason: "High risk of fraud" }],
    });
    // Not even our own hold is lifted while the merchant's stands.
    expect(operations()).toEqual(["OrderFulfillmentPicture"]);
    expect(fulfillmentOrder.holds).toHaveLength(2);
  });

  it("scheduled: a fulfillment order not yet due", async () => {
    const { order } = shippedOrder(1, { fulfillmentOrderStatus: "SCHEDULED" });
    expect((await problemOf(order.id)).code).toBe("scheduled");
  });

  it("closed: the fulfillment order at the warehouse was cancelled or closed", async () => {
    const { order } = shippedOrder(1, { fulfillmentOrderStatus: "CANCELLED" });
    expect((await problemOf(order.id)).code).toBe("closed");
  });

  it("moved: the merchant assigned the items to another location", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    store.moveFulfillmentOrder(fulfillmentOrder.id, shopFloor.id);
    expect(await problemOf(order.id)).toMatchObject({ code: "moved", locations: ["Магазин"] });
  });

  it("moved: what remained of a partly fulfilled order went to another location", async () => {
    const { order, fulfillmentOrder } = shippedOrder(3);
    const line = fulfillmentOrder.lineItems[0]!;
    line.remainingQuantity = 2; // one unit fulfilled earlier
    store.moveFulfillmentOrder(fulfillmentOrder.id, shopFloor.id);
    expect(await problemOf(order.id)).toMatchObject({ code: "moved", locations: ["Магазин"] });
  });

  it("already_fulfilled: the merchant fulfilled it without the warehouse's waybill", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    const admin = await shopAdmin();
    await admin.mutate(
      `mutation MerchantFulfils($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { field message } } }`,
      {
        f: {
          lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrder.id }],
          trackingInfo: { number: "X1" },
        },
      },
    );
    expect(await problemOf(order.id)).toMatchObject({
      code: "already_fulfilled",
      fulfillmentIds: order.fulfillmentIds,
    });
  });

  it("fulfillment_cancelled: our fulfillment was cancelled by the merchant, and is not made again", async () => {
    const { order } = shippedOrder();
    await fulfilOrder(await shopAdmin(), input(order.id));
    store.fulfillments.get(order.fulfillmentIds[0]!)!.status = "CANCELLED";
    fake.requests.length = 0;
    expect(await problemOf(order.id)).toMatchObject({ code: "fulfillment_cancelled" });
    expect(await problemOf(order.id, { knownFulfillmentId: order.fulfillmentIds[0] })).toMatchObject({
      code: "fulfillment_cancelled",
    });
  });

  it("no_fulfillment_order: nothing at the location can be fulfilled by the app", async () => {
    const { order } = shippedOrder(1, { supportedActions: ["REQUEST_FULFILLMENT"] });
    expect((await problemOf(order.id)).code).toBe("no_fulfillment_order");
  });

  it("order_not_found: the order was deleted in Shopify", async () => {
    expect((await problemOf("gid://shopify/Order/987654321")).code).toBe("order_not_found");
  });
});

describe("tracking and events", () => {
  async function fulfilled() {
    const { order } = shippedOrder();
    const admin = await shopAdmin();
    const result = await fulfilOrder(admin, input(order.id, { notifyCustomer: false }));
    if (result.kind !== "created") throw new Error("not created");
    return { admin, fulfillmentId: result.fulfillmentId };
  }

  it("updateTracking replaces the waybill with fulfillmentTrackingInfoUpdate", async () => {
    const { admin, fulfillmentId } = await fulfilled();
    const tracking = trackingFor("ukrposhta", "0500012345678", DEFAULT_STATUS_SETTINGS);
    const kept = await updateTracking(admin, fulfillmentId, tracking, true);
    const expected = {
      company: "Ukrposhta",
      number: "0500012345678",
      url: "https://track.ukrposhta.ua/tracking_UA.html?barcode=0500012345678",
    };
    expect(kept).toEqual([expected]);
    expect(store.fulfillments.get(fulfillmentId)).toMatchObject({
      trackingInfo: [expected],
      notifyCustomer: true,
    });
  });

  it("addFulfillmentEvent records the carrier's progress", async () => {
    const { admin, fulfillmentId } = await fulfilled();
    const arrived = novaPoshtaEventStatus("7")!;
    const happenedAt = new Date("2026-10-02T09:15:00Z");
    const eventId = await addFulfillmentEvent(admin, fulfillmentId, {
      status: arrived,
      happenedAt,
      message: "Прибув на відділення",
    });
    await addFulfillmentEvent(admin, fulfillmentId, {
      status: novaPoshtaEventStatus(9)!,
      happenedAt: new Date("2026-10-03T10:00:00Z"),
    });
    const { events, displayStatus, deliveredAt } = store.fulfillments.get(fulfillmentId)!;
    expect(events.map(({ id, status, happenedAt: at, message }) => ({ id, status, at, message }))).toEqual([
      {
        id: eventId,
        status: "READY_FOR_PICKUP",
        at: "2026-10-02T09:15:00.000Z",
        message: "Прибув на відділення",
      },
      { id: expect.any(String), status: "DELIVERED", at: "2026-10-03T10:00:00.000Z", message: null },
    ]);
    expect([displayStatus, deliveredAt]).toEqual(["DELIVERED", "2026-10-03T10:00:00.000Z"]);
  });

  it("updateTrackingOnce reads first: a waybill Shopify already shows is not sent again", async () => {
    const { admin, fulfillmentId } = await fulfilled();
    const tracking = trackingFor("novaPoshta", "20450000000777", DEFAULT_STATUS_SETTINGS);
    expect(await updateTrackingOnce(admin, fulfillmentId, tracking, true)).toBe(true);
    expect(
      await updateTrackingOnce(admin, fulfillmentId, { ...tracking, number: "2045 0000 000777" }, true),
    ).toBe(false);
    expect(store.fulfillments.get(fulfillmentId)!.buyerEmails).toEqual([
      { kind: "shipping_update", trackingNumbers: ["20450000000777"] },
    ]);
    expect(operations().slice(-3)).toEqual(["FulfillmentNow", "FulfillmentTrackingUpdate", "FulfillmentNow"]);
  });

  it("addFulfillmentEventOnce adds an event unless it is the newest already", async () => {
    const { admin, fulfillmentId } = await fulfilled();
    const at = (day: number) => new Date(`2026-10-0${day}T09:00:00Z`);
    expect(
      await addFulfillmentEventOnce(admin, fulfillmentId, { status: "OUT_FOR_DELIVERY", happenedAt: at(2) }),
    ).toBe(true);
    expect(
      await addFulfillmentEventOnce(admin, fulfillmentId, { status: "OUT_FOR_DELIVERY", happenedAt: at(3) }),
    ).toBe(false);
    // Another status, then the first again: out for delivery a second time is a new event.
    await addFulfillmentEventOnce(admin, fulfillmentId, { status: "ATTEMPTED_DELIVERY", happenedAt: at(4) });
    await addFulfillmentEventOnce(admin, fulfillmentId, { status: "OUT_FOR_DELIVERY", happenedAt: at(5) });
    expect(store.fulfillments.get(fulfillmentId)!.events.map((event) => event.status)).toEqual([
      "OUT_FOR_DELIVERY",
      "ATTEMPTED_DELIVERY",
      "OUT_FOR_DELIVERY",
    ]);
  });

  it("userErrors surface as ShopifyUserErrors", async () => {
    const admin = await shopAdmin();
    const missing = "gid://shopify/Fulfillment/999999";
    const tracking = trackingFor("novaPoshta", TTN, DEFAULT_STATUS_SETTINGS);
    await expect(updateTracking(admin, missing, tracking, false)).rejects.toThrow(ShopifyUserErrors);
    const event = addFulfillmentEvent(admin, missing, { status: "IN_TRANSIT", happenedAt: new Date() });
    await expect(event).rejects.toThrow(/Fulfillment does not exist/);
  });

  it("a fulfillment order put on hold between the read and the create: Shopify's refusal is raised, nothing made", async () => {
    const { order, fulfillmentOrder } = shippedOrder();
    const racing = await shopAdmin(async (query, send) => {
      if (query.includes("mutation FulfillmentCreate")) store.holdFulfillmentOrder(fulfillmentOrder.id);
      return send();
    });
    const failure = await fulfilOrder(racing, input(order.id)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShopifyUserErrors);
    expect((failure as ShopifyUserErrors).userErrors[0]?.message).toMatch(/unfulfillable status= on_hold/);
    expect(order.fulfillmentIds).toEqual([]);
    // The next attempt reads the hold and reports it instead of trying again.
    expect((await fulfilOrder(await shopAdmin(), input(order.id))).kind).toBe("problem");
  });
});

describe("throttling", () => {
  it("waits out THROTTLED answers, as the cost extension says, and fulfils once", async () => {
    const { order } = shippedOrder();
    const admin = await shopAdmin();
    fake.throttleNext(2);
    const result = await fulfilOrder(admin, input(order.id));
    expect(result.kind).toBe("created");
    expect(waits).toHaveLength(2);
    expect(order.fulfillmentIds).toHaveLength(1);
  });

  it("a bucket that stays empty ends in ShopifyThrottled, with nothing made", async () => {
    const { order } = shippedOrder();
    const admin = await shopAdmin();
    // 1 point a second: the picture's cost takes minutes, longer than a step waits.
    fake.setThrottle({ shop: store.shop.myshopifyDomain, currentlyAvailable: 0, restoreRate: 1 });
    await expect(fulfilOrder(admin, input(order.id))).rejects.toThrow(ShopifyThrottled);
    expect(order.fulfillmentIds).toEqual([]);
  });
});

describe("listLocations", () => {
  it("lists the shop's active locations by name, page after page", async () => {
    store.addLocation({ name: "Закритий склад", isActive: false });
    for (let index = 0; index < 100; index++)
      store.addLocation({ name: `Точка ${String(index).padStart(3, "0")}` });
    const locations = await listLocations(await shopAdmin());
    expect(locations).toHaveLength(102);
    expect(locations.slice(0, 2)).toEqual([
      { id: shopFloor.id, name: "Магазин" },
      { id: warehouse.id, name: "Склад Київ" },
    ]);
    expect(locations.map((location) => location.name)).not.toContain("Закритий склад");
    expect(operations()).toEqual(["ShopLocations", "ShopLocations"]);
  });
});
