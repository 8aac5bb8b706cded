// The status table and the status settings: pure, so tested without a database.
import { describe, expect, it } from "vitest";
import { parseStatusSettings, statusSettingsSchema, trackingUrl } from "../../app/statuses/settings";
import { readStatus } from "../../app/statuses/status-table";

describe("the status table", () => {
  it("reads the warehouse's names in Russian and Ukrainian spellings, whatever the case and spacing", () => {
    expect(readStatus({ id: "3", name: "Отгружен" }, [])).toEqual({ known: true, stage: "shipped" });
    expect(readStatus({ id: "", name: "  ВІДВАНТАЖЕНО " }, [])).toEqual({ known: true, stage: "shipped" });
    expect(readStatus({ id: "", name: "Отменён" }, [])).toEqual({
      known: true,
      stage: "cancelled_at_warehouse",
    });
    expect(readStatus({ id: "1", name: "Новый" }, [])).toEqual({ known: true, stage: null });
  });

  it("knows no status by its id alone: ids are nobody's documented values", () => {
    expect(readStatus({ id: "3", name: "" }, [])).toEqual({ known: false, stage: null });
    expect(readStatus({ id: "", name: "" }, [])).toEqual({ known: false, stage: null });
  });

  it("puts the merchant's rules first, by id or by name, including a status that is no stage", () => {
    const rules = statusSettingsSchema.parse({
      statusRules: [
        { id: "17", stage: "delivered" },
        { name: "Отгружен", stage: "picked" },
        { name: "Резерв", stage: "none" },
      ],
    }).statusRules;
    expect(readStatus({ id: "17", name: "Щось" }, rules)).toEqual({ known: true, stage: "delivered" });
    expect(readStatus({ id: "3", name: "отгружен" }, rules)).toEqual({ known: true, stage: "picked" });
    expect(readStatus({ id: "", name: "Резерв" }, rules)).toEqual({ known: true, stage: null });
  });
});

describe("the status settings", () => {
  it("default to notifying the buyer, half-hourly polling and both carriers' tracking pages", () => {
    const { settings, problem } = parseStatusSettings(undefined);
    expect(problem).toBeNull();
    expect(settings).toMatchObject({
      notifyBuyer: true,
      pollMinutes: 30,
      idsPerReport: 100,
      statusRules: [],
    });
    expect(trackingUrl(settings.trackingUrls.novaPoshta, "20450000000001")).toBe(
      "https://novaposhta.ua/tracking/?cargo_number=20450000000001",
    );
  });

  it("refuse a rule naming nothing, a tracking page without the waybill's place, and a poll too often", () => {
    const refused = statusSettingsSchema.safeParse({
      statusRules: [{ stage: "shipped" }],
      trackingUrls: { novaPoshta: "https://example.org/track" },
      pollMinutes: 1,
    });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["statusRules.0", "trackingUrls.novaPoshta", "pollMinutes"]),
    );
  });

  it("report stored settings that no longer validate, with the defaults in their place", () => {
    expect(parseStatusSettings("{oops").problem).toMatch(/not valid JSON/);
    const { settings, problem } = parseStatusSettings(JSON.stringify({ pollMinutes: 0 }));
    expect(problem).toMatch(/pollMinutes/);
    expect(settings.pollMinutes).toBe(30);
  });

  it("puts the waybill into the page's address encoded", () => {
    expect(trackingUrl("https://t.example/?n={ttn}", "AB 12/3")).toBe("https://t.example/?n=AB%2012%2F3");
  });
});
