// The mapping's products and Cost: one product per SKU still to ship, prices after discounts and refunds,
// the declared value rounded half up, and the holds for items that cannot be sent.
import { describe, expect, it } from "vitest";
import { lineItem, uaOrder } from "../support";
import { codes, holds, mapped, only } from "./support";

describe("products and Cost", () => {
  const withLines = (lines: ReturnType<typeof lineItem>[], refunds?: unknown[]) =>
    uaOrder((draft) => {
      draft.line_items = lines;
      if (refunds) draft.refunds = refunds as typeof draft.refunds;
    });
  const line = (n: number, changes: Parameters<typeof lineItem>[0]) =>
    lineItem({ id: 9000 + n, admin_graphql_api_id: `gid://shopify/LineItem/${9000 + n}`, ...changes });

  it("merges lines of one SKU: counts added, price the weighted average", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", name: "Mug", price: "100.00", quantity: 2, current_quantity: 2 }),
        line(2, { sku: "TEA", name: "Tea", price: "50.00", quantity: 1, current_quantity: 1 }),
        line(3, { sku: "MUG", name: "Mug (gift wrap)", price: "130.00", quantity: 1, current_quantity: 1 }),
      ]),
    );
    expect(order.products).toEqual([
      { sku: "MUG", name: "Mug", count: "3", price: "110.00" },
      { sku: "TEA", name: "Tea", count: "1", price: "50.00" },
    ]);
    expect(order.Cost).toBe(380);
  });

  it("rounds a weighted average to the kopeck", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 1, current_quantity: 1 }),
        line(2, { sku: "MUG", price: "100.01", quantity: 2, current_quantity: 2 }),
      ]),
    );
    expect(order.products[0]).toMatchObject({ count: "3", price: "100.01" }); // 300.02 / 3
  });

  it("spreads a line's discounts over its units, and Cost counts the discounted value", () => {
    const order = mapped(
      withLines([
        line(1, {
          sku: "MUG",
          price: "100.00",
          quantity: 3,
          current_quantity: 3,
          discount_allocations: [{ amount: "6.00" }, { amount: "4.00" }],
        }),
      ]),
    );
    expect(order.products[0]).toMatchObject({ count: "3", price: "96.67" }); // (300 − 10) / 3
    expect(order.Cost).toBe(290);
  });

  it("falls back to total_discount without allocations, and never counts a discount twice", () => {
    const legacy = line(1, { sku: "MUG", price: "100.00", quantity: 2, total_discount: "40.00" });
    expect(mapped(withLines([{ ...legacy, discount_allocations: [] }])).products[0]!.price).toBe("80.00");
    const both = { ...legacy, discount_allocations: [{ amount: "40.00" }] };
    expect(mapped(withLines([both])).products[0]!.price).toBe("80.00");
  });

  it.each([
    ["819.50", 820],
    ["819.49", 819],
    ["0.50", 1],
    ["1000.00", 1000],
  ])("rounds goods worth %s to %i UAH (half up)", (price, cost) => {
    const order = mapped(withLines([line(1, { sku: "X", price, quantity: 1, current_quantity: 1 })]));
    expect(order.Cost).toBe(cost);
  });

  it("leaves out gift cards and items that need no shipping (tips), from products and from Cost", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 1 }),
        line(2, { sku: "GIFT-500", price: "500.00", quantity: 1, gift_card: true, requires_shipping: false }),
        line(3, { sku: "TIP", name: "Tip", price: "50.00", quantity: 1, requires_shipping: false }),
        line(4, { sku: null, name: "Card-only gift", price: "300.00", quantity: 1, gift_card: true }),
      ]),
    );
    expect(order.products.map((product) => product.sku)).toEqual(["MUG"]);
    expect(order.Cost).toBe(100);
  });

  it("uses current_quantity when Shopify gives it, dropping lines edited down to nothing", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 3, current_quantity: 1 }),
        line(2, { sku: "TEA", price: "50.00", quantity: 2, current_quantity: 0 }),
      ]),
    );
    expect(order.products).toEqual([expect.objectContaining({ sku: "MUG", count: "1", price: "100.00" })]);
    expect(order.Cost).toBe(100);
  });

  it("subtracts refunded quantities without current_quantity, keeping the remaining units' discount share", () => {
    const lines = [
      line(1, {
        sku: "MUG",
        price: "100.00",
        quantity: 3,
        current_quantity: null,
        discount_allocations: [{ amount: "30.00" }],
      }),
      line(2, { sku: "TEA", price: "50.00", quantity: 1, current_quantity: null }),
    ];
    const refunds = [
      { refund_line_items: [{ line_item_id: 9001, quantity: 1 }] },
      { refund_line_items: [{ line_item_id: 9002, quantity: 1 }] },
    ];
    const order = mapped(withLines(lines, refunds));
    expect(order.products).toEqual([expect.objectContaining({ sku: "MUG", count: "2", price: "90.00" })]);
    expect(order.Cost).toBe(180);
  });

  it("matches a refund to its line when JSON.parse rounded the big line id", () => {
    const big = lineItem({
      id: 487817672276298560,
      admin_graphql_api_id: "gid://shopify/LineItem/487817672276298554",
      sku: "MUG",
      quantity: 2,
      current_quantity: null,
    });
    const refunds = [{ refund_line_items: [{ line_item_id: 487817672276298560, quantity: 1 }] }];
    expect(mapped(withLines([big], refunds)).products[0]!.count).toBe("1");
  });

  it("holds every item without a SKU, naming each", () => {
    const reasons = holds(
      withLines([
        line(1, { sku: null, name: "Свічка «Лаванда»" }),
        line(2, { sku: "   ", name: "Свічка «М'ята»" }),
        line(3, { sku: "TEA" }),
      ]),
    );
    expect(codes(reasons)).toEqual(["sku_missing", "sku_missing"]);
    expect(reasons[0]!.message).toContain("Свічка «Лаванда»");
    expect(reasons[1]!.message).toContain("Свічка «М'ята»");
    expect(reasons[0]!.action).toBe("shopify");
  });

  it("does not hold a refunded item without a SKU", () => {
    const order = mapped(withLines([line(1, { sku: null, current_quantity: 0 }), line(2, { sku: "TEA" })]));
    expect(order.products.map((product) => product.sku)).toEqual(["TEA"]);
  });

  it("holds an order with nothing to ship", () => {
    const order = withLines([
      line(1, { sku: "GIFT", gift_card: true, requires_shipping: false }),
      line(2, { sku: "TEA", current_quantity: 0 }),
    ]);
    const reason = only(holds(order), "no_shippable_lines");
    expect(reason.message).toContain("#1042");
  });

  it("holds a store whose currency is not UAH", () => {
    const order = uaOrder((draft) => {
      draft.currency = "EUR";
    });
    const reason = only(holds(order), "currency_not_uah");
    expect(reason.message).toContain("EUR");
    expect(reason.fix).toMatch(/UAH/);
  });
});
