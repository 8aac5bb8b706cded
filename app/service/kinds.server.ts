// The engine's kind of fulfillment-service requests, as a name and the one call other modules make: marking
// the shop's requests due (the callback, the request webhooks, an order the warehouse took in service mode).
// Apart from the work itself (requests.server.ts), so that callers import no Shopify reading.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { ORDER_STATE } from "../orders/states";
import { FULFILLMENT_REQUESTS_KIND } from "../routing/kinds.server";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind that reads the service's requests (assignedFulfillmentOrders) and answers them. */
export { FULFILLMENT_REQUESTS_KIND };

/** Asks for the shop's requests to be read and answered at `at` or sooner (now when not given). */
export function requestFulfillmentRequests(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, FULFILLMENT_REQUESTS_KIND, at);
}

/** Order states whose arrival decides an answer owed to Shopify (accept, reject, accept a cancellation). */
const ANSWERING_STATES: ReadonlySet<string> = new Set([
  ORDER_STATE.accepted,
  ORDER_STATE.rejected,
  ORDER_STATE.cancelled,
]);

/**
 * Whether a committed change of an order can decide a service-mode answer: the warehouse took, refused or
 * cancelled it, or its stage moved (a cancellation request is then too late, or the cancel went through).
 */
export function decidesAnswer(data: { state?: string | null; stage?: string | null }): boolean {
  return (data.state != null && ANSWERING_STATES.has(data.state)) || data.stage != null;
}

/**
 * After such changes were committed: the requests of the shops whose orders among them are in service mode
 * (sent so, or not yet sent while the shop is) are due now, so their answers do not wait for the next check.
 * One read of the orders' shops; nothing for a location-mode order.
 */
export async function requestAnswersFor(
  deps: Pick<ServiceDeps, "db" | "clock" | "wake">,
  orderIds: readonly string[],
): Promise<void> {
  if (!orderIds.length) return;
  const { db } = deps;
  const rows = await db.warehouseOrder.findMany({
    where: { id: { in: [...orderIds] }, OR: [{ fulfillmentMode: "service" }, { fulfillmentMode: null }] },
    select: { shop: true, fulfillmentMode: true },
    distinct: ["shop", "fulfillmentMode"],
  });
  const shops = new Set(rows.filter((row) => row.fulfillmentMode === "service").map((row) => row.shop));
  const unsent = [...new Set(rows.filter((row) => row.fulfillmentMode === null).map((row) => row.shop))];
  if (unsent.length) {
    const inService = await db.shopSettings.findMany({
      where: { shop: { in: unsent }, fulfillmentMode: "service" },
      select: { shop: true },
    });
    for (const { shop } of inService) shops.add(shop);
  }
  const now = deps.clock();
  for (const shop of shops) {
    await requestFulfillmentRequests(db, shop, now);
    deps.wake?.(shop, "due_now");
  }
}
