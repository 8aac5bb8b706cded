// The landing page's language from the browser's Accept-Language header.
import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage, parseAcceptLanguage } from "../../app/i18n/accept-language";

describe("Accept-Language", () => {
  it("gives the first language we speak by the visitor's weights", () => {
    expect(localeFromAcceptLanguage("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("uk");
    expect(localeFromAcceptLanguage("en-GB,en;q=0.9,uk;q=0.8")).toBe("en");
    // Weights, not the order written, decide.
    expect(localeFromAcceptLanguage("en;q=0.5, uk;q=0.8")).toBe("uk");
    // A language we do not speak is passed over for the next one we do.
    expect(localeFromAcceptLanguage("pl-PL,pl;q=0.9,uk;q=0.5,en;q=0.3")).toBe("uk");
    expect(localeFromAcceptLanguage("UK")).toBe("uk");
  });

  it("is English when there is no header, nothing we speak, or only what the visitor refuses", () => {
    expect(localeFromAcceptLanguage(null)).toBe("en");
    expect(localeFromAcceptLanguage("")).toBe("en");
    expect(localeFromAcceptLanguage("de-DE,fr;q=0.5")).toBe("en");
    expect(localeFromAcceptLanguage("*")).toBe("en");
    expect(localeFromAcceptLanguage("uk;q=0, de")).toBe("en");
  });

  it("drops entries that are not language tags or weights, and reads the rest", () => {
    expect(parseAcceptLanguage("uk;q=2, <script>, en;q=abc, ;, pl;q=0.4")).toEqual([{ tag: "pl", q: 0.4 }]);
    expect(localeFromAcceptLanguage("uk;q=1.5, en-US;q=0.1")).toBe("en");
    expect(parseAcceptLanguage("en ; q=0.7 , uk")).toEqual([
      { tag: "uk", q: 1 },
      { tag: "en", q: 0.7 },
    ]);
  });

  it("does not read a header longer than a browser sends", () => {
    expect(parseAcceptLanguage(`uk,${"x-y;q=0.1,".repeat(200)}`)).toEqual([]);
    expect(localeFromAcceptLanguage(`uk,${"x-y;q=0.1,".repeat(200)}`)).toBe("en");
  });
});
