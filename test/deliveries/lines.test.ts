// The pure parts of delivery requests: a report merged into the stored lines whatever it leaves out, the
// status shown from both sides, Kyiv's day for "not in the past", and the form's numbers.
import { describe, expect, it } from "vitest";
import { ID_REQUEST_PATTERN, newIdRequest } from "../../app/deliveries/form";
import { kyivDay } from "../../app/warehouse/dates";
import { deliveryStatus, mergeReport, readLines } from "../../app/deliveries/lines";

describe("delivery lines", () => {
  const planned = [
    { sku: "A", name: "Чай", count: 10, received: 2 },
    { sku: "B", name: "Чашка", count: 5, received: 0 },
  ];

  it("take the report's counts where it gives them, keep ours where it does not, and add unplanned goods", () => {
    const merged = mergeReport(planned, {
      id: "1",
      status: 2,
      products: [
        { sku: "A", count: undefined, countReceived: 7 },
        { sku: "B", count: 6, countReceived: undefined },
        { sku: "C", name: "Ложка", count: undefined, countReceived: 3 },
      ],
    });
    expect(merged).toEqual([
      { sku: "A", name: "Чай", count: 10, received: 7 },
      { sku: "B", name: "Чашка", count: 6, received: 0 },
      { sku: "C", name: "Ложка", count: 0, received: 3 },
    ]);
    expect(planned[0]!.received).toBe(2);
  });

  it("read stored JSON that is broken as no lines rather than failing the page", () => {
    expect(readLines("{not json")).toEqual([]);
    expect(readLines('[{"sku":"A"}]')).toEqual([{ sku: "A", name: "", count: 0, received: 0 }]);
  });

  it("show our state until the warehouse has the request, then its status", () => {
    expect(deliveryStatus({ state: "in_doubt", status: null })).toBe("inDoubt");
    expect(deliveryStatus({ state: "failed", status: null })).toBe("failed");
    expect(deliveryStatus({ state: "sent", status: null })).toBe("new");
    expect(deliveryStatus({ state: "found", status: 2 })).toBe("partlyReceived");
    expect(deliveryStatus({ state: "sent", status: 3 })).toBe("received");
  });
});

describe("the delivery form's day and number", () => {
  it("counts days in Kyiv: 22:30 UTC on 31 December is already 1 January there", () => {
    expect(kyivDay(new Date("2026-12-31T22:30:00Z"))).toBe("2027-01-01");
    expect(kyivDay(new Date("2026-07-01T20:59:00Z"))).toBe("2026-07-01");
  });

  it("makes request numbers of its own pattern, different each time", () => {
    const numbers = new Set(Array.from({ length: 200 }, newIdRequest));
    expect(numbers.size).toBe(200);
    for (const number of numbers) expect(number).toMatch(ID_REQUEST_PATTERN);
  });
});
