// Reading the warehouse's returns records one by one: the simulator's form, the other forms 1C may write,
// and hostile records (huge, deep, wrongly typed, `__proto__`), none of which may throw or be lost.
import { describe, expect, it } from "vitest";
import { message } from "../../app/i18n/message";
import {
  boundedJson,
  readReturnDate,
  readReturnRecord,
  recordDigest,
  RETURN_BOUNDS,
  saleableUnits,
} from "../../app/returns/read";

/** As the simulator writes one (test/warehouse-sim/operations.ts returnRecord). */
const simulatorRecord = () => ({
  id_return: "ВП-000001",
  id_order: "SS-1001",
  date: "17.11.2026",
  TTN: "20450000000001",
  products: [
    { sku: "CUP-001", count: "2", marriage: false },
    { sku: "CUP-002", count: "1", marriage: true },
  ],
});

describe("a returns record", () => {
  it("is read in the simulator's form: identity, order, Kyiv date, waybill, lines with the defective flag", () => {
    const read = readReturnRecord(simulatorRecord());
    expect(read).toMatchObject({
      returnKey: "id:ВП-000001",
      idOrder: "SS-1001",
      ttn: "20450000000001",
      lines: [
        { sku: "CUP-001", count: 2, defective: false },
        { sku: "CUP-002", count: 1, defective: true },
      ],
      units: 3,
      defective: true,
      problems: [],
    });
    // Midnight in Kyiv (UTC+2 in November) is 22:00 UTC the day before.
    expect(read.returnedAt?.toISOString()).toBe("2026-11-16T22:00:00.000Z");
    expect(JSON.parse(read.raw)).toEqual(simulatorRecord());
    expect(saleableUnits(read.lines)).toBe(2);
  });

  it("reads the date forms 1C writes, in Kyiv time with its daylight saving, and no impossible date", () => {
    expect(readReturnDate("17.07.2026 14:30:05")?.toISOString()).toBe("2026-07-17T11:30:05.000Z");
    expect(readReturnDate("20261117")?.toISOString()).toBe("2026-11-16T22:00:00.000Z");
    expect(readReturnDate("20260717143005")?.toISOString()).toBe("2026-07-17T11:30:05.000Z");
    expect(readReturnDate("2026-11-17")?.toISOString()).toBe("2026-11-16T22:00:00.000Z");
    expect(readReturnDate("2026-11-17T10:00:00Z")?.toISOString()).toBe("2026-11-17T10:00:00.000Z");
    // The night the clocks go forward (29 March 2026, 03:00 → 04:00) and back (25 October, 04:00 → 03:00).
    expect(readReturnDate("29.03.2026 05:00:00")?.toISOString()).toBe("2026-03-29T02:00:00.000Z");
    expect(readReturnDate("25.10.2026 12:00:00")?.toISOString()).toBe("2026-10-25T10:00:00.000Z");
    for (const bad of ["31.02.2026", "17.13.2026", "yesterday", "", 20261117, null, "1".repeat(5000)])
      expect(readReturnDate(bad)).toBeNull();
  });

  it("takes numbers for ids and counts, and the ways 1C writes the flag", () => {
    const read = readReturnRecord({
      id_return: 42,
      id_order: 1001,
      date: "17.11.2026",
      TTN: 20450000000001,
      products: [
        { sku: "A", count: 3, marriage: "Да" },
        { sku: "B", count: "2.0", marriage: 0 },
        { sku: "C", count: " 1 ", marriage: "false" },
      ],
    });
    expect(read.problems).toEqual([]);
    expect(read).toMatchObject({ returnKey: "id:42", idOrder: "1001", ttn: "20450000000001", units: 6 });
    expect(read.lines.map((line) => line.defective)).toEqual([true, false, false]);
  });

  it("without an id_return is known by a digest of its own fields, whatever their order", () => {
    const { id_return: _id, ...record } = simulatorRecord();
    const reordered = {
      products: record.products,
      TTN: record.TTN,
      date: record.date,
      id_order: record.id_order,
    };
    const read = readReturnRecord(record);
    expect(read.returnKey).toMatch(/^sha:[0-9a-f]{32}$/);
    expect(readReturnRecord(reordered).returnKey).toBe(read.returnKey);
    expect(readReturnRecord({ ...record, TTN: "other" }).returnKey).not.toBe(read.returnKey);
    expect(read.problems).toEqual([]);
  });

  it("without an id_return stays the same return when the warehouse writes it again otherwise", () => {
    const { id_return: _id, ...record } = simulatorRecord();
    const key = readReturnRecord(record).returnKey;
    // A field added, the date in another form, the defect flags set after inspection, the lines in another
    // order, counts as numbers.
    const rewritten = {
      ...record,
      status: "checked",
      date: "2026-11-17",
      products: [...record.products]
        .reverse()
        .map((line) => ({ ...line, count: Number(line.count), marriage: true })),
    };
    expect(readReturnRecord(rewritten).returnKey).toBe(key);
    // Another count is another return.
    const more = { ...record, products: record.products.map((line) => ({ ...line, count: "9" })) };
    expect(readReturnRecord(more).returnKey).not.toBe(key);
  });

  it("that cannot be read whole is kept with each reason, and what could be read", () => {
    const read = readReturnRecord({
      id_return: "ВП-9",
      id_order: "SS-1",
      date: "someday",
      products: [
        { sku: "A", count: -1 },
        { sku: "B", count: 1.5 },
        { sku: "", count: 1 },
        { sku: "C", count: "many" },
        { sku: "D", count: 1, marriage: "maybe" },
        "E x 1",
        { sku: "F", count: 2 },
      ],
    });
    expect(read.problems).toEqual([
      message("returns:problem.date"),
      message("returns:problem.lineCount", { line: 1 }),
      message("returns:problem.lineCount", { line: 2 }),
      message("returns:problem.lineSku", { line: 3 }),
      message("returns:problem.lineCount", { line: 4 }),
      message("returns:problem.lineDefective", { line: 5 }),
      message("returns:problem.lineNotObject", { line: 6 }),
    ]);
    expect(read.lines).toEqual([{ sku: "F", count: 2, defective: false }]);
    expect(read).toMatchObject({ returnKey: "id:ВП-9", idOrder: "SS-1", returnedAt: null });
  });

  it("survives hostile records: not objects, no lines, products not a list, huge strings and lists", () => {
    for (const record of [null, 7, "text", [1, 2], true]) {
      const read = readReturnRecord(record);
      expect(read.problems).toEqual([message("returns:problem.notObject")]);
      expect(read.returnKey).toMatch(/^sha:/);
      expect(read.raw).toBe(JSON.stringify(record));
    }
    expect(readReturnRecord({ id_order: "1", date: "17.11.2026", products: "CUP-001" }).problems).toEqual([
      message("returns:problem.noLines"),
    ]);
    expect(readReturnRecord({ id_order: "1", date: "17.11.2026", products: {} }).problems).toEqual([
      message("returns:problem.noLines"),
    ]);

    const huge = "Я".repeat(1_000_000);
    const read = readReturnRecord({
      id_return: huge,
      id_order: huge,
      TTN: { nested: true },
      date: "17.11.2026",
      products: Array.from({ length: 5_000 }, (_, i) => ({ sku: `S${i}`, count: 1 })),
    });
    expect(read.problems).toEqual([
      message("returns:problem.tooLong", { field: "id_return", max: RETURN_BOUNDS.codeLength }),
      message("returns:problem.tooLong", { field: "id_order", max: RETURN_BOUNDS.codeLength }),
      message("returns:problem.noOrder"),
      message("returns:problem.notText", { field: "TTN" }),
      message("returns:problem.tooManyLines", { max: RETURN_BOUNDS.lines }),
    ]);
    expect(read.returnKey).toMatch(/^sha:/);
    expect(read.lines).toEqual([]);
    expect(read.raw.length).toBeLessThanOrEqual(RETURN_BOUNDS.rawChars + 1);
    // Strings and lists are cut, each cut marked.
    expect(read.raw).toContain(`${"Я".repeat(RETURN_BOUNDS.rawString)}…`);
    expect(read.raw).toContain(`"… ${5_000 - RETURN_BOUNDS.rawItems}"`);
    const wide = readReturnRecord({
      id_order: "1",
      notes: Array.from({ length: 150 }, () => "x".repeat(900)),
    });
    expect(wide.raw).toHaveLength(RETURN_BOUNDS.rawChars + 1);
    expect(wide.raw.endsWith("…")).toBe(true);
  });

  it("reads `__proto__` and `constructor` as plain keys, never as what objects inherit", () => {
    const record = JSON.parse(
      '{"__proto__":{"id_order":"EVIL","products":[{"sku":"X","count":1}]},"constructor":"c",' +
        '"id_order":"SS-7","date":"17.11.2026","products":[{"sku":"A","count":1,"__proto__":{"marriage":true}}]}',
    ) as unknown;
    const read = readReturnRecord(record);
    expect(read).toMatchObject({ idOrder: "SS-7", lines: [{ sku: "A", count: 1, defective: false }] });
    expect(read.problems).toEqual([]);
    expect(read.raw).toContain('"__proto__":{"id_order":"EVIL"');
    // A record whose only fields are inherited names has none of ours.
    const bare = readReturnRecord(JSON.parse('{"__proto__":{"id_order":"EVIL"}}') as unknown);
    expect(bare.idOrder).toBeNull();
    expect(({} as Record<string, unknown>).id_order).toBeUndefined();
  });

  it("keeps raw JSON bounded in depth, and digests deep records without overflowing", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(() => recordDigest(deep)).not.toThrow();
    const text = boundedJson(deep);
    expect(text.length).toBeLessThan(200);
    expect(text).toContain("…");
    expect(readReturnRecord({ id_order: "1", products: [], extra: deep }).raw).toContain("…");
  });
});
