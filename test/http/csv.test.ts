// The admin's CSV exports: quoting, formula neutralising, empty values, and the download's headers.
import { describe, expect, it } from "vitest";
import { csvDocument, csvField, csvResponse } from "../../app/http/csv";

describe("CSV exports", () => {
  it("quotes every field and doubles the quotes inside", () => {
    expect(csvField('Кросівки "Біг", 42')).toBe('"Кросівки ""Біг"", 42"');
    expect(csvField(7)).toBe('"7"');
    expect(csvField(null)).toBe('""');
    expect(csvField(undefined)).toBe('""');
    expect(csvField(false)).toBe('"false"');
  });

  it("keeps a spreadsheet from reading a field as a formula", () => {
    for (const hostile of ["=HYPERLINK(1)", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
      expect(csvField(hostile)).toBe(`"'${hostile}"`);
    expect(csvField("a=1")).toBe('"a=1"');
    // A number is no formula: a quantity out stays a negative number, as text "-3" would not.
    expect(csvField(-3)).toBe('"-3"');
    expect(csvField("-3")).toBe(`"'-3"`);
  });

  it("writes rows with CRLF line ends, a line end after the last", () => {
    expect(
      csvDocument([
        ["sku", "count"],
        ["A-1", 2],
      ]),
    ).toBe('"sku","count"\r\n"A-1","2"\r\n');
  });

  it("answers a private download under a safe name, and refuses another name", async () => {
    const response = csvResponse("x\r\n", "returns-2026-11.csv");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="returns-2026-11.csv"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toBe("x\r\n");
    expect(() => csvResponse("", 'a"; b.csv')).toThrow(/not a safe CSV file name/);
  });
});
