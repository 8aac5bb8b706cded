import { describe, expect, it } from "vitest";
import { toCompactDate, toCompactDateTime, toDayMonthYear } from "../../app/warehouse/dates";
import { DATE_FORMAT } from "../../app/warehouse/wire";

describe("warehouse dates", () => {
  it("writes Kyiv wall-clock dates, so 23:30 UTC on 31 December is already 01.01", () => {
    const newYear = new Date("2026-12-31T23:30:00Z");
    expect(toDayMonthYear(newYear)).toBe("01.01.2027");
    expect(toCompactDate(newYear)).toBe("20270101");
    expect(toCompactDateTime(newYear)).toBe("20270101013000");
  });

  it("follows Kyiv's summer time (UTC+3) as well as winter time (UTC+2)", () => {
    expect(toCompactDateTime(new Date("2026-07-15T21:05:09Z"))).toBe("20260716000509");
    expect(toCompactDateTime(new Date("2026-01-15T21:05:09Z"))).toBe("20260115230509");
  });

  it("produces strings the wire patterns accept", () => {
    const instant = new Date("2026-03-09T08:07:06Z");
    expect(toDayMonthYear(instant)).toMatch(DATE_FORMAT.dayMonthYear);
    expect(toCompactDate(instant)).toMatch(DATE_FORMAT.compactDate);
    expect(toCompactDateTime(instant)).toMatch(DATE_FORMAT.compactDateTime);
  });
});
