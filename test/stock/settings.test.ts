// The stock settings as stored: read back whole, or the defaults with what was wrong, never a failure.
import { describe, expect, it } from "vitest";
import { parseStockSettings } from "../../app/stock/settings";

describe("the stored stock settings", () => {
  it("read back as saved, and default to free stock every ten minutes", () => {
    expect(parseStockSettings(JSON.stringify({ quantityName: "on_hand", intervalMinutes: 30 }))).toEqual({
      settings: { quantityName: "on_hand", intervalMinutes: 30, restockReturns: false },
      problem: null,
    });
    expect(parseStockSettings(undefined)).toEqual({
      settings: { quantityName: "available", intervalMinutes: 10, restockReturns: false },
      problem: null,
    });
  });

  it("restock returned items only when saved so: off by default, and a non-boolean is refused", () => {
    const on = parseStockSettings(JSON.stringify({ quantityName: "available", restockReturns: true }));
    expect(on.settings.restockReturns).toBe(true);
    const bad = parseStockSettings(JSON.stringify({ restockReturns: "yes" }));
    expect(bad.settings.restockReturns).toBe(false);
    expect(bad.problem).toMatch(/restockReturns/);
  });

  it("give the defaults and say why when they no longer validate", () => {
    const tooOften = parseStockSettings(JSON.stringify({ quantityName: "on_hand", intervalMinutes: 1 }));
    expect(tooOften.settings).toEqual({
      quantityName: "available",
      intervalMinutes: 10,
      restockReturns: false,
    });
    expect(tooOften.problem).toMatch(/at least 5 minutes[\s\S]*intervalMinutes/);
    expect(parseStockSettings("{oops").problem).toBe("The saved stock settings are not valid JSON.");
  });
});
