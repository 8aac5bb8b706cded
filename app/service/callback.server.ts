// What Shopify's signals of a fulfillment request do in service mode: the signed callback
// (POST <callbackUrl>/fulfillment_order_notification, `{"kind": "FULFILLMENT_REQUEST" | "CANCELLATION_REQUEST"}`)
// and the request webhooks (app/webhooks/routing.server.ts, with every fulfillment_orders topic) only mark the
// shop's requests due and wake the worker, answering 200 at once. The requests themselves are read by the
// fulfillment_requests kind (requests.server.ts), so a ping repeated, or a ping and a webhook for the same
// request, make one run and one answer.
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import { requestFulfillmentRequests } from "./kinds.server";

/** The callback's body: only the kind is read (Shopify may add fields). */
export const fulfillmentNotificationSchema = z.looseObject({
  kind: z.enum(["FULFILLMENT_REQUEST", "CANCELLATION_REQUEST"]),
});

/** Marks the shop's requests due and wakes the worker: the whole of what a signal does. */
export async function markRequestsDue(deps: ServiceDeps, shop: string): Promise<void> {
  await requestFulfillmentRequests(deps.db, shop, deps.clock());
  deps.wake?.(shop, "due_now");
}

/** The callback, once the library verified its signature and found the shop's offline session. */
export async function takeFulfillmentNotification(
  deps: ServiceDeps,
  shop: string,
  payload: unknown,
): Promise<Response> {
  const parsed = fulfillmentNotificationSchema.safeParse(payload);
  if (!parsed.success) {
    deps.log.warn(
      { shop, event: "service.callback_refused" },
      "a signed fulfillment-service callback had no known kind",
    );
    return Response.json(
      { error: "kind must be FULFILLMENT_REQUEST or CANCELLATION_REQUEST" },
      { status: 400 },
    );
  }
  await markRequestsDue(deps, shop);
  deps.log.info(
    { shop, event: "service.callback", kind: parsed.data.kind },
    "a fulfillment-service request was announced",
  );
  return new Response(null, { status: 200 });
}
