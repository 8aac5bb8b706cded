// The dashboard's chart counts orders by the shop's calendar day: across Kyiv's change to summer time (a
// 23-hour day) and back (a 25-hour day), an event near midnight falls on the day the merchant lived it.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { lastDays } from "../../app/dashboard/days";
import { connectionHealth, ordersPerDay, rateLimitUse } from "../../app/dashboard/queries.server";
import { EVENT } from "../../app/orders/states";

const SHOP = "kyiv-goods.myshopify.com";
const KYIV = "Europe/Kyiv";
const HOUR = 3_600_000;

describe("the shop's days", () => {
  it("are 23 hours long when summer time starts and 25 when it ends", () => {
    const spring = lastDays(new Date("2026-03-30T12:00:00Z"), KYIV, 3);
    expect(spring.map((day) => [day.date, (day.end - day.start) / HOUR])).toEqual([
      ["2026-03-28", 24],
      ["2026-03-29", 23],
      ["2026-03-30", 24],
    ]);
    // Midnight of 29 March in Kyiv is 22:00 UTC the day before (winter time, +02:00).
    expect(new Date(spring[1]!.start).toISOString()).toBe("2026-03-28T22:00:00.000Z");
    expect(new Date(spring[2]!.start).toISOString()).toBe("2026-03-29T21:00:00.000Z");

    const autumn = lastDays(new Date("2026-10-25T23:30:00Z"), KYIV, 2);
    expect(autumn.map((day) => [day.date, (day.end - day.start) / HOUR])).toEqual([
      ["2026-10-25", 25],
      ["2026-10-26", 24],
    ]);
  });
});

describe("orders per day", () => {
  it("counts sent, shipped and delivered by the day in Kyiv, across both changes of the clocks", async () => {
    const { db } = appContext();
    const order = await db.warehouseOrder.create({
      data: {
        shop: SHOP,
        shopifyOrderId: "1",
        orderName: "#1001",
        idOrder: "1001",
        state: "accepted",
        orderUpdatedAt: new Date("2026-03-01T00:00:00Z"),
        orderCreatedAt: new Date("2026-03-01T00:00:00Z"),
      },
    });
    const event = (kind: string, at: string, shop = SHOP) => ({
      shop,
      orderId: order.id,
      kind,
      at: new Date(at),
      message: "",
    });
    await db.orderEvent.createMany({
      data: [
        // 23:30 on 28 March in Kyiv (+02:00): the 28th, though it is the 28th in UTC too.
        event(EVENT.accepted, "2026-03-28T21:30:00Z"),
        // 00:30 on 29 March in Kyiv: the 29th, though still the 28th in UTC.
        event(EVENT.accepted, "2026-03-28T22:30:00Z"),
        event(EVENT.foundAtWarehouse, "2026-03-29T10:00:00Z"),
        // 23:30 on 29 March in Kyiv, already summer time (+03:00).
        event(EVENT.shipped, "2026-03-29T20:30:00Z"),
        // 00:30 on 30 March in Kyiv.
        event(EVENT.delivered, "2026-03-29T21:30:00Z"),
        // Not counted: another kind, another shop.
        event(EVENT.received, "2026-03-29T10:00:00Z"),
        event(EVENT.shipped, "2026-03-29T10:00:00Z", "other.myshopify.com"),
        // 25 October: 00:30 (+03:00) and 23:30 (+02:00) are both the 25th in Kyiv.
        event(EVENT.delivered, "2026-10-24T21:30:00Z"),
        event(EVENT.delivered, "2026-10-25T21:30:00Z"),
        // 00:30 on the 26th (+02:00).
        event(EVENT.delivered, "2026-10-25T22:30:00Z"),
      ],
    });

    const spring = await ordersPerDay(db, SHOP, KYIV, new Date("2026-03-30T12:00:00Z"), 3);
    expect(spring).toEqual([
      { date: "2026-03-28", sent: 1, shipped: 0, delivered: 0 },
      { date: "2026-03-29", sent: 2, shipped: 1, delivered: 0 },
      { date: "2026-03-30", sent: 0, shipped: 0, delivered: 1 },
    ]);
    const autumn = await ordersPerDay(db, SHOP, KYIV, new Date("2026-10-26T12:00:00Z"), 2);
    expect(autumn).toEqual([
      { date: "2026-10-25", sent: 0, shipped: 0, delivered: 2 },
      { date: "2026-10-26", sent: 0, shipped: 0, delivered: 1 },
    ]);
    // Thirty days by default, ending today.
    const month = await ordersPerDay(db, SHOP, KYIV, new Date("2026-03-30T12:00:00Z"));
    expect(month).toHaveLength(30);
    expect(month.at(-1)!.date).toBe("2026-03-30");
  });
});

describe("connection health", () => {
  it("counts the requests of the key's current window, and tells a pause", async () => {
    const now = Date.parse("2026-03-14T10:00:00Z");
    const state = JSON.stringify({ sent: [now - 70_000, now - 30_000, now - 1_000], lastReport: {} });
    expect(rateLimitUse(state, now, 60_000)).toEqual({ used: 2, limit: 60, blockedUntil: null });

    const { db } = appContext();
    await db.shopSettings.create({
      data: {
        shop: SHOP,
        apiKeyCiphertext: "v1:x",
        apiKeyDigest: "digest",
        pausedAt: new Date(now - HOUR),
        onboarding: JSON.stringify({ steps: {}, connectionCheckedAt: "2026-03-14T08:00:00.000Z" }),
      },
    });
    await db.rateLimitState.create({ data: { key: "digest", shop: SHOP, state } });
    await db.stockSync.create({
      data: {
        shop: SHOP,
        trigger: "schedule",
        quantityName: "available",
        startedAt: new Date(now - 20 * 60_000),
        finishedAt: new Date("2026-03-14T09:41:00Z"),
      },
    });
    const health = await connectionHealth(db, SHOP, new Date(now), 60_000);
    expect(health).toMatchObject({
      hasKey: true,
      pausedAt: "2026-03-14T09:00:00.000Z",
      lastSuccessAt: "2026-03-14T09:41:00.000Z",
      rateLimit: { used: 2, limit: 60 },
    });
  });
});
