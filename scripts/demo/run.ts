// The demo itself (main.ts has refused production before this is loaded). One process, one address:
// - the warehouse simulator and the Shopify fake (test/), each an HTTP server on loopback;
// - the real app served by vite in middleware mode, on its own SQLite file, with its worker running in this
//   process as in a deployment (entry.server starts it);
// - in front of the app, the stand-in for the Shopify admin (frame.ts) and a view of the fake store;
// - sample orders (samples.ts) placed in the fake store and sent to the app as signed orders/create webhooks.
// All outbound traffic is held to loopback, and Admin API calls to *.myshopify.com go to the fake.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { createServer as createViteServer, type Plugin, type ViteDevServer } from "vite";
import {
  configureServiceCallbacks,
  deliverServiceCallbacks,
  orderWebhookPayload,
  serviceAnswers,
  startShopifyFake,
  submitCancellationRequest,
  submitFulfillmentRequest,
} from "../../test/shopify-fake";
import { installNetworkGuard, routeShopifyTo } from "../../test/support/network";
import { sendResponse, toRequest } from "../../test/support/app-server";
import { appToml, routeFor, signedWebhookRequest, subscriptionFor } from "../../test/support/webhooks";
import { startWarehouseSimulator } from "../../test/warehouse-sim";
import { defaultReferenceData } from "../../test/warehouse-sim/reference-data";
import {
  adminFramePage,
  APP_BRIDGE_STAND_IN_PATH,
  APP_BRIDGE_URL,
  appBridgeStandIn,
  mintSessionToken,
  SESSION_TOKEN_PATH,
  STORE_VIEW_PATH,
  storeViewPage,
} from "./frame";
import {
  DEMO_MAPPING,
  DEMO_PRODUCTS,
  DEMO_SHOP,
  DEMO_SHOP_NAME,
  demoVariant,
  sampleOrders,
  samplePayload,
} from "./samples";
import { seedDemoStore } from "./store";

const USAGE = `usage: npm run demo -- [options]

  --port N            the address's port (default 3300; 0: any free port)
  --every S           a new sample order every S seconds (default 10)
  --stage-delays P,S,D  seconds the warehouse takes to pick, ship and deliver an order (default 5,10,15)
  --reset             start from an empty database (removes the demo's own files only)
  --data-dir DIR      where the database is kept (default .demo; --check: a temporary folder)
  --mode M            how the warehouse appears in Shopify: "location" (default; a location of the store's
                      own) or "service" (the app's fulfillment service, registered as Settings does; the
                      demo asks for fulfillment as the merchant, and for two cancellations)
  --check             run headless on free ports and a temporary database; exit 0 once an order has gone
                      from its webhook to Delivered with its fulfillment in the store and a stock sync wrote
                      inventory; prints one JSON line last
  --timeout S         --check gives up after S seconds (default 120)
  --verbose           the app's own log lines too`;

// The demo app's credentials: made up, used only between this process's parts.
const DEMO_API_KEY = "sklad-sync-demo";
const DEMO_API_SECRET = "sklad-sync-demo-secret-not-for-production";
const DEMO_ACCESS_TOKEN = "shpat_sklad_sync_demo";
const SCALED_LIMITS = { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 };

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        port: { type: "string" },
        every: { type: "string" },
        "stage-delays": { type: "string" },
        reset: { type: "boolean", default: false },
        check: { type: "boolean", default: false },
        mode: { type: "string", default: "location" },
        timeout: { type: "string", default: "120" },
        "data-dir": { type: "string" },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}
const values = parseOptions();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const check = values.check;
if (values.mode !== "location" && values.mode !== "service")
  fail(`--mode is "location" or "service", not ${values.mode}`);
const serviceMode = values.mode === "service";
const seconds = (option: string, given: string, min: number) => {
  const value = Number(given);
  if (!Number.isFinite(value) || value < min)
    fail(`--${option} must be a number of seconds ≥ ${min}, not ${given}`);
  return value;
};
const port = Number(values.port ?? (check ? "0" : "3300"));
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, not ${values.port}`);
const everyMs = seconds("every", values.every ?? (check ? "1" : "10"), 0.2) * 1000;
const timeoutMs = seconds("timeout", values.timeout, 1) * 1000;
const delays = (values["stage-delays"] ?? (check ? "1,1,1" : "5,10,15")).split(",").map(Number);
if (delays.length !== 3 || delays.some((value) => !Number.isFinite(value) || value < 0))
  fail(`--stage-delays takes three non-negative numbers of seconds, not ${values["stage-delays"]}`);
const [picked, shipped, delivered] = delays.map((value) => Math.round(value * 1000)) as [
  number,
  number,
  number,
];

const startedAt = performance.now();
/** Set once the demo is stopping (see stop() below). */
let stopping: Promise<void> | undefined;
const say = (line: string) => {
  if (!check) console.log(line);
};

// ---------------------------------------------------------------------------------------------------
// The environment, before any module of the app is loaded.

const dataDir = path.resolve(
  values["data-dir"] ?? (check ? mkdtempSync(path.join(tmpdir(), "sklad-demo-")) : ".demo"),
);
const databaseFile = path.join(dataDir, "demo.sqlite");
// Only what the demo writes is removed: `--data-dir` may name a folder that holds other things.
const demoFiles = [
  databaseFile,
  `${databaseFile}-wal`,
  `${databaseFile}-shm`,
  path.join(dataDir, "migrations"),
];
/** The folder is the demo's own (the check's temporary one), so it goes when the demo stops. */
const ownDataDir = check && !values["data-dir"];
if (values.reset) for (const file of demoFiles) rmSync(file, { force: true });
mkdirSync(dataDir, { recursive: true });

installNetworkGuard();
const scopes = appToml().access_scopes.scopes;
Object.assign(process.env, {
  NODE_ENV: "development",
  DATABASE_URL: `file:${databaseFile}`,
  SHOPIFY_API_KEY: DEMO_API_KEY,
  SHOPIFY_API_SECRET: DEMO_API_SECRET,
  SCOPES: scopes,
  LOG_LEVEL: values.verbose ? "info" : "error",
  WORKER: "on",
  WORKER_SWEEP_MS: "250",
  WAREHOUSE_RATE_WINDOW_MS: String(SCALED_LIMITS.windowMs),
  WAREHOUSE_TIMEOUT_MS: "5000",
});
delete process.env.SHOP_CUSTOM_DOMAIN;

prepareDatabase();

/**
 * The demo's database, migrated: a new one is a copy of a template migrated once per set of migrations
 * (`prisma migrate deploy` takes seconds), an existing one is migrated again only when the migrations changed.
 */
function prepareDatabase(): void {
  const migrations = path.resolve("prisma/migrations");
  const hash = createHash("sha256");
  for (const entry of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    const file = path.join(migrations, entry);
    if (entry.endsWith(".sql") && !entry.startsWith("postgresql"))
      hash.update(entry).update(readFileSync(file));
  }
  const version = hash.digest("hex").slice(0, 16);
  const stamp = path.join(dataDir, "migrations");
  const migrate = (file: string) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/db-setup.ts"], {
      stdio: ["ignore", values.verbose ? "inherit" : "ignore", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: `file:${file}`,
        PATH: `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
      },
    });
  if (existsSync(databaseFile)) {
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== version) migrate(databaseFile);
  } else {
    const template = path.resolve(`.cache/demo-db/${version}.sqlite`);
    if (!existsSync(template)) {
      mkdirSync(path.dirname(template), { recursive: true });
      const building = `${template}.${process.pid}`;
      migrate(building);
      renameSync(building, template);
    }
    for (const suffix of ["-wal", "-shm"]) rmSync(databaseFile + suffix, { force: true });
    copyFileSync(template, databaseFile);
  }
  writeFileSync(stamp, version);
}

// ---------------------------------------------------------------------------------------------------
// The warehouse and the Shopify store.

const reference = defaultReferenceData();
const sim = await startWarehouseSimulator({
  rateLimits: SCALED_LIMITS,
  stageDelaysMs: { picked, shipped, delivered },
  referenceData: reference,
  notificationBaseDelayMs: 500,
  onUnexpectedError: (error) => console.error("warehouse simulator: unexpected error", error),
});
process.env.WAREHOUSE_API_URL = sim.url;
// Every order as the warehouse received it by AddOrder: an order later edited (EditOrder changes the record in
// place) or cancelled still counts what it was first sent with (see routingFigures).
const addedOrders: Array<{ idOrder: string; lines: Array<{ sku: string; count: number }> }> = [];
{
  const warehouse = sim.store();
  const addOrder = warehouse.addOrder.bind(warehouse);
  warehouse.addOrder = (order) => {
    addedOrders.push({
      idOrder: order.id_order,
      lines: order.lines.map(({ sku, count }) => ({ sku, count })),
    });
    addOrder(order);
  };
}
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
sim.seedProducts(
  DEMO_PRODUCTS.filter((product) => !product.showroomOnly).flatMap((product) =>
    product.variants.map((variant) => ({
      sku: variant.sku,
      name: variant.title ? `${product.title} (${variant.title})` : product.title,
      quantity: variant.warehouseQuantity,
    })),
  ),
);

const fake = await startShopifyFake({ app: { apiKey: DEMO_API_KEY, apiSecretKey: DEMO_API_SECRET, scopes } });
routeShopifyTo(fake.url);
const { store, location, showroom, variantsBySku } = seedDemoStore(fake.state, DEMO_ACCESS_TOKEN);
/** The location whose fulfillment orders are the warehouse's (service mode: the service's own, once registered). */
let warehouseLocationId = location.id;

// ---------------------------------------------------------------------------------------------------
// The app, behind the admin stand-in.

/** The app's pages load App Bridge from Shopify's CDN; in the demo, server and browser load the stand-in. */
function appBridgeStandInPlugin(): Plugin {
  return {
    name: "sklad-sync-demo-app-bridge",
    transform(code) {
      return code.includes(APP_BRIDGE_URL)
        ? { code: code.replaceAll(APP_BRIDGE_URL, APP_BRIDGE_STAND_IN_PATH), map: null }
        : null;
    },
  };
}

let origin = "";
let vite: ViteDevServer | undefined;
let pages: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;

// Shopify's webhooks and the warehouse's notifications go straight to their route modules (as
// test/support/route-server.ts does), so orders flow before, and without, the pages' compiler.
const routeModules = new Map<string, Promise<{ action: RouteAction }>>();
type RouteAction = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => Promise<Response>;
async function answerRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: Response;
  try {
    const request = toRequest(req, res, origin);
    const pathname = webhookPath(new URL(request.url).pathname, request.headers.get("x-shopify-topic"));
    if (pathname === null) return void res.writeHead(200).end();
    const route = routeFor(pathname);
    const file = path.resolve(route.file);
    let module = routeModules.get(file);
    if (!module) {
      module = import(/* @vite-ignore */ file) as Promise<{ action: RouteAction }>;
      routeModules.set(file, module);
    }
    response = await (await module).action({ request, params: route.params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) console.error(thrown);
    response =
      thrown instanceof Response ? thrown : new Response("The demo failed on this request.", { status: 500 });
  }
  await sendResponse(response, res);
}

/**
 * The fake delivers its webhooks to `/webhooks/<topic>`; Shopify sends each topic to the address its
 * subscription in shopify.app.toml names (all fulfillment_orders/* topics to one route), so that is where it
 * goes. A topic the app does not subscribe to Shopify would not send: null (answered 200 and dropped).
 */
function webhookPath(pathname: string, topic: string | null): string | null {
  if (!topic || pathname !== `/webhooks/${topic}`) return pathname;
  try {
    return subscriptionFor(topic).uri;
  } catch {
    return null;
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://demo.invalid");
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
    res.end(body);
  };
  // The app's own "/" is the login form a merchant outside Shopify sees; the demo's address is the admin.
  if (req.method === "GET" && url.pathname === "/" && !url.searchParams.has("shop"))
    return send(200, "text/html", adminFramePage({ shop: DEMO_SHOP, shopName: DEMO_SHOP_NAME }));
  if (req.method === "GET" && url.pathname === APP_BRIDGE_STAND_IN_PATH)
    return send(200, "text/javascript", appBridgeStandIn(DEMO_API_KEY));
  if (req.method === "GET" && url.pathname === SESSION_TOKEN_PATH)
    return send(
      200,
      "text/plain",
      mintSessionToken({ shop: DEMO_SHOP, apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET }),
    );
  if (req.method === "GET" && url.pathname === STORE_VIEW_PATH) return send(200, "text/html", storeView());
  if (req.method === "POST" && /^\/(webhooks|warehouse\/notify|fulfillment-service)\//.test(url.pathname))
    return void answerRoute(req, res);
  if (check) return send(404, "text/plain", "Headless demo: no pages.");
  if (!vite || !pages) return send(503, "text/plain", "The demo is starting; try again in a moment.");
  vite.middlewares(req, res, () => void pages!(req, res));
});
// Longer than a client's idle keep-alive, so a pooled connection is never closed under a request.
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve, reject) => {
  server.once("error", (error: NodeJS.ErrnoException) =>
    reject(
      error.code === "EADDRINUSE" ? new Error(`port ${port} is taken: choose another with --port`) : error,
    ),
  );
  server.listen(port, "127.0.0.1", resolve);
}).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
process.env.SHOPIFY_APP_URL = origin;

// The app's modules, once the environment is complete (env() parses it on first use).
const { appContext, closeAppContext } = await import("../../app/context.server");
const { env } = await import("../../app/env.server");
const { saveSettings } = await import("../../app/settings/settings.server");
const { saveStatusSettings } = await import("../../app/statuses/settings.server");
const { notifyAddress } = await import("../../app/statuses/notify-token.server");
const { updateOnboarding } = await import("../../app/onboarding/state.server");
const { ONBOARDING_STEPS } = await import("../../app/onboarding/state");
const { requestStockSync } = await import("../../app/stock/kinds.server");
const { saveStockSettings } = await import("../../app/stock/settings.server");
const { createDeliveryRequest } = await import("../../app/deliveries/deliveries.server");
const { newIdRequest } = await import("../../app/deliveries/form");
const { kyivDay } = await import("../../app/warehouse/dates");
const { RETURNS_KIND } = await import("../../app/returns/kinds.server");
const { requestRun } = await import("../../app/work/schedule.server");
const { createEngine } = await import("../../app/work/engine.server");
const { startProcessWorker, stopProcessWorker, wakeWorker } = await import("../../app/work/worker.server");
const { offlineShopAdmin } = await import("../../app/work/engine.server");
const { chooseServiceMode } = await import("../../app/service/register.server");
const { closeWarehouseConnections } = await import("../../app/warehouse/transport.server");
const context = appContext();
const { db } = context;
const deps = { ...context, wake: wakeWorker };

// The pages: the app's own Remix routes compiled by vite. They share this process's app context and worker
// (both kept on globalThis), so a page's Retry wakes the same worker the webhooks do.
if (!check) {
  vite = await createViteServer({
    configFile: path.resolve("vite.config.ts"),
    mode: "development",
    logLevel: values.verbose ? "info" : "error",
    cacheDir: path.resolve(".cache/vite-demo"),
    plugins: [appBridgeStandInPlugin()],
    // The pages' development client opens vite's socket: it is served on the demo's own server (no other
    // port), and, with no file watching, never reloads a page under the visitor. Said in full: the project's
    // config (merged under this one) sends the client to the Shopify CLI's tunnel on 443 for any host but
    // localhost, and the demo's is 127.0.0.1.
    server: {
      middlewareMode: true,
      hmr: { server, protocol: "ws", host: "127.0.0.1", clientPort: Number(new URL(origin).port) },
      watch: null,
    },
    // Every route up front, so the first page does not find new dependencies and ask for a reload
    // (see test/support/app-server.ts).
    optimizeDeps: { entries: ["app/root.tsx", "app/routes/**/*.tsx"] },
    appType: "custom",
  });
  const loadBuild = () => vite!.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  const handleRequest = createRequestHandler(loadBuild, "development");
  pages = async (req, res) => {
    try {
      const response = await handleRequest(toRequest(req, res, origin));
      await sendResponse(inFrame(await withStandIn(response)), res);
    } catch (error) {
      vite!.ssrFixStacktrace(error as Error);
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
  // Compiled now, in the background, so that the first page opened does not wait for it.
  void loadBuild().catch((error: unknown) => console.error("the app's pages failed to compile:", error));
}

/** The server-rendered page names the stand-in too, as the browser's modules do (the plugin above). */
async function withStandIn(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("text/html")) return response;
  const html = (await response.text()).replaceAll(APP_BRIDGE_URL, APP_BRIDGE_STAND_IN_PATH);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  // The preload hint the library adds for the script would fetch it from the CDN all the same.
  const hints = headers
    .get("link")
    ?.split(/,\s*(?=<)/)
    .filter((hint) => !hint.includes(APP_BRIDGE_URL));
  if (hints?.length) headers.set("link", hints.join(", "));
  else headers.delete("link");
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}

/** The app allows only the Shopify admin to frame it; here the admin is the stand-in on this origin. */
function inFrame(response: Response): Response {
  const policy = response.headers.get("content-security-policy");
  if (policy?.includes("frame-ancestors"))
    response.headers.set(
      "content-security-policy",
      policy.replace(/frame-ancestors[^;]*/, "frame-ancestors 'self'"),
    );
  return response;
}

// ---------------------------------------------------------------------------------------------------
// The shop as an installed, set-up app has it.

// A run stopped hard (kill -9) may have left its worker's lease: nothing else uses this database.
await db.workLease.deleteMany({ where: { shop: DEMO_SHOP } });
await db.session.upsert({
  where: { id: `offline_${DEMO_SHOP}` },
  create: {
    id: `offline_${DEMO_SHOP}`,
    shop: DEMO_SHOP,
    state: "",
    accessToken: DEMO_ACCESS_TOKEN,
    scope: scopes,
  },
  update: { accessToken: DEMO_ACCESS_TOKEN, scope: scopes, expires: null, refreshToken: null },
});
await db.shop.upsert({
  where: { shop: DEMO_SHOP },
  create: {
    shop: DEMO_SHOP,
    name: DEMO_SHOP_NAME,
    currencyCode: "UAH",
    ianaTimezone: "Europe/Kyiv",
    primaryLocale: "uk",
    scopes,
    installedAt: new Date(),
  },
  update: { uninstalledAt: null, scopes },
});
const saved = await saveSettings(deps, DEMO_SHOP, {
  apiKey: sim.apiKey,
  environment: "production",
  batchAddOrder: true,
  mapping: DEMO_MAPPING,
});
if (!saved.ok) throw new Error(`the demo's settings were refused: ${JSON.stringify(saved.errors)}`);
const located = await saveStatusSettings(deps, DEMO_SHOP, { locationId: location.id }, [
  { id: location.id, name: location.name },
]);
if (!located.ok) throw new Error(`the demo's location was refused: ${JSON.stringify(located.errors)}`);
// Returned items fit for sale go back on sale at once (Stock page, "Restock returned items"; off unless chosen).
const stocked = await saveStockSettings(deps, DEMO_SHOP, { restockReturns: true });
if (!stocked.ok) throw new Error(`the demo's stock settings were refused: ${JSON.stringify(stocked.errors)}`);
// The catalogue as a first sync leaves it: every variant's card at the warehouse (the simulator has them).
const now = new Date();
for (const [sku, variant] of variantsBySku) {
  const card = {
    sku,
    name: variant.name,
    productId: variant.productId,
    inventoryItemId: variant.inventoryItemId,
  };
  const sent = {
    sentSku: sku,
    sentName: variant.name,
    sentAt: now,
    dueAt: null,
    problem: null,
    problemMessage: null,
  };
  // The fake store is new on every run: its ids are too, so last run's rows give way.
  await db.catalogueItem.deleteMany({
    where: { shop: DEMO_SHOP, sku, variantId: { not: variant.variantId } },
  });
  await db.catalogueItem.upsert({
    where: { shop_variantId: { shop: DEMO_SHOP, variantId: variant.variantId } },
    create: { shop: DEMO_SHOP, variantId: variant.variantId, ...card, ...sent },
    update: { ...card, ...sent, deletedAt: null },
  });
}
const notifyAt = await notifyAddress(db, DEMO_SHOP);
if (!notifyAt.ok) throw new Error(`no notification address: ${notifyAt.message}`);
sim.setNotificationUrl(`${origin}${new URL(notifyAt.url).pathname}`);
// Every setup step is done above, so the home page opens on the dashboard; its "Setup checklist" button
// shows the checklist as a merchant would see it.
await updateOnboarding(db, DEMO_SHOP, (state) => ({
  ...state,
  steps: Object.fromEntries(ONBOARDING_STEPS.map((step) => [step, state.steps[step] ?? now.toISOString()])),
  finishedAt: state.finishedAt ?? now.toISOString(),
}));
await requestStockSync(db, DEMO_SHOP, new Date(), true);
// The work engine, as the web process runs it (entry.server would start the same one on the first page).
startProcessWorker(() => createEngine(context, env()));
wakeWorker(DEMO_SHOP);
// Shopify's webhooks the fake raises (fulfillment orders routed, moved, cancelled...), signed to the app.
fake.webhooks.deliverTo({ appUrl: origin, secret: DEMO_API_SECRET });

/** True once `ready` holds, asked every tenth of a second; false at the check's deadline, or once stopping. */
async function reached(ready: () => boolean | Promise<boolean>): Promise<boolean> {
  while (!(await ready())) {
    if (stopping || (check && performance.now() > startedAt + timeoutMs)) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Waits until `ready` holds; the check fails, saying what did not happen, at its deadline. */
async function until(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  if (await reached(ready)) return;
  console.error(`demo check failed: ${what} within --timeout ${timeoutMs / 1000}`);
  await stop();
  process.exit(1);
}
// Saving the location made the app read the shop's online locations: until it has (two now, so every order's
// fulfillment orders decide what is the warehouse's), an order would be taken in as a one-location shop's.
await until("the app did not read the shop's two online locations", async () => {
  const settings = await db.shopSettings.findUnique({
    where: { shop: DEMO_SHOP },
    select: { onlineLocations: true },
  });
  const online = settings?.onlineLocations ? (JSON.parse(settings.onlineLocations) as string[]) : [];
  return online.includes(location.id) && online.includes(showroom.id);
});

if (serviceMode) {
  // Shopify's pings to the service's callback URL reach the app here, signed with the app's secret.
  configureServiceCallbacks(fake.state, { callbackOrigin: origin, apiSecretKey: DEMO_API_SECRET });
  // The merchant chooses the fulfillment service on Settings: the app registers it (once) with the warehouse's
  // address on its location, and makes that location the warehouse's.
  const admin = await offlineShopAdmin(DEMO_SHOP, AbortSignal.timeout(30_000));
  const chosen = await chooseServiceMode(deps, DEMO_SHOP, admin, {
    appUrl: origin,
    address: {
      address1: location.address.address1 ?? "",
      city: location.address.city ?? "",
      zip: location.address.zip ?? "",
    },
  });
  if (!chosen.ok) throw new Error(`service mode was refused: ${JSON.stringify(chosen.problem)}`);
  const settings = await db.shopSettings.findUniqueOrThrow({
    where: { shop: DEMO_SHOP },
    select: { locationId: true },
  });
  warehouseLocationId = settings.locationId!;
  // Then, as Settings' guidance asks, the merchant stocks the warehouse's items at the service's location and
  // puts it first on the routing list in the old location's place (the showroom stays second).
  for (const [sku, variant] of variantsBySku)
    store.stock(variant.inventoryItemId, warehouseLocationId, { available: demoVariant(sku).shopQuantity });
  store.setRouting([warehouseLocationId, showroom.id]);
  say(`Service mode: the warehouse is the fulfillment service "${chosen.locationName ?? ""}" in Shopify.`);
}

// An inbound delivery the merchant announced, as the Inbound deliveries form sends it; the warehouse receives
// part of it a little later, so its page shows planned against received.
const deliverySkus = DEMO_PRODUCTS.slice(0, 2).map((product) => product.variants[0]!.sku);
const delivery = await createDeliveryRequest(context, DEMO_SHOP, {
  idRequest: newIdRequest(),
  deliveryDate: kyivDay(new Date()),
  method: "ownTransport",
  seats: "2",
  ttn: "",
  comment: "Поставка на поповнення залишків",
  lines: deliverySkus.map((sku, index) => ({ sku, count: String(10 * (index + 1)) })),
});
if (!delivery.ok) say(`the sample delivery request was not made: ${JSON.stringify(delivery.errors)}`);

// ---------------------------------------------------------------------------------------------------
// Sample orders: placed in the fake store, then sent to the app as Shopify would.

const samples = sampleOrders(reference);
// A run on last run's database goes on with its numbers; Shopify's ids come from the fake, new each run, so
// its counter is moved past the ids the database has seen.
const previous = await db.warehouseOrder.findMany({
  where: { shop: DEMO_SHOP },
  select: { orderName: true, shopifyOrderId: true },
});
// After the highest number taken: the count falls short once a webhook failed, and would repeat a number.
let nextNumber = 1 + previous.reduce((max, row) => Math.max(max, Number(row.orderName.slice(1)) || 0), 1000);
const highestId = previous.reduce((max, row) => Math.max(max, Number(row.shopifyOrderId) || 0), 0);
while (fake.state.allocateId() <= highestId);
let sent = 0;
/** What each sample order asked for, by its name: a returned order sends some of it back. */
const orderedLines = new Map<string, Array<{ sku: string; quantity: number }>>();

// ---------------------------------------------------------------------------------------------------
// Service mode: the merchant asks for two cancellations, of the first order of two samples, one before the
// warehouse picks it and one after. While each is asked and answered the warehouse holds its own pace (its
// automatic stage changes paused, every order's), so "before" and "after" are what the demo made them, not a
// race against the warehouse's clock.

/** Which sample's first order the merchant asks to cancel, and when. */
const CANCELLATION_SAMPLES: Record<string, "beforePicking" | "afterPicking"> = {
  "np-locker-prepaid": "beforePicking",
  "kyiv-courier-prepaid": "afterPicking",
};
interface CancellationOutcome {
  /** The fulfillment order's request status once answered (CANCELLATION_ACCEPTED or _REJECTED). */
  answer: string;
  /** The order's stage at the warehouse then, and whether it was ever picked. */
  warehouseStage: string;
  picked: boolean;
}
/** The cancellations asked for (once each), and how each ended. */
const cancellations = new Set<"beforePicking" | "afterPicking">();
const settled: Partial<Record<"beforePicking" | "afterPicking", CancellationOutcome>> = {};

let paused = 0;
/** The warehouse's automatic stage changes stop (nested: they resume once every pause has ended). */
function pauseWarehouse(): () => void {
  if (paused++ === 0) sim.setStageDelays(null);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--paused === 0) sim.setStageDelays({ picked, shipped, delivered });
  };
}

async function askCancellation(
  when: "beforePicking" | "afterPicking",
  orderId: string,
): Promise<CancellationOutcome> {
  // Paused before the order reaches the warehouse: it stays new there until the demo says otherwise.
  const resume = pauseWarehouse();
  try {
    const shopifyOrderId = orderId.split("/").at(-1)!;
    const fos = () =>
      store.orders
        .get(orderId)!
        .fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)
        .filter((fo) => fo.assignedLocationId === warehouseLocationId);
    const gaveUp = (stage: string) => ({ answer: `gave up: ${stage}`, warehouseStage: "", picked: false });
    if (!(await reached(() => fos().every((fo) => fo.requestStatus === "ACCEPTED"))))
      return gaveUp("its fulfillment request was not accepted");
    const row = await db.warehouseOrder.findFirstOrThrow({
      where: { shop: DEMO_SHOP, shopifyOrderId },
      select: { id: true, idOrder: true, orderName: true },
    });
    const atWarehouse = () => sim.orders().find((order) => order.id_order === row.idOrder);
    if (when === "afterPicking") {
      sim.advanceOrder({ id_order: row.idOrder, to: "picked" });
      const known = await reached(
        async () =>
          (await db.warehouseOrder.findUnique({ where: { id: row.id }, select: { stage: true } }))?.stage ===
          "picked",
      );
      if (!known) return gaveUp("the app did not learn the warehouse picked it");
    }
    for (const fo of fos()) {
      const asked = submitCancellationRequest(store, fo.id, { message: "Покупець передумав" });
      if (asked.userErrors.length)
        throw new Error(
          `the cancellation request of ${fo.id} was refused: ${JSON.stringify(asked.userErrors)}`,
        );
    }
    await deliverServiceCallbacks(fake.state, store);
    say(
      `  ${row.orderName}: the merchant asks the warehouse to cancel it (${when === "beforePicking" ? "before" : "after"} picking)`,
    );
    if (!(await reached(() => fos().every((fo) => fo.requestStatus !== "CANCELLATION_REQUESTED"))))
      return gaveUp("its cancellation request was not answered");
    const warehouse = atWarehouse();
    const outcome = {
      answer: fos()[0]!.requestStatus,
      warehouseStage: warehouse?.stage ?? "none",
      picked: warehouse?.history.some((entry) => entry.stage === "picked") ?? false,
    };
    return outcome;
  } finally {
    resume();
  }
}

async function placeOrder(): Promise<void> {
  const sample = samples[sent % samples.length]!;
  const number = nextNumber++;
  sent++;
  orderedLines.set(`#${number}`, sample.lines);
  // Shopify's routing (the fake's) decides where each line goes: the first location on the routing list that
  // stocks it; a pickup order goes whole to the showroom the buyer chose. The orders/create payload is the fake's own order, with the sample's buyer, delivery and payment.
  const { order } = store.addOrder({
    name: `#${number}`,
    email: sample.email,
    lineItems: sample.lines.map((line) => ({ sku: line.sku, quantity: line.quantity })),
    ...(sample.pickup && { locationId: showroom.id, deliveryMethod: "PICK_UP" as const }),
  });
  const numeric = (gid: string) => Number(gid.split("/").at(-1));
  const { line_items: _sampleLines, ...buyer } = samplePayload(sample, {
    id: numeric(order.id),
    graphqlId: order.id,
    number,
    lineItemIds: order.lineItems.map((line) => numeric(line.id)),
    createdAt: new Date(order.createdAt),
  });
  const payload = orderWebhookPayload(store, order.id, buyer);
  if (serviceMode) {
    // The merchant (or Shopify's automation) asks the service to fulfil what is at its location.
    for (const id of order.fulfillmentOrderIds) {
      if (store.fulfillmentOrders.get(id)!.assignedLocationId !== warehouseLocationId) continue;
      const asked = submitFulfillmentRequest(store, id);
      if (asked.userErrors.length)
        throw new Error(`the fulfillment request of ${id} was refused: ${JSON.stringify(asked.userErrors)}`);
    }
    await deliverServiceCallbacks(fake.state, store);
    const cancel = CANCELLATION_SAMPLES[sample.key];
    if (cancel && !cancellations.has(cancel)) {
      cancellations.add(cancel);
      askCancellation(cancel, order.id).then(
        (outcome) => (settled[cancel] = outcome),
        (error: unknown) => {
          console.error(`asking for a cancellation failed: ${(error as Error).message}`);
          settled[cancel] = {
            answer: `failed: ${(error as Error).message}`,
            warehouseStage: "",
            picked: false,
          };
        },
      );
    }
  }
  const request = signedWebhookRequest({
    topic: "orders/create",
    shop: DEMO_SHOP,
    payload,
    secret: DEMO_API_SECRET,
  });
  const response = await fetch(new URL(new URL(request.url).pathname, origin), {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
  });
  if (!response.ok)
    throw new Error(`orders/create #${number} was answered ${response.status}: ${await response.text()}`);
  say(
    `#${number} ${sample.firstName} ${sample.lastName}: ${sample.shipping.title}, ${sample.gateway}${sample.held ? " (will be held)" : ""}${sample.routed === "elsewhere" ? " (the showroom's: nothing goes to the warehouse)" : ""}${sample.routed === "split" ? " (split: the showroom's lines stay there)" : ""}`,
  );
}

let orderTimer: NodeJS.Timeout | undefined;
const scheduleOrders = () => {
  // An order in flight when the demo stops must not start the next one.
  if (stopping) return;
  orderTimer = setTimeout(
    () => {
      placeOrder().then(scheduleOrders, (error: unknown) => {
        console.error(`sending a sample order failed: ${(error as Error).message}`);
        scheduleOrders();
      });
    },
    sent === 0 ? 0 : everyMs,
  );
};
scheduleOrders();

// The stock sync runs on its schedule (ten minutes); the demo asks for one every half minute, as "Sync now"
// (the check every three seconds, so that a sync runs after its first held order and `oversold` means something).
const stockTimer = setInterval(
  () => {
    requestStockSync(db, DEMO_SHOP, new Date(), true).then(
      () => wakeWorker(DEMO_SHOP),
      (error: unknown) => console.error(`asking for a stock sync failed: ${(error as Error).message}`),
    );
  },
  check ? 3_000 : 30_000,
);

// The warehouse's own day: every fourth delivered order comes back (one unit of its first line; every second
// such return defective), and the sample delivery arrives in part. The app reads the returns register on its
// schedule (half an hour); the demo asks for it at once, as it does for stock.
const deliveredSeen = new Set<string>();
let returnsBooked = 0;
let deliveryReceived = false;
async function warehouseDay(): Promise<void> {
  const delivered = await db.warehouseOrder.findMany({
    where: { shop: DEMO_SHOP, stage: "delivered" },
    select: { id: true, orderName: true, idOrder: true },
    orderBy: { createdAt: "asc" },
  });
  let booked = false;
  for (const row of delivered) {
    if (deliveredSeen.has(row.id)) continue;
    deliveredSeen.add(row.id);
    const first = orderedLines.get(row.orderName)?.[0];
    if (deliveredSeen.size % 4 !== 0 || !first) continue;
    const defective = ++returnsBooked % 2 === 0;
    sim.addReturn({ id_order: row.idOrder, products: [{ sku: first.sku, count: 1, marriage: defective }] });
    say(`  ${row.orderName}: the buyer sent back 1 × ${first.sku}${defective ? " (defective)" : ""}`);
    booked = true;
  }
  if (booked) {
    await requestRun(db, DEMO_SHOP, RETURNS_KIND, new Date());
    wakeWorker(DEMO_SHOP);
  }
  if (!deliveryReceived && delivery.ok && delivered.length > 0) {
    const made = await db.inboundDelivery.findUnique({ where: { id: delivery.id } });
    if (made?.warehouseId) {
      deliveryReceived = true;
      sim.receiveDelivery({ id: made.warehouseId, products: [{ sku: deliverySkus[0]!, count: 6 }] });
      say(`  the warehouse received 6 of 10 × ${deliverySkus[0]} of delivery request ${made.idRequest}`);
    }
  }
}
// One at a time: a slow tick (a loaded machine) must not book the same delivery twice.
let dayRunning = false;
const warehouseDayTimer = setInterval(() => {
  if (dayRunning) return;
  dayRunning = true;
  warehouseDay()
    .catch((error: unknown) => console.error(`the warehouse's day failed: ${(error as Error).message}`))
    .finally(() => (dayRunning = false));
}, 2_000);

// What happens to each order, told as it happens.
const seen = new Map<string, string>();
async function follow(): Promise<void> {
  const rows = await db.warehouseOrder.findMany({
    where: { shop: DEMO_SHOP },
    select: { id: true, orderName: true, state: true, stage: true, ttn: true, fulfillmentId: true },
  });
  for (const row of rows) {
    const where = [row.state, row.stage, row.fulfillmentId ? "fulfilled in Shopify" : null]
      .filter(Boolean)
      .join(", ");
    if (seen.get(row.id) !== where) {
      seen.set(row.id, where);
      say(`  ${row.orderName}: ${where}${row.ttn ? ` (TTN ${row.ttn})` : ""}`);
    }
  }
}
const followTimer = setInterval(() => void follow().catch(() => {}), 1_000);

// ---------------------------------------------------------------------------------------------------
// The store view, and the check's summary.

function storeView(): string {
  const events = (id: string) => store.fulfillments.get(id);
  return storeViewPage({
    shopName: DEMO_SHOP_NAME,
    location: store.locations.get(warehouseLocationId)!.name,
    orders: [...store.orders.values()].reverse().map((order) => ({
      name: order.name,
      createdAt: order.createdAt,
      fulfillmentOrderStatus: order.fulfillmentOrderIds
        .map((id) => store.fulfillmentOrders.get(id)?.status)
        .join(", "),
      fulfillments: order.fulfillmentIds.flatMap((id) => {
        const fulfillment = events(id);
        if (!fulfillment) return [];
        return [
          {
            status: fulfillment.displayStatus,
            tracking: fulfillment.trackingInfo.map((info) => ({
              company: info.company,
              number: info.number,
              url: info.url,
            })),
            events: fulfillment.events.map((event) => event.status),
          },
        ];
      }),
    })),
    inventory: [...store.products.values()].flatMap((product) =>
      product.variantIds.map((variantId) => {
        const variant = store.variants.get(variantId)!;
        const level = store.level(variant.inventoryItemId, warehouseLocationId);
        return {
          product: product.title,
          variant: variant.title,
          sku: variant.sku ?? "",
          available: level ? (store.quantity(level, "available") ?? 0) : 0,
          onHand: level ? (store.quantity(level, "on_hand") ?? 0) : 0,
        };
      }),
    ),
  });
}

/**
 * The units, over all SKUs, by which the store's `available` at the warehouse location exceeds what may be sold:
 * the warehouse's free stock less the units the store still commits to orders the warehouse has not taken (no
 * order with its id_order at the warehouse). Read from the store stand-in and the simulator at one moment;
 * 0 unless the stock sync put promised units back on sale. A negative "may be sold" counts as 0: a store at 0
 * sells nothing more.
 */
async function oversold(): Promise<number> {
  const idOrders = new Map(
    (
      await db.warehouseOrder.findMany({
        where: { shop: DEMO_SHOP },
        select: { shopifyOrderId: true, idOrder: true },
      })
    ).map((row) => [row.shopifyOrderId, row.idOrder]),
  );
  // From here on nothing awaits: the store and the warehouse are read as they are at one moment.
  const taken = new Set(sim.orders().map((order) => order.id_order));
  const notTaken = new Map<string, number>();
  for (const order of store.orders.values()) {
    const idOrder = idOrders.get(order.id.split("/").at(-1)!);
    if (idOrder !== undefined && taken.has(idOrder)) continue;
    for (const fo of order.fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)) {
      if (
        fo.assignedLocationId !== warehouseLocationId ||
        fo.status === "CLOSED" ||
        fo.status === "CANCELLED"
      )
        continue;
      for (const line of fo.lineItems) {
        const sku = order.lineItems.find((item) => item.id === line.lineItemId)?.sku;
        if (sku) notTaken.set(sku, (notTaken.get(sku) ?? 0) + line.remainingQuantity);
      }
    }
  }
  const warehouse = sim.store();
  let units = 0;
  for (const [sku, variant] of variantsBySku) {
    const level = store.level(variant.inventoryItemId, warehouseLocationId);
    if (!level) continue;
    const mayBeSold = Math.max(0, warehouse.available(sku) - (notTaken.get(sku) ?? 0));
    units += Math.max(0, level.quantities.available - mayBeSold);
  }
  return units;
}

/**
 * What Shopify's routing made of the sample orders, against what the warehouse got. From the fake's fulfillment
 * orders: `routedElsewhere` (orders with no line at the warehouse's location), `splitOrders` (lines there and
 * elsewhere). From the simulator's orders against them: `linesSentForElsewhere`, the units the warehouse
 * received beyond what its location was assigned, SKU by SKU (0 unless a line routed elsewhere was sent).
 * And whether those orders ended as they should: `routedElsewhereRecorded` (recorded by the app as not the
 * warehouse's, nothing at the warehouse), `splitOrdersSent` (at the warehouse with exactly its location's lines).
 */
async function routingFigures() {
  const rows = new Map(
    (
      await db.warehouseOrder.findMany({
        where: { shop: DEMO_SHOP },
        select: { shopifyOrderId: true, idOrder: true, state: true },
      })
    ).map((row) => [row.shopifyOrderId, row]),
  );
  // Per id_order and SKU, the most units the warehouse held of the order: as first added, or as edited since.
  const received = new Map<string, Map<string, number>>();
  const held = [
    ...addedOrders,
    ...sim.orders().map((order) => ({ idOrder: order.id_order, lines: order.lines })),
  ];
  for (const order of held) {
    const units = received.get(order.idOrder) ?? new Map<string, number>();
    const lines = new Map<string, number>();
    for (const line of order.lines) lines.set(line.sku, (lines.get(line.sku) ?? 0) + line.count);
    for (const [sku, count] of lines) units.set(sku, Math.max(units.get(sku) ?? 0, count));
    received.set(order.idOrder, units);
  }
  const figures = {
    routedElsewhere: 0,
    routedElsewhereRecorded: 0,
    splitOrders: 0,
    splitOrdersSent: 0,
    linesSentForElsewhere: 0,
  };
  for (const order of store.orders.values()) {
    const atWarehouse = new Map<string, number>();
    let elsewhere = 0;
    for (const fo of order.fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)) {
      for (const line of fo.lineItems) {
        if (fo.assignedLocationId !== warehouseLocationId) {
          elsewhere += line.totalQuantity;
          continue;
        }
        const sku = order.lineItems.find((item) => item.id === line.lineItemId)?.sku ?? "";
        atWarehouse.set(sku, (atWarehouse.get(sku) ?? 0) + line.totalQuantity);
      }
    }
    const row = rows.get(order.id.split("/").at(-1)!);
    const got = row ? received.get(row.idOrder) : undefined;
    for (const [sku, count] of got ?? [])
      figures.linesSentForElsewhere += Math.max(0, count - (atWarehouse.get(sku) ?? 0));
    if (elsewhere === 0) continue;
    if (atWarehouse.size === 0) {
      figures.routedElsewhere++;
      if (row?.state === "elsewhere" && !got) figures.routedElsewhereRecorded++;
    } else {
      figures.splitOrders++;
      const same =
        got?.size === atWarehouse.size && [...atWarehouse].every(([sku, count]) => got.get(sku) === count);
      if (same) figures.splitOrdersSent++;
    }
  }
  return figures;
}

/**
 * Service mode's figures: the fulfillment requests the app accepted and the cancellation requests it answered
 * (from the fake's record of the app's answers), and whether the two cancellations ended as they should: the
 * one asked before picking accepted with the order cancelled at the warehouse unpicked, the one asked after
 * picking rejected with the order still at the warehouse, picked.
 */
function serviceFigures() {
  const answers = serviceAnswers(store).filter((answer) => answer.refused === null);
  const count = (...mutations: string[]) =>
    answers.filter((answer) => mutations.includes(answer.mutation)).length;
  const before = settled.beforePicking;
  const after = settled.afterPicking;
  return {
    requestsAccepted: count("fulfillmentOrderAcceptFulfillmentRequest"),
    cancellationRequestsAnswered: count(
      "fulfillmentOrderAcceptCancellationRequest",
      "fulfillmentOrderRejectCancellationRequest",
    ),
    cancelledBeforePicking:
      before?.answer === "CANCELLATION_ACCEPTED" && before.warehouseStage === "cancelled" && !before.picked,
    refusedAfterPicking:
      after?.answer === "CANCELLATION_REJECTED" && after.warehouseStage !== "cancelled" && after.picked,
  };
}

async function summary() {
  const rows = await db.warehouseOrder.findMany({
    where: { shop: DEMO_SHOP },
    select: { stage: true, state: true, ttn: true, fulfillmentId: true, createdAt: true },
  });
  const firstHeld = rows
    .filter((row) => row.state === "held")
    .reduce<Date | null>((first, row) => (first && first <= row.createdAt ? first : row.createdAt), null);
  const deliveredRows = rows.filter((row) => row.stage === "delivered");
  const fulfilledWithTracking = deliveredRows.filter((row) => {
    const fulfillment = row.fulfillmentId ? store.fulfillments.get(row.fulfillmentId) : undefined;
    return !!row.ttn && !!fulfillment?.trackingInfo.some((info) => info.number === row.ttn);
  });
  const syncs = await db.stockSync.findMany({
    where: { shop: DEMO_SHOP, finishedAt: { not: null }, error: null },
  });
  return {
    orders: rows.length,
    held: rows.filter((row) => row.state === "held").length,
    accepted: rows.filter((row) => row.state === "accepted").length,
    delivered: deliveredRows.length,
    fulfillments: store.fulfillments.size,
    deliveredWithFulfillment: fulfilledWithTracking.length,
    stockSyncs: syncs.length,
    inventoryWrites: fake.requests.filter((request) => request.query.includes("inventorySetQuantities"))
      .length,
    itemsChanged: syncs.reduce((sum, sync) => sum + sync.changed, 0),
    /** Whether a stock sync started after the first held order was taken in (so it had a promise to keep). */
    syncedAfterHeld: firstHeld !== null && syncs.some((sync) => sync.startedAt > firstHeld),
    ...(await routingFigures()),
    ...(serviceMode && serviceFigures()),
  };
}

// ---------------------------------------------------------------------------------------------------
// Stopping: every timer, the app's worker and database, the servers; nothing is left running.

function stop(): Promise<void> {
  stopping ??= (async () => {
    clearTimeout(orderTimer);
    clearInterval(stockTimer);
    clearInterval(followTimer);
    clearInterval(warehouseDayTimer);
    const forced = setTimeout(() => {
      console.error("the demo did not stop within 15 s; exiting");
      process.exit(1);
    }, 15_000);
    forced.unref();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stopProcessWorker();
    await closeWarehouseConnections();
    await vite?.close();
    await closeAppContext();
    routeShopifyTo(undefined);
    await sim.close();
    await fake.close();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  })();
  return stopping;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    say(`\n${signal}: stopping the demo...`);
    void stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("the demo did not stop cleanly:", error);
        process.exit(1);
      },
    );
  });
}

if (!check) {
  say(`\nSklad Sync demo for ${DEMO_SHOP_NAME}: open ${origin}/`);
  say(
    `A sample order every ${everyMs / 1000} s; the warehouse picks, ships and delivers after ${delays.join(", ")} s. Ctrl-C stops it.\n`,
  );
} else {
  const deadline = startedAt + timeoutMs;
  let last = await summary();
  let ok = false;
  while (performance.now() < deadline) {
    last = await summary();
    if (
      last.deliveredWithFulfillment > 0 &&
      last.inventoryWrites > 0 &&
      last.itemsChanged > 0 &&
      last.syncedAfterHeld &&
      last.routedElsewhereRecorded > 0 &&
      last.splitOrdersSent > 0 &&
      (!serviceMode || (last.requestsAccepted! > 0 && settled.beforePicking && settled.afterPicking))
    ) {
      ok = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const unitsOversold = await oversold();
  // Read again at the end: a line routed elsewhere sent meanwhile fails the check too.
  const { linesSentForElsewhere } = await routingFigures();
  ok &&= unitsOversold === 0 && linesSentForElsewhere === 0;
  if (serviceMode) ok &&= last.cancelledBeforePicking! && last.refusedAfterPicking!;
  const elapsedS = Math.round((performance.now() - startedAt) / 100) / 10;
  await stop();
  if (!ok) {
    const missing = [
      last.deliveredWithFulfillment === 0
        ? "no order reached Delivered with its fulfillment and tracking number in the store"
        : null,
      last.inventoryWrites === 0 || last.itemsChanged === 0 ? "no stock sync wrote inventory" : null,
      last.syncedAfterHeld ? null : "no stock sync ran after a held order was taken in",
      unitsOversold > 0
        ? `the store offers more than the warehouse has free for orders it has not taken (oversold: ${unitsOversold})`
        : null,
      last.routedElsewhereRecorded === 0
        ? "no pickup order routed to the showroom was recorded as not the warehouse's with nothing sent"
        : null,
      last.splitOrdersSent === 0
        ? "no split order reached the warehouse with exactly its location's lines"
        : null,
      linesSentForElsewhere > 0
        ? `the warehouse received ${linesSentForElsewhere} unit(s) of lines Shopify routed elsewhere`
        : null,
      serviceMode && !last.requestsAccepted ? "no fulfillment request was accepted" : null,
      serviceMode && !last.cancelledBeforePicking
        ? `the cancellation asked before picking did not end accepted with the order cancelled at the warehouse (${JSON.stringify(settled.beforePicking ?? "not answered")})`
        : null,
      serviceMode && !last.refusedAfterPicking
        ? `the cancellation asked after picking did not end rejected with the order picked at the warehouse (${JSON.stringify(settled.afterPicking ?? "not answered")})`
        : null,
    ].filter(Boolean);
    console.error(
      `demo check failed: after ${elapsedS} s (--timeout ${timeoutMs / 1000}), ${missing.join("; ")}`,
    );
  }
  console.log(JSON.stringify({ ok, ...last, linesSentForElsewhere, oversold: unitsOversold, elapsedS }));
  process.exit(ok ? 0 : 1);
}
