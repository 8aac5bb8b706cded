// The fulfillment order and location webhooks: thin, through the one webhook edge (size, HMAC, zod), they only
// ask for a read and wake the worker. What changed is read from Shopify by the scheduled kinds (app/routing/),
// never taken from the body, so a redelivery or a delivery out of order asks for one more read, and changes
// nothing else: no deduplication is needed.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appContext } from "../context.server";
import {
  fulfillmentOrderIdsIn,
  hintFulfillmentOrders,
  requestOnlineLocationsRead,
  requestRoutingRead,
} from "../routing/kinds.server";
import { requestFulfillmentRequests } from "../service/kinds.server";
import { wakeWorker } from "../work/worker.server";
import { receiveWebhook } from "./receive.server";

/** The fulfillment order topics the app subscribes to (shopify.app.toml), each asking for a read. */
export const FULFILLMENT_ORDER_TOPICS = [
  "fulfillment_orders/order_routing_complete",
  "fulfillment_orders/moved",
  "fulfillment_orders/placed_on_hold",
  "fulfillment_orders/hold_released",
  "fulfillment_orders/split",
  "fulfillment_orders/merged",
  "fulfillment_orders/cancelled",
  "fulfillment_orders/rescheduled",
  "fulfillment_orders/scheduled_fulfillment_order_ready",
  "fulfillment_orders/fulfillment_request_submitted",
  "fulfillment_orders/cancellation_request_submitted",
] as const;

/** The topics that are requests to a fulfillment service: the service mode's read is asked for too. */
export const FULFILLMENT_REQUEST_TOPICS: readonly string[] = [
  "fulfillment_orders/fulfillment_request_submitted",
  "fulfillment_orders/cancellation_request_submitted",
];

export const LOCATION_TOPICS = [
  "locations/create",
  "locations/update",
  "locations/activate",
  "locations/deactivate",
  "locations/delete",
] as const;

/** Any JSON object: the body is not used (the read is), only its being Shopify's signed object. */
const anyObject = z.looseObject({});

function unexpectedTopic(topic: string, route: string): Response {
  return Response.json({ error: `The topic ${topic} is not one ${route} takes.` }, { status: 400 });
}

export async function fulfillmentOrderWebhookAction({ request }: ActionFunctionArgs): Promise<Response> {
  const { shop, topic, payload } = await receiveWebhook(request, anyObject);
  if (!(FULFILLMENT_ORDER_TOPICS as readonly string[]).includes(topic))
    return unexpectedTopic(topic, "/webhooks/fulfillment_orders");
  const { db, clock, log } = appContext();
  const now = clock();
  await hintFulfillmentOrders(db, shop, fulfillmentOrderIdsIn(payload), now);
  await requestRoutingRead(db, shop, "webhook", now);
  // A request to the app's fulfillment service: the service mode's read and answers too (app/service/).
  if (FULFILLMENT_REQUEST_TOPICS.includes(topic)) await requestFulfillmentRequests(db, shop, now);
  log.debug({ shop, event: "webhook.fulfillment_order", topic }, "fulfillment orders to be read");
  wakeWorker(shop, "due_now");
  return new Response(null, { status: 200 });
}

export async function locationWebhookAction({ request }: ActionFunctionArgs): Promise<Response> {
  const { shop, topic } = await receiveWebhook(request, anyObject);
  if (!(LOCATION_TOPICS as readonly string[]).includes(topic))
    return unexpectedTopic(topic, "/webhooks/locations");
  const { db, clock } = appContext();
  await requestOnlineLocationsRead(db, shop, clock());
  wakeWorker(shop, "due_now");
  return new Response(null, { status: 200 });
}
