// The Sender card's service against the simulator over HTTP: the account's senders listed with the saved
// one marked, a saved id the warehouse no longer lists said (not dropped), a warehouse failing said with the
// saved id kept, no key or a paused key said; a choice saved as the checklist's step saves it (an unknown
// id refused, nothing saved), asking for a re-mapping of the orders not yet sent; the main Settings form
// never puts an old sender back.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { REMAP_KIND } from "../../app/orders/states";
import { chooseSender, senderCard, withSavedSender } from "../../app/settings/senders.server";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim";
import { SENDER_FIRM as FIRM, SENDER_SOLE_TRADER as SOLE_TRADER, TWO_SENDERS } from "../support/senders";

const SHOP = "kyiv-goods.myshopify.com";
const sim = await startWarehouseSimulator({
  accounts: [
    {
      ...DEFAULT_ACCOUNT,
      senders: TWO_SENDERS,
    },
  ],
});
afterAll(() => sim.close());

const deps = () => ({ ...appContext(), endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 } });
const savedMapping = async () =>
  JSON.parse((await appContext().db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).mapping) as {
    deliverySenderId?: string;
    idOrderPrefix?: string;
  };
const remapRequest = () =>
  appContext().db.shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: REMAP_KIND } } });

async function saveKey(mapping: Record<string, unknown> = {}) {
  const saved = await saveSettings(appContext(), SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping,
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  await appContext().db.shopSchedule.deleteMany({ where: { shop: SHOP, kind: REMAP_KIND } });
}

beforeEach(() => sim.reset());

describe("the Sender card", () => {
  it("lists the account's senders with the saved one, and says when the saved one is no longer listed", async () => {
    await saveKey({ deliverySenderId: SOLE_TRADER });
    expect(await senderCard(deps(), SHOP)).toEqual({
      state: "listed",
      saved: SOLE_TRADER,
      version: 0,
      savedListed: true,
      senders: [
        { id: FIRM, name: 'ТОВ "Київські товари"' },
        { id: SOLE_TRADER, name: "ФОП Іваненко І. І." },
      ],
    });
    await saveKey({ deliverySenderId: "retired-sender-id" });
    expect(await senderCard(deps(), SHOP)).toMatchObject({ saved: "retired-sender-id", savedListed: false });
    // Not dropped by being shown.
    expect((await savedMapping()).deliverySenderId).toBe("retired-sender-id");
  });

  it("says why there is no list: no key, a paused key, a warehouse failing (the saved id kept)", async () => {
    expect(await senderCard(deps(), SHOP)).toEqual({ state: "noKey", saved: null, version: 0 });
    await saveKey({ deliverySenderId: FIRM });
    sim.faults.failNext({ count: 3, status: 503, operations: [OPERATIONS.senderDetails] });
    expect(await senderCard(deps(), SHOP)).toEqual({
      state: "failed",
      saved: FIRM,
      version: 0,
      problem: { key: "warehouse:error.serverError", values: { status: 503 } },
    });
    await appContext().db.shopSettings.update({ where: { shop: SHOP }, data: { pausedAt: new Date() } });
    expect(await senderCard(deps(), SHOP)).toEqual({ state: "paused", saved: FIRM, version: 0 });
  });
});

describe("choosing a sender", () => {
  it("saves one of the account's senders into the order settings and asks for the open orders to be mapped again", async () => {
    await saveKey({ idOrderPrefix: "UA-" });
    expect(await chooseSender(deps(), SHOP, { senderId: SOLE_TRADER })).toEqual({
      ok: true,
      done: { key: "onboarding:sender.saved", values: { name: "ФОП Іваненко І. І." } },
      version: 1,
    });
    // The rest of the order settings as they were.
    expect(await savedMapping()).toMatchObject({ deliverySenderId: SOLE_TRADER, idOrderPrefix: "UA-" });
    expect(await remapRequest()).not.toBeNull();

    // The warehouse's default: the id is gone from the settings.
    await appContext().db.shopSchedule.deleteMany({ where: { shop: SHOP, kind: REMAP_KIND } });
    expect(await chooseSender(deps(), SHOP, { senderId: "" })).toMatchObject({ ok: true });
    expect((await savedMapping()).deliverySenderId).toBeUndefined();
    expect(await remapRequest()).not.toBeNull();
  });

  it("refuses an id the warehouse does not list, another account's or made up, and saves nothing", async () => {
    await saveKey({ deliverySenderId: FIRM });
    for (const senderId of ["7f3b9c21-5d4e-4a8b-9c6d-1e2f3a4b5c6d", "x".repeat(201), 42]) {
      const answer = await chooseSender(deps(), SHOP, { senderId });
      expect(answer.ok).toBe(false);
    }
    expect((await savedMapping()).deliverySenderId).toBe(FIRM);
    expect(await remapRequest()).toBeNull();
  });

  it("saves nothing when the warehouse cannot list the senders", async () => {
    await saveKey({ deliverySenderId: FIRM });
    sim.faults.failNext({ count: 3, status: 500, operations: [OPERATIONS.senderDetails] });
    expect(await chooseSender(deps(), SHOP, { senderId: SOLE_TRADER })).toEqual({
      ok: false,
      problems: [{ key: "warehouse:error.serverError", values: { status: 500 } }],
    });
    expect((await savedMapping()).deliverySenderId).toBe(FIRM);
  });
});

describe("the main Settings form", () => {
  it("keeps the saved sender whatever an older form sends", async () => {
    await saveKey({ deliverySenderId: FIRM });
    const stale = {
      environment: "production",
      mapping: { idOrderPrefix: "B-", deliverySenderId: SOLE_TRADER },
    };
    expect(await withSavedSender(appContext().db, SHOP, stale)).toEqual({
      environment: "production",
      mapping: { idOrderPrefix: "B-", deliverySenderId: FIRM },
    });
    await chooseSender(deps(), SHOP, { senderId: "" });
    expect(await withSavedSender(appContext().db, SHOP, stale)).toEqual({
      environment: "production",
      mapping: { idOrderPrefix: "B-" },
    });
    // What is no form passes as it is, for the settings' own refusal.
    expect(await withSavedSender(appContext().db, SHOP, "junk")).toBe("junk");
  });
});
