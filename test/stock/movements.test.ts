// A SKU's movements as the SKU page reads them: the period asked for (Kyiv dates, the default, the bound),
// what ReportMoveProduct is asked, the warehouse's moments read, balances before and after, rows bounded.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PERIOD_DAYS,
  MAX_PERIOD_DAYS,
  defaultPeriod,
  moveProductPeriod,
  movementCsvRows,
  movementReport,
  readMoment,
  readPeriod,
  shownLines,
  skuQuerySchema,
} from "../../app/stock/movements";

// 22:30 UTC on 13 March is already the 14th in Kyiv (UTC+2 in winter).
const NOW = new Date("2026-03-13T22:30:00Z");

describe("the period", () => {
  it("is the last 30 days up to today in Kyiv when none is asked for", () => {
    expect(DEFAULT_PERIOD_DAYS).toBe(30);
    expect(defaultPeriod(NOW)).toEqual({ from: "2026-02-13", to: "2026-03-14" });
    expect(readPeriod({}, NOW)).toEqual({ ok: true, period: { from: "2026-02-13", to: "2026-03-14" } });
    // One end given: the other from the default.
    expect(readPeriod({ from: "2026-03-01" }, NOW)).toEqual({
      ok: true,
      period: { from: "2026-03-01", to: "2026-03-14" },
    });
  });

  it("refuses what is not a date, a period that runs backwards and one longer than the bound", () => {
    expect(readPeriod({ from: "2026-02-30", to: "yesterday" }, NOW)).toMatchObject({
      ok: false,
      problems: [
        { field: "from", key: "sku.period.notDate" },
        { field: "to", key: "sku.period.notDate" },
      ],
    });
    expect(readPeriod({ from: "2026-03-10", to: "2026-03-09" }, NOW)).toMatchObject({
      ok: false,
      problems: [{ field: "to", key: "sku.period.reversed" }],
    });
    // A whole leap year is the longest: 366 days, both ends included.
    expect(readPeriod({ from: "2024-01-01", to: "2024-12-31" }, NOW).ok).toBe(true);
    expect(readPeriod({ from: "2024-01-01", to: "2025-01-01" }, NOW)).toMatchObject({
      ok: false,
      problems: [{ field: "to", key: "sku.period.tooLong", max: MAX_PERIOD_DAYS }],
    });
    // A single day is a period.
    expect(readPeriod({ from: "2026-03-14", to: "2026-03-14" }, NOW).ok).toBe(true);
  });

  it("asks the warehouse from the first day's midnight to the last day's last second, Kyiv time", () => {
    expect(moveProductPeriod({ from: "2026-03-01", to: "2026-03-14" })).toEqual({
      dataStart: "20260301000000",
      dataFinish: "20260314235959",
    });
  });

  it("takes any SKU the warehouse could have, and nothing empty or absurdly long", () => {
    for (const sku of ["ЧАЙ/зелений 100 г", "A-1", "  padded  "])
      expect(skuQuerySchema.safeParse({ sku }).success).toBe(true);
    expect(skuQuerySchema.parse({ sku: "  padded  " }).sku).toBe("padded");
    for (const sku of ["", "   ", "x".repeat(256)])
      expect(skuQuerySchema.safeParse({ sku }).success).toBe(false);
  });
});

describe("a movement's moment", () => {
  it("reads 1C's DD.MM.YYYY HH:MM:SS as Kyiv time, in winter and in summer", () => {
    expect(readMoment("14.03.2026 10:15:02")).toEqual({
      kyiv: "2026-03-14 10:15:02",
      at: "2026-03-14T08:15:02.000Z",
    });
    expect(readMoment("01.07.2026 10:00:00").at).toBe("2026-07-01T07:00:00.000Z");
  });

  it("reads the day the clocks go forward by the clock after the change", () => {
    // 29 March 2026: Kyiv's clocks go from 03:00 to 04:00 (UTC+2 to UTC+3).
    expect(readMoment("29.03.2026 01:30:00").at).toBe("2026-03-28T23:30:00.000Z");
    expect(readMoment("29.03.2026 10:00:00").at).toBe("2026-03-29T07:00:00.000Z");
  });

  it("reads ISO and the compact request form too, and nothing that is no moment", () => {
    expect(readMoment("2026-03-14T10:15:02").kyiv).toBe("2026-03-14 10:15:02");
    expect(readMoment("20260314101502").kyiv).toBe("2026-03-14 10:15:02");
    expect(readMoment("14.03.2026").kyiv).toBe("2026-03-14 00:00:00");
    for (const text of ["31.02.2026 10:00:00", "14.03.2026 25:00:00", "вчора", ""])
      expect(readMoment(text)).toEqual({ kyiv: null, at: null });
  });
});

describe("the report", () => {
  const rows = [
    {
      Period: "14.03.2026 10:15:00",
      MovementDoc: "Оприходование товаров 1 от 14.03.2026",
      Quantity: 10,
      EndingBalance: 12,
    },
    {
      Period: "14.03.2026 11:00:00",
      MovementDoc: "Реализация товаров 316001 от 14.03.2026",
      Quantity: -3,
      EndingBalance: 9,
    },
    {
      Period: "14.03.2026 11:00:00",
      MovementDoc: "Чужий рядок",
      Quantity: -1,
      EndingBalance: 0,
      sku: "OTHER",
    },
    {
      Period: "15.03.2026 09:00:00",
      MovementDoc: "Возврат товаров от покупателя 1 от 15.03.2026",
      Quantity: 1,
      EndingBalance: 10,
      sku: "TEA",
    },
  ];

  it("splits quantities in and out, and finds the balance before the period from the first row", () => {
    const report = movementReport(rows, "TEA");
    expect(report.lines.map((line) => [line.received, line.issued, line.balance])).toEqual([
      [10, 0, 12],
      [0, 3, 9],
      [1, 0, 10],
    ]);
    // 12 after the first movement of +10: 2 were there before it.
    expect(report).toMatchObject({ openingBalance: 2, closingBalance: 10, totalIn: 11, totalOut: 3 });
    expect(movementReport([], "TEA")).toMatchObject({
      lines: [],
      openingBalance: null,
      closingBalance: null,
    });
  });

  it("keeps a row the warehouse gave for another SKU off this SKU's page", () => {
    expect(movementReport(rows, "TEA").lines.map((line) => line.document)).not.toContain("Чужий рядок");
  });

  it("shows the newest rows when there are too many, and says how many are not shown", () => {
    const lines = Array.from({ length: 7 }, (_, index) => index);
    expect(shownLines(lines, 5)).toEqual({ shown: [2, 3, 4, 5, 6], hidden: 2 });
    expect(shownLines(lines, 10)).toEqual({ shown: lines, hidden: 0 });
  });

  it("writes CSV rows with the SKU, the Kyiv moment, the document, the signed quantity and the balance", () => {
    const csv = movementCsvRows("TEA", movementReport(rows, "TEA"));
    expect(csv[0]).toEqual(["sku", "date", "document", "quantity", "balance"]);
    expect(csv[2]).toEqual(["TEA", "2026-03-14 11:00:00", "Реализация товаров 316001 от 14.03.2026", -3, 9]);
    expect(csv).toHaveLength(4);
  });
});
