// Saving the status settings against the real database: validated whole, the location only among the
// shop's own, and the work they change asked for (a new location, a new polling interval).
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { loadStatusSettings, saveStatusSettings } from "../../app/statuses/settings.server";

const SHOP = "kyiv-goods.myshopify.com";
const LOCATIONS = [
  { id: "gid://shopify/Location/1", name: "Склад у Броварах" },
  { id: "gid://shopify/Location/2", name: "Магазин на Подолі" },
];
const deps = () => {
  const woken: string[] = [];
  return { services: { ...appContext(), wake: (shop: string) => woken.push(shop) }, woken };
};
const schedules = async () =>
  (await appContext().db.shopSchedule.findMany({ where: { shop: SHOP }, orderBy: { kind: "asc" } })).map(
    (row) => row.kind,
  );

describe("the status settings", () => {
  it("are saved with the chosen location, which asks for the Shopify side to run", async () => {
    const { services, woken } = deps();
    const saved = await saveStatusSettings(
      services,
      SHOP,
      {
        locationId: LOCATIONS[0]!.id,
        notifyBuyer: false,
        pollMinutes: 60,
        statusRules: [{ name: "Резерв", stage: "none" }],
      },
      LOCATIONS,
    );
    expect(saved.ok).toBe(true);
    const view = await loadStatusSettings(appContext().db, SHOP);
    expect(view).toMatchObject({
      locationId: LOCATIONS[0]!.id,
      locationName: "Склад у Броварах",
      problem: null,
      settings: { notifyBuyer: false, pollMinutes: 60, statusRules: [{ name: "Резерв", stage: "none" }] },
    });
    // The orders waiting for a location are told Shopify, stock is synced at the new location, and whether it is
    // the shop's only online location is read afresh (routing's fast path).
    expect(await schedules()).toEqual(["fulfillment", "online_locations", "statuses", "stock"]);
    expect(woken).toEqual([SHOP]);
  });

  it("refuse a location that is not the shop's, and a bad value, changing nothing", async () => {
    const { services } = deps();
    const foreign = await saveStatusSettings(
      services,
      SHOP,
      { locationId: "gid://shopify/Location/99" },
      LOCATIONS,
    );
    expect(foreign).toEqual({ ok: false, errors: { locationId: message("statuses:errors.location") } });
    const bad = await saveStatusSettings(services, SHOP, { pollMinutes: 2 }, LOCATIONS);
    expect(bad.ok).toBe(false);
    expect(bad).toEqual({
      ok: false,
      errors: { pollMinutes: message("statuses:errors.pollMinutes", { minimum: 5, maximum: 1440 }) },
    });
    expect(await appContext().db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
    expect(await schedules()).toEqual([]);
  });

  it("say by field what is wrong with stored settings that no longer validate", async () => {
    const { db } = appContext();
    await db.shopSettings.create({
      data: {
        shop: SHOP,
        statusSettings: JSON.stringify({ pollMinutes: 1, statusRules: [{ stage: "shipped" }] }),
      },
    });
    const view = await loadStatusSettings(db, SHOP);
    expect(view.problem).toMatch(/pollMinutes/);
    expect(view.issues).toEqual({
      pollMinutes: message("statuses:errors.pollMinutes", { minimum: 5, maximum: 1440 }),
      "statusRules.0": message("statuses:errors.ruleNeedsIdOrName"),
    });
    await db.shopSettings.update({ where: { shop: SHOP }, data: { statusSettings: "{oops" } });
    expect((await loadStatusSettings(db, SHOP)).issues).toEqual({ form: message("statuses:errors.notJson") });
    await db.shopSettings.update({ where: { shop: SHOP }, data: { statusSettings: "{}" } });
    expect((await loadStatusSettings(db, SHOP)).issues).toBeNull();
  });
});
