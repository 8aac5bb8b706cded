// The engine's kind of fulfillment-service requests, as a name and the one call other modules make: marking
// the shop's requests due (the callback, the request webhooks, an order the warehouse took in service mode).
// Apart from the work itself (requests.server.ts), so that callers import no Shopify reading.
import type { Db } from "../db.server";
import { FULFILLMENT_REQUESTS_KIND } from "../routing/kinds";
import { requestRun } from "../work/schedule.server";

/** The ShopSchedule kind that reads the service's requests (assignedFulfillmentOrders) and answers them. */
export { FULFILLMENT_REQUESTS_KIND };

/** Asks for the shop's requests to be read and answered at `at` or sooner (now when not given). */
export function requestFulfillmentRequests(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, FULFILLMENT_REQUESTS_KIND, at);
}
