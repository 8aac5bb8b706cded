// The order flow end to end: Shopify webhooks over real HTTP into the app's routes, the app's worker
// sending to the warehouse simulator over loopback, with a real database. Limits and retry timing are
// scaled down on both sides (the simulator and our limiter agree on the window) so tests take seconds.
// A flow fails its test on any webhook answer it did not expect, and, when it closes, on anything the
// simulator refused, ignored or choked on that the test did not announce.
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { createWorker, type WorkerOptions } from "../../app/assembly/assembly.server";
import type { Worker } from "../../app/work/worker.server";
import { startWarehouseSimulator, type SeedProduct, type WarehouseSimulator } from "../warehouse-sim";
import { defaultReferenceData, KYIV_CITY_REF } from "../warehouse-sim/reference-data";
import { FIXTURE_ORDER } from "../support/orders";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { signedWebhookRequest, type WebhookOptions } from "../support/webhooks";
import type { Refusal, SimulatorStats } from "../warehouse-sim/core";
import { SCALED_LIMITS } from "../warehouse-sim/limits";

export const SHOP = "kyiv-goods.myshopify.com";
/** A real Kyiv branch of the simulator's reference data. */
export const BRANCH_REF = defaultReferenceData().branchesInCity(KYIV_CITY_REF)[0]!.Ref;

/** The warehouse's stock of what orderPayload orders. */
export const FLOW_PRODUCTS = [
  { sku: "CUP-KARP-BLUE", name: "Чашка Карпати синя", quantity: 1_000_000 },
  { sku: "TEA-POL-100", name: "Чай полтавський 100 г", quantity: 1_000_000 },
];

/** orderPayload's shipped items (its gift card needs no shipping), as the store's order in Shopify holds them. */
export const FLOW_LINES = [
  { sku: "CUP-KARP-BLUE", quantity: 2 },
  { sku: "TEA-POL-100", quantity: 1 },
];

/** The provider's limits scaled to a second, shared with the demo (test/warehouse-sim/limits.ts). */
export { SCALED_LIMITS };

/** A Shopify order webhook payload: the Ukrainian fixture as order number `n`, placed now. */
export function orderPayload(n: number, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    ...FIXTURE_ORDER,
    id: 7_000_000_000 + n,
    admin_graphql_api_id: `gid://shopify/Order/${7_000_000_000 + n}`,
    order_number: n,
    name: `#${n}`,
    created_at: now,
    updated_at: now,
    note_attributes: [
      { name: "_np_city_ref", value: KYIV_CITY_REF },
      { name: "_np_warehouse_ref", value: BRANCH_REF },
    ],
    ...changes,
  };
}

/** The warehouse an order flow sends to: the simulator in this process (tests) or in its own (benchmarks). */
export interface WarehouseSide {
  url: string;
  urlV2: string;
  apiKey: string;
  seedProducts(products: SeedProduct[]): unknown;
  close(): Promise<void>;
}

export type FlowWebhook = Omit<WebhookOptions, "shop"> & {
  shop?: string;
  /** The status the app must answer: 200 unless told. */
  expectStatus?: number;
};

/** Refusals a test provokes on purpose: `count` of them, of this operation and status where given. */
export interface ExpectedWarehouseErrors {
  count: number;
  operation?: string;
  status?: number;
}

export interface OrderFlow<Warehouse extends WarehouseSide = WarehouseSimulator> {
  sim: Warehouse;
  app: RouteServer;
  worker: Worker;
  /** Starts another worker like `worker`, as a process started after it stopped would; close() stops it. */
  restartWorker(): Worker;
  /**
   * Sends a signed webhook to the app over HTTP, and throws (with the answer's body) unless the app answers
   * `expectStatus`, 200 unless told: an order the app refused must never pass unnoticed.
   */
  post(options: FlowWebhook): Promise<Response>;
  /**
   * Announces warehouse refusals (an HTTP error or a business error the simulator chose, not an injected
   * fault) the test provokes on purpose; close() then requires exactly these. Call once per kind.
   */
  expectWarehouseErrors(expected: ExpectedWarehouseErrors): void;
  /** Stops everything, then throws if the simulator saw anything unannounced (see warehouseProblems). */
  close(): Promise<void>;
}

type WarehouseCounters = Pick<SimulatorStats, "refusals" | "ignoredFields" | "unexpectedErrors">;

/** What the simulator's counters say went wrong that the test did not announce: one line each. */
export function warehouseProblems(
  stats: WarehouseCounters,
  announced: readonly ExpectedWarehouseErrors[],
): string[] {
  const problems = stats.unexpectedErrors.map((error) => `the simulator failed on a request: ${error}`);
  for (const [field, times] of Object.entries(stats.ignoredFields))
    problems.push(`the simulator ignored the unknown field ${field} (${times} times)`);
  let left: Refusal[] = [...stats.refusals];
  for (const expected of announced) {
    const matches = (refusal: Refusal) =>
      (expected.operation === undefined || refusal.operation === expected.operation) &&
      (expected.status === undefined || refusal.status === expected.status);
    const seen = left.filter(matches).length;
    if (seen !== expected.count)
      problems.push(`expected ${JSON.stringify(expected)} warehouse errors, the simulator answered ${seen}`);
    left = left.filter((refusal) => !matches(refusal));
  }
  for (const refusal of left)
    problems.push(
      `the simulator refused ${refusal.operation} (${refusal.status}) unannounced: ${refusal.errors.join(" ")}`,
    );
  return problems;
}

/** The simulator's counters, in process or (a benchmark's simulator in its own process) over its control API. */
async function countersOf(warehouse: WarehouseSide): Promise<WarehouseCounters | undefined> {
  const stats = (warehouse as { stats?: () => unknown }).stats;
  const counters = (typeof stats === "function" ? await stats.call(warehouse) : undefined) as
    Partial<WarehouseCounters> | undefined;
  return counters?.refusals && counters.ignoredFields && counters.unexpectedErrors
    ? (counters as WarehouseCounters)
    : undefined;
}

export async function startOrderFlow<Warehouse extends WarehouseSide = WarehouseSimulator>(
  options: {
    simulator?: Parameters<typeof startWarehouseSimulator>[0];
    /** A warehouse already running, instead of a simulator started here (`simulator` is then unused). */
    warehouse?: Warehouse;
    worker?: Partial<WorkerOptions>;
    /** Start without a worker (to look at what intake alone does). */
    noWorker?: boolean;
    /**
     * Whether the account's batch shape is proven already: yes unless told, since the simulator answers
     * batches in the expected form; the tests of the proof itself start unproven, as a new shop does.
     */
    batchProof?: "unproven" | "proven";
    /**
     * How long the worker waits for an answer: 30 s unless told. The simulator answers on this process's
     * event loop, which a loaded machine stalls for seconds; a shorter wait turned an accepted order into
     * one in doubt, with look-ups no test expected.
     */
    warehouseTimeoutMs?: number;
    /** How order webhooks reach intake: their bare edge (as server.js serves them, the default) or Remix's route. */
    orderEdge?: "bare" | "fetch";
  } = {},
): Promise<OrderFlow<Warehouse>> {
  const context = appContext();
  const sim =
    options.warehouse ??
    ((await startWarehouseSimulator({
      rateLimits: SCALED_LIMITS,
      ...options.simulator,
    })) as unknown as Warehouse);
  await sim.seedProducts(FLOW_PRODUCTS);
  await context.db.shop.create({
    data: {
      shop: SHOP,
      name: "Київські товари",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(Date.now() - 3600_000),
    },
  });
  const saved = await saveSettings(context, SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved.errors)}`);
  await context.db.shopSettings.update({
    where: { shop: SHOP },
    data: { batchProof: options.batchProof ?? "proven" },
  });
  const app = await startRouteServer({ orderEdge: options.orderEdge });
  const newWorker = () =>
    createWorker({
      ...context,
      endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: options.warehouseTimeoutMs ?? 30_000 },
      sweepIntervalMs: 50,
      rateLimits: { ...SCALED_LIMITS, marginMs: 20 },
      backoff: { baseMs: 50, maxMs: 400 },
      inDoubtSettleMs: 0,
      ...options.worker,
    });
  const worker = newWorker();
  const restarted: Worker[] = [];
  if (!options.noWorker) {
    globalThis.skladSyncWorker = worker;
    worker.start();
  }
  const announced: ExpectedWarehouseErrors[] = [];
  return {
    sim,
    app,
    worker,
    async post({ expectStatus = 200, ...webhook }) {
      const request = signedWebhookRequest({ shop: SHOP, ...webhook });
      const response = await fetch(new URL(new URL(request.url).pathname, app.url), {
        method: "POST",
        headers: request.headers,
        body: await request.text(),
      });
      if (response.status !== expectStatus)
        throw new Error(
          `${webhook.topic} was answered ${response.status}, not ${expectStatus}: ${await response.text()}`,
        );
      return response;
    },
    restartWorker() {
      const started = newWorker();
      restarted.push(started);
      started.start();
      return started;
    },
    expectWarehouseErrors(expected) {
      announced.push(expected);
    },
    async close() {
      await Promise.all([worker, ...restarted].map((running) => running.stop()));
      globalThis.skladSyncWorker = undefined;
      await app.close();
      // Read after the worker stopped: nothing more can reach the simulator.
      const counters = await countersOf(sim);
      const problems = counters ? warehouseProblems(counters, announced) : [];
      await sim.close();
      if (problems.length)
        throw new Error(`the warehouse saw what the test did not expect:\n${problems.join("\n")}`);
    },
  };
}

/**
 * Polls until `check` answers a value that is not false/null/undefined, or fails after `timeoutMs`. The
 * default is there to name a hang, not to time the app: a machine running other work meanwhile (the
 * PostgreSQL suite beside another) took more than 10 s for a stock sync of a few SKUs.
 */
export async function eventually<T>(
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  // performance.now, not Date: a test may freeze Date (the limiter's and the simulator's clock).
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function ordersInState(state: string): Promise<number> {
  return appContext().db.warehouseOrder.count({ where: { shop: SHOP, state } });
}
