// Fairness and isolation between shops in one engine (issue 25, point 3): one shop's backlog, slow key,
// refused key, exhausted Shopify bucket or endless work costs the others nothing but, at most, its own slot
// while it works. Several shops on the real database, the warehouse simulator over loopback with an account
// per shop, the Shopify fake with a store per shop. The asserts are on what happened before what, never on
// how long anything took: without the engine's fairness each of these tests waits for what it must not.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { NOTHING, WORK, type ShopWork, type StepResult, type WorkKind } from "../../app/work/steps.server";
import { createWorker, type WorkerOptions } from "../../app/assembly/assembly.server";
import type { Worker } from "../../app/work/worker.server";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { seedOrder } from "../support/orders";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim";
import { defaultReferenceData, KYIV_CITY_REF } from "../warehouse-sim/reference-data";
import { eventually, FLOW_PRODUCTS } from "../e2e/harness";

const { db, log } = appContext();
const BRANCH_REF = defaultReferenceData().branchesInCity(KYIV_CITY_REF)[0]!.Ref;
/** One request a minute per key: a shop with two orders sends its second a minute after its first. */
const MINUTE_LIMITS = { windowMs: 60_000, requestsPerWindow: 1, reportRequestsPerWindow: 1 };

const shopName = (index: number) => `fair-${index}.myshopify.com`;

const workers: Worker[] = [];
let sim: WarehouseSimulator | undefined;
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await sim?.close();
  sim = undefined;
});

/** `count` shops, each installed with a key of its own (an account of the simulator), nothing scheduled. */
async function installShops(count: number, keys: string[]): Promise<string[]> {
  const shops: string[] = [];
  for (let index = 0; index < count; index++) {
    const shop = shopName(index);
    await db.shop.create({
      data: {
        shop,
        name: `Fair ${index}`,
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "read_orders",
        installedAt: new Date(Date.now() - 3600_000),
      },
    });
    const saved = await saveSettings(appContext(), shop, {
      apiKey: keys[index]!,
      environment: "production",
      batchAddOrder: false,
      mapping: {},
    });
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
    shops.push(shop);
  }
  // Only what a test puts in is due: the sweeps a saved key asks for are not these tests' requests.
  await db.shopSchedule.deleteMany({});
  return shops;
}

/** A simulator with an account (and stock) per key. */
async function startSimulator(keys: string[], rateLimits = MINUTE_LIMITS) {
  sim = await startWarehouseSimulator({
    rateLimits,
    accounts: keys.map((apiKey, index) => ({
      login: `fair-${index}`,
      password: `fair-password-${index}`,
      apiKey,
      stagingApiKey: randomUUID(),
    })),
  });
  for (const apiKey of keys) sim.seedProducts(FLOW_PRODUCTS, apiKey);
  return sim;
}

let orderNumber = 1000;
async function readyOrders(shop: string, count: number) {
  for (let made = 0; made < count; made++)
    await seedOrder(db, {
      shop,
      number: ++orderNumber,
      state: "ready",
      payload: {
        note_attributes: [
          { name: "_np_city_ref", value: KYIV_CITY_REF },
          { name: "_np_warehouse_ref", value: BRANCH_REF },
        ],
      },
    });
}

const inState = (shop: string, state: string) => db.warehouseOrder.count({ where: { shop, state } });

function worker(options: Partial<WorkerOptions>): Worker {
  const created = createWorker({
    db,
    log,
    clock: () => new Date(),
    endpoints: { baseUrl: sim!.url, baseUrlV2: sim!.urlV2, timeoutMs: 30_000 },
    sweepIntervalMs: 50,
    rateLimits: { ...MINUTE_LIMITS, marginMs: 20 },
    backoff: { baseMs: 50, maxMs: 400 },
    inDoubtSettleMs: 0,
    ...options,
  });
  workers.push(created);
  return created;
}

/** A kind of the test's own, due for the shops given, whose step answers `run(shop)`. */
function kindFor(shops: string[], run: (work: ShopWork) => Promise<StepResult>): WorkKind {
  return {
    name: "fairness",
    dueShops: () => Promise.resolve(shops),
    open: (work) => Promise.resolve({ run: () => run(work), nextDueAt: () => Promise.resolve(null) }),
  };
}

describe("a shop whose key's limit holds back its backlog", () => {
  it("does not keep a slot while it waits: more flash sales than slots leave another shop's order to go at once", async () => {
    const keys = Array.from({ length: 6 }, () => randomUUID());
    await startSimulator(keys);
    const shops = await installShops(6, keys);
    const sales = shops.slice(0, 5);
    const quiet = shops[5]!;
    // Each sale's second order waits a minute for its key's window.
    for (const shop of sales) await readyOrders(shop, 2);
    const engine = worker({ concurrency: 4 });
    engine.start();
    for (const shop of sales)
      await eventually(async () => (await inState(shop, "accepted")) === 1, `${shop}'s first order`);
    await readyOrders(quiet, 1);
    // Found by the sweep, as a worker in another process than the webhook's finds it.
    await eventually(async () => (await inState(quiet, "accepted")) === 1, "the quiet shop's order", 20_000);
    // Every sale is still waiting out its window: the quiet shop did not wait for any of them.
    for (const shop of sales) expect(await inState(shop, "ready")).toBe(1);
  });
});

describe("a slow warehouse key", () => {
  it("holds a slot only while its request is out: two slow keys in two slots leave a third shop's order to go", async () => {
    const keys = Array.from({ length: 3 }, () => randomUUID());
    await startSimulator(keys, { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 });
    const shops = await installShops(3, keys);
    const slowKeys = keys.slice(0, 2);
    const requests = new Map<string, number>();
    // The slow keys' requests are answered after the client gave up on them: never, till the timeout.
    const slowFetch: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      const key = keys.find((candidate) => body.includes(candidate));
      if (key) requests.set(key, (requests.get(key) ?? 0) + 1);
      if (key && slowKeys.includes(key))
        return new Promise<Response>((_resolve, reject) => {
          const signal = init?.signal;
          signal?.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
        });
      return fetch(input, init);
    };
    for (const shop of shops) await readyOrders(shop, 1);
    const engine = worker({
      concurrency: 2,
      fetch: slowFetch,
      endpoints: { baseUrl: sim!.url, baseUrlV2: sim!.urlV2, timeoutMs: 1_000 },
      rateLimits: { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1, marginMs: 20 },
    });
    engine.start();
    await eventually(
      async () => (await inState(shops[2]!, "accepted")) === 1,
      "the third shop's order",
      20_000,
    );
    // The slow shops were at it all along: both sent and neither got an answer.
    for (const key of slowKeys) expect(requests.get(key) ?? 0).toBeGreaterThan(0);
    for (const shop of shops.slice(0, 2)) expect(await inState(shop, "accepted")).toBe(0);
  });
});

describe("a refused key", () => {
  it("pauses its shop after one request while the other shop's order goes, and is not asked again", async () => {
    const keys = [randomUUID(), randomUUID()];
    // The first key is no account of the warehouse's: refused.
    await startSimulator(keys.slice(1), {
      windowMs: 1_000,
      requestsPerWindow: 60,
      reportRequestsPerWindow: 1,
    });
    const shops = await installShops(2, keys);
    let refusedKeyRequests = 0;
    const countingFetch: typeof fetch = (input, init) => {
      if (typeof init?.body === "string" && init.body.includes(keys[0]!)) refusedKeyRequests++;
      return fetch(input, init);
    };
    for (const shop of shops) await readyOrders(shop, 1);
    const engine = worker({
      concurrency: 1,
      fetch: countingFetch,
      rateLimits: { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1, marginMs: 20 },
    });
    engine.start();
    await eventually(async () => (await inState(shops[1]!, "accepted")) === 1, "the other shop's order");
    await eventually(
      async () => (await db.shopSettings.findUniqueOrThrow({ where: { shop: shops[0]! } })).pausedAt,
      "the refused shop paused",
    );
    // Sweeps go on; none of them sends with the refused key again.
    for (let sweep = 0; sweep < 5; sweep++) await engine.sweep();
    expect(refusedKeyRequests).toBe(1);
    expect(await inState(shops[0]!, "ready")).toBe(1);
  });
});

describe("a shop whose Shopify bucket is empty", () => {
  let fake: ShopifyFake;
  beforeAll(async () => {
    fake = await startShopifyFake();
    routeShopifyTo(fake.url);
  });
  afterAll(async () => {
    routeShopifyTo(undefined);
    await fake.close();
  });

  it("waits for its bucket without the slot another shop's Shopify work needs", async () => {
    const keys = [randomUUID(), randomUUID()];
    await startSimulator(keys);
    const shops = await installShops(2, keys);
    for (const [index, shop] of shops.entries()) {
      const token = `shpat_fair_${index}_${randomUUID().slice(0, 8)}`;
      fake.state.addShop({ domain: shop, accessToken: token, name: `Fair ${index}` });
      await db.session.create({
        data: { id: `offline_${shop}`, shop, state: "", accessToken: token, scope: "read_orders" },
      });
    }
    const [empty, other] = shops as [string, string];
    // Empty, and a point back every 25 s: the client waits out the throttle (under its 30 s) in the step.
    fake.setThrottle({ shop: empty, currentlyAvailable: 0, restoreRate: 0.04 });
    const events: string[] = [];
    const done = new Set<string>();
    const kind = kindFor(shops, async (work) => {
      if (done.has(work.shop)) return NOTHING;
      done.add(work.shop);
      events.push(`${work.shop} asks`);
      const admin = await work.admin();
      await admin.query("query FairShopName { shop { name } }").catch(() => undefined);
      events.push(`${work.shop} answered`);
      return WORK;
    });
    const engine = worker({ concurrency: 1, kinds: [kind], admin: offlineShopAdmin });
    engine.start();
    await eventually(() => events.includes(`${other} answered`), "the other shop's answer", 15_000);
    expect(events.indexOf(`${empty} asks`)).toBeGreaterThanOrEqual(0);
    expect(events).not.toContain(`${empty} answered`);
  });
});

describe("a shop whose work never ends", () => {
  it("gives its slot up between passes when another shop waits for one", async () => {
    const keys = [randomUUID(), randomUUID()];
    await startSimulator(keys);
    const shops = await installShops(2, keys);
    const [endless] = shops as [string, string];
    let endlessRuns = 0;
    let otherRuns = 0;
    const kind = kindFor(shops, (work) => {
      if (work.shop === endless) {
        endlessRuns++;
        return Promise.resolve(WORK); // a reference refresh that always has another page
      }
      otherRuns++;
      return Promise.resolve(otherRuns === 1 ? WORK : NOTHING);
    });
    const engine = worker({ concurrency: 1, kinds: [kind] });
    engine.start();
    await eventually(() => endlessRuns > 0, "the endless shop's first pass");
    await eventually(() => otherRuns > 0, "the other shop's turn", 20_000);
    expect(endlessRuns).toBeGreaterThan(0);
  });
});
