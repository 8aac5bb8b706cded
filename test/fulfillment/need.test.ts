// What Shopify still has to be told about an order, step by step: the fulfillment, a new waybill, then the
// carrier's progress as events that never go back.
import { describe, expect, it } from "vitest";
import { novaPoshtaEventStatus } from "../../app/fulfillment/carrier-events";
import { shopifyNeed, type ShopifyFacts } from "../../app/fulfillment/need";

const shipped: ShopifyFacts = {
  stage: "shipped",
  ttn: "20450000000001",
  carrierStatus: null,
  fulfillmentId: null,
  fulfilledTtn: null,
  fulfillmentEvent: null,
  fulfillmentProblem: null,
};
const fulfilled: ShopifyFacts = {
  ...shipped,
  fulfillmentId: "gid://shopify/Fulfillment/1",
  fulfilledTtn: shipped.ttn,
};
const carrier = (id: string) => JSON.stringify({ id, name: "", date: "" });
const need = (facts: Partial<ShopifyFacts>) => shopifyNeed({ ...fulfilled, ...facts }, novaPoshtaEventStatus);

describe("what Shopify still has to be told", () => {
  it("is nothing before the order has shipped with a waybill, then a fulfillment, then a new waybill", () => {
    expect(shopifyNeed({ ...shipped, stage: "picked" }, novaPoshtaEventStatus)).toBeNull();
    expect(shopifyNeed({ ...shipped, ttn: null }, novaPoshtaEventStatus)).toBeNull();
    expect(shopifyNeed(shipped, novaPoshtaEventStatus)).toEqual({ do: "fulfil" });
    expect(need({ ttn: "20450000000002" })).toEqual({ do: "tracking" });
    expect(need({})).toBeNull();
  });

  it("is nothing while a problem waits for the merchant", () => {
    expect(shopifyNeed({ ...shipped, fulfillmentProblem: "on_hold" }, novaPoshtaEventStatus)).toBeNull();
  });

  it("follows the parcel out for delivery, a failed attempt, a delay and out again, then delivered", () => {
    expect(need({ carrierStatus: carrier("5") })).toEqual({ do: "event", status: "IN_TRANSIT" });
    const steps: [string, string][] = [
      ["101", "OUT_FOR_DELIVERY"],
      ["111", "ATTEMPTED_DELIVERY"],
      ["112", "DELAYED"],
      ["101", "OUT_FOR_DELIVERY"],
    ];
    let told = "IN_TRANSIT";
    for (const [code, status] of steps) {
      expect(need({ carrierStatus: carrier(code), fulfillmentEvent: told })).toEqual({ do: "event", status });
      told = status;
    }
    expect(need({ stage: "delivered", carrierStatus: carrier("101"), fulfillmentEvent: told })).toEqual({
      do: "event",
      status: "DELIVERED",
    });
  });

  it("never sends the parcel back on its way, nor the same event twice", () => {
    expect(need({ carrierStatus: carrier("5"), fulfillmentEvent: "OUT_FOR_DELIVERY" })).toBeNull();
    expect(need({ carrierStatus: carrier("101"), fulfillmentEvent: "FAILURE" })).toBeNull();
    expect(need({ carrierStatus: carrier("101"), fulfillmentEvent: "OUT_FOR_DELIVERY" })).toBeNull();
    expect(need({ stage: "delivered", fulfillmentEvent: "DELIVERED" })).toBeNull();
    // A code that says nothing new, or no carrier status at all.
    expect(need({ carrierStatus: carrier("4") })).toBeNull();
    expect(need({ carrierStatus: "not json" })).toBeNull();
  });
});
