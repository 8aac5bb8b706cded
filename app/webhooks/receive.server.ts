// The edge every Shopify webhook route goes through: the library verifies the HMAC (401 when wrong), then
// the payload must be JSON and match the topic's zod schema, else 400 with what was wrong and no change.
import { z } from "zod";
import { authenticate } from "../shopify.server";

function badRequest(message: string): Response {
  return Response.json({ error: message }, { status: 400 });
}

/** Far above any real order (Shopify's largest payloads are a few hundred KB), far below harm. */
export const MAX_WEBHOOK_BYTES = 4 * 1024 * 1024;

export async function receiveWebhook<Schema extends z.ZodType>(request: Request, payloadSchema: Schema) {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_WEBHOOK_BYTES) {
    throw Response.json(
      { error: `The webhook body is ${length} bytes; at most ${MAX_WEBHOOK_BYTES} are accepted.` },
      { status: 413 },
    );
  }
  let context: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    context = await authenticate.webhook(request);
  } catch (error) {
    // The library parses the body only after the signature checked out, and lets a JSON error escape.
    if (error instanceof SyntaxError) throw badRequest("The webhook body is not valid JSON.");
    throw error;
  }
  // The header's spelling (orders/create) is the one merchants and Shopify's documentation use.
  const topicName = request.headers.get("x-shopify-topic") ?? String(context.topic);
  const parsed = payloadSchema.safeParse(context.payload);
  if (!parsed.success) {
    throw badRequest(`The ${topicName} payload is not what Shopify sends:\n${z.prettifyError(parsed.error)}`);
  }
  return {
    shop: context.shop,
    topic: String(context.topic),
    webhookId: context.webhookId,
    eventId: context.eventId,
    payload: parsed.data as z.infer<Schema>,
  };
}

/** Shopify ids arrive as JSON numbers (sometimes beyond 2^53 in string form); we keep them as strings. */
export const shopifyId = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)])
  .transform(String);

const customer = z.object({
  id: shopifyId,
  email: z.string().nullish(),
  phone: z.string().nullish(),
});

export const customersDataRequestPayload = z.object({
  shop_domain: z.string(),
  customer,
  orders_requested: z.array(shopifyId).default([]),
  data_request: z.object({ id: shopifyId }),
});

export const customersRedactPayload = z.object({
  shop_domain: z.string(),
  customer,
  orders_to_redact: z.array(shopifyId).default([]),
});

export const shopRedactPayload = z.object({ shop_domain: z.string() });

export const scopesUpdatePayload = z.object({
  current: z.array(z.string()),
  previous: z.array(z.string()).optional(),
});

/** app/uninstalled carries the shop object; nothing in it is needed, so any JSON object is accepted. */
export const appUninstalledPayload = z.looseObject({});
