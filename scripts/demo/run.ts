// The demo itself (main.ts has refused production before this is loaded). One process, one address:
// - the warehouse simulator and the Shopify fake (test/), each an HTTP server on loopback;
// - the real app served by vite in middleware mode, on its own SQLite file, with its worker running in this
//   process as in a deployment (entry.server starts it);
// - in front of the app, the stand-in for the Shopify admin (frame.ts) and a view of the fake store;
// - sample orders (samples.ts) placed in the fake store and sent to the app as signed orders/create webhooks.
// All outbound traffic is held to loopback, and Admin API calls to *.myshopify.com go to the fake.
// Each part is a module of its own; this one starts them in order, stops them, and runs --check's verdict.
import { rmSync } from "node:fs";
import { routeShopifyTo } from "../../test/support/network";
import { loadApp } from "./app";
import type { DemoRun } from "./context";
import { startWarehouseDay } from "./day";
import { prepareEnvironment } from "./environment";
import { demoFigures, storeView } from "./figures";
import { readOptions } from "./options";
import { type SampleOrders, startSampleOrders } from "./orders";
import { DEMO_SHOP_NAME } from "./samples";
import { startDemoServer } from "./server";
import { setUpShop } from "./shop";
import { startWorld } from "./world";

const options = readOptions();
const { check, serviceMode, everyMs, timeoutMs, delays } = options;

const startedAt = performance.now();
/** Set once the demo is stopping (see stop() below). */
let stopping: Promise<void> | undefined;
const say = (line: string) => {
  if (!check) console.log(line);
};

const { dataDir, ownDataDir, scopes } = prepareEnvironment(options);
const world = await startWorld(options, scopes);
const { sim, fake } = world;
const { server, origin, startPages, closePages } = await startDemoServer(options, () => storeView(world));
const app = await loadApp();
await startPages();

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

const run: DemoRun = {
  options,
  world,
  app,
  origin,
  say,
  stopping: () => stopping !== undefined,
  reached,
  until,
};
// Filled in as they start: stop() may come first (the check's deadline while the shop is being set up).
const started: { orders?: SampleOrders; stopDay?: () => void } = {};
const delivery = await setUpShop(run, scopes);
const orders = (started.orders = await startSampleOrders(run));
const { settled } = orders;
started.stopDay = startWarehouseDay(run, delivery, orders);
const { oversold, routingFigures, summary } = demoFigures(world, app.db, serviceMode, settled);

// ---------------------------------------------------------------------------------------------------
// Stopping: every timer, the app's worker and database, the servers; nothing is left running.

function stop(): Promise<void> {
  stopping ??= (async () => {
    started.orders?.stop();
    started.stopDay?.();
    const forced = setTimeout(() => {
      console.error("the demo did not stop within 15 s; exiting");
      process.exit(1);
    }, 15_000);
    forced.unref();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.stopProcessWorker();
    await app.closeWarehouseConnections();
    await closePages();
    await app.closeAppContext();
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
