// Routing applied to orders on the real database: intake's fast path or waiting for routing, fulfillment
// orders (as R1 stores them) decided and applied through the order rules with conditional writes, before and
// after sending, exactly once under a second application and two at once.
import { beforeEach, describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../app/context.server";
import { erasePersonalDataDue } from "../../app/compliance/retention.server";
import { cancelAtWarehouse, correctOrder, submitNow } from "../../app/orders/actions.server";
import { listOrders } from "../../app/orders/queries.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { ATTENTION, ORDER_STATE, PENDING } from "../../app/orders/states";
import { lookAtScheduledOrders, reconcileRouting } from "../../app/routing/reconcile.server";
import { FULFILLMENT_ORDERS_KIND, ONLINE_LOCATIONS_KIND } from "../../app/routing/kinds.server";
import { unitsNotTaken } from "../../app/stock/promised.server";
import { driveOrder, FIXTURE_ORDER, statusReport } from "../support/orders";
import { mappedProducts, numberedPayloads, storeFulfillmentOrders, type FoSpec } from "./support";

const SHOP = "routing-r2.myshopify.com";
const FAST_SHOP = "routing-r2-one.myshopify.com";
const L = "gid://shopify/Location/71";
const SHOWROOM = "gid://shopify/Location/72";
const CUP = "gid://shopify/LineItem/15012345678901";
const TEA = "gid://shopify/LineItem/15012345678902";
const deps = () => appContext();
const db = () => appContext().db;

const payload = numberedPayloads(8100, 6223456780000);

async function takenIn(shop = SHOP, changes: Record<string, unknown> = {}): Promise<OrderRow> {
  const order = shopifyOrderSchema.parse(payload(changes));
  await takeInOrderWebhook(deps(), { shop, topic: "orders/create", order, eventId: `r2-${order.id}` });
  return db().warehouseOrder.findFirstOrThrow({ where: { shop, shopifyOrderId: order.id } });
}

const read = (row: Pick<OrderRow, "id">) => db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
const kinds = async (row: Pick<OrderRow, "id">) =>
  (await db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { id: "asc" } })).map((e) => e.kind);

const store = storeFulfillmentOrders;

const apply = (row: Pick<OrderRow, "shopifyOrderId">, shop = SHOP) =>
  reconcileRouting(deps(), shop, [row.shopifyOrderId]);

const products = mappedProducts;

beforeEach(async () => {
  for (const [shop, online] of [
    [SHOP, [L, SHOWROOM]],
    [FAST_SHOP, [L]],
  ] as const) {
    await db().shopSettings.upsert({
      where: { shop },
      create: { shop, locationId: L, onlineLocations: JSON.stringify(online) },
      update: { locationId: L, onlineLocations: JSON.stringify(online) },
    });
  }
});

describe("intake", () => {
  it("takes a one-location shop's order whole at once, with no read of Shopify", async () => {
    const row = await takenIn(FAST_SHOP);
    expect(row.state).toBe(ORDER_STATE.ready);
    expect(row.warehouseLines).toBeNull();
    const schedule = await db().shopSchedule.findUnique({
      where: { shop_kind: { shop: FAST_SHOP, kind: FULFILLMENT_ORDERS_KIND } },
    });
    expect(schedule).toBeNull();
  });

  it("takes an order whole while the shop's locations were never read, and asks for them to be read", async () => {
    await db().shopSettings.update({ where: { shop: FAST_SHOP }, data: { onlineLocations: null } });
    const row = await takenIn(FAST_SHOP);
    expect(row.state).toBe(ORDER_STATE.ready);
    const schedule = await db().shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: FAST_SHOP, kind: ONLINE_LOCATIONS_KIND } },
    });
    expect(schedule.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ["selling_plan_id (orders webhooks since 2026-10)", { selling_plan_id: 987654321 }],
    [
      "selling_plan_allocation",
      { selling_plan_allocation: { selling_plan: { id: 1, name: "Передзамовлення" } } },
    ],
  ])("waits for routing with a selling plan line even in a one-location shop: %s", async (_name, plan) => {
    const lines = (FIXTURE_ORDER.line_items as Record<string, unknown>[]).map((line, i) =>
      i === 0 ? { ...line, ...plan } : line,
    );
    const row = await takenIn(FAST_SHOP, { line_items: lines });
    expect([row.state, row.waitReason]).toEqual([ORDER_STATE.waiting, "routing"]);
  });

  it("waits for routing in a shop with two online locations, and asks for a read", async () => {
    const row = await takenIn();
    expect([row.state, row.waitReason, row.nextAttemptAt]).toEqual([ORDER_STATE.waiting, "routing", null]);
    expect(await kinds(row)).toEqual(["received", "waiting"]);
    const schedule = await db().shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } },
    });
    expect(schedule.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("applies fulfillment orders stored before the order arrived at once", async () => {
    const order = shopifyOrderSchema.parse(payload());
    await store({ shop: SHOP, shopifyOrderId: order.id }, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await takeInOrderWebhook(deps(), {
      shop: SHOP,
      topic: "orders/create",
      order,
      eventId: `r2-${order.id}`,
    });
    const row = await db().warehouseOrder.findFirstOrThrow({
      where: { shop: SHOP, shopifyOrderId: order.id },
    });
    expect(row.state).toBe(ORDER_STATE.ready);
    expect(products(row)).toEqual(["CUP-KARP-BLUE×2", "TEA-POL-100×1"]);
    expect(await kinds(row)).toEqual(["received", "waiting", "routed", "ready"]);
  });
});

describe("before sending", () => {
  it("records an order wholly elsewhere as not the warehouse's, once", async () => {
    const row = await takenIn();
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const after = await read(row);
    expect([after.state, after.nextAttemptAt, after.warehouseLines]).toEqual([
      ORDER_STATE.elsewhere,
      null,
      "[]",
    ]);
    await apply(row);
    expect((await read(row)).version).toBe(after.version);
    expect(await kinds(row)).toEqual(["received", "waiting", "elsewhere"]);
    // Its units are committed at the showroom, not at the warehouse.
    const units = await unitsNotTaken(db(), deps().log, SHOP, new Date());
    expect(units.get("TEA-POL-100") ?? 0).toBe(0);
  });

  it("sends a split order's warehouse lines only, holding a COD split until the merchant chooses", async () => {
    const row = await takenIn();
    await store(row, [
      { n: 1, at: L, items: [[CUP, 2]] },
      { n: 2, at: SHOWROOM, items: [[TEA, 1]] },
    ]);
    await apply(row);
    const held = await read(row);
    expect(held.state).toBe(ORDER_STATE.held);
    expect(JSON.parse(held.holdReasons!).map((r: { code: string }) => r.code)).toEqual([
      "split_cod_undecided",
    ]);
    expect(await kinds(row)).toEqual(["received", "waiting", "routed", "held"]);

    const answer = await correctOrder(deps(), SHOP, row.id, { splitCod: "parcel_share" });
    expect(answer.ok).toBe(true);
    const ready = await read(row);
    expect(ready.state).toBe(ORDER_STATE.ready);
    const mapped = JSON.parse(ready.mapped!) as Record<string, unknown>;
    expect(products(ready)).toEqual(["CUP-KARP-BLUE×2"]);
    // Two cups at 350 less 70 of discount: 630; shipping free; the buyer owes more, so 630 is collected.
    expect([mapped.Cost, mapped.order_payment_sum]).toEqual([630, "630.00"]);
    // The stock's promised units are the warehouse's lines only.
    const units = await unitsNotTaken(db(), deps().log, SHOP, new Date());
    expect(units.get("CUP-KARP-BLUE")).toBeGreaterThanOrEqual(2);
  });

  it("collects the whole sum by the shop's setting, without asking", async () => {
    const shop = "routing-r2-whole.myshopify.com";
    await db().shopSettings.create({
      data: {
        shop,
        locationId: L,
        onlineLocations: JSON.stringify([L, SHOWROOM]),
        mapping: JSON.stringify({ splitCashOnDelivery: "whole_order" }),
      },
    });
    const row = await takenIn(shop);
    await store(row, [
      { n: 1, at: L, items: [[CUP, 2]] },
      { n: 2, at: SHOWROOM, items: [[TEA, 1]] },
    ]);
    await apply(row, shop);
    const after = await read(row);
    expect(after.state).toBe(ORDER_STATE.ready);
    expect((JSON.parse(after.mapped!) as { order_payment_sum: string }).order_payment_sum).toBe("1319.50");
  });

  it("waits while on hold in Shopify and is sent once released", async () => {
    const row = await takenIn();
    const hold = {
      id: "gid://shopify/FulfillmentHold/9",
      reason: "AWAITING_PAYMENT",
      heldByRequestingApp: false,
    };
    await store(row, [
      {
        n: 1,
        at: L,
        status: "ON_HOLD",
        holds: [hold],
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const waiting = await read(row);
    expect([waiting.state, waiting.waitReason, waiting.nextAttemptAt]).toEqual([
      ORDER_STATE.waiting,
      "on_hold",
      null,
    ]);
    await store(row, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const ready = await read(row);
    expect([ready.state, ready.waitReason]).toEqual([ORDER_STATE.ready, null]);
    expect(await kinds(row)).toEqual(["received", "waiting", "waiting", "routed", "ready"]);
  });

  it("waits for a scheduled date, looks at Shopify again when it comes, and is sent once due", async () => {
    const row = await takenIn();
    const fulfillAt = new Date(Date.now() - 1000);
    await store(row, [
      {
        n: 1,
        at: L,
        status: "SCHEDULED",
        fulfillAt,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await db().shopSchedule.deleteMany({ where: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } });
    await apply(row);
    const waiting = await read(row);
    expect([waiting.state, waiting.waitReason, waiting.nextAttemptAt?.getTime()]).toEqual([
      ORDER_STATE.waiting,
      "scheduled",
      fulfillAt.getTime(),
    ]);
    expect(await lookAtScheduledOrders(deps(), SHOP)).toBeGreaterThanOrEqual(1);
    const looked = await read(row);
    expect(looked.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(
      await db().shopSchedule.findUnique({
        where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } },
      }),
    ).not.toBeNull();
    // The same rows again keep the look-up's schedule.
    await apply(row);
    expect((await read(row)).version).toBe(looked.version);
    await store(row, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    expect((await read(row)).state).toBe(ORDER_STATE.ready);
  });

  it("is sent when its items are moved to the warehouse's location", async () => {
    const row = await takenIn();
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        status: "CLOSED",
        items: [
          [CUP, 0],
          [TEA, 0],
        ],
      },
      {
        n: 2,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const after = await read(row);
    expect(after.state).toBe(ORDER_STATE.ready);
    expect(await kinds(row)).toEqual(["received", "waiting", "elsewhere", "routed", "ready"]);
  });

  it("applies the same rows once when two apply them at once", async () => {
    const row = await takenIn();
    await store(row, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await Promise.all([apply(row), apply(row), apply(row)]);
    expect(await kinds(row)).toEqual(["received", "waiting", "routed", "ready"]);
  });
  it("does not undo a newer decision with one taken from fulfillment orders read before it", async () => {
    const row = await takenIn();
    const released: FoSpec = {
      n: 1,
      at: L,
      items: [
        [CUP, 2],
        [TEA, 1],
      ],
    };
    const held: FoSpec = {
      ...released,
      status: "ON_HOLD",
      holds: [
        { id: "gid://shopify/FulfillmentHold/9", reason: "AWAITING_PAYMENT", heldByRequestingApp: false },
      ],
    };
    await store(row, [released]);
    await apply(row);
    expect((await read(row)).state).toBe(ORDER_STATE.ready);
    // A hold is stored, and a reconcile of it reads the fulfillment orders, then stalls (a slow statement, a
    // busy event loop) before it writes.
    await store(row, [held]);
    let stalled!: () => void;
    const reading = new Promise<void>((resolve) => (stalled = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let first = true;
    const slow = new Proxy(db(), {
      get(target, name, receiver) {
        if (name !== "shopifyFulfillmentOrder") {
          const value: unknown = Reflect.get(target, name, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        }
        return {
          ...target.shopifyFulfillmentOrder,
          findMany: async (...args: Parameters<typeof target.shopifyFulfillmentOrder.findMany>) => {
            const rows = await target.shopifyFulfillmentOrder.findMany(...args);
            if (first) {
              first = false;
              stalled();
              await resumed;
            }
            return rows;
          },
        };
      },
    });
    const stale = reconcileRouting({ ...deps(), db: slow }, SHOP, [row.shopifyOrderId]);
    await reading;
    // Meanwhile the hold is released in Shopify, read and applied: the order stays ready.
    await store(row, [released], new Date(Date.now() + 1_000));
    await apply(row);
    resume();
    await stale;
    const after = await read(row);
    expect([after.state, after.waitReason]).toEqual([ORDER_STATE.ready, null]);
  });
});

describe("an order that cannot be applied", () => {
  it("is answered and left owed, and the others of the batch are applied in the same call", async () => {
    const good = await takenIn();
    const badOverrides = await takenIn();
    const badPayload = await takenIn();
    for (const row of [good, badOverrides, badPayload])
      await store(row, [
        {
          n: 1,
          at: L,
          items: [
            [CUP, 2],
            [TEA, 1],
          ],
        },
      ]);
    // The merchant's corrections unreadable (a state the code did not foresee), a payload cut short.
    await db().warehouseOrder.update({ where: { id: badOverrides.id }, data: { overrides: "{" } });
    await db().orderPayload.update({ where: { orderId: badPayload.id }, data: { payload: "[" } });
    const failures = await reconcileRouting(deps(), SHOP, [
      badOverrides.shopifyOrderId,
      good.shopifyOrderId,
      badPayload.shopifyOrderId,
    ]);
    // In no particular order (the database reads the orders as it likes).
    expect(new Map(failures.map(({ orderId, failure }) => [orderId, failure]))).toEqual(
      new Map([
        [badOverrides.id, "other"],
        [badPayload.id, "payload"],
      ]),
    );
    expect((await read(good)).state).toBe(ORDER_STATE.ready);
    for (const bad of [badOverrides, badPayload]) {
      expect((await read(bad)).state).toBe(ORDER_STATE.waiting);
      // Owed again, whoever called: the fulfillment_orders kind tries it again and counts.
      const rows = await db().shopifyFulfillmentOrder.findMany({
        where: { shopifyOrderId: bad.shopifyOrderId },
      });
      expect(rows.map((row) => row.reconcilePending)).toEqual([true]);
    }
  });
});

describe("orders that are not sent", () => {
  it("are cancelled outright when cancelled in Shopify, waiting or not the warehouse's", async () => {
    const waiting = await takenIn();
    const elsewhere = await takenIn();
    await store(elsewhere, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(elsewhere);
    for (const row of [waiting, elsewhere]) {
      const order = shopifyOrderSchema.parse({
        ...FIXTURE_ORDER,
        id: Number(row.shopifyOrderId),
        admin_graphql_api_id: `gid://shopify/Order/${row.shopifyOrderId}`,
        name: row.orderName,
        order_number: Number(row.orderName.slice(1)),
        created_at: "2026-03-01T09:00:00Z",
        updated_at: "2026-03-01T10:00:00Z",
        cancelled_at: "2026-03-01T10:00:00Z",
      });
      await takeInOrderWebhook(deps(), {
        shop: SHOP,
        topic: "orders/cancelled",
        order,
        eventId: `c-${row.id}`,
      });
      const after = await read(row);
      expect([after.state, after.pending]).toEqual([ORDER_STATE.cancelled, null]);
    }
  });

  it("are listed under their own filter, and refuse to be sent now; the merchant may cancel them here", async () => {
    const waiting = await takenIn();
    const elsewhere = await takenIn();
    await store(elsewhere, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(elsewhere);
    const names = async (state: string) =>
      (await listOrders(db(), SHOP, { state })).rows.map((order) => order.orderName);
    expect(await names("elsewhere")).toEqual([elsewhere.orderName]);
    expect(await names("waiting")).toEqual([waiting.orderName]);
    expect((await submitNow(deps(), SHOP, waiting.id)).text.key).toBe("orders:answer.waitingForShopify");
    expect((await submitNow(deps(), SHOP, elsewhere.id)).text.key).toBe("orders:answer.notTheWarehouses");
    const cancelled = await cancelAtWarehouse(deps(), SHOP, waiting.id);
    expect([cancelled.ok, cancelled.text.key]).toEqual([true, "orders:answer.cancelledHere"]);
    expect((await read(waiting)).state).toBe(ORDER_STATE.cancelled);
  });

  it("lose their customer's details after the retention when they stay not the warehouse's", async () => {
    const row = await takenIn();
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const later = (days: number) => () => new Date(Date.now() + days * 24 * 3600_000);
    await erasePersonalDataDue({ ...deps(), clock: later(89) }, SHOP);
    expect((await read(row)).dataErasedAt).toBeNull();
    await erasePersonalDataDue({ ...deps(), clock: later(91) }, SHOP);
    expect((await read(row)).dataErasedAt).not.toBeNull();
  });
});

describe("after sending", () => {
  async function atWarehouse(): Promise<OrderRow> {
    const row = await takenIn();
    await store(row, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    return driveOrder(
      await read(row),
      { type: "claimed" },
      { type: "accepted", idOrderFF: "FF-1", keyOrder: "k" },
    );
  }

  it("cancels at the warehouse when nothing is left at its location before picking, once", async () => {
    const row = await atWarehouse();
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    await apply(row);
    const after = await read(row);
    expect([after.state, after.pending]).toEqual([ORDER_STATE.accepted, PENDING.cancel]);
    expect((await kinds(row)).filter((k) => k === "cancel_queued")).toHaveLength(1);
  });

  it("edits at the warehouse when fewer lines are left there before picking", async () => {
    const row = await atWarehouse();
    await store(row, [
      { n: 1, at: L, items: [[CUP, 2]] },
      { n: 2, at: SHOWROOM, items: [[TEA, 1]] },
    ]);
    await db().shopSettings.update({
      where: { shop: SHOP },
      data: { mapping: JSON.stringify({ splitCashOnDelivery: "parcel_share" }) },
    });
    try {
      await apply(row);
    } finally {
      await db().shopSettings.update({ where: { shop: SHOP }, data: { mapping: "{}" } });
    }
    const after = await read(row);
    expect([after.state, after.pending]).toEqual([ORDER_STATE.accepted, PENDING.edit]);
    expect(products(after)).toEqual(["CUP-KARP-BLUE×2"]);
    expect((await kinds(row)).at(-1)).toBe("edit_queued");
  });

  it("flags the merchant when the items move after picking, and ignores them once shipped", async () => {
    const row = await driveOrder(await atWarehouse(), statusReport("Зібрано", "picked"));
    await store(row, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(row);
    const after = await read(row);
    expect([after.pending, after.attention]).toEqual([null, ATTENTION.routingChangedAfterPicking]);
    expect((await kinds(row)).at(-1)).toBe("routing_changed");

    const shipped = await driveOrder(
      await atWarehouse(),
      statusReport("Відправлено", "shipped", "20450000000001"),
    );
    await store(shipped, [
      {
        n: 1,
        at: SHOWROOM,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(shipped);
    expect((await read(shipped)).version).toBe(shipped.version);
  });

  it("only records the lines of an order sent whole when they are the same goods", async () => {
    const row = await takenIn(FAST_SHOP);
    const sent = await driveOrder(
      row,
      { type: "claimed" },
      { type: "accepted", idOrderFF: "FF-2", keyOrder: "k" },
    );
    await store(sent, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 1],
        ],
      },
    ]);
    await apply(sent, FAST_SHOP);
    const after = await read(sent);
    expect(after.pending).toBeNull();
    expect(after.warehouseLines).not.toBeNull();
    expect(await kinds(sent)).not.toContain("edit_queued");
  });
});
