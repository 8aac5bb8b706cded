// A backlog of ready orders leaves at the warehouse's pace, not one batch per pass of the shop's steps: the
// orders step sends full batches one after another while the window lets them leave, up to the batches
// allowed out at once, and a batch that is not full still waits for the window's even pace. Orders come in
// through the real webhook route; AddOrder goes over loopback to the simulator, on a clock that stands still
// (the limiter reads the same clock), so what may leave does not depend on the machine's speed.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import type { ShopWorkDeps } from "../../app/orders/step.server";
import { BatchesInFlight, submitFullBatches } from "../../app/orders/submit.server";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import {
  MemoryRateLimitStore,
  WAREHOUSE_RATE_LIMITS,
  WarehouseRateLimiter,
} from "../../app/warehouse/limiter.server";
import { orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;
/** Set once the orders are in (due from their arrival): the time then, standing still. */
let now = new Date();
const clock = () => now;

async function readyOrders(count: number): Promise<ShopWorkDeps> {
  flow = await startOrderFlow({ noWorker: true });
  for (let n = 0; n < count; n += 25) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(25, count - n) }, async (_, i) => {
        const response = await flow!.post({ topic: "orders/create", payload: orderPayload(5000 + n + i) });
        return response.status;
      }),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  expect(await db().warehouseOrder.count({ where: { shop: SHOP, state: "ready" } })).toBe(count);
  now = new Date();
  const warehouse = createWarehouseClient({
    apiKey: flow.sim.apiKey,
    endpoints: { baseUrl: flow.sim.url, baseUrlV2: flow.sim.urlV2, timeoutMs: 5_000 },
    limiter: new WarehouseRateLimiter(new MemoryRateLimitStore(), {
      limits: WAREHOUSE_RATE_LIMITS,
      now: () => clock().getTime(),
    }),
    batchAddOrder: true,
  });
  return { ...appContext(), clock, warehouse };
}

describe("a backlog of ready orders", () => {
  it("leaves in full batches one after another in one step, the rest waiting for the pace", async () => {
    const deps = await readyOrders(250);
    const inFlight = new BatchesInFlight(4);
    const result = await submitFullBatches(deps, SHOP, inFlight);
    await inFlight.all();
    // Two full batches went; the fifty left over wait for the window's pace (a second with the real limits).
    expect(flow!.sim.stats().requests.AddOrder).toBe(2);
    expect(result).toMatchObject({ did: "wait" });
    expect(await db().warehouseOrder.count({ where: { shop: SHOP, state: "accepted" } })).toBe(200);
    expect(await db().warehouseOrder.count({ where: { shop: SHOP, state: "ready" } })).toBe(50);
  });
});
