// The branch picker's app proxy routes over loopback HTTP, with queries signed as Shopify's proxy signs them:
// a missing, wrong or stale signature gets no data; bad input a 400 that says which parameter; answers small,
// cacheable (ETag, 304) and per shop; a visitor who asks too fast gets 429 with Retry-After, whatever
// X-Forwarded-For they write; while the search is being built, 202 "not ready, try again", one build for all.
// Visitors are told apart by the address they connect from: each uses its own loopback address (127.0.0.N).
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { get } from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import { clientAddress } from "../../app/reference/proxy.server";
import { REFERENCE_SOURCE } from "../../app/reference/kinds.server";
import { fromWarehouseRecords } from "../../app/reference/records";
import {
  forgetReferenceSearches,
  referenceSearchForSource,
  referenceSearchStats,
  saveReferenceSet,
} from "../../app/reference/store.server";
import { signedProxyQuery, startProxyRouteServer, type ProxyRouteServer } from "../support/app-proxy";
import { defaultReferenceData, KYIV_CITY_REF } from "../warehouse-sim/reference-data";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER_SHOP = "lviv-goods.myshopify.com";
const EMPTY_SHOP = "new-goods.myshopify.com";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: ProxyRouteServer;
const data = (() => {
  const sim = defaultReferenceData();
  return fromWarehouseRecords(sim.cities, sim.branches);
})();

beforeAll(async () => {
  server = await startProxyRouteServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  const { db } = appContext();
  const now = new Date();
  // Two shops on keys of their own read the deployment's one set (decision 020); the third has no key yet.
  await db.shopSettings.create({ data: { shop: SHOP, apiKeyDigest: "digest-kyiv-goods" } });
  await db.shopSettings.create({ data: { shop: OTHER_SHOP, apiKeyDigest: "digest-lviv-goods" } });
  await db.shopSettings.create({ data: { shop: EMPTY_SHOP, apiKeyDigest: null } });
  await saveReferenceSet(db, REFERENCE_SOURCE, { cities: data.cities, branches: data.branches }, now);
  // Built before the test asks (once for the file: each test's set is the same version 1 of the same data).
  await referenceSearchForSource(db, REFERENCE_SOURCE);
});

afterEach(() => {
  vi.useRealTimers();
});

let visitor = 0;
/**
 * A storefront request through the proxy; each call a new visitor unless `ip` says who. A visitor is the
 * loopback address its connection comes from (Linux answers the whole of 127.0.0.0/8), as node:http's
 * `localAddress` binds it.
 */
function ask(
  path: string,
  params: Record<string, string>,
  options: { shop?: string; ip?: string; customerId?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const query = signedProxyQuery(
    new URLSearchParams(params),
    { shop: options.shop ?? SHOP, customerId: options.customerId ?? "" },
    API_SECRET_KEY,
  );
  visitor++;
  const from = options.ip ?? `127.0.${1 + (Math.trunc(visitor / 250) % 250)}.${2 + (visitor % 250)}`;
  const url = new URL(`${server.url}/proxy/${path}?${query}`);
  return new Promise((resolve, reject) => {
    const sent = get(url, { localAddress: from, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") headers.set(name, value);
        }
        const status = res.statusCode ?? 0;
        resolve(new Response(status === 304 ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    sent.on("error", reject);
  });
}

describe("the signature", () => {
  it("is required, checked over the whole query, and recent", async () => {
    const good = signedProxyQuery(new URLSearchParams({ q: "Київ" }), { shop: SHOP }, API_SECRET_KEY);
    const unsigned = new URLSearchParams(good);
    unsigned.delete("signature");
    const tampered = new URLSearchParams(good);
    tampered.set("shop", OTHER_SHOP);
    const wrongSecret = signedProxyQuery(
      new URLSearchParams({ q: "Київ" }),
      { shop: SHOP },
      "not-the-secret",
    );
    const stale = signedProxyQuery(
      new URLSearchParams({ q: "Київ" }),
      { shop: SHOP, timestamp: Math.trunc(Date.now() / 1000) - 600 },
      API_SECRET_KEY,
    );
    for (const query of [unsigned, tampered, wrongSecret, stale]) {
      const response = await fetch(`${server.url}/proxy/cities?${query}`);
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain("Київ");
    }
    const response = await fetch(`${server.url}/proxy/cities?${good}`);
    expect(response.status).toBe(200);
  });
});

describe("cities", () => {
  it("finds a city by its Ukrainian name with only what the picker shows", async () => {
    const response = await ask("cities", { q: "Київ", locale: "uk" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ready: boolean; cities: Record<string, string>[] };
    expect(body.ready).toBe(true);
    expect(body.cities[0]).toEqual({ ref: KYIV_CITY_REF, name: "Київ", label: "Київ, місто, Київська обл." });
    expect(body.cities.length).toBeLessThanOrEqual(10);
  });

  it("adds its own words in the locale asked for, English by default", async () => {
    const english = (await (await ask("cities", { q: "Київ" })).json()) as { cities: { label: string }[] };
    expect(english.cities[0]!.label).toBe("Київ, місто, Київська region");
  });

  it("is cacheable: public, with an ETag the browser can send back for a 304", async () => {
    const first = await ask("cities", { q: "Львів", locale: "uk" });
    expect(first.headers.get("cache-control")).toBe("public, max-age=600");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await ask("cities", { q: "Львів", locale: "uk" }, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await ask("cities", { q: "Одеса", locale: "uk" }, { headers: { "If-None-Match": etag! } });
    expect(other.status).toBe(200);
  });

  it("answers a shop without data yet with an empty list and a flag, briefly cached", async () => {
    const response = await ask("cities", { q: "Київ", locale: "uk" }, { shop: EMPTY_SHOP });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await response.json()) as { ready: boolean; cities: unknown[]; message: string };
    expect(body).toMatchObject({ ready: false, cities: [] });
    expect(body.message).toContain("введіть місто");
  });

  it("serves a shop on another key the same shared set", async () => {
    const other = (await (await ask("cities", { q: "Київ" }, { shop: OTHER_SHOP })).json()) as {
      cities: { name: string }[];
    };
    const mine = (await (await ask("cities", { q: "Київ" })).json()) as { cities: { name: string }[] };
    expect(mine.cities.length).toBeGreaterThan(0);
    expect(other.cities).toEqual(mine.cities);
  });

  it("refuses bad input with 400, naming the parameter, in the locale asked for", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ q: "" }, "q"],
      [{ q: "к".repeat(101) }, "q"],
      [{ q: "Київ", limit: "50" }, "limit"],
      [{ q: "Київ", limit: "two" }, "limit"],
    ];
    for (const [params, field] of cases) {
      const response = await ask("cities", { ...params, locale: "uk" });
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = (await response.json()) as { error: string; fields: Record<string, string> };
      expect(Object.keys(body.fields)).toEqual([field]);
      expect(body.error).toContain("Запит неправильний");
    }
  });
});

describe("branches", () => {
  type Branches = {
    ready: boolean;
    branches: { ref: string; number: string; kind: string; label: string }[];
  };

  it("lists a city's branches, or its parcel lockers, at most 20, with only what the picker shows", async () => {
    const bytes = await (await ask("branches", { city: KYIV_CITY_REF, kind: "branch" })).text();
    // A page of answers a phone fetches while the buyer types: about 5 KB.
    expect(Buffer.byteLength(bytes)).toBeLessThan(8_192);
    const branches = JSON.parse(bytes) as Branches;
    expect(branches.branches).toHaveLength(20);
    expect(branches.branches[0]).toEqual({
      ref: expect.stringMatching(UUID) as string,
      number: "1",
      kind: "branch",
      label: "Відділення №1 (до 1000 кг): вул. Одеська, 48",
      city: { name: "Київ", area: "Київська" },
    });
    const lockers = (await (
      await ask("branches", { city: KYIV_CITY_REF, kind: "postomat" })
    ).json()) as Branches;
    expect(lockers.branches.length).toBeGreaterThan(0);
    expect(lockers.branches.every((branch) => branch.kind === "postomat")).toBe(true);
  });

  it("finds a branch by its number in the city", async () => {
    const found = (await (
      await ask("branches", { city: KYIV_CITY_REF, kind: "branch", q: "3" })
    ).json()) as Branches;
    expect(found.branches[0]).toMatchObject({
      number: "3",
      label: expect.stringContaining("Зелена") as string,
    });
  });

  it("refuses a city that is not a carrier Ref, an unknown kind and a long text", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ city: "Київ" }, "city"],
      [{ city: KYIV_CITY_REF, kind: "store" }, "kind"],
      [{ city: KYIV_CITY_REF, q: "1".repeat(101) }, "q"],
      [{}, "city"],
    ];
    for (const [params, field] of cases) {
      const response = await ask("branches", params);
      expect(response.status, JSON.stringify(params)).toBe(400);
      const body = (await response.json()) as { error: string; fields: Record<string, string> };
      expect(Object.keys(body.fields)).toEqual([field]);
      expect(body.error).toContain("not valid");
    }
  });

  it("gives a shop on another key the same city's branches", async () => {
    const other = (await (
      await ask("branches", { city: KYIV_CITY_REF, kind: "branch" }, { shop: OTHER_SHOP })
    ).json()) as Branches;
    const mine = (await (await ask("branches", { city: KYIV_CITY_REF, kind: "branch" })).json()) as Branches;
    expect(mine.branches.length).toBeGreaterThan(0);
    expect(other).toEqual(mine);
  });
});

describe("the rate limit", () => {
  it("lets a visitor search in bursts, then answers 429 with Retry-After until tokens come back", async () => {
    // Only Date is faked: the buckets and the signature's timestamp read it, nothing else waits on it.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    const ip = "127.0.100.7";
    let allowed = 0;
    for (let request = 0; request < 45; request++) {
      const response = await ask("cities", { q: `К${request}` }, { ip });
      if (response.status === 200) allowed++;
      else {
        expect(response.status).toBe(429);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(((await response.json()) as { error: string }).error).toContain("Too many searches");
      }
    }
    expect(allowed).toBe(40);
    // Another visitor of the same shop, and a logged-in customer behind the same address, are not held up.
    expect((await ask("cities", { q: "Київ" }, { ip: "127.0.100.8" })).status).toBe(200);
    expect((await ask("cities", { q: "Київ" }, { ip, customerId: "7301" })).status).toBe(200);
    // Two tokens a second come back.
    vi.setSystemTime(Date.now() + 1_000);
    expect((await ask("cities", { q: "Київ" }, { ip })).status).toBe(200);
    expect((await ask("cities", { q: "Київ" }, { ip })).status).toBe(200);
    expect((await ask("cities", { q: "Київ" }, { ip })).status).toBe(429);
  });

  it("keys on the address the request came from: a forged X-Forwarded-For buys no more searches", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    const ip = "127.0.100.9";
    const statuses: number[] = [];
    for (let request = 0; request < 45; request++) {
      // A new "visitor" in the header each time, as a client trying to dodge the limit would write it.
      const forged = { "X-Forwarded-For": `198.51.100.${request}, 203.0.113.${request}` };
      statuses.push((await ask("cities", { q: `Л${request}` }, { ip, headers: forged })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.slice(40)).toEqual([429, 429, 429, 429, 429]);
  });

  it("reads only what trusted proxies appended to X-Forwarded-For, never what the client wrote", () => {
    expect(clientAddress("10.0.0.5", null, 0)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", "198.51.100.1, 203.0.113.9", 0)).toBe("10.0.0.5");
    // Behind one proxy of ours: the address it appended, whatever the client put before it.
    expect(clientAddress("10.0.0.5", "198.51.100.1, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.5", " forged , 203.0.113.9 ", 1)).toBe("203.0.113.9");
    // More hops configured than entries: the farthest there is, never past the list.
    expect(clientAddress("10.0.0.5", "203.0.113.9", 3)).toBe("203.0.113.9");
    expect(clientAddress(undefined, "203.0.113.9", 1)).toBeUndefined();
  });
});

describe("while the search is being built", () => {
  it("answers 202 'not ready, try again' at once, builds once for a burst, then answers", async () => {
    forgetReferenceSearches();
    const builds = referenceSearchStats().builds;
    const first = await ask("cities", { q: "Київ", locale: "uk" });
    expect(first.status).toBe(202);
    expect(first.headers.get("retry-after")).toBe("2");
    expect(first.headers.get("cache-control")).toBe("no-store");
    const body = (await first.json()) as Record<string, unknown>;
    expect(body).toEqual({
      ready: false,
      retryAfterSeconds: 2,
      cities: [],
      message: "Список міст і відділень готується: він буде готовий за кілька секунд.",
    });
    // A burst from many visitors of two shops on the key, cities and branches: none builds the search.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? ask("cities", { q: "Льв" })
          : ask("branches", { city: KYIV_CITY_REF, kind: "branch", q: String(i) }),
      ),
    );
    for (const response of burst) {
      expect([200, 202]).toContain(response.status);
      const answer = (await response.json()) as { ready: boolean; retryAfterSeconds?: number };
      expect(answer.ready).toBe(response.status === 200);
      if (response.status === 202) expect(answer.retryAfterSeconds).toBe(2);
    }
    await vi.waitFor(
      async () => expect((await ask("cities", { q: "Київ", locale: "uk" })).status).toBe(200),
      { timeout: 30_000, interval: 100 },
    );
    const branch = (await (await ask("branches", { city: KYIV_CITY_REF, q: "3" })).json()) as {
      branches: { number: string }[];
    };
    expect(branch.branches[0]?.number).toBe("3");
    expect(referenceSearchStats().builds - builds).toBe(1);
  });

  it("says so in the branches' shape too, in English by default", async () => {
    forgetReferenceSearches();
    const response = await ask("branches", { city: KYIV_CITY_REF });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({
      ready: false,
      retryAfterSeconds: 2,
      branches: [],
      message: expect.stringContaining("being prepared") as string,
    });
    await referenceSearchForSource(appContext().db, REFERENCE_SOURCE);
  });
});
