// The three order webhooks share one edge: verify, parse, record the order, answer. The warehouse is
// never called from here; the worker is woken to send what became due.
import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { takeInOrderWebhook, type OrderTopic } from "../orders/intake.server";
import { shopifyOrderSchema } from "../orders/payload";
import { wakeWorker } from "../work/worker.server";
import { receiveWebhook } from "./receive.server";

export function orderWebhookAction(topic: OrderTopic) {
  return async ({ request }: ActionFunctionArgs) => {
    const { shop, eventId, webhookId, payload } = await receiveWebhook(request, shopifyOrderSchema);
    // Shopify sends both; a redelivery keeps the event id (and the webhook id), a new event changes both.
    const deliveryId = eventId ?? webhookId;
    if (!deliveryId) {
      return Response.json({ error: "The X-Shopify-Event-Id header is missing." }, { status: 400 });
    }
    await takeInOrderWebhook(
      { ...appContext(), wake: wakeWorker },
      { shop, topic, eventId: deliveryId, order: payload },
    );
    return new Response(null, { status: 200 });
  };
}
