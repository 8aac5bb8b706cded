// The routing decision, pure: an order's fulfillment orders as stored, the mode and the warehouse's location
// give waiting (and for what), not the warehouse's, or the warehouse's lines.
import { describe, expect, it } from "vitest";
import {
  decideRouting,
  parseWarehouseLines,
  unitsByLineItem,
  warehouseLinesColumn,
  type FulfillmentOrderFacts,
} from "../../app/routing/decide";

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
