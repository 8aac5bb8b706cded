// The order flow end to end: Shopify webhooks over real HTTP into the app's routes, the app's worker
// sending to the warehouse simulator over loopback, with a real database. Limits and retry timing are
// scaled down on both sides (the simulator and our limiter agree on the window) so tests take seconds.
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { createWorker, type Worker, type WorkerOptions } from "../../app/work/worker.server";
import { startWarehouseSimulator, type SeedProduct, type WarehouseSimulator } from "../warehouse-sim";
import { defaultReferenceData, KYIV_CITY_REF } from "../warehouse-sim/reference-data";
import { FIXTURE_ORDER } from "../support/orders";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { signedWebhookRequest, type WebhookOptions } from "../support/webhooks";

export const SHOP = "kyiv-goods.myshopify.com";
/** A real Kyiv branch of the simulator's reference data. */
export const BRANCH_REF = defaultReferenceData().branchesInCity(KYIV_CITY_REF)[0]!.Ref;

/** The warehouse's stock of what orderPayload orders. */
export const FLOW_PRODUCTS = [
  { sku: "CUP-KARP-BLUE", name: "Чашка Карпати синя", quantity: 1_000_000 },
  { sku: "TEA-POL-100", name: "Чай полтавський 100 г", quantity: 1_000_000 },
];

export const SCALED_LIMITS = { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 };

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

export interface OrderFlow<Warehouse extends WarehouseSide = WarehouseSimulator> {
  sim: Warehouse;
  app: RouteServer;
  worker: Worker;
  /** Sends a signed webhook to the app over HTTP. */
  post(options: Omit<WebhookOptions, "shop"> & { shop?: string }): Promise<Response>;
  close(): Promise<void>;
}

export async function startOrderFlow<Warehouse extends WarehouseSide = WarehouseSimulator>(
  options: {
    simulator?: Parameters<typeof startWarehouseSimulator>[0];
    /** A warehouse already running, instead of a simulator started here (`simulator` is then unused). */
    warehouse?: Warehouse;
    worker?: Partial<WorkerOptions>;
    /** Start without a worker (to look at what intake alone does). */
    noWorker?: boolean;
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
  const app = await startRouteServer();
  const worker = createWorker({
    ...context,
    endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 2_000 },
    sweepIntervalMs: 50,
    rateLimits: { ...SCALED_LIMITS, marginMs: 20 },
    backoff: { baseMs: 50, maxMs: 400 },
    inDoubtSettleMs: 0,
    ...options.worker,
  });
  if (!options.noWorker) {
    globalThis.skladSyncWorker = worker;
    worker.start();
  }
  return {
    sim,
    app,
    worker,
    async post(webhook) {
      const request = signedWebhookRequest({ shop: SHOP, ...webhook });
      return fetch(new URL(new URL(request.url).pathname, app.url), {
        method: "POST",
        headers: request.headers,
        body: await request.text(),
      });
    },
    async close() {
      await worker.stop();
      globalThis.skladSyncWorker = undefined;
      await app.close();
      await sim.close();
    },
  };
}

/** Polls until `check` answers a value that is not false/null/undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function ordersInState(state: string): Promise<number> {
  return appContext().db.warehouseOrder.count({ where: { shop: SHOP, state } });
}
