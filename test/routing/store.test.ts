// Storing fulfillment orders as read: a row keeps the newest version Shopify gave (by its updatedAt) whatever
// order the reads come back in, a read changes nothing the second time, and the orders whose rows changed are
// answered for reconcileRouting. The service mode's answer columns are left as they are.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  fulfillmentOrdersOf,
  storeFulfillmentOrders,
  type FulfillmentOrderNode,
} from "../../app/routing/store.server";

const SHOP = "kyiv-goods.myshopify.com";
const WAREHOUSE = "gid://shopify/Location/1";
const SHOWROOM = "gid://shopify/Location/2";

function node(id: number, order: number, changes: Partial<FulfillmentOrderNode> = {}): FulfillmentOrderNode {
  return {
    id: `gid://shopify/FulfillmentOrder/${id}`,
    orderId: `gid://shopify/Order/${order}`,
    status: "OPEN",
    requestStatus: "UNSUBMITTED",
    updatedAt: "2026-11-27T10:00:00Z",
    fulfillAt: null,
    deliveryMethod: { methodType: "SHIPPING" },
    assignedLocation: { location: { id: WAREHOUSE } },
    fulfillmentHolds: [],
    lineItems: {
      nodes: [
        {
          id: `gid://shopify/FulfillmentOrderLineItem/${id}1`,
          sku: "CUP-KARP-BLUE",
          totalQuantity: 2,
          remainingQuantity: 2,
          lineItem: { id: `gid://shopify/LineItem/${order}1` },
        },
      ],
    },
    ...changes,
  };
}

const store = (nodes: FulfillmentOrderNode[]) => storeFulfillmentOrders(appContext(), SHOP, nodes);
const row = (id: number) =>
  appContext().db.shopifyFulfillmentOrder.findUnique({
    where: { shop_id: { shop: SHOP, id: `gid://shopify/FulfillmentOrder/${id}` } },
  });

describe("storeFulfillmentOrders", () => {
  it("stores new fulfillment orders with their lines and holds, answering their orders once", async () => {
    const held = node(11, 501, {
      status: "ON_HOLD",
      fulfillmentHolds: [
        { id: "gid://shopify/FulfillmentHold/1", reason: "OTHER", heldByRequestingApp: false },
      ],
    });
    const scheduled = node(12, 502, {
      status: "SCHEDULED",
      fulfillAt: "2026-12-01T08:00:00Z",
      deliveryMethod: null,
      assignedLocation: { location: { id: SHOWROOM } },
    });
    expect((await store([held, scheduled])).sort()).toEqual(["501", "502"]);

    const [stored] = await fulfillmentOrdersOf(appContext(), SHOP, "501");
    expect(stored).toMatchObject({
      id: "gid://shopify/FulfillmentOrder/11",
      locationId: WAREHOUSE,
      status: "ON_HOLD",
      requestStatus: "UNSUBMITTED",
      deliveryMethod: "SHIPPING",
      fulfillAt: null,
      lines: [
        {
          id: "gid://shopify/FulfillmentOrderLineItem/111",
          lineItemId: "gid://shopify/LineItem/5011",
          sku: "CUP-KARP-BLUE",
          totalQuantity: 2,
          remainingQuantity: 2,
        },
      ],
      holds: [{ id: "gid://shopify/FulfillmentHold/1", reason: "OTHER", heldByRequestingApp: false }],
    });
    expect(stored!.shopifyUpdatedAt.toISOString()).toBe("2026-11-27T10:00:00.000Z");
    expect(await row(12)).toMatchObject({
      locationId: SHOWROOM,
      deliveryMethod: null,
      fulfillAt: new Date("2026-12-01T08:00:00Z"),
    });

    // The same read again: nothing changed, nothing answered.
    expect(await store([held, scheduled])).toEqual([]);
  });

  it("keeps the newer version: an older read changes nothing, a newer one replaces it and is answered", async () => {
    await store([node(21, 601)]);
    const moved = node(21, 601, {
      updatedAt: "2026-11-27T10:05:00Z",
      assignedLocation: { location: { id: SHOWROOM } },
    });
    expect(await store([moved])).toEqual(["601"]);
    const afterMove = await row(21);
    expect(afterMove).toMatchObject({ locationId: SHOWROOM });
    expect(afterMove!.version).toBe(1);

    // A read that began before the move came back after it: ignored.
    const older = node(21, 601, { updatedAt: "2026-11-27T10:02:00Z", status: "CANCELLED" });
    expect(await store([older])).toEqual([]);
    expect(await row(21)).toMatchObject({ locationId: SHOWROOM, status: "OPEN", version: 1 });

    // Two versions in one batch: the newer is kept.
    const picked = node(21, 601, {
      updatedAt: "2026-11-27T10:07:00Z",
      status: "IN_PROGRESS",
      assignedLocation: { location: { id: SHOWROOM } },
    });
    expect(await store([picked, older])).toEqual(["601"]);
    expect(await row(21)).toMatchObject({ status: "IN_PROGRESS", version: 2 });
  });

  it("answers a change of any stored fact, and none for a newer updatedAt with the same facts", async () => {
    await store([node(31, 701)]);
    const later = (minute: number, changes: Partial<FulfillmentOrderNode>) =>
      node(31, 701, { updatedAt: `2026-11-27T10:${String(minute).padStart(2, "0")}:00Z`, ...changes });
    // Only updatedAt moved (a field this app does not read changed): the row's time moves, no order answered.
    expect(await store([later(1, {})])).toEqual([]);
    expect((await row(31))!.shopifyUpdatedAt.toISOString()).toBe("2026-11-27T10:01:00.000Z");
    expect((await row(31))!.version).toBe(0);

    const base = node(31, 701);
    const changes: Array<Partial<FulfillmentOrderNode>> = [
      { requestStatus: "SUBMITTED" },
      { deliveryMethod: { methodType: "PICK_UP" } },
      { fulfillAt: "2026-12-24T00:00:00Z" },
      {
        lineItems: {
          nodes: [{ ...base.lineItems.nodes[0]!, remainingQuantity: 1 }],
        },
      },
      {
        fulfillmentHolds: [
          { id: "gid://shopify/FulfillmentHold/9", reason: "AWAITING_PAYMENT", heldByRequestingApp: true },
        ],
      },
    ];
    let minute = 2;
    for (const change of changes) {
      const answered = await store([later(minute++, change)]);
      expect(answered, JSON.stringify(change)).toEqual(["701"]);
    }
    // As old as the stored row but different (a later read of the same second): taken, and answered.
    const sameSecond = later(minute - 1, { ...changes.at(-1), status: "ON_HOLD" });
    expect(await store([sameSecond])).toEqual(["701"]);
    expect(await row(31)).toMatchObject({ status: "ON_HOLD" });
  });

  it("leaves the service mode's answer columns as they are", async () => {
    await store([node(41, 801, { requestStatus: "SUBMITTED" })]);
    const { db } = appContext();
    await db.shopifyFulfillmentOrder.update({
      where: { shop_id: { shop: SHOP, id: "gid://shopify/FulfillmentOrder/41" } },
      data: {
        answer: "accept",
        answerDueAt: new Date("2026-11-27T10:30:00Z"),
        answerAttempts: 2,
        answered: "accept",
        answerProblem: "a problem",
      },
    });
    const cancelled = node(41, 801, {
      requestStatus: "CANCELLATION_REQUESTED",
      updatedAt: "2026-11-27T11:00:00Z",
    });
    expect(await store([cancelled])).toEqual(["801"]);
    expect(await row(41)).toMatchObject({
      requestStatus: "CANCELLATION_REQUESTED",
      answer: "accept",
      answerDueAt: new Date("2026-11-27T10:30:00Z"),
      answerAttempts: 2,
      answered: "accept",
      answerProblem: "a problem",
      version: 1,
    });
  });

  it("keeps each shop's rows apart", async () => {
    await store([node(51, 901)]);
    expect(await storeFulfillmentOrders(appContext(), "other.myshopify.com", [node(51, 901)])).toEqual([
      "901",
    ]);
    expect(await appContext().db.shopifyFulfillmentOrder.count()).toBe(2);
  });

  it("keeps a row of the same second written after this read began: the later write wins a tie", async () => {
    const readStartedAt = new Date(Date.now() - 1_000);
    // Another read, after this one began, saw the hold released within the same second.
    await store([node(31, 531)]);
    const held = node(31, 531, {
      status: "ON_HOLD",
      fulfillmentHolds: [
        { id: "gid://shopify/FulfillmentHold/1", reason: "AWAITING_PAYMENT", heldByRequestingApp: false },
      ],
    });
    expect(await storeFulfillmentOrders(appContext(), SHOP, [held], readStartedAt)).toEqual([]);
    expect((await row(31))!.status).toBe("OPEN");
    // A read that began after the row was written replaces it (as any read of the same second does).
    expect(await storeFulfillmentOrders(appContext(), SHOP, [held], new Date(Date.now() + 1_000))).toEqual([
      "531",
    ]);
    expect((await row(31))!.status).toBe("ON_HOLD");
  });

  it("keeps a row of the same second that a later read stores between this read's look and its write", async () => {
    const deps = appContext();
    const readStartedAt = new Date(Date.now() - 1_000);
    await store([node(33, 533, { updatedAt: "2026-11-27T09:59:59Z" })]);
    const held = node(33, 533, {
      status: "ON_HOLD",
      fulfillmentHolds: [
        { id: "gid://shopify/FulfillmentHold/3", reason: "AWAITING_PAYMENT", heldByRequestingApp: false },
      ],
    });
    // This read saw the hold; after it looked at the stored row, another read stores the release of that same
    // second, then this read writes.
    let interleaved = false;
    const model = deps.db.shopifyFulfillmentOrder;
    const db = new Proxy(deps.db, {
      get(target, name, receiver) {
        if (name !== "shopifyFulfillmentOrder") {
          const value: unknown = Reflect.get(target, name, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        }
        return {
          ...model,
          findMany: model.findMany.bind(model),
          findUnique: model.findUnique.bind(model),
          create: model.create.bind(model),
          createMany: model.createMany.bind(model),
          updateMany: async (...args: Parameters<typeof model.updateMany>) => {
            if (!interleaved) {
              interleaved = true;
              expect(await store([node(33, 533)])).toEqual([]);
            }
            return model.updateMany(...args);
          },
        };
      },
    });
    expect(interleaved).toBe(false);
    expect(await storeFulfillmentOrders({ ...deps, db }, SHOP, [held], readStartedAt)).toEqual([]);
    expect(interleaved).toBe(true);
    expect(await row(33)).toMatchObject({ status: "OPEN", holds: "[]" });
  });

  it("stores a batch of new rows even when one was stored meanwhile by another read, keeping the newer", async () => {
    // Another read stored fulfillment order 61 (newer) after this one looked: the batch's one statement fails
    // on it, and each row is stored on its own, compared with what the other read wrote.
    await store([node(61, 961, { updatedAt: "2026-11-27T10:05:00Z", status: "CLOSED" })]);
    const context = appContext();
    const lookedBefore = new Proxy(context.db, {
      get(target, property, receiver) {
        if (property !== "shopifyFulfillmentOrder") return Reflect.get(target, property, receiver) as unknown;
        const model = target.shopifyFulfillmentOrder;
        return new Proxy(model, {
          get(inner, name, innerReceiver) {
            if (name === "findMany") return () => Promise.resolve([]);
            return Reflect.get(inner, name, innerReceiver) as unknown;
          },
        });
      },
    });
    const answered = await storeFulfillmentOrders({ ...context, db: lookedBefore }, SHOP, [
      node(61, 961),
      node(62, 962),
      node(63, 963),
    ]);
    expect(answered.sort()).toEqual(["962", "963"]);
    expect((await row(61))!.status).toBe("CLOSED");
    expect((await row(62))!.reconcilePending).toBe(true);
    expect(await row(63)).not.toBeNull();
  });
});
