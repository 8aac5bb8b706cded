// The pure parts of the Shopify fulfillment: which carrier a warehouse order went with, the tracking Shopify
// is given, the carrier's status codes as fulfillment events, and the plan read from an order's picture.
import { describe, expect, it } from "vitest";
import { FULFILLMENT_EVENT_STATUSES, novaPoshtaEventStatus } from "../../app/fulfillment/carrier-events";
import { carrierOfDeliveryMethod, normaliseTtn, trackingFor } from "../../app/fulfillment/carriers";
import {
  FULFILLMENT_PROBLEM_MESSAGES,
  planFulfilment,
  type FulfillmentPicture,
  type PictureFulfillmentOrder,
} from "../../app/fulfillment/plan";
import { DEFAULT_ORDER_SETTINGS } from "../../app/orders/settings";
import { DEFAULT_STATUS_SETTINGS, statusSettingsSchema } from "../../app/statuses/settings";
import { DELIVERY_METHOD } from "../../app/warehouse/wire";

describe("carriers", () => {
  it("knows the carrier by the delivery method text the order was sent with", () => {
    expect(carrierOfDeliveryMethod(DELIVERY_METHOD.novaPoshta)).toBe("novaPoshta");
    expect(carrierOfDeliveryMethod(" новая почта ")).toBe("novaPoshta");
    expect(carrierOfDeliveryMethod(DELIVERY_METHOD.ukrposhta)).toBe("ukrposhta");
    expect(carrierOfDeliveryMethod(DELIVERY_METHOD.kyivCourier)).toBeNull();
    expect(carrierOfDeliveryMethod(DELIVERY_METHOD.pickup)).toBeNull();
    // The shop's own literal, and the provider's default for orders sent before it changed.
    const literals = { ...DEFAULT_ORDER_SETTINGS.deliveryLiterals, ukrposhta: "Укрпошта" };
    expect(carrierOfDeliveryMethod("Укрпошта", literals)).toBe("ukrposhta");
    expect(carrierOfDeliveryMethod("Ukrposhta", literals)).toBe("ukrposhta");
  });

  it("gives Shopify the company as text and the tracking page by the shop's pattern", () => {
    expect(trackingFor("novaPoshta", "20 4500 0000 0001", DEFAULT_STATUS_SETTINGS)).toEqual({
      company: "Nova Poshta",
      number: "20450000000001",
      url: "https://novaposhta.ua/tracking/?cargo_number=20450000000001",
    });
    const settings = statusSettingsSchema.parse({
      trackingUrls: { ukrposhta: "https://track.example.ua/{ttn}/info" },
    });
    expect(trackingFor("ukrposhta", "0500012345678", settings)).toEqual({
      company: "Ukrposhta",
      number: "0500012345678",
      url: "https://track.example.ua/0500012345678/info",
    });
    expect(normaliseTtn(" 2045 0000\t0001 ")).toBe("204500000001");
  });
});

describe("Nova Poshta status codes as fulfillment events", () => {
  it.each([
    [5, "IN_TRANSIT"],
    [6, "IN_TRANSIT"],
    [41, "IN_TRANSIT"],
    [7, "READY_FOR_PICKUP"],
    [8, "READY_FOR_PICKUP"],
    [101, "OUT_FOR_DELIVERY"],
    [111, "ATTEMPTED_DELIVERY"],
    [112, "DELAYED"],
    [9, "DELIVERED"],
    [10, "DELIVERED"],
    [11, "DELIVERED"],
    [106, "DELIVERED"],
    [102, "FAILURE"],
    [103, "FAILURE"],
    [108, "FAILURE"],
  ])("code %s is %s, as a number or as the warehouse's string", (code, status) => {
    expect(novaPoshtaEventStatus(code)).toBe(status);
    expect(novaPoshtaEventStatus(` ${code} `)).toBe(status);
    expect(FULFILLMENT_EVENT_STATUSES).toContain(status);
  });

  it.each([1, 2, 3, 4, 999, "", "abc", null, undefined])("code %s adds no event", (code) => {
    expect(novaPoshtaEventStatus(code)).toBeNull();
  });
});

describe("planFulfilment", () => {
  const WAREHOUSE = "gid://shopify/Location/1";
  const fo = (fields: Partial<PictureFulfillmentOrder> = {}): PictureFulfillmentOrder => ({
    id: "gid://shopify/FulfillmentOrder/10",
    status: "OPEN",
    locationId: WAREHOUSE,
    locationName: "Склад",
    supportedActions: ["CREATE_FULFILLMENT", "HOLD", "MOVE"],
    holds: [],
    remainingQuantity: 1,
    moreLines: false,
    lines: [
      {
        id: "gid://shopify/FulfillmentOrderLineItem/1",
        ...{ sku: "A", title: "A", requiresShipping: true, remainingQuantity: 1 },
      },
    ],
    ...fields,
  });
  const picture = (fields: Partial<FulfillmentPicture>): FulfillmentPicture => ({
    orderId: "gid://shopify/Order/1",
    fulfillmentOrders: [],
    fulfillments: [],
    ...fields,
  });
  const target = { locationId: WAREHOUSE, ttn: "20450000000001" };

  it("fulfils every open fulfillment order at the location in one fulfillment", () => {
    const second = fo({ id: "gid://shopify/FulfillmentOrder/11", status: "IN_PROGRESS" });
    const elsewhere = fo({ id: "gid://shopify/FulfillmentOrder/12", locationId: "gid://shopify/Location/2" });
    expect(planFulfilment(picture({ fulfillmentOrders: [fo(), second, elsewhere] }), target)).toEqual({
      action: "create",
      fulfillmentOrderIds: [fo().id, second.id],
      unshipped: [],
    });
  });

  describe("with what the warehouse was sent", () => {
    const line = (id: number, sku: string | null, remainingQuantity: number) => ({
      id: `gid://shopify/FulfillmentOrderLineItem/${id}`,
      ...{ sku, title: sku ? `Item ${sku}` : "Gift wrap", requiresShipping: true, remainingQuantity },
    });
    const lines = [line(1, "A", 3), line(2, "B", 1), line(3, null, 1)];

    it("fulfils only the units sent, line by line, and names what remains unshipped", () => {
      const plan = planFulfilment(picture({ fulfillmentOrders: [fo({ remainingQuantity: 5, lines })] }), {
        ...target,
        shipped: [{ sku: "A", count: 2 }],
      });
      expect(plan).toEqual({
        action: "create",
        fulfillmentOrderIds: [fo().id],
        lines: [{ fulfillmentOrderId: fo().id, lineItems: [{ id: lines[0]!.id, quantity: 2 }] }],
        unshipped: [
          { sku: "A", title: "Item A", quantity: 1 },
          { sku: "B", title: "Item B", quantity: 1 },
          { sku: null, title: "Gift wrap", quantity: 1 },
        ],
      });
    });

    it("fills a SKU's lines in turn, never past what remains on a line", () => {
      const split = [line(1, "A", 1), line(2, "A", 4)];
      const plan = planFulfilment(picture({ fulfillmentOrders: [fo({ lines: split })] }), {
        ...target,
        shipped: [{ sku: "A", count: 9 }],
      });
      expect(plan).toMatchObject({
        lines: [
          {
            lineItems: [
              { id: split[0]!.id, quantity: 1 },
              { id: split[1]!.id, quantity: 4 },
            ],
          },
        ],
        unshipped: [],
      });
    });

    it("is not stopped by a hold on a fulfillment order holding nothing the warehouse shipped", () => {
      const held = fo({
        id: "gid://shopify/FulfillmentOrder/11",
        status: "ON_HOLD",
        holds: [{ id: "h", reason: "OTHER", displayReason: "Other", heldByRequestingApp: false }],
        lines: [line(9, "C", 1)],
      });
      const plan = planFulfilment(picture({ fulfillmentOrders: [fo({ lines }), held] }), {
        ...target,
        shipped: [{ sku: "A", count: 3 }],
      });
      expect(plan).toMatchObject({ action: "create", fulfillmentOrderIds: [fo().id] });
      expect(plan.action === "create" && plan.unshipped.map((entry) => entry.sku)).toEqual(["B", null, "C"]);
    });

    it("does not count a gift card or a service, never sent to the warehouse, as unshipped", () => {
      const giftCard = { ...line(4, null, 1), title: "Gift card", requiresShipping: false };
      const plan = planFulfilment(
        picture({ fulfillmentOrders: [fo({ lines: [line(1, "A", 1), giftCard] })] }),
        {
          ...target,
          shipped: [{ sku: "A", count: 1 }],
        },
      );
      expect(plan).toMatchObject({ action: "create", unshipped: [] });
    });

    it("says so when nothing the warehouse shipped is left in the order", () => {
      const plan = planFulfilment(picture({ fulfillmentOrders: [fo({ lines: [line(1, "C", 1)] })] }), {
        ...target,
        shipped: [{ sku: "A", count: 1 }],
      });
      expect(plan).toMatchObject({ action: "problem", problem: { code: "shipped_not_in_order" } });
    });
  });

  it("finds our fulfillment by any waybill the order has had, today's first", () => {
    const carrying = (id: number, number: string) => ({
      id: `gid://shopify/Fulfillment/${id}`,
      ...{ status: "SUCCESS", locationId: WAREHOUSE },
      trackingInfo: [{ number, company: "Nova Poshta", url: null }],
    });
    const old = carrying(1, "20450000000009");
    const changed = { ...target, ttn: "20450000000002", waybills: ["20450000000009", "20450000000002"] };
    expect(planFulfilment(picture({ fulfillments: [old] }), changed)).toMatchObject({
      action: "found",
      fulfillmentId: old.id,
      trackingNumbers: ["20450000000009"],
    });
    // Without the history, the old waybill's fulfillment is not ours and the order reads as fulfilled by hand.
    expect(planFulfilment(picture({ fulfillments: [old] }), { ...changed, waybills: [] })).toMatchObject({
      action: "problem",
      problem: { code: "already_fulfilled" },
    });
  });

  it("counts lines beyond those read as remaining", () => {
    const plan = planFulfilment(
      picture({ fulfillmentOrders: [fo({ remainingQuantity: 0, moreLines: true })] }),
      target,
    );
    expect(plan.action).toBe("create");
  });

  it("prefers a live fulfillment carrying the waybill to a cancelled one", () => {
    const tracking = [{ number: "20450000000001", company: "Nova Poshta", url: null }];
    const fulfillments = [
      {
        id: "gid://shopify/Fulfillment/1",
        status: "CANCELLED",
        locationId: WAREHOUSE,
        trackingInfo: tracking,
      },
      { id: "gid://shopify/Fulfillment/2", status: "SUCCESS", locationId: WAREHOUSE, trackingInfo: tracking },
    ];
    expect(planFulfilment(picture({ fulfillments }), target)).toMatchObject({
      action: "found",
      fulfillmentId: "gid://shopify/Fulfillment/2",
    });
  });

  it("does not fulfil part of the shipment while another part at the location is held by the merchant", () => {
    const held = fo({
      id: "gid://shopify/FulfillmentOrder/11",
      status: "ON_HOLD",
      holds: [{ id: "h", reason: "OTHER", displayReason: "Other", heldByRequestingApp: false }],
    });
    expect(planFulfilment(picture({ fulfillmentOrders: [fo(), held] }), target)).toMatchObject({
      action: "problem",
      problem: { code: "on_hold" },
    });
  });

  it("has a whole-sentence message for every problem", () => {
    for (const message of Object.values(FULFILLMENT_PROBLEM_MESSAGES)) expect(message).toMatch(/^[A-Z].*\.$/);
  });
});
