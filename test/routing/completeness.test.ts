// The completeness guard on the real database: an order is decided only once its stored fulfillment orders
// cover the lines its payload says need fulfilment (a split order read in part, a partial move re-read in part,
// an order edit), and never later than the guard's bound, when the orders step looks at it again.
import { Writable } from "node:stream";
import { beforeEach, describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext, type ServiceDeps } from "../../app/context.server";
import { createLogger } from "../../app/logger.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { ORDER_STATE, PENDING } from "../../app/orders/states";
import { INCOMPLETE_WAIT_MS } from "../../app/routing/decide";
import { lookAtScheduledOrders, reconcileRouting } from "../../app/routing/reconcile.server";
import { driveOrder, FIXTURE_ORDER } from "../support/orders";
import { mappedProducts, numberedPayloads, storeFulfillmentOrders } from "./support";

const SHOP = "routing-guard.myshopify.com";
const L = "gid://shopify/Location/81";
const SHOWROOM = "gid://shopify/Location/82";
const CUP = "gid://shopify/LineItem/15012345678901";
const TEA = "gid://shopify/LineItem/15012345678902";
const JAR = "gid://shopify/LineItem/15012345678904";
const db = () => appContext().db;

/** Services' dependencies at a clock of the test's, with the log lines kept. */
function depsAt(now: Date = new Date()): { deps: ServiceDeps; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return {
    deps: { ...appContext(), clock: () => now, log: createLogger({ level: "info", destination }) },
    lines,
  };
}

const payload = numberedPayloads(9100, 6223456790000);

async function takenIn(): Promise<OrderRow> {
  const order = shopifyOrderSchema.parse(payload());
  await takeInOrderWebhook(depsAt().deps, {
    shop: SHOP,
    topic: "orders/create",
    order,
    eventId: `guard-${order.id}`,
  });
  return db().warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, shopifyOrderId: order.id } });
}

/** The order edited in Shopify: its payload's lines changed, as orders/updated brings them. */
async function edited(row: OrderRow, lines: (all: Record<string, unknown>[]) => Record<string, unknown>[]) {
  const order = shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id: Number(row.shopifyOrderId),
    admin_graphql_api_id: `gid://shopify/Order/${row.shopifyOrderId}`,
    name: row.orderName,
    order_number: Number(row.orderName.slice(1)),
    created_at: "2026-03-01T09:00:00Z",
    updated_at: "2026-03-01T10:00:00Z",
    line_items: lines(FIXTURE_ORDER.line_items as Record<string, unknown>[]),
  });
  await takeInOrderWebhook(depsAt().deps, {
    shop: SHOP,
    topic: "orders/updated",
    order,
    eventId: `guard-edit-${row.id}-${Date.now()}`,
  });
}

const read = (row: Pick<OrderRow, "id">) => db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
const events = (row: Pick<OrderRow, "id">) =>
  db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { id: "asc" } });
const store = storeFulfillmentOrders;
const products = mappedProducts;
const paymentSum = (row: OrderRow) =>
  (JSON.parse(row.mapped!) as { order_payment_sum: string }).order_payment_sum;

beforeEach(async () => {
  const settings = {
    locationId: L,
    onlineLocations: JSON.stringify([L, SHOWROOM]),
    mapping: JSON.stringify({ splitCashOnDelivery: "parcel_share" }),
  };
  await db().shopSettings.upsert({
    where: { shop: SHOP },
    create: { shop: SHOP, ...settings },
    update: settings,
  });
});

describe("an order not yet sent", () => {
  it("waits while only the warehouse's part of a split cash-on-delivery order is read, then takes the parcel's share", async () => {
    const row = await takenIn();
    const readAt = new Date();
    await store(row, [{ n: 1, at: L, items: [[CUP, 2]] }], readAt);
    await reconcileRouting(depsAt(readAt).deps, SHOP, [row.shopifyOrderId]);
    const waiting = await read(row);
    // Without the guard: the cups alone, "whole", made ready with the whole COD sum.
    expect([waiting.state, waiting.waitReason]).toEqual([ORDER_STATE.waiting, "routing"]);
    expect(waiting.nextAttemptAt?.getTime()).toBe(readAt.getTime() + INCOMPLETE_WAIT_MS);

    await store(row, [{ n: 2, at: SHOWROOM, items: [[TEA, 1]] }], readAt);
    await reconcileRouting(depsAt(readAt).deps, SHOP, [row.shopifyOrderId]);
    const ready = await read(row);
    expect(ready.state).toBe(ORDER_STATE.ready);
    expect(products(ready)).toEqual(["CUP-KARP-BLUE×2"]);
    // Two cups at 350 less 70 of discount: the parcel's share, not the whole 1319.50.
    expect(paymentSum(ready)).toBe("630.00");
    expect((await events(row)).map((e) => e.kind)).toEqual(["received", "waiting", "routed", "ready"]);
  });

  it("does not wait for a gift card line, which Shopify fulfils itself", async () => {
    // The fixture's third line is a gift card (gift_card: true, requires_shipping: false).
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
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const after = await read(row);
    expect(after.state).toBe(ORDER_STATE.ready);
    expect(products(after)).toEqual(["CUP-KARP-BLUE×2", "TEA-POL-100×1"]);
  });

  it("waits for the fulfillment order of a line an edit added, and is sent with it", async () => {
    const row = await takenIn();
    await edited(row, (lines) => [
      ...lines,
      { ...lines[1], id: 15012345678904, admin_graphql_api_id: JAR, quantity: 3, current_quantity: 3 },
    ]);
    const readAt = new Date();
    await store(
      row,
      [
        {
          n: 1,
          at: L,
          items: [
            [CUP, 2],
            [TEA, 1],
          ],
        },
      ],
      readAt,
    );
    await reconcileRouting(depsAt(readAt).deps, SHOP, [row.shopifyOrderId]);
    const waiting = await read(row);
    // Still waiting for routing (as since intake), now due at the guard's bound.
    expect([waiting.state, waiting.waitReason, waiting.nextAttemptAt?.getTime()]).toEqual([
      ORDER_STATE.waiting,
      "routing",
      readAt.getTime() + INCOMPLETE_WAIT_MS,
    ]);

    await store(row, [{ n: 2, at: L, items: [[JAR, 3]] }]);
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const ready = await read(row);
    expect(ready.state).toBe(ORDER_STATE.ready);
    expect(products(ready)).toEqual(["CUP-KARP-BLUE×2", "TEA-POL-100×4"]);
  });

  it("does not wait for a line an edit removed", async () => {
    const row = await takenIn();
    // The tea removed by an order edit: still in line_items, with current_quantity 0.
    await edited(row, (lines) => lines.map((line, i) => (i === 1 ? { ...line, current_quantity: 0 } : line)));
    await store(row, [{ n: 1, at: L, items: [[CUP, 2]] }]);
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const after = await read(row);
    expect(after.state).toBe(ORDER_STATE.ready);
    expect(products(after)).toEqual(["CUP-KARP-BLUE×2"]);
  });
});

describe("an order already sent", () => {
  it("gets no edit from a partial move of which only the original fulfillment order was read again", async () => {
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
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const sent = await driveOrder(
      await read(row),
      { type: "claimed" },
      { type: "accepted", idOrderFF: "FF-G1", keyOrder: "k" },
    );
    // The tea moved to the showroom: Shopify takes it off the original (its total 0) and makes a new one there,
    // not read yet.
    await store(sent, [
      {
        n: 1,
        at: L,
        items: [
          [CUP, 2],
          [TEA, 0, 0],
        ],
      },
    ]);
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const unchanged = await read(row);
    expect([unchanged.version, unchanged.pending, unchanged.warehouseLines]).toEqual([
      sent.version,
      null,
      sent.warehouseLines,
    ]);

    await store(sent, [{ n: 2, at: SHOWROOM, items: [[TEA, 1]] }]);
    await reconcileRouting(depsAt().deps, SHOP, [row.shopifyOrderId]);
    const edit = await read(row);
    expect([edit.state, edit.pending]).toEqual([ORDER_STATE.accepted, PENDING.edit]);
    expect(products(edit)).toEqual(["CUP-KARP-BLUE×2"]);
  });
});

describe("the bound", () => {
  it("decides from what was read once the guard gives up, at the orders step's look, with a warning and a timeline note", async () => {
    const row = await takenIn();
    const readAt = new Date();
    await store(row, [{ n: 1, at: L, items: [[CUP, 2]] }], readAt);
    await reconcileRouting(depsAt(readAt).deps, SHOP, [row.shopifyOrderId]);
    const decideBy = readAt.getTime() + INCOMPLETE_WAIT_MS;
    expect((await read(row)).nextAttemptAt?.getTime()).toBe(decideBy);

    // Before the bound the look changes nothing of the decision.
    const early = depsAt(new Date(decideBy - 1000));
    await lookAtScheduledOrders(early.deps, SHOP);
    expect((await read(row)).state).toBe(ORDER_STATE.waiting);

    // No row changes, no read reconciles it: the look at the bound does.
    const late = depsAt(new Date(decideBy + 1000));
    await lookAtScheduledOrders(late.deps, SHOP);
    const after = await read(row);
    expect(after.state).toBe(ORDER_STATE.ready);
    expect(products(after)).toEqual(["CUP-KARP-BLUE×2"]);
    const texts = (await events(row)).map((e) => e.message);
    expect(texts.some((text) => text.includes("orders:timeline.routedIncomplete"))).toBe(true);
    expect(late.lines).toContainEqual(
      expect.objectContaining({ level: "warn", event: "routing.decided_incomplete", uncovered: [TEA] }),
    );
  });
});
