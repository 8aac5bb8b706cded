// The three order webhooks share one edge: verify, parse, record the order, answer. The warehouse is
// never called from here; the worker is woken to send what became due.
import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { takeInOrderWebhook, type OrderTopic } from "../orders/intake.server";
import { shopifyOrderSchema, type ShopifyOrder } from "../orders/payload";
import { wakeWorker } from "../work/worker.server";
import { receiveWebhook } from "./receive.server";

/**
 * The topic intake acts on. A cancellation rests on the signed `cancelled_at`, not on the route it came
 * by (the route is in the unsigned URL): an orders/cancelled whose body says nothing of a cancellation is
 * taken in as an update.
 */
export function topicToApply(topic: OrderTopic, order: ShopifyOrder): OrderTopic {
  return topic === "orders/cancelled" && !order.cancelled_at ? "orders/updated" : topic;
}

export function orderWebhookAction(topic: OrderTopic) {
  return async ({ request }: ActionFunctionArgs) =>
    takeInOrderDelivery(topic, await receiveWebhook(request, shopifyOrderSchema));
}

/**
 * An order delivery once verified and parsed, taken in: the one intake path of both the Remix routes and
 * the bare edge (app/webhooks/order-edge.server.ts). Answers the response to send.
 */
export async function takeInOrderDelivery(
  topic: OrderTopic,
  received: { shop: string; eventId: string | null; webhookId: string; payload: ShopifyOrder },
): Promise<Response> {
  const { shop, eventId, webhookId, payload } = received;
  // Shopify sends both; a redelivery keeps the event id (and the webhook id), a new event changes both.
  const deliveryId = eventId ?? webhookId;
  if (!deliveryId) {
    return Response.json({ error: "The X-Shopify-Event-Id header is missing." }, { status: 400 });
  }
  const context = appContext();
  const applied = topicToApply(topic, payload);
  if (applied !== topic) {
    context.log.warn(
      { shop, event: "order.cancel_unsigned", topic, shopifyOrderId: payload.id },
      "orders/cancelled without cancelled_at in its body; taken in as an update, not a cancellation",
    );
  }
  await takeInOrderWebhook(
    { ...context, wake: wakeWorker },
    { shop, topic: applied, eventId: deliveryId, order: payload },
  );
  return new Response(null, { status: 200 });
}
