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
