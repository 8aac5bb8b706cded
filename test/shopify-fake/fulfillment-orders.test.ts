// The fake's fulfillment orders over real HTTP: orders routed per location by the shop's routing list, the
// lifecycle mutations (move, hold, release, split, merge, cancel, reschedule) with Shopify's rules and webhooks,
// scheduled fulfillment orders opening on the fake's clock, and the top-level fulfillmentOrders query the app
// pages through by updated_at.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startShopifyFake,
  validateAdminOperation,
  type LocationRecord,
  type ShopifyFake,
  type ShopStore,
  type VariantRecord,
} from ".";

const DOMAIN = "sklad-routing.myshopify.com";
const TOKEN = "shpat_sklad_routing";

let clock: number;
let fake: ShopifyFake;
let shop: ShopStore;
let warehouse: LocationRecord;
let showroom: LocationRecord;
/** Stocked at the warehouse and the showroom. */
let cup: VariantRecord;
/** Stocked at the showroom only. */
let vase: VariantRecord;

beforeEach(async () => {
  clock = Date.UTC(2026, 10, 2, 9);
  fake = await startShopifyFake({ now: () => clock });
  shop = fake.state.addShop({ domain: DOMAIN, accessToken: TOKEN });
  warehouse = shop.addLocation({ name: "Склад" });
  showroom = shop.addLocation({ name: "Шоурум Київ", city: "Київ" });
  cup = shop.addProduct({
    title: "Чашка",
    variants: [
      {
        sku: "CUP",
        price: "350.00",
        inventory: [
          { locationId: warehouse.id, available: 10 },
          { locationId: showroom.id, available: 3 },
        ],
      },
    ],
  }).variants[0]!;
  vase = shop.addProduct({
    title: "Ваза",
    variants: [{ sku: "VASE", price: "900.00", inventory: [{ locationId: showroom.id, available: 2 }] }],
  }).variants[0]!;
});

afterEach(() => fake.close());

type Body = { data?: Record<string, unknown>; errors?: unknown; extensions?: Record<string, unknown> };

async function gql(query: string, variables: object = {}) {
  expect(validateAdminOperation(query)).toEqual([]);
  const response = await fetch(fake.graphqlUrl, {
    method: "POST",
    headers: { "x-shopify-access-token": TOKEN, "x-fake-shop": DOMAIN },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Body;
}

/** Reads a path out of a JSON response. */
function dig(value: unknown, ...path: Array<string | number>): unknown {
  const step = (current: unknown, key: string | number) =>
    typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return path.reduce(step, value);
}

const topics = () => shop.webhookOutbox.map((entry) => entry.topic);
const committed = (variant: VariantRecord, at: LocationRecord) =>
  shop.level(variant.inventoryItemId, at.id)!.quantities.committed;

/** The fields the app reads of a fulfillment order (R1's FULFILLMENT_ORDER_FIELDS). */
const FO_FIELDS = `id orderId order { id } status requestStatus updatedAt fulfillAt deliveryMethod { methodType }
  assignedLocation { location { id } } fulfillmentHolds { id reason heldByRequestingApp }
  lineItems(first: 10) { nodes { id sku totalQuantity remainingQuantity lineItem { id } } }`;
const READ_FO = `query($id: ID!) { fulfillmentOrder(id: $id) { ${FO_FIELDS} supportedActions { action } } }`;
const readFo = async (id: string) => dig(await gql(READ_FO, { id }), "data", "fulfillmentOrder");

describe("routing", () => {
  it("sends each line to the first location of the routing list that stocks it, one fulfillment order a location", async () => {
    const { order, fulfillmentOrders } = shop.addOrder({
      lineItems: [
        { sku: "CUP", quantity: 2 },
        { sku: "VASE", quantity: 1 },
        { title: "Листівка", quantity: 1 },
      ],
    });
    const [cupLine, vaseLine, cardLine] = order.lineItems;
    expect(
      fulfillmentOrders.map((fo) => ({
        location: fo.assignedLocationId,
        lines: fo.lineItems.map((line) => line.lineItemId),
      })),
    ).toEqual([
      // The cup is stocked at both: the warehouse comes first in the list. A custom item goes to the first.
      { location: warehouse.id, lines: [cupLine!.id, cardLine!.id] },
      { location: showroom.id, lines: [vaseLine!.id] },
    ]);
    expect([committed(cup, warehouse), committed(cup, showroom), committed(vase, showroom)]).toEqual([
      2, 0, 1,
    ]);
    expect(shop.webhookOutbox.map(({ topic, payload }) => ({ topic, payload }))).toEqual(
      fulfillmentOrders.map((fo) => ({
        topic: "fulfillment_orders/order_routing_complete",
        payload: { fulfillment_order: { id: fo.id, status: "open" } },
      })),
    );

    // The order's own fulfillment orders, as the app reads them.
    const read = await gql(
      `query($id: ID!) { order(id: $id) { fulfillmentOrders(first: 5) { nodes { ${FO_FIELDS} } } } }`,
      { id: order.id },
    );
    expect(dig(read, "data", "order", "fulfillmentOrders", "nodes")).toMatchObject([
      {
        orderId: order.id,
        order: { id: order.id },
        status: "OPEN",
        requestStatus: "UNSUBMITTED",
        fulfillAt: null,
        deliveryMethod: { methodType: "SHIPPING" },
        assignedLocation: { location: { id: warehouse.id } },
        fulfillmentHolds: [],
        lineItems: {
          nodes: [
            { sku: "CUP", totalQuantity: 2, remainingQuantity: 2, lineItem: { id: cupLine!.id } },
            { sku: null, totalQuantity: 1, remainingQuantity: 1, lineItem: { id: cardLine!.id } },
          ],
        },
      },
      { assignedLocation: { location: { id: showroom.id } }, lineItems: { nodes: [{ sku: "VASE" }] } },
    ]);
    // Only the warehouse's, as the fulfilment reads them.
    const atWarehouse = await gql(
      `query($id: ID!, $q: String) { order(id: $id) { fulfillmentOrders(first: 5, query: $q) { nodes { id } } } }`,
      { id: order.id, q: `assigned_location_id:${warehouse.id.split("/").at(-1)} status:open` },
    );
    expect(dig(atWarehouse, "data", "order", "fulfillmentOrders", "nodes")).toEqual([
      { id: fulfillmentOrders[0]!.id },
    ]);
  });

  it("follows the shop's routing list, skips an inactive location, and keeps an explicit location whole", async () => {
    shop.setRouting([showroom.id, warehouse.id]);
    const first = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    expect(first.fulfillmentOrder.assignedLocationId).toBe(showroom.id);

    showroom.isActive = false;
    const second = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    expect(second.fulfillmentOrder.assignedLocationId).toBe(warehouse.id);
    showroom.isActive = true;

    // A pickup at the showroom names its location: every line goes there, in one fulfillment order.
    const pickup = shop.addOrder({
      lineItems: [
        { sku: "CUP", quantity: 1 },
        { sku: "VASE", quantity: 1 },
      ],
      locationId: showroom.id,
      deliveryMethod: "PICK_UP",
    });
    expect(pickup.fulfillmentOrders).toHaveLength(1);
    expect(pickup.fulfillmentOrder).toMatchObject({
      assignedLocationId: showroom.id,
      deliveryMethod: "PICK_UP",
    });
    expect(await readFo(pickup.fulfillmentOrder.id)).toMatchObject({
      deliveryMethod: { methodType: "PICK_UP" },
    });
  });

  it("serves the locations with isActive, fulfillsOnlineOrders and no fulfillment service for the merchant's own", async () => {
    shop.addLocation({ name: "Закритий", isActive: false });
    shop.addLocation({ name: "Офіс", fulfillsOnlineOrders: false });
    const body = await gql(`{ locations(first: 10, includeInactive: true) {
      nodes { name isActive fulfillsOnlineOrders isFulfillmentService fulfillmentService { id } } } }`);
    expect(dig(body, "data", "locations", "nodes")).toEqual([
      {
        name: "Закритий",
        isActive: false,
        fulfillsOnlineOrders: true,
        isFulfillmentService: false,
        fulfillmentService: null,
      },
      {
        name: "Офіс",
        isActive: true,
        fulfillsOnlineOrders: false,
        isFulfillmentService: false,
        fulfillmentService: null,
      },
      {
        name: "Склад",
        isActive: true,
        fulfillsOnlineOrders: true,
        isFulfillmentService: false,
        fulfillmentService: null,
      },
      {
        name: "Шоурум Київ",
        isActive: true,
        fulfillsOnlineOrders: true,
        isFulfillmentService: false,
        fulfillmentService: null,
      },
    ]);
  });
});

const MOVE = `mutation($id: ID!, $to: ID!, $lines: [FulfillmentOrderLineItemInput!]) {
  fulfillmentOrderMove(id: $id, newLocationId: $to, fulfillmentOrderLineItems: $lines) {
    movedFulfillmentOrder { id status assignedLocation { location { id } } }
    originalFulfillmentOrder { id status }
    userErrors { field message code } } }`;

describe("fulfillmentOrderMove", () => {
  it("moves a fulfillment order to a location that stocks its items, committed units and webhook with it", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 2 }] });
    shop.webhookOutbox.length = 0;
    clock += 5_000;
    const body = await gql(MOVE, { id: fo.id, to: showroom.id });
    expect(dig(body, "data", "fulfillmentOrderMove")).toEqual({
      movedFulfillmentOrder: {
        id: fo.id,
        status: "OPEN",
        assignedLocation: { location: { id: showroom.id } },
      },
      originalFulfillmentOrder: { id: fo.id, status: "OPEN" },
      userErrors: [],
    });
    expect([committed(cup, warehouse), committed(cup, showroom)]).toEqual([0, 2]);
    expect(fo.updatedAt).toBe("2026-11-02T09:00:05Z");
    expect(shop.webhookOutbox.map(({ topic, payload }) => ({ topic, payload }))).toEqual([
      {
        topic: "fulfillment_orders/moved",
        payload: {
          original_fulfillment_order: { id: fo.id, status: "open", assigned_location_id: showroom.id },
          moved_fulfillment_order: { id: fo.id, status: "open", assigned_location_id: showroom.id },
          destination_location_id: showroom.id,
          fulfillment_order_line_items_requested: [],
          source_location: { id: warehouse.id },
        },
      },
    ]);
  });

  it("moves part of a fulfillment order into a new one, and lists where it may move", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({
      lineItems: [
        { sku: "CUP", quantity: 3 },
        { title: "Листівка", quantity: 1 },
      ],
    });
    const cupLine = fo.lineItems[0]!;
    const offers = await gql(
      `query($id: ID!) { fulfillmentOrder(id: $id) { locationsForMove(first: 5) { nodes {
        location { id } movable availableLineItemsCount { count } } } } }`,
      { id: fo.id },
    );
    expect(dig(offers, "data", "fulfillmentOrder", "locationsForMove", "nodes")).toEqual([
      { location: { id: showroom.id }, movable: true, availableLineItemsCount: { count: 2 } },
    ]);
    const body = await gql(MOVE, { id: fo.id, to: showroom.id, lines: [{ id: cupLine.id, quantity: 2 }] });
    const movedId = dig(body, "data", "fulfillmentOrderMove", "movedFulfillmentOrder", "id") as string;
    expect(movedId).not.toBe(fo.id);
    expect(shop.fulfillmentOrders.get(movedId)!.lineItems).toMatchObject([
      { lineItemId: cupLine.lineItemId, totalQuantity: 2, remainingQuantity: 2 },
    ]);
    expect(fo.lineItems.map((line) => line.remainingQuantity)).toEqual([1, 1]);
    expect([committed(cup, warehouse), committed(cup, showroom)]).toEqual([1, 2]);
    expect(shop.webhookOutbox.at(-1)!.payload).toMatchObject({
      fulfillment_order_line_items_requested: [{ id: cupLine.id, quantity: 2 }],
      moved_fulfillment_order: { id: movedId, assigned_location_id: showroom.id },
    });
  });

  it("refuses a location that does not stock an item, a closed one and one awaiting a fulfillment service", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "VASE", quantity: 1 }] });
    expect(fo.assignedLocationId).toBe(showroom.id);
    shop.webhookOutbox.length = 0;
    const notStocked = await gql(MOVE, { id: fo.id, to: warehouse.id });
    expect(dig(notStocked, "data", "fulfillmentOrderMove")).toEqual({
      movedFulfillmentOrder: null,
      originalFulfillmentOrder: null,
      userErrors: [
        {
          field: ["newLocationId"],
          message: "The location doesn't stock the requested inventory items.",
          code: null,
        },
      ],
    });
    fo.requestStatus = "SUBMITTED";
    const submitted = await gql(MOVE, { id: fo.id, to: warehouse.id });
    expect(dig(submitted, "data", "fulfillmentOrderMove", "userErrors", 0, "message")).toBe(
      "Cannot move a fulfillment order with request status submitted.",
    );
    fo.requestStatus = "UNSUBMITTED";
    fo.status = "CLOSED";
    const closed = await gql(MOVE, { id: fo.id, to: warehouse.id });
    expect(dig(closed, "data", "fulfillmentOrderMove", "userErrors", 0, "message")).toBe(
      "Cannot move a fulfillment order with status closed.",
    );
    expect(fo.assignedLocationId).toBe(showroom.id);
    expect(shop.webhookOutbox).toEqual([]);
  });
});

describe("holds", () => {
  const HOLD = `mutation($id: ID!, $hold: FulfillmentOrderHoldInput!) { fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) {
    fulfillmentHold { id reason handle heldByRequestingApp } fulfillmentOrder { id status }
    remainingFulfillmentOrder { id status } userErrors { field message code } } }`;
  const RELEASE = `mutation($id: ID!, $holdIds: [ID!]) { fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
    fulfillmentOrder { status } userErrors { field message code } } }`;

  it("holds and releases with one webhook each way; a duplicate handle is refused", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] });
    shop.webhookOutbox.length = 0;
    const first = await gql(HOLD, { id: fo.id, hold: { reason: "AWAITING_PAYMENT", handle: "cod" } });
    const holdId = dig(first, "data", "fulfillmentOrderHold", "fulfillmentHold", "id");
    expect(dig(first, "data", "fulfillmentOrderHold")).toMatchObject({
      fulfillmentHold: { reason: "AWAITING_PAYMENT", handle: "cod", heldByRequestingApp: true },
      fulfillmentOrder: { id: fo.id, status: "ON_HOLD" },
      remainingFulfillmentOrder: null,
      userErrors: [],
    });
    const again = await gql(HOLD, { id: fo.id, hold: { reason: "OTHER", handle: "cod" } });
    expect(dig(again, "data", "fulfillmentOrderHold", "userErrors", 0, "code")).toBe(
      "DUPLICATE_FULFILLMENT_HOLD_HANDLE",
    );
    const second = await gql(HOLD, { id: fo.id, hold: { reason: "OTHER", handle: "address" } });
    expect(dig(second, "data", "fulfillmentOrderHold", "userErrors")).toEqual([]);
    expect(fo.holds).toHaveLength(2);

    const partly = await gql(RELEASE, { id: fo.id, holdIds: [holdId] });
    expect(dig(partly, "data", "fulfillmentOrderReleaseHold", "fulfillmentOrder")).toEqual({
      status: "ON_HOLD",
    });
    const all = await gql(RELEASE, { id: fo.id });
    expect(dig(all, "data", "fulfillmentOrderReleaseHold", "fulfillmentOrder")).toEqual({ status: "OPEN" });
    // One webhook when the first hold made it ON_HOLD, one when the last hold left.
    expect(topics()).toEqual(["fulfillment_orders/placed_on_hold", "fulfillment_orders/hold_released"]);
    expect(shop.webhookOutbox[0]!.payload).toEqual({
      fulfillment_order: {
        id: fo.id,
        status: "on_hold",
        fulfillment_holds: [
          {
            id: holdId,
            reason: "awaiting_payment",
            reason_notes: null,
            held_by_requesting_app: true,
            handle: "cod",
            held_by_app: { id: "gid://shopify/App/1" },
          },
        ],
      },
      remaining_fulfillment_order: null,
      held_fulfillment_order_line_items: [{ id: fo.lineItems[0]!.id, quantity: 1 }],
      created_fulfillment_hold: expect.objectContaining({ id: holdId, handle: "cod" }),
    });
    expect(shop.webhookOutbox[1]!.payload).toEqual({ fulfillment_order: { id: fo.id, status: "open" } });
  });

  it("holding some lines leaves the rest in a new fulfillment order, open", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 3 }] });
    const line = fo.lineItems[0]!;
    const body = await gql(HOLD, {
      id: fo.id,
      hold: { reason: "INVENTORY_OUT_OF_STOCK", fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] },
    });
    const remainingId = dig(
      body,
      "data",
      "fulfillmentOrderHold",
      "remainingFulfillmentOrder",
      "id",
    ) as string;
    expect(shop.fulfillmentOrders.get(remainingId)).toMatchObject({
      status: "OPEN",
      assignedLocationId: warehouse.id,
      lineItems: [{ totalQuantity: 2, remainingQuantity: 2 }],
    });
    expect(fo).toMatchObject({ status: "ON_HOLD", lineItems: [{ totalQuantity: 1, remainingQuantity: 1 }] });
    expect(committed(cup, warehouse)).toBe(3);
  });
});

describe("split and merge", () => {
  const SPLIT = `mutation($splits: [FulfillmentOrderSplitInput!]!) { fulfillmentOrderSplit(fulfillmentOrderSplits: $splits) {
    fulfillmentOrderSplits { fulfillmentOrder { id } remainingFulfillmentOrder { id } replacementFulfillmentOrder { id } }
    userErrors { field message code } } }`;
  const MERGE = `mutation($inputs: [FulfillmentOrderMergeInput!]!) { fulfillmentOrderMerge(fulfillmentOrderMergeInputs: $inputs) {
    fulfillmentOrderMerges { fulfillmentOrder { id status lineItems(first: 5) { nodes { totalQuantity } } } }
    userErrors { field message code } } }`;

  it("splits units into a new fulfillment order and merges them back, each with its webhook", async () => {
    const { order, fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 3 }] });
    const line = fo.lineItems[0]!;
    shop.webhookOutbox.length = 0;
    const split = await gql(SPLIT, {
      splits: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] }],
    });
    const result = dig(split, "data", "fulfillmentOrderSplit", "fulfillmentOrderSplits", 0) as Record<
      string,
      { id: string } | null
    >;
    const newId = result.remainingFulfillmentOrder!.id;
    expect(result).toEqual({
      fulfillmentOrder: { id: fo.id },
      remainingFulfillmentOrder: { id: newId },
      replacementFulfillmentOrder: null,
    });
    expect(order.fulfillmentOrderIds).toEqual([fo.id, newId]);
    expect(line.remainingQuantity).toBe(2);
    expect(shop.fulfillmentOrders.get(newId)!.lineItems).toMatchObject([
      { lineItemId: line.lineItemId, remainingQuantity: 1 },
    ]);
    expect(committed(cup, warehouse)).toBe(3);

    const forMerge = await gql(
      `query($id: ID!) { fulfillmentOrder(id: $id) { supportedActions { action } fulfillmentOrdersForMerge(first: 5) { nodes { id } } } }`,
      { id: fo.id },
    );
    expect(dig(forMerge, "data", "fulfillmentOrder", "fulfillmentOrdersForMerge", "nodes")).toEqual([
      { id: newId },
    ]);
    expect(dig(forMerge, "data", "fulfillmentOrder", "supportedActions")).toContainEqual({ action: "MERGE" });

    const merged = await gql(MERGE, {
      inputs: [{ mergeIntents: [{ fulfillmentOrderId: fo.id }, { fulfillmentOrderId: newId }] }],
    });
    expect(dig(merged, "data", "fulfillmentOrderMerge")).toEqual({
      fulfillmentOrderMerges: [
        { fulfillmentOrder: { id: fo.id, status: "OPEN", lineItems: { nodes: [{ totalQuantity: 3 }] } } },
      ],
      userErrors: [],
    });
    expect(shop.fulfillmentOrders.get(newId)!.status).toBe("CLOSED");
    expect(committed(cup, warehouse)).toBe(3);
    expect(topics()).toEqual(["fulfillment_orders/split", "fulfillment_orders/merged"]);
    expect(shop.webhookOutbox[0]!.payload).toEqual({
      split_line_items: [{ id: line.id, quantity: 1 }],
      fulfillment_order: { id: fo.id, status: "open" },
      remaining_fulfillment_order: { id: newId, status: "open" },
      replacement_fulfillment_order: null,
    });
    expect(shop.webhookOutbox[1]!.payload).toMatchObject({
      fulfillment_order_merges: { fulfillment_order: { id: fo.id, status: "open" } },
    });
  });

  it("refuses to split everything or a held fulfillment order, and to merge across locations", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 2 }] });
    const line = fo.lineItems[0]!;
    const whole = await gql(SPLIT, {
      splits: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 2 }] }],
    });
    expect(dig(whole, "data", "fulfillmentOrderSplit", "userErrors", 0, "code")).toBe(
      "INVALID_LINE_ITEM_QUANTITY",
    );
    const tooMany = await gql(SPLIT, {
      splits: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 5 }] }],
    });
    expect(dig(tooMany, "data", "fulfillmentOrderSplit", "userErrors", 0, "code")).toBe(
      "INVALID_LINE_ITEM_QUANTITY",
    );
    shop.holdFulfillmentOrder(fo.id);
    const held = await gql(SPLIT, {
      splits: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] }],
    });
    expect(dig(held, "data", "fulfillmentOrderSplit", "userErrors", 0, "message")).toBe(
      "Cannot split a fulfillment order with status on_hold.",
    );
    shop.releaseHolds(fo.id);
    const split = shop.splitFulfillmentOrder(fo.id, [{ id: line.id, quantity: 1 }]);
    shop.moveFulfillmentOrder(split.remainingFulfillmentOrder.id, showroom.id);
    const merged = await gql(MERGE, {
      inputs: [
        {
          mergeIntents: [
            { fulfillmentOrderId: fo.id },
            { fulfillmentOrderId: split.remainingFulfillmentOrder.id },
          ],
        },
      ],
    });
    expect(dig(merged, "data", "fulfillmentOrderMerge", "userErrors", 0, "message")).toMatch(
      /cannot be merged/,
    );
    expect(fo.lineItems[0]!.remainingQuantity).toBe(1);
  });
});

describe("fulfillmentOrderCancel", () => {
  const CANCEL = `mutation($id: ID!) { fulfillmentOrderCancel(id: $id) {
    fulfillmentOrder { id status } replacementFulfillmentOrder { id status requestStatus assignedLocation { location { id } } }
    userErrors { field message code } } }`;

  it("cancels only a fulfillment order awaiting its service, with an open replacement at the same location", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 2 }] });
    shop.webhookOutbox.length = 0;
    const refused = await gql(CANCEL, { id: fo.id });
    expect(dig(refused, "data", "fulfillmentOrderCancel", "userErrors", 0, "message")).toBe(
      "Cannot cancel a fulfillment order with status open and request status unsubmitted.",
    );
    fo.requestStatus = "SUBMITTED";
    const body = await gql(CANCEL, { id: fo.id });
    const replacement = dig(body, "data", "fulfillmentOrderCancel", "replacementFulfillmentOrder") as {
      id: string;
    };
    expect(dig(body, "data", "fulfillmentOrderCancel")).toEqual({
      fulfillmentOrder: { id: fo.id, status: "CANCELLED" },
      replacementFulfillmentOrder: {
        id: replacement.id,
        status: "OPEN",
        requestStatus: "UNSUBMITTED",
        assignedLocation: { location: { id: warehouse.id } },
      },
      userErrors: [],
    });
    expect(committed(cup, warehouse)).toBe(2);
    expect(shop.webhookOutbox.map(({ topic, payload }) => ({ topic, payload }))).toEqual([
      {
        topic: "fulfillment_orders/cancelled",
        payload: {
          fulfillment_order: { id: fo.id, status: "cancelled" },
          replacement_fulfillment_order: { id: replacement.id, status: "open" },
        },
      },
    ]);
    // No fulfillment of a cancelled fulfillment order.
    const fulfil = await gql(
      `mutation($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { message } } }`,
      { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } },
    );
    expect(dig(fulfil, "data", "fulfillmentCreate", "userErrors", 0, "message")).toMatch(
      /unfulfillable status= cancelled/,
    );
  });
});

describe("scheduled fulfillment orders", () => {
  const RESCHEDULE = `mutation($id: ID!, $at: DateTime!) { fulfillmentOrderReschedule(id: $id, fulfillAt: $at) {
    fulfillmentOrder { id status fulfillAt } userErrors { field message code } } }`;

  it("stay SCHEDULED until fulfillAt, can be rescheduled, and open when due on the fake's clock", async () => {
    const { fulfillmentOrder: fo } = shop.addOrder({
      lineItems: [{ sku: "CUP", quantity: 1 }],
      fulfillAt: "2026-11-05T09:00:00Z",
    });
    expect(await readFo(fo.id)).toMatchObject({
      status: "SCHEDULED",
      fulfillAt: "2026-11-05T09:00:00Z",
      supportedActions: [],
    });
    const moved = await gql(RESCHEDULE, { id: fo.id, at: "2026-11-03T09:00:00Z" });
    expect(dig(moved, "data", "fulfillmentOrderReschedule")).toEqual({
      fulfillmentOrder: { id: fo.id, status: "SCHEDULED", fulfillAt: "2026-11-03T09:00:00Z" },
      userErrors: [],
    });
    clock = Date.UTC(2026, 10, 3, 8, 59);
    expect(await readFo(fo.id)).toMatchObject({ status: "SCHEDULED" });
    clock = Date.UTC(2026, 10, 3, 9, 0, 30);
    expect(await readFo(fo.id)).toMatchObject({ status: "OPEN", updatedAt: "2026-11-03T09:00:30Z" });
    expect(topics()).toEqual([
      "fulfillment_orders/order_routing_complete",
      "fulfillment_orders/rescheduled",
      "fulfillment_orders/scheduled_fulfillment_order_ready",
    ]);
    expect(shop.webhookOutbox[1]!.payload).toEqual({
      fulfillment_order: { id: fo.id, status: "scheduled", fulfill_at: "2026-11-03T09:00:00Z" },
    });
    expect(shop.webhookOutbox[2]!.payload).toEqual({ fulfillment_order: { id: fo.id, status: "open" } });
    const open = await gql(RESCHEDULE, { id: fo.id, at: "2026-11-09T09:00:00Z" });
    expect(dig(open, "data", "fulfillmentOrderReschedule", "userErrors", 0, "message")).toBe(
      "Cannot reschedule a fulfillment order with status open.",
    );
  });

  it("gives a pre-order line its own scheduled fulfillment order and its selling plan", async () => {
    const { order, fulfillmentOrders } = shop.addOrder({
      lineItems: [
        { sku: "CUP", quantity: 1 },
        {
          sku: "CUP",
          quantity: 1,
          sellingPlan: { name: "Передзамовлення", fulfillAt: "2026-12-01T00:00:00Z" },
        },
      ],
    });
    expect(fulfillmentOrders.map((fo) => [fo.status, fo.fulfillAt])).toEqual([
      ["OPEN", null],
      ["SCHEDULED", "2026-12-01T00:00:00Z"],
    ]);
    const read = await gql(
      `query($id: ID!) { order(id: $id) { lineItems(first: 5) { nodes { sellingPlan { name sellingPlanId } } } } }`,
      {
        id: order.id,
      },
    );
    expect(dig(read, "data", "order", "lineItems", "nodes")).toEqual([
      { sellingPlan: null },
      { sellingPlan: { name: "Передзамовлення", sellingPlanId: order.lineItems[1]!.sellingPlan!.id } },
    ]);
  });
});

describe("Query.fulfillmentOrders", () => {
  const PAGE = `query($after: String, $query: String, $sortKey: FulfillmentOrderSortKeys, $closed: Boolean, $reverse: Boolean) {
    fulfillmentOrders(first: 2, after: $after, query: $query, sortKey: $sortKey, includeClosed: $closed, reverse: $reverse) {
      nodes { id updatedAt status } pageInfo { hasNextPage endCursor } } }`;
  const ids = (body: Body) =>
    (dig(body, "data", "fulfillmentOrders", "nodes") as Array<{ id: string }>).map((node) => node.id);

  /** Three orders a minute apart, at 09:00, 09:01 and 09:02. */
  function threeOrders() {
    return [0, 1, 2].map(() => {
      const placed = shop.addOrder({ lineItems: [{ sku: "CUP", quantity: 1 }] }).fulfillmentOrder;
      clock += 60_000;
      return placed;
    });
  }

  it("filters by updated_at, assigned location, status and id; closed ones only with includeClosed", async () => {
    const [a, b, c] = threeOrders();
    shop.moveFulfillmentOrder(c!.id, showroom.id);
    a!.status = "CLOSED";
    const query = async (filter: string, closed = false) => ids(await gql(PAGE, { query: filter, closed }));
    expect(await query(`updated_at:>='2026-11-02T09:01:00Z'`)).toEqual([b!.id, c!.id]);
    expect(await query(`updated_at:>"2026-11-02T09:01:00Z"`)).toEqual([c!.id]);
    expect(await query(`updated_at:<'2026-11-02T09:01:00+00:00'`, true)).toEqual([a!.id]);
    expect(await query(`assigned_location_id:${showroom.id.split("/").at(-1)}`)).toEqual([c!.id]);
    expect(await query(`status:open AND assigned_location_id:${warehouse.id.split("/").at(-1)}`)).toEqual([
      b!.id,
    ]);
    expect(await query(`status:closed`, true)).toEqual([a!.id]);
    expect(await query(`id:${b!.id.split("/").at(-1)}`)).toEqual([b!.id]);
    for (const refused of [`Чашка`, `updated_at:>=2026-11-02T09:01:00Z`, `created_at:>'2026-11-02'`]) {
      const body = await gql(PAGE, { query: refused });
      expect(dig(body, "errors", 0, "message")).toMatch(
        /does not implement .* in Query\.fulfillmentOrders\(query:\)/,
      );
    }
  });

  it("pages by updated_at: one changed while the pages are read comes again at the end, in order", async () => {
    const [a, b, c] = threeOrders();
    const first = await gql(PAGE, { sortKey: "UPDATED_AT", query: `updated_at:>='2026-11-02T09:00:00Z'` });
    expect(ids(first)).toEqual([a!.id, b!.id]);
    // A changed after the first page was read: its updatedAt is now the newest.
    shop.holdFulfillmentOrder(a!.id);
    const after = dig(first, "data", "fulfillmentOrders", "pageInfo", "endCursor");
    const second = await gql(PAGE, {
      sortKey: "UPDATED_AT",
      after,
      query: `updated_at:>='2026-11-02T09:00:00Z'`,
    });
    expect(ids(second)).toEqual([c!.id, a!.id]);
    expect(dig(second, "data", "fulfillmentOrders", "pageInfo", "hasNextPage")).toBe(false);
    const newestFirst = await gql(PAGE, { sortKey: "UPDATED_AT", reverse: true });
    expect(ids(newestFirst)).toEqual([a!.id, c!.id]);
  });

  it("charges Shopify's calculated cost: the page size times a node's fields", async () => {
    threeOrders();
    const body = await gql(`{ fulfillmentOrders(first: 5) { nodes { id assignedLocation { location { id } }
      lineItems(first: 4) { nodes { id lineItem { id } } } } } }`);
    // Requested: 2 + 5 x (1 node + 1 assignedLocation + 1 location + 2 + 4 x (1 + 1 lineItem)) = 67;
    // actual: 2 + 3 x (1 + 1 + 1 + 2 + 1 x 2) = 23.
    expect(dig(body, "extensions", "cost")).toMatchObject({ requestedQueryCost: 67, actualQueryCost: 23 });
  });
});
