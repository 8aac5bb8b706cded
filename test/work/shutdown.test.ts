// Stopping the work engine, as a graceful shutdown does: it waits for the warehouse's answers to requests
// already out and records them, within a grace longer than any request may take.
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../../app/env.server";
import { webShutdownGraceMs, workerShutdownGraceMs } from "../../app/warehouse/config.server";
import { eventually, orderPayload, ordersInState, startOrderFlow, type OrderFlow } from "../e2e/harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const environment = (timeout?: string) =>
  parseEnv({
    SHOPIFY_API_KEY: "key",
    SHOPIFY_API_SECRET: "shpss_very_secret_value",
    SHOPIFY_APP_URL: "https://sklad.example.com/",
    WAREHOUSE_TIMEOUT_MS: timeout,
  });

describe("a graceful shutdown", () => {
  it("waits longer than a warehouse request may take, whatever the timeout is set to", () => {
    for (const timeout of [undefined, "1000", "60000", "120000"]) {
      const settings = environment(timeout);
      // The worker's own process: one request still out, then its answer recorded.
      expect(workerShutdownGraceMs(settings)).toBeGreaterThanOrEqual(settings.WAREHOUSE_TIMEOUT_MS + 5_000);
      // The web process lets its HTTP requests finish first (one may wait on the warehouse), then the worker's.
      expect(webShutdownGraceMs(settings)).toBeGreaterThanOrEqual(2 * settings.WAREHOUSE_TIMEOUT_MS + 5_000);
    }
    // The default timeout is 15 s; the fixed grace of 10 s was shorter than one request.
    expect(webShutdownGraceMs(environment(undefined))).toBe(35_000);
  });

  it("stops the worker only once the answer to the AddOrder in flight is recorded", async () => {
    flow = await startOrderFlow();
    // Every answer comes late, so the stop arrives while the request is out.
    flow.sim.faults.setDelay(600);
    expect((await flow.post({ topic: "orders/create", payload: orderPayload(2001) })).status).toBe(200);
    await eventually(
      async () => (await ordersInState("submitting")) === 1,
      "the order to be claimed for sending",
    );

    await flow.worker.stop();
    // Not left `submitting` (in doubt after a restart): the warehouse's answer was recorded before the stop ended.
    expect(await ordersInState("submitting")).toBe(0);
    expect(await ordersInState("accepted")).toBe(1);
    expect(flow.sim.orders()).toHaveLength(1);
  });
});
