// The three product webhooks share one edge, like the order webhooks: verify, parse, record the SKU map,
// answer. The warehouse is never called from here; the worker is woken to send the cards that became due.
import type { ActionFunctionArgs } from "@remix-run/node";
import { takeInProductDeletion, takeInProductWebhook, type ProductTopic } from "../catalogue/record.server";
import { productDeletePayloadSchema, productPayloadSchema } from "../catalogue/payload";
import { appContext } from "../context.server";
import { wakeWorker } from "../work/worker.server";
import { receiveWebhook } from "./receive.server";

const missingEventId = () =>
  Response.json({ error: "The X-Shopify-Event-Id header is missing." }, { status: 400 });

export function productWebhookAction(topic: Exclude<ProductTopic, "products/delete">) {
  return async ({ request }: ActionFunctionArgs) => {
    const { shop, eventId, webhookId, payload } = await receiveWebhook(request, productPayloadSchema);
    const deliveryId = eventId ?? webhookId;
    if (!deliveryId) return missingEventId();
    const context = appContext();
    if (payload.truncated) {
      context.log.warn(
        {
          shop,
          event: "catalogue.product_truncated",
          productId: payload.productId,
          variants: payload.variantCount,
        },
        "the product webhook details only some of its variants; the others are read by the full catalogue sync",
      );
    }
    await takeInProductWebhook(
      { ...context, wake: wakeWorker },
      { shop, eventId: deliveryId, topic },
      payload,
    );
    return new Response(null, { status: 200 });
  };
}

export async function productDeleteAction({ request }: ActionFunctionArgs) {
  const { shop, eventId, webhookId, payload } = await receiveWebhook(request, productDeletePayloadSchema);
  const deliveryId = eventId ?? webhookId;
  if (!deliveryId) return missingEventId();
  await takeInProductDeletion(
    { ...appContext(), wake: wakeWorker },
    { shop, eventId: deliveryId, topic: "products/delete" },
    payload.productId,
  );
  return new Response(null, { status: 200 });
}
