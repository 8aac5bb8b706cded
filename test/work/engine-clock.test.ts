// The engine's injected clock reaches the rate limiter: the limits are counted on the same clock as
// every other decision the engine makes (a limiter on the host's own clock disagreed with it).
import { afterEach, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  eventually,
  orderPayload,
  ordersInState,
  SHOP,
  startOrderFlow,
  type OrderFlow,
} from "../e2e/harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

it("stamps the warehouse requests in the limiter's window with the engine's clock", async () => {
  const offsetMs = 6 * 3600_000;
  flow = await startOrderFlow({ noWorker: true, worker: { clock: () => new Date(Date.now() + offsetMs) } });
  // The returns sweep the saved key asked for, minutes on, is due at once on a clock six hours ahead: it is
  // not this test's request to count.
  await appContext().db.shopSchedule.deleteMany({ where: { shop: SHOP, kind: "returns" } });
  flow.worker.start();
  expect((await flow.post({ topic: "orders/create", payload: orderPayload(5101) })).status).toBe(200);
  await eventually(async () => (await ordersInState("accepted")) === 1, "the order to be accepted");

  const row = await appContext().db.rateLimitState.findFirstOrThrow({ where: { shop: SHOP } });
  const { sent } = JSON.parse(row.state) as { sent: number[] };
  expect(sent).toHaveLength(1);
  expect(sent[0]!).toBeGreaterThan(Date.now() + offsetMs - 60_000);
});
