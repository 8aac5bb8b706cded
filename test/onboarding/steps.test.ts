// The other checklist steps save through the settings' own functions, refuse what is not the shop's or
// the account's with a message and no change, and are marked done only once saved.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { loadOnboarding } from "../../app/onboarding/state.server";
import {
  confirmNotifications,
  saveLocation,
  saveSender,
  settingsProblems,
  startFirstSync,
} from "../../app/onboarding/steps.server";

const SHOP = "kyiv-goods.myshopify.com";
const LOCATIONS = [{ id: "gid://shopify/Location/1", name: "Склад у Броварах" }];
const SENDERS = [
  { id: "s-1", name: 'ТОВ "Київські товари"' },
  { id: "s-2", name: "ФОП Іваненко І. І." },
];

describe("checklist steps", () => {
  it("saves a location of the shop, refusing any other", async () => {
    const { db } = appContext();
    const refused = await saveLocation(
      appContext(),
      SHOP,
      { locationId: "gid://shopify/Location/9" },
      LOCATIONS,
    );
    expect(refused).toMatchObject({
      ok: false,
      problems: [{ key: "statuses:errors.location" }],
    });
    expect((await loadOnboarding(db, SHOP)).steps.location).toBeUndefined();

    const saved = await saveLocation(appContext(), SHOP, { locationId: LOCATIONS[0]!.id }, LOCATIONS);
    expect(saved).toEqual({
      ok: true,
      done: { key: "onboarding:location.saved", values: { name: "Склад у Броварах" } },
    });
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      locationId: LOCATIONS[0]!.id,
      locationName: "Склад у Броварах",
    });
    expect((await loadOnboarding(db, SHOP)).steps.location).toBeDefined();
  });

  it("saves one of the account's senders as delivery_sender_id, or the warehouse's default", async () => {
    const { db } = appContext();
    expect(await saveSender(appContext(), SHOP, { senderId: "s-9" }, SENDERS)).toEqual({
      ok: false,
      problems: [{ key: "onboarding:sender.unknown" }],
    });
    await saveSender(appContext(), SHOP, { senderId: "s-2" }, SENDERS);
    const mapping = () =>
      db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } }).then((row) => JSON.parse(row.mapping));
    expect(await mapping()).toMatchObject({ deliverySenderId: "s-2" });
    expect(await saveSender(appContext(), SHOP, { senderId: "" }, SENDERS)).toEqual({
      ok: true,
      done: { key: "onboarding:sender.savedDefault" },
      // The sender's second save.
      version: 2,
    });
    expect((await mapping()).deliverySenderId).toBeUndefined();
    expect((await loadOnboarding(db, SHOP)).steps.sender).toBeDefined();
  });

  it("marks the notification address given, and starts the first catalogue sync only with a key", async () => {
    const { db } = appContext();
    await confirmNotifications(appContext(), SHOP);
    expect(await startFirstSync(appContext(), SHOP)).toEqual({
      ok: false,
      problems: [{ key: "onboarding:catalogue.needsKey" }],
    });
    expect(await db.catalogueSync.count({ where: { shop: SHOP } })).toBe(0);

    await db.shopSettings.update({ where: { shop: SHOP }, data: { apiKeyCiphertext: "v1:unused" } });
    expect(await startFirstSync(appContext(), SHOP)).toEqual({
      ok: true,
      done: { key: "onboarding:catalogue.started" },
    });
    expect(await startFirstSync(appContext(), SHOP)).toEqual({
      ok: true,
      done: { key: "onboarding:catalogue.running" },
    });
    expect(await db.catalogueSync.count({ where: { shop: SHOP } })).toBe(1);
    const { steps } = await loadOnboarding(db, SHOP);
    expect(steps.notifications && steps.catalogue).toBeTruthy();
  });

  it("lists the settings' refusals as they were said, one per field", () => {
    expect(
      settingsProblems({
        apiKey: { key: "settings:errors.apiKey.tooLong" },
        "mapping.idOrderPrefix": { key: "settings:prefix.taken", values: { shop: "x" } },
      }),
    ).toEqual([
      { key: "settings:errors.apiKey.tooLong" },
      { key: "settings:prefix.taken", values: { shop: "x" } },
    ]);
  });
});
