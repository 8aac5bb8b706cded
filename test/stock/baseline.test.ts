// The stock sync's baseline: which changes on our side make a run read Shopify again, and how long a run may
// rest on what a sync that read Shopify confirmed.
import { describe, expect, it } from "vitest";
import { mayRest, parseBaseline, RECONCILE_MS, stockDigest } from "../../app/stock/baseline";

const rows = [
  { sku: "CUP", quantity: 10, quantityAvailable: 8 },
  { sku: "TEA", quantity: 5, quantityAvailable: 5 },
];
const base = {
  locationId: "gid://shopify/Location/1",
  quantityName: "available" as const,
  rows,
  promised: new Map<string, number>(),
  ordersChangedAt: new Date("2026-11-27T10:00:00Z"),
};

describe("stockDigest", () => {
  it("is the same for the same figures in another order", () => {
    expect(stockDigest({ ...base, rows: [...rows].reverse() })).toBe(stockDigest(base));
  });

  it("follows each figure the sync would write, the location, the quantity and the orders' last change", () => {
    const digest = stockDigest(base);
    const others = [
      stockDigest({ ...base, rows: [{ ...rows[0]!, quantityAvailable: 7 }, rows[1]!] }),
      stockDigest({ ...base, rows: [rows[0]!] }),
      stockDigest({ ...base, promised: new Map([["TEA", 1]]) }),
      stockDigest({ ...base, locationId: "gid://shopify/Location/2" }),
      stockDigest({ ...base, quantityName: "on_hand", promised: undefined }),
      stockDigest({ ...base, ordersChangedAt: new Date("2026-11-27T10:00:01Z") }),
      stockDigest({ ...base, ordersChangedAt: null }),
    ];
    for (const other of others) expect(other).not.toBe(digest);
    expect(new Set(others).size).toBe(others.length);
  });

  it("is the same when an order's units move from promised into the warehouse's reservation", () => {
    // The warehouse takes the order: its free figure drops by the units that were kept off sale.
    const promisedTea = stockDigest({ ...base, promised: new Map([["TEA", 2]]) });
    const reserved = stockDigest({ ...base, rows: [rows[0]!, { ...rows[1]!, quantityAvailable: 3 }] });
    expect(reserved).toBe(promisedTea);
  });

  it("ignores promised units with on_hand, which Shopify counts as committed itself", () => {
    const onHand = { ...base, quantityName: "on_hand" as const };
    expect(stockDigest({ ...onHand, promised: undefined })).toBe(stockDigest(onHand));
  });
});

describe("mayRest", () => {
  const confirmedAt = new Date("2026-11-27T10:00:00Z");
  const at = (minutes: number) => new Date(confirmedAt.getTime() + minutes * 60_000);
  const tenMinutes = 10 * 60_000;

  it("rests while the run after this one still falls within the hour", () => {
    for (const minutes of [0, 10, 20, 30, 40, 50])
      expect(mayRest(confirmedAt, at(minutes), tenMinutes)).toBe(true);
    expect(mayRest(confirmedAt, at(50.5), tenMinutes)).toBe(false);
    expect(mayRest(confirmedAt, at(60), tenMinutes)).toBe(false);
  });

  it("never rests without a confirmation, with one from the future, or at an interval of an hour", () => {
    expect(mayRest(null, at(1), tenMinutes)).toBe(false);
    expect(mayRest(confirmedAt, at(-1), tenMinutes)).toBe(false);
    expect(mayRest(confirmedAt, at(0), RECONCILE_MS)).toBe(true);
    expect(mayRest(confirmedAt, at(1), RECONCILE_MS)).toBe(false);
  });
});

describe("parseBaseline", () => {
  it("reads what the sync keeps and nothing else", () => {
    expect(parseBaseline(JSON.stringify({ digest: "ab", problems: 2 }))).toEqual({
      digest: "ab",
      problems: 2,
    });
    for (const text of [null, "", "{", '{"digest":1,"problems":0}', '{"digest":"ab"}']) {
      expect(parseBaseline(text)).toBeNull();
    }
  });
});
