// The routing decision, pure: an order's fulfillment orders as stored, the mode and the warehouse's location
// give waiting (and for what), not the warehouse's, or the warehouse's lines.
import { describe, expect, it } from "vitest";
import {
  decideRouting,
  expectedUnits,
  INCOMPLETE_WAIT_MS,
  UNREADABLE_PAYLOAD_LINE,
  parseWarehouseLines,
  unitsByLineItem,
  warehouseLinesColumn,
  type FulfillmentOrderFacts,
} from "../../app/routing/decide";
import { shopifyOrderSchema } from "../../app/orders/payload";

const L = "gid://shopify/Location/1";
const SHOWROOM = "gid://shopify/Location/2";
const line = (n: number, remaining: number, total = remaining) => ({
  id: `gid://shopify/FulfillmentOrderLineItem/${n}`,
  lineItemId: `gid://shopify/LineItem/${n}`,
  sku: `SKU-${n}`,
  totalQuantity: total,
  remainingQuantity: remaining,
});
let next = 0;
function fo(
  over: Partial<FulfillmentOrderFacts> & { items?: ReturnType<typeof line>[] } = {},
): FulfillmentOrderFacts {
  const { items, ...rest } = over;
  return {
    id: `gid://shopify/FulfillmentOrder/${++next}`,
    locationId: L,
    status: "OPEN",
    requestStatus: "UNSUBMITTED",
    fulfillAt: null,
    lines: JSON.stringify(items ?? [line(1, 2)]),
    holds: "[]",
    ...rest,
  };
}

describe("decideRouting", () => {
  it("waits for routing while no fulfillment order is stored", () => {
    expect(decideRouting([], "location", L)).toEqual({ kind: "waiting", reason: "routing" });
  });

  it("is not the warehouse's when nothing with units left is at its location", () => {
    expect(decideRouting([fo({ locationId: SHOWROOM })], "location", L)).toEqual({ kind: "elsewhere" });
    // At L but closed, cancelled, or with nothing remaining: nothing for the warehouse either.
    for (const row of [
      fo({ status: "CLOSED" }),
      fo({ status: "CANCELLED" }),
      fo({ status: "INCOMPLETE" }),
      fo({ items: [line(1, 0, 2)] }),
    ])
      expect(decideRouting([row, fo({ locationId: SHOWROOM })], "location", L).kind).toBe("elsewhere");
  });

  it("gives the warehouse's lines with their remaining quantities, whole when nothing is elsewhere", () => {
    const a = fo({ items: [line(2, 1, 3), line(1, 2)] });
    const decision = decideRouting([a], "location", L);
    expect(decision).toEqual({
      kind: "lines",
      split: false,
      fulfillmentOrderIds: [a.id],
      lines: [
        { lineItemId: "gid://shopify/LineItem/1", fulfillmentOrderId: a.id, quantity: 2 },
        { lineItemId: "gid://shopify/LineItem/2", fulfillmentOrderId: a.id, quantity: 1 },
      ],
    });
  });

  it("is split when units are left at another location, and sends only the warehouse's", () => {
    const here = fo({ items: [line(1, 2)] });
    const there = fo({ locationId: SHOWROOM, items: [line(3, 1)] });
    const decision = decideRouting([there, here], "location", L);
    expect(decision.kind === "lines" && decision.split).toBe(true);
    expect(decision.kind === "lines" && decision.lines.map((l) => l.lineItemId)).toEqual([
      "gid://shopify/LineItem/1",
    ]);
    // What was fulfilled at the other location already does not split it.
    const done = fo({ locationId: SHOWROOM, status: "CLOSED", items: [line(3, 0, 1)] });
    const whole = decideRouting([done, here], "location", L);
    expect(whole.kind === "lines" && whole.split).toBe(false);
  });

  it("sums a line split over two fulfillment orders at the location", () => {
    const a = fo({ items: [line(1, 1, 3)] });
    const b = fo({ items: [line(1, 2, 3)] });
    const decision = decideRouting([b, a], "location", L);
    if (decision.kind !== "lines") throw new Error(decision.kind);
    expect(decision.fulfillmentOrderIds).toEqual([a.id, b.id].sort());
    expect(unitsByLineItem(decision.lines).get("gid://shopify/LineItem/1")).toBe(3);
  });

  it("waits while the warehouse's fulfillment order is on hold, with the hold's reasons", () => {
    const hold = {
      id: "gid://shopify/FulfillmentHold/1",
      reason: "HIGH_RISK_OF_FRAUD",
      heldByRequestingApp: false,
    };
    const decision = decideRouting(
      [fo({ status: "ON_HOLD", holds: JSON.stringify([hold]) }), fo()],
      "location",
      L,
    );
    expect(decision.kind === "waiting" && decision.reason).toBe("on_hold");
    expect(decision.kind === "waiting" && decision.reason === "on_hold" && decision.holds).toEqual([hold]);
  });

  it("waits for a scheduled date, the earliest of the location's", () => {
    const early = new Date("2026-04-01T00:00:00Z");
    const decision = decideRouting(
      [
        fo({ status: "SCHEDULED", fulfillAt: new Date("2026-05-01T00:00:00Z") }),
        fo({ status: "SCHEDULED", fulfillAt: early }),
      ],
      "location",
      L,
    );
    expect(decision).toMatchObject({ kind: "waiting", reason: "scheduled", fulfillAt: early });
    // A hold outranks the date: only the merchant can release it.
    expect(
      decideRouting(
        [fo({ status: "SCHEDULED", fulfillAt: early }), fo({ status: "ON_HOLD" })],
        "location",
        L,
      ),
    ).toMatchObject({ reason: "on_hold" });
  });

  it("service mode: waits for the request, takes submitted and accepted, drops cancellation requests", () => {
    expect(decideRouting([fo({ requestStatus: "UNSUBMITTED" })], "service", L)).toMatchObject({
      kind: "waiting",
      reason: "request",
    });
    for (const requestStatus of ["SUBMITTED", "ACCEPTED", "CANCELLATION_REJECTED"])
      expect(decideRouting([fo({ requestStatus })], "service", L).kind, requestStatus).toBe("lines");
    for (const requestStatus of ["CANCELLATION_REQUESTED", "CANCELLATION_ACCEPTED", "REJECTED", "CLOSED"])
      expect(decideRouting([fo({ requestStatus })], "service", L).kind, requestStatus).toBe("elsewhere");
    // Location mode reads no request status.
    expect(decideRouting([fo({ requestStatus: "CANCELLATION_REQUESTED" })], "location", L).kind).toBe(
      "lines",
    );
  });

  it("decides the same from the same rows in any order, to the same column", () => {
    const rows = [fo({ items: [line(5, 1), line(4, 2)] }), fo({ items: [line(6, 1)] })];
    const one = decideRouting(rows, "location", L);
    const two = decideRouting([...rows].reverse(), "location", L);
    if (one.kind !== "lines" || two.kind !== "lines") throw new Error("lines expected");
    expect(warehouseLinesColumn(one.lines)).toBe(warehouseLinesColumn(two.lines));
    expect(parseWarehouseLines(warehouseLinesColumn(one.lines))).toEqual(one.lines);
    expect(parseWarehouseLines(null)).toBeNull();
    expect(parseWarehouseLines("not json")).toBeNull();
  });
});

describe("the completeness guard", () => {
  const gid = (n: number) => `gid://shopify/LineItem/${n}`;
  /** A payload's line items, each [n, quantity, more fields]. */
  const order = (...lines: [n: number, quantity: number, more?: Record<string, unknown>][]) =>
    shopifyOrderSchema.parse({
      id: 1,
      order_number: 1001,
      created_at: "2026-03-01T09:00:00Z",
      line_items: lines.map(([n, quantity, more]) => ({
        id: n,
        admin_graphql_api_id: gid(n),
        quantity,
        requires_shipping: true,
        gift_card: false,
        ...more,
      })),
    });
  const now = new Date("2026-03-01T09:05:00Z");
  const guard = (expected: ReturnType<typeof expectedUnits>, decideBy = new Date(now.getTime() + 1)) => ({
    expected,
    decideBy,
    now,
  });

  it("expects the lines Shopify gives fulfillment orders: not gift cards, digital lines yes, current quantities", () => {
    const expected = expectedUnits(
      order(
        [1, 2],
        [2, 1, { gift_card: true, requires_shipping: false }],
        [3, 1, { requires_shipping: false }],
        [4, 3, { current_quantity: 1 }],
        [5, 2, { current_quantity: 0 }],
      ),
    );
    expect([...expected.byLineItem]).toEqual([
      [gid(1), 2],
      [gid(3), 1],
      [gid(4), 1],
    ]);
    expect(expected.unreadable).toBe(0);
    // A line with neither id nor quantity cannot be matched: it is counted, never covered.
    const unreadable = expectedUnits(
      shopifyOrderSchema.parse({
        id: 1,
        order_number: 1,
        created_at: "2026-03-01T09:00:00Z",
        line_items: [{}],
      }),
    );
    expect(unreadable.unreadable).toBe(1);
  });

  it("waits for routing, due at its bound, while the rows do not cover the order's lines", () => {
    const decideBy = new Date(now.getTime() + INCOMPLETE_WAIT_MS);
    const expected = expectedUnits(order([1, 2], [3, 1]));
    expect(decideRouting([fo({ items: [line(1, 2)] })], "location", L, guard(expected, decideBy))).toEqual({
      kind: "waiting",
      reason: "routing",
      uncovered: [gid(3)],
      decideBy,
    });
    // No rows at all: waiting for routing as ever, with no bound (nothing was read).
    expect(decideRouting([], "location", L, guard(expected))).toEqual({ kind: "waiting", reason: "routing" });
  });

  it("counts every stored row's total, closed and cancelled ones too, a replacement exceeding", () => {
    const expected = expectedUnits(order([1, 2], [3, 1]));
    // A move: the original closed with the units' totals, the replacement at L, and the showroom's.
    const moved = [
      fo({ status: "CLOSED", locationId: SHOWROOM, items: [line(1, 0, 2)] }),
      fo({ items: [line(1, 2)] }),
      fo({ status: "CANCELLED", locationId: SHOWROOM, items: [line(3, 0, 1)] }),
    ];
    const decision = decideRouting(moved, "location", L, guard(expected));
    expect(decision).toMatchObject({ kind: "lines", split: false });
    expect(decision).not.toHaveProperty("uncovered");
    // Not covered by remaining quantities: one of two cups left at L, the other fulfilled already.
    expect(
      decideRouting([fo({ items: [line(1, 1, 2), line(3, 1)] })], "location", L, guard(expected)).kind,
    ).toBe("lines");
    // A total less than the payload's: a partial move whose new fulfillment order is not read yet.
    expect(
      decideRouting([fo({ items: [line(1, 1, 1), line(3, 1)] })], "location", L, guard(expected)),
    ).toMatchObject({ kind: "waiting", reason: "routing", uncovered: [gid(1)] });
  });

  it("decides from what was read once its bound has come, naming what was not covered", () => {
    const expected = expectedUnits(order([1, 2], [3, 1]));
    const late = guard(expected, now);
    expect(decideRouting([fo({ items: [line(1, 2)] })], "location", L, late)).toMatchObject({
      kind: "lines",
      split: false,
      uncovered: [gid(3)],
    });
    expect(decideRouting([fo({ locationId: SHOWROOM, items: [line(3, 1)] })], "location", L, late)).toEqual({
      kind: "elsewhere",
      uncovered: [gid(1)],
    });
    // An unreadable payload line is never covered: only the bound decides.
    const unreadable = { byLineItem: new Map([[gid(1), 2]]), unreadable: 1 };
    expect(decideRouting([fo({ items: [line(1, 2)] })], "location", L, guard(unreadable))).toMatchObject({
      kind: "waiting",
      uncovered: [UNREADABLE_PAYLOAD_LINE],
    });
  });
});
