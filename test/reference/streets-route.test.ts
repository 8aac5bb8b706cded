// The order page's street search (app/routes/app.streets.ts) over loopback HTTP, as the admin's page calls
// it (a session token in Authorization), answered through the shop's warehouse key from the simulator:
// streets of the city by what was typed, a second query of the same first letters kept and not asked
// again, bad input refused without a request, a warehouse that refuses or fails answered with an empty
// list that says so, and another shop's session never using this shop's key (the kept answers are the
// carrier's, shared by every shop: decision 020).
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { streetNameOf } from "../../app/reference/street-search.server";
import type { StreetSearchAnswer } from "../../app/routes/app.streets";
import { saveSettings } from "../../app/settings/settings.server";
import { WarehouseRateLimiter } from "../../app/warehouse/limiter.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { DatabaseRateLimitStore } from "../../app/work/rate-limit-store.server";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { serveOnLoopback, type RouteServer } from "../support/route-server";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim/server";
import { KYIV_CITY_REF } from "../warehouse-sim/reference-data";

const SHOP_NAME = "kyiv-goods";
const SHOP = `${SHOP_NAME}.myshopify.com`;
const OTHER_NAME = "lviv-goods";
const OTHER_SHOP = `${OTHER_NAME}.myshopify.com`;
const NO_KEY_NAME = "new-goods";
const OTHER_KEY = "9d7e6f50-1a2b-4c3d-8e9f-0a1b2c3d4e5f";
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

const sim = await startWarehouseSimulator({
  accounts: [
    DEFAULT_ACCOUNT,
    { login: "lviv-goods", password: "sim-password-2", apiKey: OTHER_KEY, stagingApiKey: OTHER_KEY },
  ],
});
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;

let fake: ShopifyFake;
let server: RouteServer;

beforeAll(async () => {
  fake = await startShopifyFake({
    app: { apiKey: API_KEY, apiSecretKey: API_SECRET_KEY, scopes: "read_orders" },
  });
  routeShopifyTo(fake.url);
  const { loader } = await import("../../app/routes/app.streets");
  server = await serveOnLoopback((request) =>
    loader({ request, params: {}, context: {} })
      .then((body) => Response.json(body))
      .catch((thrown: unknown) => {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }),
  );
});

afterAll(async () => {
  await server.close();
  routeShopifyTo(undefined);
  await fake.close();
  await sim.close();
});

beforeEach(async () => {
  for (const name of [SHOP_NAME, OTHER_NAME, NO_KEY_NAME]) {
    const domain = `${name}.myshopify.com`;
    if (fake.state.shop(domain)) continue;
    fake.state.addShop({
      domain,
      accessToken: `shpat_${name}`,
      name,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      locales: [{ locale: "uk", primary: true }],
    });
  }
  const context = appContext();
  for (const [shop, apiKey] of [
    [SHOP, sim.apiKey],
    [OTHER_SHOP, OTHER_KEY],
  ] as const) {
    const saved = await saveSettings(context, shop, {
      apiKey,
      environment: "production",
      batchAddOrder: true,
      mapping: {},
    });
    if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved.errors)}`);
  }
  sim.reset();
});

/** The order page's request: the admin's session token in Authorization, as App Bridge's fetch sends it. */
async function ask(params: Record<string, string>, shopName = SHOP_NAME) {
  const { token } = await getJwt(shopName, API_KEY, API_SECRET_KEY);
  const response = await fetch(`${server.url}/app/streets?${new URLSearchParams(params)}`, {
    headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as StreetSearchAnswer;
}

const streetRequests = () => sim.stats().requests[OPERATIONS.getStreet] ?? 0;

describe("what was typed", () => {
  it.each([
    ["вул. Хрещатик", "Хрещатик"],
    ["Хрещатик, 22, кв. 5", "Хрещатик"],
    ["просп. Перемоги 37/1", "Перемоги"],
    ["8 Березня", "8 Березня"],
    ["вул. 8 Березня, 5", "8 Березня"],
    ["вулиця", "вулиця"],
  ])("%j is looked up as the name %j", (typed, name) => {
    expect(streetNameOf(typed)).toBe(name);
  });
});

describe("the street search", () => {
  it("answers the city's streets by what was typed, type and name together, with the carrier's Ref", async () => {
    const answer = await ask({ q: "Хрещ", cityRef: KYIV_CITY_REF });
    expect(answer.available).toBe(true);
    expect(answer.problem).toBeUndefined();
    const khreshchatyk = sim.reference
      .streets(KYIV_CITY_REF)
      .find((street) => street.Description === "Хрещатик")!;
    expect(answer.streets[0]).toEqual({ ref: khreshchatyk.Ref, label: "вул. Хрещатик" });
    for (const street of answer.streets) expect(street.label.toLowerCase()).toContain("хрещ");
    expect(streetRequests()).toBe(1);
  });

  it("asks the warehouse once for the first letters: typing on, or again, reads the kept answer", async () => {
    await ask({ q: "Хр", cityRef: KYIV_CITY_REF });
    await ask({ q: "Хре", cityRef: KYIV_CITY_REF });
    expect(streetRequests()).toBe(2);
    const typedOn = await ask({ q: "вул. Хрещатик", cityRef: KYIV_CITY_REF });
    const again = await ask({ q: "хрещатик", cityRef: KYIV_CITY_REF.toUpperCase() });
    expect(typedOn.streets.map((street) => street.label)).toContain("вул. Хрещатик");
    expect(again.streets).toEqual(typedOn.streets);
    expect(streetRequests()).toBe(2);
    // Another city is another question.
    const lviv = sim.reference.findCities("Львів", 1)[0]!;
    await ask({ q: "Хре", cityRef: lviv.Ref });
    expect(streetRequests()).toBe(3);
  });

  it("refuses a query it cannot read, asking nothing of the warehouse", async () => {
    const unreadable: Record<string, string>[] = [
      { q: "", cityRef: KYIV_CITY_REF },
      { q: "Х", cityRef: KYIV_CITY_REF },
      { q: "Хрещатик".repeat(20), cityRef: KYIV_CITY_REF },
      { q: "Хрещатик", cityRef: "Київ" },
      { q: "Хрещатик" },
    ];
    for (const params of unreadable) {
      expect(await ask(params)).toEqual({ available: true, streets: [], invalid: true });
    }
    expect(streetRequests()).toBe(0);
  });

  it("answers an empty list that says so when the warehouse limits the key, never an error", async () => {
    sim.faults.failNext({ count: 1, status: 429, operations: [OPERATIONS.getStreet], retryAfterSeconds: 30 });
    expect(await ask({ q: "Хре", cityRef: KYIV_CITY_REF })).toEqual({
      available: true,
      streets: [],
      problem: "rateLimited",
    });
  });

  it("shares the key's limits with the shop's other work: a key used up answers so without asking", async () => {
    // The engine (another process, say) has used the key's minute: the limiter state in the database says so.
    const engine = new WarehouseRateLimiter(new DatabaseRateLimitStore(appContext().db, SHOP));
    let granted = 0;
    while ((await engine.tryAcquire(sim.apiKey, OPERATIONS.addOrder)).granted) granted++;
    expect(granted).toBeGreaterThan(1);
    expect(await ask({ q: "Хре", cityRef: KYIV_CITY_REF })).toEqual({
      available: true,
      streets: [],
      problem: "rateLimited",
    });
    expect(streetRequests()).toBe(0);
  });

  it("answers an empty list that says so when the warehouse fails, and asks again once it answers", async () => {
    sim.faults.failNext({ count: 5, status: 500, operations: [OPERATIONS.getStreet] });
    expect(await ask({ q: "Хре", cityRef: KYIV_CITY_REF })).toEqual({
      available: true,
      streets: [],
      problem: "failed",
    });
    // A failure is not kept: once the warehouse answers, so does the search.
    sim.faults.clear();
    const later = await ask({ q: "Хрещатик", cityRef: KYIV_CITY_REF });
    expect(later.streets.map((street) => street.label)).toContain("вул. Хрещатик");
  });

  it("answers another shop on another key from the kept answers (the carrier's streets, one set for all)", async () => {
    await ask({ q: "Хрещатик", cityRef: KYIV_CITY_REF });
    expect(streetRequests()).toBe(1);
    const other = await ask({ q: "Хрещатик", cityRef: KYIV_CITY_REF }, OTHER_NAME);
    expect(other.streets.map((street) => street.label)).toContain("вул. Хрещатик");
    // Decision 020: the streets are the carrier's, the same whatever key asked; not asked again.
    expect(streetRequests()).toBe(1);
    // What it types that nobody asked yet goes through its own key.
    const own = await ask({ q: "Бесарабська", cityRef: KYIV_CITY_REF }, OTHER_NAME);
    expect(own.available).toBe(true);
    expect(streetRequests()).toBe(2);
    // A shop without a key reads nothing, and asks nothing.
    expect(await ask({ q: "Хрещатик", cityRef: KYIV_CITY_REF }, NO_KEY_NAME)).toEqual({
      available: false,
      streets: [],
    });
    expect(streetRequests()).toBe(2);
  });
});
