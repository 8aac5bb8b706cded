// Settings saves that never overwrite each other unseen, on a real database (PostgreSQL too: `npm run
// test:pg`): each form sends back the version it showed; a save over a newer one is refused as "changed
// meanwhile" with nothing written; two saves at once on one version leave one saved and the other refused;
// forms of other sections (the stock page, the Sender card) do not refuse each other, and a save that
// merges the rest as it reads it (a checklist step) is conditional on that read.
import { afterAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { chooseSender, senderCard } from "../../app/settings/senders.server";
import { loadSettings, saveSettings } from "../../app/settings/settings.server";
import { writeSettings } from "../../app/settings/versions.server";
import { loadStatusSettings, saveStatusSettings } from "../../app/statuses/settings.server";
import {
  loadStockSettings,
  saveStockSettings,
  STOCK_CHANGED_MEANWHILE,
} from "../../app/stock/settings.server";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim";
import { SENDER_FIRM as FIRM, SENDER_SOLE_TRADER as SOLE_TRADER, TWO_SENDERS } from "../support/senders";

const SHOP = "kyiv-goods.myshopify.com";
const sim = await startWarehouseSimulator({ accounts: [{ ...DEFAULT_ACCOUNT, senders: TWO_SENDERS }] });
afterAll(() => sim.close());

const db = () => appContext().db;
const deps = () => ({ ...appContext(), endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 } });
const CHANGED = { form: message("settings:errors.changedMeanwhile") };
const LOCATIONS = [
  { id: "gid://shopify/Location/1", name: "Склад Київ" },
  { id: "gid://shopify/Location/2", name: "Склад Львів" },
];

/** The main Settings form as an admin sends it, on the version the page showed. */
const form = (version: number, literal: string) => ({
  environment: "production",
  batchAddOrder: true,
  mapping: { deliveryLiterals: { novaPoshta: literal } },
  version,
});
const savedLiteral = async () =>
  (
    JSON.parse((await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).mapping) as {
      deliveryLiterals: { novaPoshta: string };
    }
  ).deliveryLiterals.novaPoshta;

describe("the settings form's version", () => {
  it("refuses a save over one made since the page was shown, and writes nothing", async () => {
    const shown = (await loadSettings(db(), SHOP)).version;
    expect(await saveSettings(appContext(), SHOP, form(shown, "Нова пошта А"))).toMatchObject({ ok: true });
    // The second admin's page still shows the version before.
    expect(await saveSettings(appContext(), SHOP, form(shown, "Нова пошта Б"))).toEqual({
      ok: false,
      errors: CHANGED,
    });
    expect(await savedLiteral()).toBe("Нова пошта А");
    // Reloaded, the page shows the new version, and the change goes through.
    const reloaded = (await loadSettings(db(), SHOP)).version;
    expect(reloaded).toBe(shown + 1);
    expect(await saveSettings(appContext(), SHOP, form(reloaded, "Нова пошта Б"))).toMatchObject({
      ok: true,
    });
    expect(await savedLiteral()).toBe("Нова пошта Б");
  });

  it("two admins saving at once on one version: one is saved, the other told, whichever wins", async () => {
    // A row exists already, and none yet: both ways of writing are raced.
    for (const before of ["none", "saved"]) {
      await db().shopSettings.deleteMany();
      if (before === "saved") await saveSettings(appContext(), SHOP, form(0, "Спершу"));
      const shown = (await loadSettings(db(), SHOP)).version;
      const answers = await Promise.all([
        saveSettings(appContext(), SHOP, form(shown, "Перший")),
        saveSettings(appContext(), SHOP, form(shown, "Другий")),
      ]);
      const saved = answers.filter((answer) => answer.ok);
      expect(saved, before).toHaveLength(1);
      expect(answers.find((answer) => !answer.ok)).toEqual({ ok: false, errors: CHANGED });
      const winner = answers[0]!.ok ? "Перший" : "Другий";
      expect(await savedLiteral()).toBe(winner);
      expect((await loadSettings(db(), SHOP)).version).toBe(shown + 1);
    }
  });

  it("two saves at once that send no version (a checklist step, a script) still cannot both write on one read", async () => {
    await saveStockSettings(appContext(), SHOP, { quantityName: "available", intervalMinutes: 30 });
    let clashes = 0;
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([
        saveStockSettings(appContext(), SHOP, { quantityName: "available", intervalMinutes: 15 }),
        saveStockSettings(appContext(), SHOP, { quantityName: "on_hand", intervalMinutes: 60 }),
      ]);
      // Each either wrote on what it read, or was told: never both on one read.
      for (const answer of answers)
        if (!answer.ok) expect(answer.errors).toEqual({ version: STOCK_CHANGED_MEANWHILE });
      clashes += answers.filter((answer) => !answer.ok).length;
      const versionAfter = (await loadStockSettings(db(), SHOP)).version;
      expect(versionAfter).toBe(1 + (round + 1) * 2 - clashes);
    }
  });

  it("a row made meanwhile by a write that saves no form does not refuse the shop's first save", async () => {
    // Read no row; then the notification address is made (a row with no form saved) before the write.
    await db().shopSettings.create({ data: { shop: SHOP, notifyTokenDigest: "0".repeat(64) } });
    const data = { stockSettings: JSON.stringify({ quantityName: "on_hand" }) };
    expect(await writeSettings(db(), SHOP, { read: null, section: "stock", shown: 0, data })).toBe(1);
    // Made meanwhile by another save of settings: that one clashes.
    expect(await writeSettings(db(), SHOP, { read: null, section: "stock", shown: 0, data })).toBeNull();
  });

  it("the stock, status and sender forms each refuse a save over a newer one, and not one over another form's", async () => {
    await saveSettings(appContext(), SHOP, { apiKey: sim.apiKey, environment: "production", mapping: {} });
    const settingsShown = (await loadSettings(db(), SHOP)).version;

    const stockShown = (await loadStockSettings(db(), SHOP)).version;
    const stock = { quantityName: "available", intervalMinutes: 30 };
    expect(await saveStockSettings(appContext(), SHOP, { ...stock, version: stockShown })).toMatchObject({
      ok: true,
    });
    expect(
      await saveStockSettings(appContext(), SHOP, { ...stock, intervalMinutes: 60, version: stockShown }),
    ).toEqual({ ok: false, errors: { version: STOCK_CHANGED_MEANWHILE } });
    expect((await loadStockSettings(db(), SHOP)).settings.intervalMinutes).toBe(30);

    const statusShown = await loadStatusSettings(db(), SHOP);
    const statuses = { ...statusShown.settings, locationId: LOCATIONS[0]!.id, version: statusShown.version };
    expect(await saveStatusSettings(appContext(), SHOP, statuses, LOCATIONS)).toMatchObject({ ok: true });
    expect(
      await saveStatusSettings(appContext(), SHOP, { ...statuses, locationId: LOCATIONS[1]!.id }, LOCATIONS),
    ).toEqual({ ok: false, errors: CHANGED });
    expect((await loadStatusSettings(db(), SHOP)).locationId).toBe(LOCATIONS[0]!.id);

    const card = await senderCard(deps(), SHOP);
    expect(await chooseSender(deps(), SHOP, { senderId: FIRM, version: card.version })).toMatchObject({
      ok: true,
    });
    expect(await chooseSender(deps(), SHOP, { senderId: SOLE_TRADER, version: card.version })).toEqual({
      ok: false,
      problems: [message("settings:errors.changedMeanwhile")],
    });
    expect((await loadSettings(db(), SHOP)).mapping.deliverySenderId).toBe(FIRM);

    // The main form's own version did not move: the other forms' saves do not refuse it, nor does it lose
    // the sender the card saved.
    expect(
      await saveSettings(appContext(), SHOP, form(settingsShown, "Своє"), { keepSavedSender: true }),
    ).toMatchObject({ ok: true });
    const after = await loadSettings(db(), SHOP);
    expect(after.mapping.deliverySenderId).toBe(FIRM);
    expect(after.mapping.deliveryLiterals.novaPoshta).toBe("Своє");
  });
});
