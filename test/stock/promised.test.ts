// The units kept off sale for orders the warehouse has not taken: which orders count (every state short of the
// warehouse's acceptance, and those accepted after its report was asked for), and how many units each line is.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { unitsBySku } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { unitsNotTaken } from "../../app/stock/promised.server";
import { driveOrder, FIXTURE_ORDER, seedOrder, statusReport } from "../support/orders";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER = "other-store.myshopify.com";
// The fixture orders 2 × CUP-KARP-BLUE and 1 × TEA-POL-100.
const lines = FIXTURE_ORDER.line_items as Array<Record<string, unknown>>;

describe("unitsNotTaken", () => {
  it("counts held, ready, refused and in-doubt orders, those the warehouse cancelled, and accepted ones only if accepted after the report was asked for", async () => {
    const { db, log } = appContext();
    await seedOrder(db, { shop: SHOP, number: 1001, state: "held" });
    await seedOrder(db, { shop: SHOP, number: 1002, state: "ready" });
    await seedOrder(db, { shop: SHOP, number: 1003, state: "rejected" });
    await seedOrder(db, { shop: SHOP, number: 1004, state: "in_doubt" });
    const accepted = await seedOrder(db, { shop: SHOP, number: 1005, state: "accepted" });
    await seedOrder(db, { shop: SHOP, number: 1006, state: "cancelled" });
    await seedOrder(db, { shop: OTHER, number: 1007, state: "held" });
    const acceptedAt = accepted.acceptedAt!;
    // Picked, then cancelled by the warehouse: its units are free there, still committed in Shopify.
    const cancelledThere = await seedOrder(db, { shop: SHOP, number: 1008, state: "accepted" });
    await driveOrder(cancelledThere, statusReport("Скасовано", "cancelled_at_warehouse"));
    // Shipped: no longer the store's concern here.
    const shipped = await seedOrder(db, { shop: SHOP, number: 1009, state: "accepted" });
    await driveOrder(shipped, statusReport("Відправлено", "shipped", "20450000000001"));

    // Asked for after the last acceptance: the report has #1005 reserved and #1009 shipped; #1008, cancelled at
    // the warehouse, counts with the four not taken (5 orders × 2 cups and 1 tea).
    const lastAccepted = [accepted, cancelledThere, shipped].map((row) => row.acceptedAt!.getTime());
    const later = new Date(Math.max(...lastAccepted) + 1);
    expect(Object.fromEntries(await unitsNotTaken(db, log, SHOP, later))).toEqual({
      "CUP-KARP-BLUE": 10,
      "TEA-POL-100": 5,
    });
    // Asked for before (or as) #1005 was accepted: the report may have none of the three accepted since, so
    // their units are kept off sale too (#1008 once, though both accepted since and cancelled there).
    expect(Object.fromEntries(await unitsNotTaken(db, log, SHOP, acceptedAt))).toEqual({
      "CUP-KARP-BLUE": 14,
      "TEA-POL-100": 7,
    });
  });
});

describe("unitsBySku", () => {
  const order = (changes: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
    shopifyOrderSchema.parse({
      ...FIXTURE_ORDER,
      line_items: lines.map((line, index) => ({ ...line, ...changes[index] })),
      ...extra,
    });

  it("counts what is still to ship of each line that ships, by its trimmed SKU, lines sharing one added up", () => {
    expect(Object.fromEntries(unitsBySku(order([{}, { sku: " CUP-KARP-BLUE " }])))).toEqual({
      "CUP-KARP-BLUE": 3,
    });
    // Fulfilled in Shopify meanwhile, removed by an edit, a gift card, a service: no longer committed.
    expect(
      Object.fromEntries(unitsBySku(order([{ fulfillable_quantity: 1 }, { current_quantity: 0 }]))),
    ).toEqual({ "CUP-KARP-BLUE": 1 });
    expect(unitsBySku(order([{ gift_card: true }, { requires_shipping: false }])).size).toBe(0);
    // A refund that cannot be read: the whole line counts, since keeping too much off sale is the safe side.
    const unreadable = order([{ current_quantity: undefined }, {}], {
      refunds: [{ refund_line_items: [{}] }],
    });
    expect(Object.fromEntries(unitsBySku(unreadable))).toEqual({ "CUP-KARP-BLUE": 2, "TEA-POL-100": 1 });
  });
});
