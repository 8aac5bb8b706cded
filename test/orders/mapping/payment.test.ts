// The mapping's payment: payment_method and order_payment_sum from the gateways' names and the merchant's
// rules, cash on delivery collecting what is still to pay.
import { describe, expect, it } from "vitest";
import { PAYMENT_METHOD } from "../../../app/warehouse/wire";
import { uaOrder } from "../support";
import { mapped } from "./support";

describe("payment_method and order_payment_sum", () => {
  /** Outstanding 600.00 of a 1319.50 total: part prepaid, so the two amounts tell the rules apart. */
  const paidWith = (gateways: string[], outstanding = "600.00") =>
    uaOrder((draft) => {
      draft.payment_gateway_names = gateways;
      draft.total_outstanding = outstanding;
    });

  it.each([
    "Cash on Delivery (COD)",
    "cash on delivery",
    "COD",
    "Накладений платіж",
    "Накладеним платежем",
    "Оплата при отриманні",
    "Післяплата",
    "Наложенный платеж",
    "Наложенный платёж",
    "НАЛОЖЕННЫЙ ПЛАТЁЖ",
    "Оплата при получении",
    "Наличными",
    "Готівкою кур'єру",
  ])("recognises %j as cash on delivery and collects the outstanding amount", (gateway) => {
    const order = mapped(paidWith([gateway]));
    expect(order.payment_method).toBe(PAYMENT_METHOD.cashOnDelivery);
    expect(order.order_payment_sum).toBe("600.00");
  });

  it.each([["LiqPay"], ["shopify_payments"], ["Codeshop Pay"], ["manual"], []])(
    "treats %j as prepaid and sends the order total",
    (...gateways: string[]) => {
      const order = mapped(paidWith(gateways));
      expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
      expect(order.order_payment_sum).toBe("1319.50");
    },
  );

  it("collects on delivery when any of several gateways is cash on delivery", () => {
    const order = mapped(paidWith(["gift_card", "Накладений платіж"], "819.50"));
    expect(order.payment_method).toBe(PAYMENT_METHOD.cashOnDelivery);
    expect(order.order_payment_sum).toBe("819.50");
  });

  it("sends a cash-on-delivery order with nothing outstanding as prepaid (zero would mean: collect the total)", () => {
    const order = mapped(paidWith(["Накладений платіж"], "0.00"));
    expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("applies the merchant's rules before the built-in ones, case-insensitively", () => {
    const liqpayCod = { paymentRules: [{ match: "LIQ", method: "cashOnDelivery" as const }] };
    expect(mapped(paidWith(["LiqPay"]), { settings: liqpayCod }).payment_method).toBe(
      PAYMENT_METHOD.cashOnDelivery,
    );
    const codPrepaid = { paymentRules: [{ match: "накладений", method: "prepaid" as const }] };
    const order = mapped(paidWith(["Накладений платіж"]), { settings: codPrepaid });
    expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("writes amounts with two decimals", () => {
    const order = uaOrder((draft) => {
      draft.payment_gateway_names = ["COD"];
      draft.total_outstanding = "1319.5";
    });
    expect(mapped(order).order_payment_sum).toBe("1319.50");
  });
});
