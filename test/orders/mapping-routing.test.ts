// Mapping with the warehouse's lines (routing): only the line items Shopify assigned to the warehouse's location,
// with those quantities, and the amounts that follow them; a split order paid on delivery collects what the
// merchant chose, and is held with the three choices when they did not.
import { describe, expect, it } from "vitest";
import { mapOrder, unitsBySku, type MappingResult } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { orderSettingsSchema, type OrderOverrides } from "../../app/orders/settings";
import type { WarehouseLine } from "../../app/routing/decide";
import { PAYMENT_METHOD } from "../../app/warehouse/wire";
import { FIXTURE_ORDER } from "../support/orders";

const CUP = "gid://shopify/LineItem/15012345678901";
const TEA = "gid://shopify/LineItem/15012345678902";
const FO = "gid://shopify/FulfillmentOrder/1";
const order = (changes: Record<string, unknown> = {}) =>
  shopifyOrderSchema.parse({ ...FIXTURE_ORDER, ...changes });
const lines = (...items: [string, number][]): WarehouseLine[] =>
  items.map(([lineItemId, quantity]) => ({ lineItemId, fulfillmentOrderId: FO, quantity }));

function map(
  warehouseLines: WarehouseLine[] | null,
  options: { setting?: string; overrides?: OrderOverrides; changes?: Record<string, unknown> } = {},
): MappingResult {
  return mapOrder({
    order: order(options.changes),
    settings: orderSettingsSchema.parse({ splitCashOnDelivery: options.setting ?? "ask" }),
    overrides: options.overrides ?? {},
    warehouseLines,
  });
}
const ok = (result: MappingResult) => {
  if (!result.ok) throw new Error(JSON.stringify(result.hold.map((h) => h.code)));
  return result.order;
};

describe("mapping with the warehouse's lines", () => {
  it("maps the whole order without lines, and the same goods with all of them", () => {
    const whole = ok(map(null));
    expect(ok(map(lines([CUP, 2], [TEA, 1])))).toEqual(whole);
  });

  it("sends only the warehouse's lines, with their quantities and value", () => {
    const parcel = ok(map(lines([CUP, 1], [TEA, 1]), { setting: "parcel_share" }));
    // One cup of two (350 less half the 70 discount = 315) and the tea (189.50).
    expect(parcel.products.map((p) => [p.sku, p.count, p.price])).toEqual([
      ["CUP-KARP-BLUE", "1", "315.00"],
      ["TEA-POL-100", "1", "189.50"],
    ]);
    expect(parcel.Cost).toBe(505);
  });

  it("holds a split order paid on delivery until the merchant chooses, with the sums in the reason", () => {
    const result = map(lines([TEA, 1]));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.hold.map((h) => [h.code, h.action])).toEqual([["split_cod_undecided", "splitCod"]]);
    expect(result.hold[0]!.text?.values).toMatchObject({ sum: "1319.50", share: "189.50" });
  });

  it("collects what the setting or the order's own choice says", () => {
    const tea = lines([TEA, 1]);
    expect(ok(map(tea, { setting: "whole_order" })).order_payment_sum).toBe("1319.50");
    expect(ok(map(tea, { setting: "parcel_share" })).order_payment_sum).toBe("189.50");
    // The order's choice outranks the shop's setting.
    const none = ok(map(tea, { setting: "whole_order", overrides: { splitCod: "no_cash" } }));
    expect([none.payment_method, none.order_payment_sum]).toEqual([PAYMENT_METHOD.prepaid, "189.50"]);
    const share = ok(map(tea, { overrides: { splitCod: "parcel_share" } }));
    expect([share.payment_method, share.order_payment_sum]).toEqual([
      PAYMENT_METHOD.cashOnDelivery,
      "189.50",
    ]);
  });

  it("adds the shipping to the parcel's share, never more than the buyer owes", () => {
    const shipping = { shop_money: { amount: "80.00", currency_code: "UAH" } };
    const withShipping = { total_shipping_price_set: shipping, total_outstanding: "250.00" };
    expect(
      ok(map(lines([TEA, 1]), { setting: "parcel_share", changes: withShipping })).order_payment_sum,
    ).toBe("250.00");
    expect(
      ok(map(lines([TEA, 1]), { setting: "parcel_share", changes: { total_shipping_price_set: shipping } }))
        .order_payment_sum,
    ).toBe("269.50");
  });

  it("holds a line routed to the warehouse that the order as received does not have", () => {
    const result = map(lines([CUP, 2], ["gid://shopify/LineItem/1", 1]));
    expect(!result.ok && result.hold.map((h) => h.code)).toEqual(["order_incomplete"]);
  });

  it("counts only the warehouse's lines as the units it will ship", () => {
    expect(Object.fromEntries(unitsBySku(order(), lines([TEA, 1])))).toEqual({ "TEA-POL-100": 1 });
    expect(Object.fromEntries(unitsBySku(order(), null))).toEqual({ "CUP-KARP-BLUE": 2, "TEA-POL-100": 1 });
  });
});
