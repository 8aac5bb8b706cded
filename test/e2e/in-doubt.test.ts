// Orders in doubt: looked up by id_order with ReportStatusOrder, never sent a second time on a guess.
// Orders come in through the real webhook route; the steps run against the simulator over loopback,
// on a clock of their own that the tests move on (the limiter reads the same clock).
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { submitNow } from "../../app/orders/actions.server";
import {
  IN_DOUBT,
  lookUpInDoubtOrders,
  recoverInterruptedSubmissions,
  type InDoubtSettings,
} from "../../app/orders/in-doubt.server";
import { sendPendingChange } from "../../app/orders/changes.server";
import type { ShopWorkDeps, StepResult } from "../../app/orders/step.server";
import { BatchesInFlight, submitReadyOrders } from "../../app/orders/submit.server";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { MemoryRateLimitStore, WarehouseRateLimiter } from "../../app/warehouse/limiter.server";
import type { WarehouseOrder } from "../../app/warehouse/schemas";
import { orderPayload, SCALED_LIMITS, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { inEnglishWords } from "../support/orders";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;
const MINUTE = 60_000;

/** The steps' clock: real time plus whatever a test has moved it on by. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
/** Moves our clock and the simulator's (its rate limits run on its own) on together. */
function advance(ms: number) {
  offsetMs += ms;
  flow?.sim.advanceClock(ms);
}

function shopDeps(sim: OrderFlow["sim"], timeoutMs = 2_000, fetcher?: typeof fetch): ShopWorkDeps {
  const warehouse = createWarehouseClient({
    ...(fetcher && { fetch: fetcher }),
    apiKey: sim.apiKey,
    endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs },
    limiter: new WarehouseRateLimiter(new MemoryRateLimitStore(), {
      limits: { ...SCALED_LIMITS, marginMs: 20 },
      now: () => clock().getTime(),
    }),
    batchAddOrder: true,
  });
  return {
    ...appContext(),
    clock,
    warehouse,
    inDoubtSettleMs: 0,
    backoff: { baseMs: 50, maxMs: 400 },
  };
}

/** Runs a step, sleeping through the rate limiter's waits (a few hundred ms with the scaled window). */
async function run(step: () => Promise<StepResult>): Promise<StepResult> {
  for (;;) {
    const result = await step();
    if (result.did !== "wait") return result;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, result.until.getTime() - clock().getTime())),
    );
  }
}

async function start(): Promise<{ flow: OrderFlow; deps: ShopWorkDeps }> {
  offsetMs = 0;
  flow = await startOrderFlow({ noWorker: true });
  return { flow, deps: shopDeps(flow.sim) };
}

async function receive(flow: OrderFlow, numbers: number[]): Promise<void> {
  for (let i = 0; i < numbers.length; i += 20) {
    const statuses = await Promise.all(
      numbers
        .slice(i, i + 20)
        .map(async (n) => (await flow.post({ topic: "orders/create", payload: orderPayload(n) })).status),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  expect(await db().warehouseOrder.count({ where: { shop: SHOP, state: "ready" } })).toBe(numbers.length);
}

/** Sends every ready order, each batch answered (or not) before this resolves. */
async function submitAll(deps: ShopWorkDeps): Promise<void> {
  const inFlight = new BatchesInFlight(4);
  while ((await run(() => submitReadyOrders(deps, SHOP, inFlight))).did === "work");
  await inFlight.all();
}

async function lookUpAll(deps: ShopWorkDeps, settings?: Partial<InDoubtSettings>): Promise<number> {
  let steps = 0;
  while ((await run(() => lookUpInDoubtOrders(deps, SHOP, settings))).did === "work") steps++;
  return steps;
}

const rowOf = (idOrder: string) =>
  db().warehouseOrder.findUniqueOrThrow({ where: { shop_idOrder: { shop: SHOP, idOrder } } });
const eventKinds = async (orderId: string) =>
  (await db().orderEvent.findMany({ where: { orderId }, orderBy: { id: "asc" } })).map((event) => event.kind);

function expectCleanSimulator(flow: OrderFlow) {
  const stats = flow.sim.stats();
  expect(stats.unexpectedErrors).toEqual([]);
  expect(stats.ignoredFields).toEqual({});
  expect(stats.duplicateIdOrders).toBe(0);
  expect(stats.rateLimited).toEqual({ overall: 0, report: 0 });
}

describe("an order the warehouse took though its answer was lost", () => {
  it("is found by ReportStatusOrder and never sent again", async () => {
    const { flow, deps } = await start();
    await receive(flow, [4001, 4002, 4003]);
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    expect(await db().warehouseOrder.count({ where: { state: "in_doubt" } })).toBe(3);

    await lookUpAll(deps);
    const stats = flow.sim.stats();
    expect(stats.requests.ReportStatusOrder).toBe(1);
    expect(stats.requests.ListOrder).toBeUndefined();
    const row = await rowOf("4001");
    // The report as documented carries no key_order: accepted, with edits marked impossible.
    expect(row).toMatchObject({
      state: "accepted",
      keyOrder: null,
      pending: null,
      attention: "edit_impossible",
    });
    expect(inEnglishWords(row.attentionMessage)).toContain("did not give its key");
    expect(await eventKinds(row.id)).toEqual(["received", "ready", "in_doubt", "found_at_warehouse"]);

    await submitAll(deps);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect(flow.sim.orders()).toHaveLength(3);
    expectCleanSimulator(flow);
  });

  it("keeps the warehouse's ids when the report gives them, and sends a change that came in meanwhile", async () => {
    const { flow, deps } = await start();
    flow.sim.settings.statusReportIdentifiers = true;
    await receive(flow, [4101]);
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    const later = new Date(Date.now() + 60_000).toISOString();
    const update = orderPayload(4101, { note: "Залиште біля дверей.", updated_at: later });
    expect((await flow.post({ topic: "orders/updated", payload: update })).status).toBe(200);

    await lookUpAll(deps);
    const [atWarehouse] = flow.sim.orders();
    expect(await rowOf("4101")).toMatchObject({
      state: "accepted",
      idOrderFF: atWarehouse!.id_order_FF,
      keyOrder: atWarehouse!.key_order,
      pending: "edit",
      attention: null,
    });
  });

  it("without a key, leaves a change that came in meanwhile unsent and says so", async () => {
    const { flow, deps } = await start();
    await receive(flow, [4201]);
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    const later = new Date(Date.now() + 60_000).toISOString();
    const update = orderPayload(4201, { note: "Залиште біля дверей.", updated_at: later });
    expect((await flow.post({ topic: "orders/updated", payload: update })).status).toBe(200);

    await lookUpAll(deps);
    const row = await rowOf("4201");
    expect(row).toMatchObject({ state: "accepted", pending: null, attention: "edit_impossible" });
    expect(inEnglishWords(row.attentionMessage)).toContain("that change has not reached the warehouse");
  });
});

describe("what changed while a look-up was out", () => {
  it("is kept: a cancellation that came in meanwhile is sent once the order is found", async () => {
    const { flow, deps } = await start();
    await receive(flow, [4301]);
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    // The cancellation arrives after the report has answered and before its outcome is written.
    const cancelInBetween: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).endsWith("/ReportStatusOrder")) {
        const at = new Date().toISOString();
        const payload = orderPayload(4301, { cancelled_at: at, updated_at: at, cancel_reason: "customer" });
        expect((await flow.post({ topic: "orders/cancelled", payload })).status).toBe(200);
      }
      return response;
    };
    await lookUpAll(shopDeps(flow.sim, 2_000, cancelInBetween));
    expect(await rowOf("4301")).toMatchObject({ state: "accepted", pending: "cancel", attention: null });
    await run(() => sendPendingChange(deps, SHOP));
    expect(await rowOf("4301")).toMatchObject({ state: "cancelled", pending: null });
    expect(flow.sim.orders()[0]!.stage).toBe("cancelled");
  });
});

describe("an order the warehouse does not have", () => {
  /** Sends order `n` into a 503: the warehouse did nothing, but we cannot know that. */
  async function inDoubtUnsent(n: number) {
    const { flow, deps } = await start();
    await receive(flow, [n]);
    flow.sim.faults.failNext({ count: 1, status: 503, operations: ["AddOrder"] });
    await submitAll(deps);
    const row = await rowOf(String(n));
    expect(row.state).toBe("in_doubt");
    return { flow, deps, row };
  }

  it("is not sent again while the warehouse could still be creating it", async () => {
    const { flow, deps, row } = await inDoubtUnsent(5001);
    await lookUpAll(deps);
    await submitAll(deps);
    expect(flow.sim.stats().requests.ReportStatusOrder).toBe(1);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    const after = await rowOf("5001");
    expect(after.state).toBe("in_doubt");
    // Looked at again within the window, and no miss counted yet.
    expect(after.nextAttemptAt!.getTime()).toBeLessThanOrEqual(
      row.submittedAt!.getTime() + IN_DOUBT.missBelievedAfterMs,
    );
    expect(await eventKinds(row.id)).not.toContain("not_at_warehouse");

    // A new process (nothing kept in memory) a minute later still does not believe the miss.
    advance(MINUTE);
    await lookUpAll(shopDeps(flow.sim));
    await submitAll(deps);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect(await eventKinds(row.id)).not.toContain("not_at_warehouse");
  });

  it("after repeated misses past that time is flagged for the merchant, never resent, until they say so", async () => {
    const { flow, deps, row } = await inDoubtUnsent(5101);
    advance(IN_DOUBT.missBelievedAfterMs);
    for (let miss = 1; miss <= IN_DOUBT.missesBeforeAttention; miss++) {
      // Each look-up in a process of its own: the count of misses lives in the database.
      await lookUpAll(shopDeps(flow.sim));
      await submitAll(deps);
      advance(IN_DOUBT.lookupIntervalMs);
    }
    const flagged = await rowOf("5101");
    expect(flagged).toMatchObject({ state: "in_doubt", attention: "not_at_warehouse", nextAttemptAt: null });
    expect(inEnglishWords(flagged.attentionMessage)).toMatch(
      /not sent again on a guess\. Send it again, or cancel it\.$/,
    );
    expect((await eventKinds(row.id)).filter((kind) => kind === "not_at_warehouse")).toHaveLength(3);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect(flow.sim.stats().requests.ReportStatusOrder).toBe(3);
    // Nothing more is due for it.
    expect(await lookUpAll(deps)).toBe(0);

    const answer = await submitNow(deps, SHOP, row.id);
    expect(answer).toEqual({
      ok: true,
      message: "The order will be sent to the warehouse again.",
      text: { key: "orders:answer.sendAgain" },
    });
    await submitAll(deps);
    expect(await rowOf("5101")).toMatchObject({ state: "accepted", attention: null });
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    expect(flow.sim.orders()).toHaveLength(1);
    expectCleanSimulator(flow);
  });

  it("a retry before it is flagged only looks it up again", async () => {
    const { flow, deps, row } = await inDoubtUnsent(5151);
    const answer = await submitNow(deps, SHOP, row.id);
    expect(answer.message).toContain("looked up at the warehouse again");
    await lookUpAll(deps);
    await submitAll(deps);
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
    expect((await rowOf("5151")).state).toBe("in_doubt");
  });

  it("is cancelled when it was cancelled in Shopify and is confirmed absent", async () => {
    const { flow, deps } = await inDoubtUnsent(5201);
    const cancelledAt = new Date().toISOString();
    const payload = orderPayload(5201, {
      cancelled_at: cancelledAt,
      updated_at: cancelledAt,
      cancel_reason: "customer",
    });
    expect((await flow.post({ topic: "orders/cancelled", payload })).status).toBe(200);
    expect((await rowOf("5201")).pending).toBe("cancel");

    await lookUpAll(deps);
    expect((await rowOf("5201")).state).toBe("in_doubt");
    advance(IN_DOUBT.missBelievedAfterMs);
    for (let miss = 1; miss <= IN_DOUBT.missesBeforeAttention; miss++) {
      await lookUpAll(deps);
      advance(IN_DOUBT.lookupIntervalMs);
    }
    expect(await rowOf("5201")).toMatchObject({ state: "cancelled", pending: null, attention: null });
    expect(flow.sim.stats().requests.CancelOrder).toBeUndefined();
    expect(flow.sim.stats().requests.AddOrder).toBe(1);
  });

  it("is not taken for another shop's order with the same id_order on a shared key", async () => {
    const { flow, deps, row } = await inDoubtUnsent(5301);
    flow.sim.settings.statusReportIdentifiers = true;
    // Another shop on the same ApiKey sends its own order numbered 5301.
    const theirs = { ...(JSON.parse(row.mapped!) as WarehouseOrder), external_id: "9000000001" };
    const other = createWarehouseClient({
      apiKey: flow.sim.apiKey,
      endpoints: { baseUrl: flow.sim.url, baseUrlV2: flow.sim.urlV2, timeoutMs: 30_000 },
    });
    await other.addOrder(theirs);

    advance(IN_DOUBT.missBelievedAfterMs);
    await lookUpAll(deps);
    const after = await rowOf("5301");
    expect(after).toMatchObject({ state: "in_doubt", keyOrder: null });
    const [miss] = await db().orderEvent.findMany({ where: { orderId: row.id, kind: "not_at_warehouse" } });
    expect(inEnglishWords(miss!.message)).toContain(
      "it has an order numbered 5301, but its external_id is 9000000001 where this order's is 7000005301, so it is another order.",
    );
  });
});

describe("many orders in doubt", () => {
  it("are looked up many ids a request: 200 in two ReportStatusOrder calls", async () => {
    const { flow, deps } = await start();
    const numbers = Array.from({ length: 200 }, (_, i) => 6001 + i);
    await receive(flow, numbers);
    flow.sim.faults.dropNext({ count: 2, operations: ["AddOrder"] });
    await submitAll(deps);
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    expect(await db().warehouseOrder.count({ where: { state: "in_doubt" } })).toBe(200);

    expect(await lookUpAll(deps)).toBe(Math.ceil(200 / IN_DOUBT.idsPerLookup));
    expect(flow.sim.stats().requests.ReportStatusOrder).toBe(2);
    expect(flow.sim.stats().requests.ListOrder).toBeUndefined();
    expect(await db().warehouseOrder.count({ where: { state: "accepted" } })).toBe(200);
    await submitAll(deps);
    expect(flow.sim.stats().requests.AddOrder).toBe(2);
    expect(flow.sim.orders()).toHaveLength(200);
  });

  it("take as many requests as the limit of ids calls for", async () => {
    const { flow, deps } = await start();
    await receive(
      flow,
      Array.from({ length: 10 }, (_, i) => 6301 + i),
    );
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    expect(await lookUpAll(deps, { idsPerLookup: 4 })).toBe(3);
    expect(flow.sim.stats().requests.ReportStatusOrder).toBe(3);
    expect(await db().warehouseOrder.count({ where: { state: "accepted" } })).toBe(10);
  });
});

describe("a refused key during a look-up", () => {
  it("stops with keyRefused for the engine, and changes nothing itself", async () => {
    const { flow, deps } = await start();
    await receive(flow, [7001]);
    flow.sim.faults.dropNext({ count: 1, operations: ["AddOrder"] });
    await submitAll(deps);
    const before = await rowOf("7001");
    flow.sim.faults.failNext({ count: 1, status: 401, operations: ["ReportStatusOrder"] });

    expect(await run(() => lookUpInDoubtOrders(deps, SHOP))).toEqual({ did: "stop", keyRefused: true });
    expect(await rowOf("7001")).toEqual(before);
    const settings = await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(settings.pausedAt).toBeNull();
  });
});

describe("recovering interrupted submissions", () => {
  const timing = { leaseTtlMs: 30_000, requestTimeoutMs: 2_000 };

  /** The claim an AddOrder makes before its request leaves, as a worker that stopped right after left it. */
  async function claimed(n: number) {
    const { flow, deps } = await start();
    await receive(flow, [n]);
    const row = await rowOf(String(n));
    const at = clock();
    await db().warehouseOrder.update({
      where: { id: row.id },
      data: { state: "submitting", sentOrder: row.mapped, submittedAt: at, updatedAt: at },
    });
    return { flow, deps, row: await rowOf(String(n)) };
  }

  it("leaves a claim alone while its holder's batch may still be out", async () => {
    const { deps, row } = await claimed(8001);
    advance(timing.leaseTtlMs);
    expect(await recoverInterruptedSubmissions(deps, SHOP, timing)).toEqual({
      recovered: 0,
      nextAt: new Date(row.submittedAt!.getTime() + timing.leaseTtlMs + timing.requestTimeoutMs),
    });
    expect(await rowOf("8001")).toEqual(row);
    expect(await eventKinds(row.id)).not.toContain("in_doubt");
  });

  it("puts a claim older than a lease and a request in doubt, to be looked up", async () => {
    const { deps, row } = await claimed(8101);
    advance(timing.leaseTtlMs + timing.requestTimeoutMs);
    expect(await recoverInterruptedSubmissions(deps, SHOP, timing)).toEqual({ recovered: 1, nextAt: null });
    expect(await rowOf("8101")).toMatchObject({ state: "in_doubt", nextAttemptAt: expect.any(Date) });
    expect(await eventKinds(row.id)).toContain("in_doubt");
  });
});
