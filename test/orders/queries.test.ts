// The read side behind the orders pages, against the real database (SQLite here, PostgreSQL in CI).
import type { WarehouseOrder } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import {
  countOrdersByStage,
  countOrdersByState,
  listOrders,
  orderDetail,
  parseFulfillmentProblem,
  parseReportedStatus,
  TIMELINE_PAGE_SIZE,
} from "../../app/orders/queries.server";
import type { OrderInput } from "../../app/orders/state-machine";
import { recordEvents } from "../../app/orders/timeline.server";
import { i18nFor } from "../../app/i18n/i18n";
import { translate } from "../../app/i18n/message";
import type { OrderEventView } from "../../app/orders/queries.server";
import { storedText } from "../../app/orders/words";

/** An event as an English-speaking merchant reads it. */
const words = (event: OrderEventView) =>
  event.texts.map((text) => translate(i18nFor("en").t, text)).join(" ");
import { driveOrder, FIXTURE_ORDER, seedOrder, statusReport } from "../support/orders";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER = "other-store.myshopify.com";

async function seed() {
  const { db } = appContext();
  await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
  await seedOrder(db, { shop: SHOP, number: 1002, state: "ready" });
  await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "FF-77001" });
  await seedOrder(db, {
    shop: SHOP,
    number: 1004,
    state: "accepted",
    idOrderFF: "FF-77002",
    attention: "cancel_refused",
    attentionMessage: "Заказ уже собран",
  });
  await seedOrder(db, { shop: OTHER, number: 1005, state: "held" });
}

describe("order queries", () => {
  it("counts the shop's orders by state, with those needing attention", async () => {
    await seed();
    expect(await countOrdersByState(appContext().db, SHOP)).toEqual({
      all: 4,
      attention: 1,
      waiting: 0,
      elsewhere: 0,
      held: 1,
      ready: 1,
      submitting: 0,
      in_doubt: 0,
      accepted: 2,
      rejected: 0,
      cancelled: 0,
    });
  });

  it("filters by state or attention and searches names and warehouse ids in any case", async () => {
    await seed();
    const { db } = appContext();
    const names = async (query: Parameters<typeof listOrders>[2]) =>
      (await listOrders(db, SHOP, query)).rows.map((row) => row.orderName);
    expect(await names({})).toEqual(["#1004", "#1003", "#1002", "#1001"]);
    expect(await names({ state: "accepted" })).toEqual(["#1004", "#1003"]);
    expect(await names({ state: "attention" })).toEqual(["#1004"]);
    expect(await names({ search: "ff-77001" })).toEqual(["#1003"]);
    expect(await names({ search: "#1002" })).toEqual(["#1002"]);
    expect(await names({ search: "1005" })).toEqual([]);
    // Anything unusable in the URL falls back to the default.
    expect(await names({ state: "shipped", page: "x" })).toHaveLength(4);

    const held = (await listOrders(db, SHOP, { state: "held" })).rows[0]!;
    expect(held.holdReasons).toEqual([
      {
        code: "phone_invalid",
        message: expect.stringContaining("+48 601"),
        // The same words as a key and values, for the page to say in the admin's language.
        text: { key: "holds:phone.invalid.shipping", values: { phone: expect.stringContaining("+48 601") } },
      },
    ]);
  });

  it("pages, and a page past the end shows the last one", async () => {
    await seed();
    const page = await listOrders(appContext().db, SHOP, { pageSize: 3, page: 9 });
    expect(page).toMatchObject({ total: 4, page: 2, pageCount: 2, hasPrevious: true, hasNext: false });
    expect(page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
  });

  it("reads one order with parsed JSON and its events newest first; another shop's is null", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, {
      shop: SHOP,
      number: 1003,
      state: "accepted",
      idOrderFF: "77001",
    });
    const detail = await orderDetail(db, SHOP, order.id);
    expect(detail).toMatchObject({
      idOrder: "1003",
      idOrderFF: "77001",
      keyOrder: "key-77001",
      sentOrder: JSON.parse(order.sentOrder!),
      holdReasons: [],
      overrides: {},
    });
    // Intake's events, then the worker's, newest first with their data parsed.
    const sent = JSON.parse(order.sentOrder!) as unknown;
    expect(detail!.events.map((event) => [event.kind, event.data])).toEqual([
      [
        "accepted",
        expect.objectContaining({ request: sent, answer: { id_order_FF: "77001", key_order: "key-77001" } }),
      ],
      ["ready", sent],
      ["received", null],
    ]);
    expect(await orderDetail(db, OTHER, order.id)).toBeNull();
    expect(await orderDetail(db, SHOP, "missing")).toBeNull();
  });

  it("pages an order's timeline, newest first, a page at a time with a link to the older events", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1006, state: "ready" });
    // After the seed's own events (taken in on the seed's clock, 1 March 2026).
    const start = Date.UTC(2026, 3, 1, 9);
    await recordEvents(
      db,
      Array.from({ length: TIMELINE_PAGE_SIZE * 2 + 7 }, (_, index) => ({
        shop: SHOP,
        orderId: order.id,
        at: new Date(start + index * 1000),
        kind: "retry_scheduled" as const,
        text: storedText(`attempt ${index}`),
      })),
    );
    const first = await orderDetail(db, SHOP, order.id);
    expect(first!.events).toHaveLength(TIMELINE_PAGE_SIZE);
    expect(words(first!.events[0]!)).toBe(`attempt ${TIMELINE_PAGE_SIZE * 2 + 6}`);
    expect(first!.olderEvents).toBe(first!.events.at(-1)!.id);

    const second = await orderDetail(db, SHOP, order.id, { eventsBefore: first!.olderEvents! });
    expect(words(second!.events[0]!)).toBe(`attempt ${TIMELINE_PAGE_SIZE + 6}`);
    const third = await orderDetail(db, SHOP, order.id, { eventsBefore: second!.olderEvents! });
    // The last page ends with the events intake wrote when it took the order in.
    expect(third!.events.map(words)).toEqual([
      ...Array.from({ length: 7 }, (_, index) => `attempt ${6 - index}`),
      "Mapped; waiting to be sent.",
      "Order #1006 received from Shopify.",
    ]);
    expect(third!.olderEvents).toBeNull();
    // A cursor that is not an event of this order shows the newest page.
    const unknown = await orderDetail(db, SHOP, order.id, { eventsBefore: "nope" });
    expect(unknown!.events[0]!.id).toBe(first!.events[0]!.id);
  });
});

// Orders after the warehouse has them, brought there by the app's own intake and rules.

let number = 2000;

/** An order taken in as orders/create brings it; `shipping` replaces its shipping method's title. */
async function takenIn(shop = SHOP, shipping?: string): Promise<WarehouseOrder> {
  const n = ++number;
  const id = 6123456780000 + n;
  const [line] = FIXTURE_ORDER.shipping_lines as Record<string, unknown>[];
  const order = shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${n}`,
    order_number: n,
    created_at: new Date(Date.UTC(2026, 2, 1, 9, n % 60)).toISOString(),
    updated_at: "2026-03-01T09:00:00Z",
    ...(shipping && { shipping_lines: [{ ...line, title: shipping, code: shipping }] }),
  });
  await takeInOrderWebhook(appContext(), { shop, topic: "orders/create", order, eventId: `e-${id}` });
  return appContext().db.warehouseOrder.findFirstOrThrow({ where: { shop, shopifyOrderId: String(id) } });
}

const report = statusReport;

/** Takes the order to the warehouse (claimed, accepted) and through the status reports given. */
function atWarehouse(row: WarehouseOrder, ...reports: OrderInput[]): Promise<WarehouseOrder> {
  const ff = `FF-${row.idOrder}`;
  return driveOrder(
    row,
    { type: "claimed" },
    { type: "accepted", idOrderFF: ff, keyOrder: `key-${ff}` },
    ...reports,
  );
}

describe("where an order is after the warehouse has it", () => {
  it("gives a shipped order's waybill the tracking page of its carrier, and none to a carrier without one", async () => {
    const { db } = appContext();
    const nova = await atWarehouse(await takenIn(), report("Отгружен", "shipped", "20450000000001"));
    const ukr = await atWarehouse(
      await takenIn(SHOP, "Укрпошта"),
      report("Отгружен", "shipped", "0500012345678"),
    );
    const pickup = await atWarehouse(await takenIn(SHOP, "Самовивіз"), report("Отгружен", "shipped", "PK-1"));
    expect(JSON.parse(ukr.sentOrder!)).toMatchObject({ delivery_method: "Ukrposhta" });

    const shipment = async (row: WarehouseOrder) => (await orderDetail(db, SHOP, row.id))!.shipment;
    expect(await shipment(nova)).toMatchObject({
      stage: "shipped",
      stageAt: expect.any(Date),
      ttn: "20450000000001",
      trackingUrl: "https://novaposhta.ua/tracking/?cargo_number=20450000000001",
      warehouseStatus: { id: "7", name: "Отгружен", date: "02.03.2026 10:00:00" },
      // The carrier has said nothing yet: no status rather than an empty one.
      carrierStatus: null,
    });
    expect((await shipment(ukr)).trackingUrl).toBe(
      "https://track.ukrposhta.ua/tracking_UA.html?barcode=0500012345678",
    );
    expect(await shipment(pickup)).toMatchObject({ ttn: "PK-1", trackingUrl: null });

    // The shop's own page for a carrier, with the waybill made safe for a URL.
    await db.shopSettings.create({
      data: {
        shop: SHOP,
        statusSettings: JSON.stringify({ trackingUrls: { novaPoshta: "https://track.example/np/{ttn}" } }),
      },
    });
    expect((await shipment(nova)).trackingUrl).toBe("https://track.example/np/20450000000001");
    // The list carries the same.
    const row = (await listOrders(db, SHOP, { search: "20450000000001" })).rows;
    expect(row.map((order) => [order.orderName, order.shipment.trackingUrl])).toEqual([
      [nova.orderName, "https://track.example/np/20450000000001"],
    ]);
  });

  it("says a shipped order waits for the warehouse's location until one is chosen", async () => {
    const { db } = appContext();
    const order = await atWarehouse(await takenIn(), report("Отгружен", "shipped", "20450000000010"));
    const fulfillment = async () => (await orderDetail(db, SHOP, order.id))!.fulfillment;
    expect(await fulfillment()).toMatchObject({ due: true, waitingForLocation: true });
    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, locationId: "gid://shopify/Location/1" },
      update: { locationId: "gid://shopify/Location/1" },
    });
    expect(await fulfillment()).toMatchObject({ due: true, waitingForLocation: false });
  });

  it("recognises the shop's own delivery literal as its carrier", async () => {
    const { db } = appContext();
    await db.shopSettings.create({
      data: { shop: SHOP, mapping: JSON.stringify({ deliveryLiterals: { novaPoshta: "Нова Пошта" } }) },
    });
    const order = await atWarehouse(await takenIn(), report("Отгружен", "shipped", "20450000000009"));
    expect(JSON.parse(order.sentOrder!)).toMatchObject({ delivery_method: "Нова Пошта" });
    expect((await orderDetail(db, SHOP, order.id))!.shipment.trackingUrl).toBe(
      "https://novaposhta.ua/tracking/?cargo_number=20450000000009",
    );
  });

  it("reads a malformed status or fulfillment problem tolerantly", async () => {
    const { db } = appContext();
    const order = await atWarehouse(
      await takenIn(),
      report("Отгружен", "shipped", "20450000000002", { id: "5", name: "В дорозі", date: "03.03.2026" }),
    );
    expect((await orderDetail(db, SHOP, order.id))!.shipment.carrierStatus).toEqual({
      id: "5",
      name: "В дорозі",
      date: "03.03.2026",
    });
    // Columns another version (or a hand) wrote badly.
    await db.warehouseOrder.update({
      where: { id: order.id },
      data: {
        warehouseStatus: "{not json",
        carrierStatus: "[1,2]",
        fulfillmentProblem: "Fulfillment order on hold.",
      },
    });
    const detail = (await orderDetail(db, SHOP, order.id))!;
    expect(detail.shipment).toMatchObject({ warehouseStatus: null, carrierStatus: null, stage: "shipped" });
    expect(detail.fulfillment).toEqual({
      made: false,
      id: null,
      ttn: null,
      event: null,
      due: true,
      dueAt: expect.any(Date),
      waitingForLocation: true,
      problem: {
        code: null,
        message: "Fulfillment order on hold.",
        text: storedText("Fulfillment order on hold."),
      },
      unshipped: [],
    });

    expect(parseReportedStatus('{"id": 3, "name": "Отгружен"}')).toEqual({
      id: "3",
      name: "Отгружен",
      date: "",
    });
    expect(parseReportedStatus('{"id": "", "name": "", "date": ""}')).toBeNull();
    expect(parseReportedStatus('"Отгружен"')).toBeNull();
    expect(parseReportedStatus(null)).toBeNull();
    expect(
      parseFulfillmentProblem('{"code": "on_hold", "message": "The order is on hold in Shopify."}'),
    ).toEqual({
      code: "on_hold",
      message: "The order is on hold in Shopify.",
      // Stored before problems kept their key: shown in its words.
      text: storedText("The order is on hold in Shopify."),
    });
    const text = { key: "orders:fulfillmentProblem.on_hold" };
    expect(
      parseFulfillmentProblem(JSON.stringify({ code: "on_hold", message: "The order is on hold.", text })),
    ).toEqual({ code: "on_hold", message: "The order is on hold.", text });
    expect(parseFulfillmentProblem('{"code": "x"}')).toEqual({
      code: null,
      message: '{"code": "x"}',
      text: storedText('{"code": "x"}'),
    });
    expect(parseFulfillmentProblem("  ")).toBeNull();
  });

  it("filters by stage, with the state and attention, and counts each stage", async () => {
    const { db } = appContext();
    const shipped = await atWarehouse(
      await takenIn(),
      report("Собран", "picked"),
      report("Отгружен", "shipped", "204501"),
    );
    const picked = await atWarehouse(await takenIn(), report("Собран", "picked"));
    const cancelled = await atWarehouse(await takenIn(), report("Отменен", "cancelled_at_warehouse"));
    await atWarehouse(await takenIn());
    await takenIn();
    // Another shop's shipped order is neither listed nor counted.
    await atWarehouse(await takenIn(OTHER), report("Отгружен", "shipped", "204502"));

    const names = async (query: Parameters<typeof listOrders>[2]) =>
      (await listOrders(db, SHOP, query)).rows.map((row) => row.orderName);
    expect(await names({ stage: "shipped" })).toEqual([shipped.orderName]);
    expect(await names({ stage: "picked" })).toEqual([picked.orderName]);
    expect(await names({ stage: "shipped", state: "accepted" })).toEqual([shipped.orderName]);
    expect(await names({ stage: "shipped", state: "ready" })).toEqual([]);
    expect(await names({ state: "attention" })).toEqual([cancelled.orderName]);
    expect(await names({ stage: "cancelled_at_warehouse", state: "attention" })).toEqual([
      cancelled.orderName,
    ]);
    // An unknown stage is no filter.
    expect(await names({ stage: "lost" })).toHaveLength(5);

    const [row] = (await listOrders(db, SHOP, { stage: "cancelled_at_warehouse" })).rows;
    expect(row).toMatchObject({
      attention: "cancelled_at_warehouse",
      attentionTexts: [{ key: "orders:timeline.attentionCancelled" }],
      shipment: { stage: "cancelled_at_warehouse", ttn: null, trackingUrl: null },
    });
    expect(await countOrdersByStage(db, SHOP)).toEqual({
      picked: 1,
      shipped: 1,
      delivered: 0,
      cancelled_at_warehouse: 1,
      returned: 0,
    });
  });
});
