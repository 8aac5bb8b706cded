// The work engine with kinds of work of a test's own: schedules as due rows, the lease's context, the one
// place a refused key pauses a shop, a loop that stops before its next step, and the one factory.
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { parseEnv } from "../../app/env.server";
import { REMAP_KIND } from "../../app/orders/states";
import { readTexts } from "../../app/i18n/texts";
import { createLogger } from "../../app/logger.server";
import { PAUSE_REASONS, saveSettings } from "../../app/settings/settings.server";
import { ShopifyUserErrors } from "../../app/shopify/admin-graphql.server";
import { createEngine, engineSettings, offlineShopAdmin } from "../../app/assembly/engine.server";
import { requestRun, scheduledKind } from "../../app/work/schedule.server";
import {
  KEY_REFUSED,
  NOTHING,
  WORK,
  type ShopWork,
  type StepResult,
  type WorkKind,
} from "../../app/work/steps.server";
import { createWorker } from "../../app/assembly/assembly.server";
import type { Worker } from "../../app/work/worker.server";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { eventually } from "../e2e/harness";

const SHOP = "engine-shop.myshopify.com";
const { db, log } = appContext();
const endpoints = {
  baseUrl: "http://127.0.0.1:9/api",
  baseUrlV2: "http://127.0.0.1:9/api2",
  timeoutMs: 1000,
};
const workers: Worker[] = [];

function worker(options: Partial<Parameters<typeof createWorker>[0]> = {}): Worker {
  const created = createWorker({
    db,
    log,
    clock: () => new Date(),
    endpoints,
    sweepIntervalMs: 20,
    ...options,
  });
  workers.push(created);
  return created;
}

async function installShop(apiKey = "key-one") {
  await db.shop.create({
    data: {
      shop: SHOP,
      name: "Engine",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(),
    },
  });
  const saved = await saveSettings(appContext(), SHOP, { apiKey, environment: "production", mapping: {} });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
}

/** A kind whose step answers what `answer` says on each run; due for the shop at every sweep. */
function scriptedKind(answer: (run: number, work: ShopWork) => Promise<StepResult> | StepResult) {
  const state = { runs: 0, contexts: [] as ShopWork[], runsPerLease: [] as number[] };
  const kind: WorkKind = {
    name: "scripted",
    dueShops: () => Promise.resolve([SHOP]),
    open(work) {
      const lease = state.contexts.push(work) - 1;
      state.runsPerLease[lease] = 0;
      return Promise.resolve({
        run: async () => {
          state.runsPerLease[lease]!++;
          return answer(++state.runs, work);
        },
        nextDueAt: () => Promise.resolve(null),
      });
    },
  };
  return { kind, state };
}

beforeEach(async () => {
  await installShop();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((created) => created.stop()));
});

describe("waking a shop's loop", () => {
  it("lets new orders wait for the limits that hold the loop, but not work that is due now", async () => {
    const runs: number[] = [];
    const later = () => Date.now() + 60_000;
    const kind: WorkKind = {
      name: "held",
      dueShops: () => Promise.resolve([SHOP]),
      open: () =>
        Promise.resolve({
          run: () => {
            runs.push(Date.now());
            return Promise.resolve({ did: "wait" as const, until: new Date(later()) });
          },
          nextDueAt: () => Promise.resolve(later()),
          heldUntil: () => later(),
        }),
    };
    const engine = worker({ kinds: [kind], leaseTtlMs: 300_000, sweepIntervalMs: 60_000 });
    engine.start();
    await eventually(() => runs.length >= 1, "the first run");
    const first = runs.length;
    engine.wake(SHOP, "new_orders");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs.length).toBe(first);
    engine.wake(SHOP);
    await eventually(() => runs.length > first, "a run for the work due now");
  });
});

describe("a wake-up every engine heard (NOTIFY)", () => {
  it("is left to the worker holding the shop's lease, while a wake of this process's own is not", async () => {
    const events: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean))
          events.push(String((JSON.parse(line) as { event?: unknown }).event));
        done();
      },
    });
    await db.workLease.create({
      data: { shop: SHOP, holder: "another-worker", expiresAt: new Date(Date.now() + 300_000) },
    });
    const { kind } = scriptedKind(() => NOTHING);
    const engine = worker({
      kinds: [kind],
      sweepIntervalMs: 60_000,
      leaseTtlMs: 300_000,
      log: createLogger({ level: "debug", destination }),
    });
    const busy = () => events.filter((event) => event === "worker.lease_busy").length;
    engine.start();
    await eventually(() => busy() === 1, "the sweep to find the lease held elsewhere");
    // The holder heard these too: asking for its lease again would only find it busy.
    for (let n = 0; n < 3; n++) engine.wake(SHOP, "new_orders", "heard");
    engine.shopChanged(SHOP, "heard");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(busy()).toBe(1);
    // A wake of this process's own reached no other worker: it asks.
    engine.wake(SHOP);
    await eventually(() => busy() === 2, "the local wake to ask for the lease");
  });
});

describe("a wake or a stop that comes while a pass is working", () => {
  /** A kind whose pass waits at `nextDueAt` until the test lets it go, then asks to sleep a minute. */
  function pausedKind() {
    const runs: number[] = [];
    let entered!: () => void;
    let release!: () => void;
    const atNextDue = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let passes = 0;
    const kind: WorkKind = {
      name: "paused",
      dueShops: () => Promise.resolve([SHOP]),
      open: () =>
        Promise.resolve({
          run: () => {
            runs.push(Date.now());
            return Promise.resolve(NOTHING);
          },
          nextDueAt: async () => {
            if (++passes === 1) {
              entered();
              await gate;
            }
            return Date.now() + 60_000;
          },
        }),
    };
    return { kind, runs, atNextDue, release };
  }

  it("is not lost: the loop does not go to sleep over work that arrived meanwhile", async () => {
    const paused = pausedKind();
    const engine = worker({ kinds: [paused.kind], leaseTtlMs: 300_000, sweepIntervalMs: 60_000 });
    engine.start();
    await paused.atNextDue;
    engine.wake(SHOP);
    paused.release();
    // Without the wake remembered, the loop would sleep a minute before its second pass.
    await eventually(() => paused.runs.length >= 2, "a second pass for the wake");
  });

  it("ends the loop at once instead of after the sleep it was about to take", async () => {
    const paused = pausedKind();
    const engine = worker({ kinds: [paused.kind], leaseTtlMs: 300_000, sweepIntervalMs: 60_000 });
    engine.start();
    await paused.atNextDue;
    let stopped = false;
    const stopping = engine.stop().then(() => (stopped = true));
    paused.release();
    await eventually(() => stopped, "the engine stopped");
    await stopping;
    expect(paused.runs).toHaveLength(1);
  });
});

describe("scheduled work", () => {
  it("runs a kind when its row is due, keeps when it is due next, and a new engine finds it after a restart", async () => {
    const runs: { cursor: string | null }[] = [];
    const kind = scheduledKind("poll", (_work, schedule) => {
      runs.push({ cursor: schedule.cursor });
      return Promise.resolve({ nextRunAt: new Date(Date.now() + 3600_000), cursor: `page-${runs.length}` });
    });
    await requestRun(db, SHOP, "poll", new Date());
    await worker({ kinds: [kind] }).sweep();
    expect(runs).toEqual([{ cursor: null }]);
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "poll" } },
    });
    expect(row.cursor).toBe("page-1");
    expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);

    // Not due: a sweep leaves it alone. Due (as after a restart past its time): a new engine runs it.
    await worker({ kinds: [kind] }).sweep();
    expect(runs).toHaveLength(1);
    await db.shopSchedule.update({
      where: { shop_kind: { shop: SHOP, kind: "poll" } },
      data: { nextRunAt: new Date(Date.now() - 1000) },
    });
    await worker({ kinds: [kind] }).sweep();
    expect(runs).toEqual([{ cursor: null }, { cursor: "page-1" }]);
  });

  it("keeps a request for now when a request for later creates the row between its look and its bump", async () => {
    const later = new Date(Date.now() + 5 * 60_000);
    let looks = 0;
    // The other request (an order accepted, asking for a first check in five minutes) commits its row
    // right after this one's first look found none.
    const racing = {
      shopSchedule: {
        updateMany: async (args: Parameters<typeof db.shopSchedule.updateMany>[0]) => {
          const result = await db.shopSchedule.updateMany(args);
          if (++looks === 1)
            await db.shopSchedule.create({ data: { shop: SHOP, kind: "report", nextRunAt: later } });
          return result;
        },
        create: (args: Parameters<typeof db.shopSchedule.create>[0]) => db.shopSchedule.create(args),
      },
    } as unknown as typeof db;
    const now = new Date();
    await requestRun(racing, SHOP, "report", now);
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "report" } },
    });
    expect(row.nextRunAt.getTime()).toBe(now.getTime());
  });

  it("keeps a run asked for while the last one was out, instead of the time that run answered", async () => {
    let calls = 0;
    const kind = scheduledKind("remap", async () => {
      calls++;
      // The merchant saves settings again while this run is working.
      if (calls === 1) await requestRun(db, SHOP, "remap", new Date());
      return { nextRunAt: null };
    });
    await requestRun(db, SHOP, "remap", new Date());
    await worker({ kinds: [kind] }).sweep();
    // The first run's "nothing more" did not delete the request made meanwhile: it ran again, then ended.
    expect(calls).toBe(2);
    expect(await db.shopSchedule.count({ where: { shop: SHOP, kind: "remap" } })).toBe(0);
  });

  it("keeps the cursor of a request made while the last run was out, instead of the cursor that run answered", async () => {
    const seen: (string | null)[] = [];
    const kind = scheduledKind("refresh", async (_work, schedule) => {
      seen.push(schedule.cursor);
      // The merchant presses "Refresh now" while this run is working: a request that says so in the cursor.
      if (seen.length === 1) await requestRun(db, SHOP, "refresh", new Date(), { cursor: "manual" });
      return { nextRunAt: new Date(Date.now() + 3600_000), cursor: `page-${seen.length}` };
    });
    await requestRun(db, SHOP, "refresh", new Date());
    await worker({ kinds: [kind] }).sweep();
    // The second run saw the merchant's request, not the first run's page; its own answer then stood.
    expect(seen).toEqual([null, "manual"]);
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "refresh" } },
    });
    expect(row.cursor).toBe("page-2");
  });

  it("runs a kind that waits for the rate limits again when its wait ends, not over and over until then", async () => {
    let runs = 0;
    const allowedAt = Date.now() + 1_000;
    const kind = scheduledKind("report", () => {
      runs++;
      // The report's one call a minute is spent: the row stays due, and the run says until when it waits.
      const waiting = { did: "wait" as const, until: new Date(allowedAt) };
      return Promise.resolve(Date.now() < allowedAt ? waiting : { nextRunAt: null });
    });
    await requestRun(db, SHOP, "report", new Date());
    await worker({ kinds: [kind] }).sweep();
    expect(runs).toBe(2);
  });

  it("keeps a failed run's error on its row and tries again later, without stopping the shop's other work", async () => {
    const kind = scheduledKind(
      "report",
      () => {
        throw new Error("the report could not be read");
      },
      { retryMs: 3600_000 },
    );
    const other = scriptedKind((run) => (run === 1 ? WORK : NOTHING));
    await requestRun(db, SHOP, "report", new Date());
    await worker({ kinds: [kind, other.kind] }).sweep();
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "report" } },
    });
    expect(row.lastError).toBe("the report could not be read");
    expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    expect(other.state.runs).toBeGreaterThanOrEqual(2);
  });
});

describe("re-mapping after a settings change", () => {
  it("is run by the engine once a save asked for it, and the request is cleared", async () => {
    const request = () =>
      db.shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: REMAP_KIND } } });
    const mapping = { deliveryLiterals: { novaPoshta: "Нова Пошта (відділення)" } };
    const saved = await saveSettings(appContext(), SHOP, { environment: "production", mapping });
    expect(saved.ok).toBe(true);
    expect(await request()).not.toBeNull();
    await worker().sweep();
    expect(await request()).toBeNull();
  });

  it("holds back a shop whose key another shop shares with a prefix that could meet its own", async () => {
    const other = "engine-other.myshopify.com";
    // Saved before the check existed: both rows have the same key and no prefix.
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    await db.shopSettings.create({ data: { ...row, shop: other } });
    const { kind, state } = scriptedKind(() => NOTHING);
    await worker({ kinds: [kind] }).sweep();
    expect(state.runs).toBe(0);
  });
});

describe("the lease's context", () => {
  it("carries the shop, the saved key's digest and settings, and the engine's clock", async () => {
    const clock = () => new Date(Date.now() + 7 * 24 * 3600_000);
    const { kind, state } = scriptedKind(() => NOTHING);
    await worker({ kinds: [kind], clock }).sweep();
    const saved = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    const [context] = state.contexts;
    expect(context).toMatchObject({ shop: SHOP, keyDigest: saved.apiKeyDigest });
    expect(context!.settings).toMatchObject({ environment: "production" });
    expect(context!.clock().getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    expect(context!.signal.aborted).toBe(true);
  });
});

describe("a refused key", () => {
  it("pauses the shop when the refused key is the saved one", async () => {
    const { kind } = scriptedKind(() => KEY_REFUSED);
    await worker({ kinds: [kind] }).sweep();
    const settings = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(settings.pausedAt).not.toBeNull();
    expect(readTexts(settings.pauseReason)).toEqual([PAUSE_REASONS.refused]);
  });

  it("does not pause the shop when the merchant saved a new key while the refused one was in use", async () => {
    const { kind } = scriptedKind(async () => {
      await saveSettings(appContext(), SHOP, { apiKey: "key-two", environment: "production", mapping: {} });
      return KEY_REFUSED;
    });
    await worker({ kinds: [kind] }).sweep();
    const settings = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(settings.pausedAt).toBeNull();
  });
});

describe("a shop's loop", () => {
  it("stops before its next step when another process marks the shop uninstalled", async () => {
    const { kind, state } = scriptedKind(async (run) => {
      if (run === 3) await db.shop.update({ where: { shop: SHOP }, data: { uninstalledAt: new Date() } });
      return WORK; // a backlog that never ends
    });
    await worker({ kinds: [kind] }).sweep();
    expect(state.runs).toBe(3);
  });

  it("stops before its next step when this process learns of a new key, and goes on with the new one", async () => {
    const engine: { current?: Worker } = {};
    const { kind, state } = scriptedKind(async (_run, work) => {
      if (work !== state.contexts[0]) return NOTHING;
      if (state.runsPerLease[0] === 2) {
        const deps = { ...appContext(), shopChanged: (shop: string) => engine.current!.shopChanged(shop) };
        await saveSettings(deps, SHOP, { apiKey: "key-three", environment: "production", mapping: {} });
      }
      return WORK; // the old key's backlog never ends
    });
    engine.current = worker({ kinds: [kind] });
    engine.current.wake(SHOP);
    await eventually(() => state.contexts.length === 2, "a second lease with the new key");
    await engine.current.sweep();
    const [first, second] = state.contexts;
    expect(state.runsPerLease[0]).toBe(2);
    expect(first!.signal.aborted).toBe(true);
    expect(second!.keyDigest).not.toBe(first!.keyDigest);
  });

  it("stops when a step throws, and the next sweep takes the shop again", async () => {
    const { kind, state } = scriptedKind((run) => {
      if (run === 1) throw new Error("boom");
      return NOTHING;
    });
    const engine = worker({ kinds: [kind] });
    await engine.sweep();
    await engine.sweep();
    expect(state.runs).toBe(2);
    expect(await db.workLease.count({ where: { shop: SHOP } })).toBe(0);
  });
});

describe("the shop's Admin client", () => {
  let fake: ShopifyFake;
  beforeAll(async () => {
    fake = await startShopifyFake();
    routeShopifyTo(fake.url);
  });
  afterAll(async () => {
    routeShopifyTo(undefined);
    await fake.close();
  });

  it("uses the offline session, waits out THROTTLED, and raises userErrors", async () => {
    if (!fake.state.shop(SHOP))
      fake.state.addShop({ domain: SHOP, accessToken: "shpat_engine", name: "Engine shop" });
    await db.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        accessToken: "shpat_engine",
        scope: "read_orders",
      },
    });
    const seen: unknown[] = [];
    const { kind } = scriptedKind(async (_run, work) => {
      const admin = await work.admin();
      fake.throttleNext(1);
      seen.push(await admin.query<{ shop: { name: string } }>("query EngineShopName { shop { name } }"));
      seen.push(
        await admin
          .mutate(
            `mutation EngineDelivered($id: ID!) {
              fulfillmentEventCreate(fulfillmentEvent: { fulfillmentId: $id, status: DELIVERED }) {
                fulfillmentEvent { id }
                userErrors { field message }
              }
            }`,
            { id: "gid://shopify/Fulfillment/404" },
          )
          .catch((error: unknown) => error),
      );
      return NOTHING;
    });
    const before = fake.requests.length;
    await worker({ kinds: [kind], admin: offlineShopAdmin }).sweep();
    expect(seen[0]).toEqual({ shop: { name: "Engine shop" } });
    expect(fake.requests.length - before).toBe(3); // the throttled query, its retry, the mutation
    expect(seen[1]).toBeInstanceOf(ShopifyUserErrors);
    expect((seen[1] as Error).message).toMatch(/Fulfillment does not exist/);
  });
});

describe("the one factory", () => {
  it("builds an engine whose sweep finishes a compliance request a crash left undone", async () => {
    const request = await db.complianceRequest.create({
      data: {
        shop: SHOP,
        topic: "customers/redact",
        webhookId: "redact-1",
        customerId: "7001",
        orderIds: "[]",
        receivedAt: new Date(Date.now() - 10 * 60_000),
      },
    });
    const env = parseEnv({
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://a.example",
    });
    const engine = createEngine(appContext(), env, { endpoints });
    workers.push(engine);
    await engine.sweep();
    const done = await db.complianceRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(done.completedAt).toBeInstanceOf(Date);
  });

  it("takes the engine's limits and timings from the parsed environment", () => {
    const env = parseEnv({
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://app.example.com",
      WAREHOUSE_API_URL: "http://127.0.0.1:4010/api",
      WAREHOUSE_RATE_WINDOW_MS: "1000",
      WORKER_SWEEP_MS: "250",
      WORKER_LEASE_TTL_MS: "5000",
      WAREHOUSE_TIMEOUT_MS: "3000",
      WAREHOUSE_IN_DOUBT_AFTER_MS: "0",
    });
    expect(engineSettings(env)).toMatchObject({
      endpoints: { baseUrl: "http://127.0.0.1:4010/api", timeoutMs: 3000 },
      rateLimits: { windowMs: 1000 },
      inDoubt: { missBelievedAfterMs: 0, lookupIntervalMs: 1000 },
      sweepIntervalMs: 250,
      leaseTtlMs: 5000,
    });
    expect(() => parseEnv({ ...env, WORKER_SWEEP_MS: "0" } as never)).toThrow(/WORKER_SWEEP_MS/);
  });
});
