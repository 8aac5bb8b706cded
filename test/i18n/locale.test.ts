import { describe, expect, it } from "vitest";
import { createFormatter } from "../../app/i18n/format";
import { i18nFor } from "../../app/i18n/i18n";
import { chooseLocale } from "../../app/i18n/locales";

describe("the admin's language", () => {
  it("is the admin's own when we speak it, else the shop's, else English", () => {
    expect(chooseLocale("uk-UA", "en")).toBe("uk");
    expect(chooseLocale("en", "uk")).toBe("en");
    expect(chooseLocale("de", "uk")).toBe("uk");
    expect(chooseLocale(null, "uk-UA")).toBe("uk");
    expect(chooseLocale("ru", "pl")).toBe("en");
    expect(chooseLocale(undefined, undefined)).toBe("en");
    expect(chooseLocale("", " UK ")).toBe("uk");
  });

  it("translates in the language asked, one shared instance per language", () => {
    expect(i18nFor("uk").t("nav.orders")).toBe("Замовлення");
    expect(i18nFor("en").t("nav.orders")).toBe("Orders");
    // The instances are per language and shared: asking for one does not change the other.
    expect(i18nFor("uk").language).toBe("uk");
    expect(i18nFor("en").language).toBe("en");
  });
});

describe("the formatter", () => {
  const when = new Date("2026-03-14T08:15:00Z");

  it("writes dates in the shop's time zone, whatever the machine's", () => {
    expect(createFormatter("en", "Europe/Kyiv").dateTime(when)).toMatch(/14 Mar 2026,? 10:15/);
    expect(createFormatter("en", "America/New_York").dateTime(when)).toMatch(/14 Mar 2026,? 04:15/);
    expect(createFormatter("uk", "Europe/Kyiv").dateTime(when)).toMatch(/14 бер\. 2026.* 10:15/);
  });

  it("writes numbers and money the way each language does", () => {
    const uk = createFormatter("uk", "Europe/Kyiv");
    const en = createFormatter("en", "Europe/Kyiv");
    expect(en.number(12345.5)).toBe("12,345.5");
    expect(uk.number(12345.5).replace(/\s/g, " ")).toBe("12 345,5");
    expect(en.money("1250", "UAH").replace(/\s/g, " ")).toBe("UAH 1,250.00");
    expect(uk.money(1250, "UAH").replace(/\s/g, " ")).toBe("1 250,00 ₴");
    expect(uk.percent(0.45)).toBe("45%");
  });
});
