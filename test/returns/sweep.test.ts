// The returns sweep over real HTTP, through the engine, against the simulator: a register of more than one
// page read a page a run within the report limit, a second sweep over the same days adding nothing, a record
// that cannot be read kept raw, orders and due status look-ups going first, a refused key pausing the shop,
// and a 5xx kept as the schedule's problem with the sweep going on from the same page.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { readTexts } from "../../app/i18n/texts";
import { message } from "../../app/i18n/message";
import { RETURNS_KIND, requestReturnsSweep } from "../../app/returns/kinds.server";
import {
  addDays,
  FIRST_SWEEP_DAYS,
  OVERLAP_DAYS,
  readCursor,
  SAME_PAGE_FAILURES,
  SKIPPED_PAGE_FIRST_RETRY_MS,
  SKIPPED_PAGE_TRIES,
  type ReturnsCursor,
} from "../../app/returns/cursor";
import { returnsOverview } from "../../app/returns/queries.server";
import { toCompactDate } from "../../app/warehouse/dates";
import { OPERATIONS } from "../../app/warehouse/wire";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { MemoryRateLimitStore, WarehouseRateLimiter } from "../../app/warehouse/limiter.server";
import { returnsWork } from "../../app/returns/work.server";
import type { ShopWork } from "../../app/work/steps.server";
import { wakeWorker } from "../../app/work/worker.server";
import {
  eventually,
  orderPayload,
  SCALED_LIMITS,
  SHOP,
  startOrderFlow,
  type OrderFlow,
} from "../e2e/harness";
import { compactDate } from "../warehouse-sim/clock";
import type { ReturnRecord } from "../warehouse-sim/state";

const db = () => appContext().db;
let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/** The warehouse requests the worker sent, in order, with what each asked for. */
function recorder() {
  const sent: { operation: string; body: Record<string, unknown> }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    sent.push({ operation: url.pathname.split("/").at(-1)!, body });
    return fetch(input, init);
  };
  return {
    sent,
    fetch: recording,
    of: (operation: string) => sent.filter((each) => each.operation === operation),
  };
}

/** Returns booked at the simulator for orders of another store (pushed as its register keeps them). */
function bookReturns(flow: OrderFlow, count: number, first = 1): ReturnRecord[] {
  const now = flow.sim.clock.now();
  const records = Array.from({ length: count }, (_, i) => ({
    id_return: `ВП-${String(first + i).padStart(6, "0")}`,
    id_order: `ELSEWHERE-${first + i}`,
    id_order_FF: `AVS${first + i}`,
    at: now,
    createdDate: compactDate(now),
    TTN: `2045${String(first + i).padStart(10, "0")}`,
    products: [{ sku: "CUP-001", count: 1, marriage: i % 2 === 0 }],
  }));
  flow.sim.store().returns.push(...records);
  return records;
}

const schedule = () =>
  db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: RETURNS_KIND } } });

async function sweepNow() {
  await requestReturnsSweep(db(), SHOP, new Date());
  wakeWorker(SHOP);
}

/** Waits for a sweep to finish after `since` (its cursor says which day it covered). */
function swept(since: Date) {
  return eventually(async () => {
    const row = await schedule();
    return row?.lastRunAt && row.lastRunAt >= since && !readCursor(row.cursor).pass && row;
  }, "the sweep to finish");
}

describe("the returns sweep", { timeout: 120_000 }, () => {
  it("reads a register of two pages a page a run within the report limit, and a second sweep adds nothing", async () => {
    const requests = recorder();
    flow = await startOrderFlow({ worker: { fetch: requests.fetch } });
    // Saving the key asked for a first sweep a few minutes on.
    const asked = await schedule();
    expect(asked!.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
    bookReturns(flow, 130);
    // One record the warehouse wrote with a count nobody can read.
    const [odd] = bookReturns(flow, 1, 500);
    odd!.products = [{ sku: "CUP-002", count: -1, marriage: false }];
    const started = new Date();
    await sweepNow();
    const row = await swept(started);
    const today = toCompactDate(new Date());
    expect(readCursor(row.cursor)).toEqual({ sweptTo: today, pass: null, skipped: [] });
    expect(row.lastError).toBeNull();
    expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);

    const lists = requests.of(OPERATIONS.listReturnOrder);
    expect(lists.map((each) => each.body.page)).toEqual([1, 2]);
    expect(lists[0]!.body).toMatchObject({ datefrom: addDays(today, -FIRST_SWEEP_DAYS), dateto: today });
    // Both pages within the key's report limit: the simulator refused none.
    expect(flow.sim.stats().rateLimited).toEqual({ overall: 0, report: 0 });

    expect(await db().warehouseReturn.count({ where: { shop: SHOP } })).toBe(131);
    const kept = await db().warehouseReturn.findFirstOrThrow({ where: { returnKey: "id:ВП-000500" } });
    expect(readTexts(kept.problem)).toEqual([message("returns:problem.lineCount", { line: 1 })]);
    expect(JSON.parse(kept.raw)).toMatchObject({ products: [{ sku: "CUP-002", count: "-1" }] });
    const other = await db().warehouseReturn.findFirstOrThrow({ where: { returnKey: "id:ВП-000001" } });
    expect(other).toMatchObject({
      idOrder: "ELSEWHERE-1",
      orderId: null,
      units: 1,
      defective: true,
      problem: null,
    });
    const firstSeen = other.firstSeenAt;

    // The next sweep goes back over the last days: the same records, nothing new.
    const again = new Date();
    await sweepNow();
    await swept(again);
    const second = requests.of(OPERATIONS.listReturnOrder).slice(2);
    expect(second[0]!.body).toMatchObject({
      datefrom: addDays(today, -OVERLAP_DAYS),
      dateto: today,
      page: 1,
    });
    expect(await db().warehouseReturn.count({ where: { shop: SHOP } })).toBe(131);
    const seenAgain = await db().warehouseReturn.findFirstOrThrow({ where: { returnKey: "id:ВП-000001" } });
    expect(seenAgain.firstSeenAt).toEqual(firstSeen);
    expect(seenAgain.lastSeenAt.getTime()).toBeGreaterThan(firstSeen.getTime());
  });

  it("lets the shop's due orders go first", async () => {
    const requests = recorder();
    flow = await startOrderFlow({ noWorker: true, worker: { fetch: requests.fetch } });
    bookReturns(flow, 1);
    await flow.post({ topic: "orders/create", payload: orderPayload(3101) });
    const started = new Date();
    await requestReturnsSweep(db(), SHOP, started);
    flow.worker.start();
    await swept(started);
    const operations = requests.sent.map((each) => each.operation);
    expect(operations.indexOf(OPERATIONS.addOrder)).toBeGreaterThanOrEqual(0);
    expect(operations.indexOf(OPERATIONS.addOrder)).toBeLessThan(
      operations.indexOf(OPERATIONS.listReturnOrder),
    );
    expect(await db().warehouseReturn.count()).toBe(1);
  });

  it("pauses the shop when the warehouse refuses the key", async () => {
    flow = await startOrderFlow();
    // A return is there to be read: the refused sweep keeps none of it.
    bookReturns(flow, 1);
    flow.sim.faults.failNext({ count: 1, status: 401, operations: [OPERATIONS.listReturnOrder] });
    await sweepNow();
    await eventually(
      async () => (await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).pausedAt,
      "the shop to be paused",
    );
    expect(await db().warehouseReturn.count()).toBe(0);
  });

  it("keeps a 5xx as the schedule's problem and goes on from the same page later", async () => {
    const requests = recorder();
    flow = await startOrderFlow({ worker: { fetch: requests.fetch } });
    bookReturns(flow, 3);
    flow.sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.listReturnOrder] });
    const started = new Date();
    await sweepNow();
    const failed = await eventually(async () => {
      const row = await schedule();
      return row?.lastError ? row : null;
    }, "the failure to be kept");
    expect(failed.lastError).toMatch(/503/);
    // Kept in the merchant's words, for the Returns page to say in the admin's language.
    expect(readTexts(failed.lastError)).toEqual([message("warehouse:error.serverError", { status: 503 })]);
    expect(readCursor(failed.cursor).pass).toMatchObject({ page: 1 });
    // Tried again by itself, minutes later.
    expect(failed.nextRunAt.getTime()).toBeGreaterThan(started.getTime() + 4 * 60_000);
    expect(await db().warehouseReturn.count()).toBe(0);

    const again = new Date();
    await sweepNow();
    const row = await swept(again);
    expect(row.lastError).toBeNull();
    expect(await db().warehouseReturn.count()).toBe(3);
    expect(requests.of(OPERATIONS.listReturnOrder).map((each) => each.body.page)).toEqual([1, 1]);
  });

  it("moves past a page the warehouse keeps refusing, tries it again with a growing wait, and reads it once it can", async () => {
    const requests = recorder();
    flow = await startOrderFlow({ worker: { fetch: requests.fetch } });
    bookReturns(flow, 230);
    // The warehouse refuses the register's second page, whatever it is asked, and serves the others.
    flow.sim.faults.failNext({
      count: 10_000,
      status: 400,
      operations: [OPERATIONS.listReturnOrder],
      when: { page: 2 },
    });
    const started = new Date();
    await sweepNow();
    const first = await swept(started);
    const pages = () => requests.of(OPERATIONS.listReturnOrder).map((each) => each.body.page);
    expect(pages()).toEqual([1, 2, 3]);
    // Pages 1 and 3 kept; page 2 recorded, to be tried again half an hour on.
    expect(await db().warehouseReturn.count()).toBe(130);
    const today = toCompactDate(new Date());
    const cursor = readCursor(first.cursor);
    expect(cursor.sweptTo).toBe(today);
    expect(cursor.skipped).toEqual([
      expect.objectContaining({ from: addDays(today, -FIRST_SWEEP_DAYS), to: today, page: 2, tries: 1 }),
    ]);
    // The refusal kept in the merchant's words (a Message), for the Returns page.
    expect(readTexts(cursor.skipped[0]!.error)[0]?.key).toMatch(/^warehouse:error\./);
    const nextTry = Date.parse(cursor.skipped[0]!.nextTryAt!);
    expect(nextTry).toBeGreaterThan(started.getTime() + SKIPPED_PAGE_FIRST_RETRY_MS - 60_000);
    // The schedule wakes for the try, before the next sweep.
    expect(first.nextRunAt.getTime()).toBe(nextTry);
    // Shown on the Returns page's data.
    expect((await returnsOverview(db(), SHOP)).skippedPages).toEqual([
      expect.objectContaining({ page: 2, tries: 1, givenUp: false }),
    ]);

    // Newer returns are never held up: the next sweep reads past the refused page again.
    bookReturns(flow, 10, 1000);
    const again = new Date();
    await sweepNow();
    await swept(again);
    expect(pages().slice(3)).toEqual([1, 2, 3]);
    expect(await db().warehouseReturn.count()).toBe(140);

    // The try, due: refused again, it waits twice as long.
    const due = async (change: (entry: ReturnsCursor["skipped"][number]) => object) => {
      const row = await schedule();
      const stored = readCursor(row!.cursor);
      const skipped = stored.skipped.map((entry) => ({ ...entry, ...change(entry) }));
      await db().shopSchedule.update({
        where: { shop_kind: { shop: SHOP, kind: RETURNS_KIND } },
        data: { cursor: JSON.stringify({ ...stored, skipped }), nextRunAt: new Date() },
      });
      wakeWorker(SHOP);
    };
    const past = new Date(Date.now() - 1_000).toISOString();
    const oldest = addDays(today, -FIRST_SWEEP_DAYS);
    await due((entry) => (entry.from === oldest ? { nextTryAt: past } : {}));
    const refusedAgain = await eventually(async () => {
      const entry = readCursor((await schedule())!.cursor).skipped.find((each) => each.from === oldest);
      return entry?.tries === 2 && entry;
    }, "the skipped page to be tried again");
    expect(Date.parse(refusedAgain.nextTryAt!)).toBeGreaterThan(
      Date.now() + 2 * SKIPPED_PAGE_FIRST_RETRY_MS - 120_000,
    );

    // At its last try, refused: given up, shown, no longer tried.
    await due((entry) => (entry.from === oldest ? { tries: SKIPPED_PAGE_TRIES - 1, nextTryAt: past } : {}));
    await eventually(async () => {
      const entry = readCursor((await schedule())!.cursor).skipped.find((each) => each.from === oldest);
      return entry?.nextTryAt === null;
    }, "the skipped page to be given up");
    expect((await returnsOverview(db(), SHOP)).skippedPages).toContainEqual(
      expect.objectContaining({ from: oldest, page: 2, tries: SKIPPED_PAGE_TRIES, givenUp: true }),
    );

    // The warehouse serves the page again: the next try reads it and it leaves the list.
    flow.sim.faults.clear();
    await due((entry) => (entry.from !== oldest ? { nextTryAt: past } : {}));
    await eventually(
      async () => readCursor((await schedule())!.cursor).skipped.length === 1,
      "the page to be read",
    );
    expect(await db().warehouseReturn.count()).toBe(240);
  });

  it("moves past a page that fails the same way three times in a row, as a refused one", async () => {
    const requests = recorder();
    flow = await startOrderFlow({ worker: { fetch: requests.fetch } });
    bookReturns(flow, 130);
    flow.sim.faults.failNext({
      count: SAME_PAGE_FAILURES,
      status: 503,
      operations: [OPERATIONS.listReturnOrder],
      when: { page: 1 },
    });
    for (let failure = 1; failure < SAME_PAGE_FAILURES; failure++) {
      await sweepNow();
      await eventually(
        async () => readCursor((await schedule())!.cursor).pass?.failures === failure,
        `failure ${failure} to be counted`,
      );
    }
    const started = new Date();
    await sweepNow();
    const row = await swept(started);
    expect(requests.of(OPERATIONS.listReturnOrder).map((each) => each.body.page)).toEqual([1, 1, 1, 2]);
    expect(readCursor(row.cursor).skipped).toEqual([expect.objectContaining({ page: 1, tries: 1 })]);
    expect(await db().warehouseReturn.count()).toBe(30);
  });

  it("lets due status look-ups go first, but not for ever", async () => {
    flow = await startOrderFlow({ noWorker: true });
    bookReturns(flow, 1);
    const requests = recorder();
    const work = {
      ...appContext(),
      shop: SHOP,
      keyDigest: "",
      settings: {} as ShopWork["settings"],
      admin: () => Promise.reject(new Error("no Shopify here")),
      signal: new AbortController().signal,
      warehouse: createWarehouseClient({
        apiKey: flow.sim.apiKey,
        endpoints: { baseUrl: flow.sim.url, baseUrlV2: flow.sim.urlV2, timeoutMs: 30_000 },
        limiter: new WarehouseRateLimiter(new MemoryRateLimitStore(), { limits: SCALED_LIMITS }),
        fetch: requests.fetch,
      }),
    } satisfies ShopWork;
    const step = await returnsWork.open(work);
    const now = new Date();
    await db().shopSchedule.create({ data: { shop: SHOP, kind: "statuses", nextRunAt: now } });
    await requestReturnsSweep(db(), SHOP, now);
    // Status look-ups are due: the sweep waits, sending nothing, and stays due.
    expect(await step.run()).toMatchObject({ did: "wait" });
    expect(requests.of(OPERATIONS.listReturnOrder)).toHaveLength(0);
    expect((await schedule())!.nextRunAt).toEqual(now);
    // Due for more than ten minutes, it goes all the same.
    await db().shopSchedule.update({
      where: { shop_kind: { shop: SHOP, kind: RETURNS_KIND } },
      data: { nextRunAt: new Date(now.getTime() - 11 * 60_000) },
    });
    expect(await step.run()).toMatchObject({ did: "work" });
    expect(requests.of(OPERATIONS.listReturnOrder)).toHaveLength(1);
    expect(await db().warehouseReturn.count()).toBe(1);
  });
});
