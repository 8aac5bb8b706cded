// "Test connection" and the connection step against the warehouse simulator over HTTP: each way it can go
// wrong is put in the merchant's words, a refused key is never saved, a good one is saved and the step done.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { checkApiKey, exchangeLogin, testConnection } from "../../app/onboarding/connection.server";
import { loadOnboarding, markStepDone } from "../../app/onboarding/state.server";
import { saveConnection } from "../../app/onboarding/steps.server";
import { PAUSE_REASONS, pauseShop } from "../../app/settings/settings.server";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim";
import { TWO_SENDERS } from "../support/senders";

const SHOP = "kyiv-goods.myshopify.com";
let sim: WarehouseSimulator;

beforeAll(async () => {
  sim = await startWarehouseSimulator({
    accounts: [
      {
        login: "kyiv-goods",
        password: "correct horse",
        apiKey: "5b0f2c9e-7a41-4d3b-9c8e-2f6a1d4e8b70",
        stagingApiKey: "c3e8a1f4-2b6d-4e9a-8f17-6d2c4b9a0e35",
        senders: TWO_SENDERS,
      },
    ],
  });
});
afterAll(() => sim.close());

const deps = (endpoints: { baseUrl: string; baseUrlV2?: string } = { baseUrl: sim.url }) => ({
  ...appContext(),
  endpoints: { baseUrlV2: sim.urlV2, timeoutMs: 5_000, ...endpoints },
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("test connection", () => {
  it("lists the account's senders for a key the warehouse takes", async () => {
    const check = await checkApiKey(deps(), SHOP, sim.apiKey);
    expect(check).toEqual({
      ok: true,
      senders: [
        { id: "1a2b3c4d-0000-4000-8000-000000000001", name: 'ТОВ "Київські товари"' },
        { id: "1a2b3c4d-0000-4000-8000-000000000002", name: "ФОП Іваненко І. І." },
      ],
    });
  });

  it("says the key was refused", async () => {
    const check = await checkApiKey(deps(), SHOP, "0000-not-a-key");
    expect(check).toEqual({
      ok: false,
      refused: true,
      problem: { key: "onboarding:connection.problem.refused" },
    });
  });

  it("says the address is wrong when nothing there knows the operation", async () => {
    const wrong = sim.url.replace(/\/api$/, "/MTPGroupFulfillment/hs/api");
    const check = await checkApiKey(deps({ baseUrl: wrong }), SHOP, sim.apiKey);
    expect(check).toMatchObject({
      ok: false,
      refused: false,
      problem: { key: "warehouse:error.unknownMethod", values: { url: expect.stringContaining(wrong) } },
    });
  });

  it("says the warehouse cannot be reached", async () => {
    const address = `http://127.0.0.1:${await closedPort()}/api`;
    const check = await checkApiKey(deps({ baseUrl: address }), SHOP, sim.apiKey);
    expect(check).toMatchObject({
      ok: false,
      refused: false,
      problem: { key: "warehouse:error.unreachable" },
    });
  });

  it("says the rate limit was reached, and when to try again", async () => {
    sim.faults.failNext({ count: 1, status: 429, retryAfterSeconds: 7 });
    const check = await checkApiKey(deps(), SHOP, sim.apiKey);
    expect(check).toMatchObject({
      ok: false,
      refused: false,
      problem: { key: "warehouse:error.rateLimited", values: { count: 7 } },
    });
  });

  it("exchanges the login and password for the key, and says when they are wrong", async () => {
    expect(await exchangeLogin(deps(), { login: "kyiv-goods", password: "correct horse" })).toEqual({
      ok: true,
      apiKey: sim.apiKey,
    });
    const wrong = await exchangeLogin(deps(), { login: "kyiv-goods", password: "wrong" });
    expect(wrong).toMatchObject({
      ok: false,
      refused: true,
      problem: { key: "onboarding:connection.problem.login" },
    });
  });

  it("tests a login without saving anything", async () => {
    const check = await testConnection(deps(), SHOP, {
      how: "login",
      login: "kyiv-goods",
      password: "correct horse",
      environment: "production",
    });
    expect(check).toMatchObject({ ok: true });
    expect(await appContext().db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
  });

  it("asks for a key when none is typed and none is saved", async () => {
    const check = await testConnection(deps(), SHOP, {
      how: "apiKey",
      apiKey: "",
      environment: "production",
    });
    expect(check).toMatchObject({ ok: false, problem: { key: "onboarding:connection.problem.noKey" } });
  });
});

describe("the connection step", () => {
  it("saves nothing for a refused key, then saves a good one and marks the step done", async () => {
    const { db } = appContext();
    const refused = await saveConnection(deps(), SHOP, {
      how: "apiKey",
      apiKey: "0000-not-a-key",
      environment: "staging",
    });
    expect(refused).toMatchObject({
      ok: false,
      problems: [{ key: "onboarding:connection.problem.refused" }],
    });
    expect(await db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();

    const saved = await saveConnection(deps(), SHOP, {
      how: "apiKey",
      apiKey: sim.apiKey,
      environment: "production",
    });
    expect(saved).toMatchObject({ ok: true, done: { key: "onboarding:connection.saved" } });
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ apiKeyHint: "••••8b70", environment: "production" });
    const state = await loadOnboarding(db, SHOP);
    expect(state.steps.connection).toBeDefined();
    expect(state.connectionCheckedAt).toBeDefined();
  });

  it("lifts the pause of a refused key once that key, tested again, is taken", async () => {
    const { db } = appContext();
    const form = { how: "apiKey", apiKey: sim.apiKey, environment: "production" };
    expect(await saveConnection(deps(), SHOP, form)).toMatchObject({ ok: true });
    const { apiKeyDigest } = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(await pauseShop(db, SHOP, apiKeyDigest, new Date(), PAUSE_REASONS.refused)).toBe(true);

    // The saved key, not typed again: saving it changes nothing, the warehouse's answer lifts the pause.
    const again = await saveConnection(deps(), SHOP, { ...form, apiKey: "" });
    expect(again).toMatchObject({ ok: true, done: { key: "onboarding:connection.saved" } });
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ pausedAt: null, pauseReason: null });
  });

  it("does not take a key saved in Settings during the test as the one tested", async () => {
    const { db } = appContext();
    const form = { how: "apiKey", apiKey: sim.apiKey, environment: "production" };
    // The first save stores the key; the second tests it, and another key is saved while it is out.
    expect(await saveConnection(deps(), SHOP, form)).toMatchObject({ ok: true });
    await db.shopSettings.update({ where: { shop: SHOP }, data: { onboarding: "{}" } });
    const meanwhile: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      await db.shopSettings.update({ where: { shop: SHOP }, data: { apiKeyDigest: "another-key" } });
      return response;
    };
    const answer = await saveConnection({ ...deps(), fetch: meanwhile }, SHOP, { ...form, apiKey: "" });
    expect(answer).toMatchObject({ ok: true, done: { key: "onboarding:connection.changedMeanwhile" } });
    const state = await loadOnboarding(db, SHOP);
    expect(state.steps.connection).toBeUndefined();
    expect(state.connectionCheckedAt).toBeUndefined();
  });

  it("saves a key the warehouse could not confirm, but leaves the step to do", async () => {
    sim.faults.failNext({ count: 1, status: 503 });
    const saved = await saveConnection(deps(), SHOP, {
      how: "apiKey",
      apiKey: sim.apiKey,
      environment: "production",
    });
    expect(saved).toMatchObject({
      ok: true,
      done: { key: "onboarding:connection.savedUnchecked" },
      notice: { key: "warehouse:error.serverError", values: { status: 503 } },
    });
    const { db } = appContext();
    expect((await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).apiKeyHint).toBe("••••8b70");
    expect((await loadOnboarding(db, SHOP)).steps.connection).toBeUndefined();
  });

  it("refuses a form that does not parse, changing nothing", async () => {
    const answer = await saveConnection(deps(), SHOP, {
      how: "apiKey",
      apiKey: "not a key!",
      environment: "x",
    });
    expect(answer).toEqual({ ok: false, problems: [{ key: "onboarding:problem.form" }] });
    expect(await appContext().db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
  });
});

describe("the checklist's state", () => {
  it("keeps every step saved at once, and reads an unreadable state as nothing done", async () => {
    const { db } = appContext();
    const at = new Date("2026-03-14T10:00:00Z");
    await Promise.all([
      markStepDone(db, SHOP, "location", at),
      markStepDone(db, SHOP, "rules", at),
      markStepDone(db, SHOP, "notifications", at),
    ]);
    expect((await loadOnboarding(db, SHOP)).steps).toEqual({
      location: at.toISOString(),
      rules: at.toISOString(),
      notifications: at.toISOString(),
    });
    await db.shopSettings.update({ where: { shop: SHOP }, data: { onboarding: "{not json" } });
    expect(await loadOnboarding(db, SHOP)).toEqual({ steps: {} });
  });
});
