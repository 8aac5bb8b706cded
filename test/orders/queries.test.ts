// The read side behind the orders pages, against the real database (SQLite here, PostgreSQL in CI).
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  countOrdersByState,
  listOrders,
  orderDetail,
  TIMELINE_PAGE_SIZE,
} from "../../app/orders/queries.server";
import { recordEvents } from "../../app/orders/timeline.server";
import { seedOrder } from "../support/orders";

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
      { code: "phone_invalid", message: expect.stringContaining("+48 601") },
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
        message: `attempt ${index}`,
      })),
    );
    const first = await orderDetail(db, SHOP, order.id);
    expect(first!.events).toHaveLength(TIMELINE_PAGE_SIZE);
    expect(first!.events[0]!.message).toBe(`attempt ${TIMELINE_PAGE_SIZE * 2 + 6}`);
    expect(first!.olderEvents).toBe(first!.events.at(-1)!.id);

    const second = await orderDetail(db, SHOP, order.id, { eventsBefore: first!.olderEvents! });
    expect(second!.events[0]!.message).toBe(`attempt ${TIMELINE_PAGE_SIZE + 6}`);
    const third = await orderDetail(db, SHOP, order.id, { eventsBefore: second!.olderEvents! });
    // The last page ends with the events intake wrote when it took the order in.
    expect(third!.events.map((event) => event.message)).toEqual([
      ...Array.from({ length: 7 }, (_, index) => `attempt ${6 - index}`),
      "Mapped; waiting to be sent.",
      "Order #1006 received from Shopify.",
    ]);
    expect(third!.olderEvents).toBeNull();
    // A cursor that is not an event of this order shows the newest page.
    const unknown = await orderDetail(db, SHOP, order.id, { eventsBefore: "nope" });
    expect(unknown!.events[0]!.message).toBe(first!.events[0]!.message);
  });
});
