// What a fulfillment request waits for, by the order's state: a hold in Shopify is the merchant's to release
// (looked at again rarely), while an order waiting for Shopify's routing moves on by itself soon.
import { describe, expect, it } from "vitest";
import { decideAnswer, type OrderFacts } from "../../app/service/answer";

const order = (facts: Partial<OrderFacts>): OrderFacts => ({
  state: "waiting",
  stage: null,
  pending: null,
  attention: null,
  attentionMessage: null,
  lastError: null,
  idOrderFF: null,
  ...facts,
});

describe("a fulfillment request of an order waiting for Shopify", () => {
  it("waits for the merchant while the fulfillment order is on hold, and briefly while it is being routed", () => {
    expect(decideAnswer("SUBMITTED", order({ waitReason: "on_hold" }))).toEqual({
      do: "wait",
      why: "merchant",
    });
    expect(decideAnswer("SUBMITTED", order({ waitReason: "routing" }))).toEqual({
      do: "wait",
      why: "in_flight",
    });
    expect(decideAnswer("SUBMITTED", order({ state: "held" }))).toEqual({ do: "wait", why: "merchant" });
  });

  it("is cancelled at once when the order never reached the warehouse", () => {
    expect(decideAnswer("CANCELLATION_REQUESTED", order({ waitReason: "on_hold" }))).toEqual({
      do: "answer",
      answer: "accept_cancellation",
    });
  });
});
