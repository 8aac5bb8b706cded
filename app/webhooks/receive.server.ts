// The edge every Shopify webhook route goes through: the body is read up to a limit (413 past it), its
// HMAC is verified over those bytes (401 when wrong), then the payload must be JSON and match the topic's zod
// schema, else 400 with what was wrong and no change. A signed body refused here is logged and counted
// for the merchant, because Shopify gives up on it after its retries.
import { z } from "zod";
import { appContext } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import { env } from "../env.server";
import { readBodyWithin } from "../http/body.server";
import { checkWebhookSignature, type WebhookHeaders } from "./signature.server";

function badRequest(message: string): Response {
  return Response.json({ error: message }, { status: 400 });
}

const textDecoder = new TextDecoder();

/** Far above any real order (Shopify's largest payloads are a few hundred KB), far below harm. */
export const MAX_WEBHOOK_BYTES = 4 * 1024 * 1024;

/** Counts a signed webhook that was refused, where the merchant sees it (see WebhookRefusal). */
export async function countRefusedWebhook(db: Db, shop: string, topic: string, at: Date): Promise<void> {
  await db.webhookRefusal.upsert({
    where: { shop_topic: { shop, topic } },
    create: { shop, topic, count: 1, firstAt: at, lastAt: at },
    update: { count: { increment: 1 }, lastAt: at },
  });
}

/** How long a refusal stays shown to the merchant: long enough to be seen, not for ever. */
export const REFUSALS_SHOWN_FOR_MS = 30 * 24 * 3600_000;

/** The order webhooks refused for a shop lately: how many, and when the last one came (null if none). */
export async function recentOrderRefusals(
  db: Db,
  shop: string,
  now: Date,
): Promise<{ count: number; lastAt: Date } | null> {
  const rows = await db.webhookRefusal.findMany({
    where: {
      shop,
      topic: { startsWith: "orders/" },
      lastAt: { gte: new Date(now.getTime() - REFUSALS_SHOWN_FOR_MS) },
    },
    select: { count: true, lastAt: true },
  });
  if (rows.length === 0) return null;
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    lastAt: new Date(Math.max(...rows.map((row) => row.lastAt.getTime()))),
  };
}

/**
 * A signed body that cannot be taken in: Shopify retries it, then drops it, and whatever it carried is
 * lost. Logged at error level (topic and shop only: the body may hold a customer's data) and counted.
 */
async function refuseSigned(
  deps: { db: Db; log: Log; clock: () => Date },
  refusal: { shop: string; topic: string; reason: string; fields?: string[] },
  message: string,
): Promise<never> {
  deps.log.error(
    {
      shop: refusal.shop,
      event: "webhook.refused",
      topic: refusal.topic,
      reason: refusal.reason,
      // Where the body went wrong, never what it held.
      ...(refusal.fields && { fields: refusal.fields }),
    },
    "signed webhook refused: its body cannot be taken in",
  );
  await countRefusedWebhook(deps.db, refusal.shop, refusal.topic, deps.clock());
  throw badRequest(message);
}

/** A shop's myshopify domain, or the one extra domain the environment allows (Shopify staff shops). */
function isShopDomain(shop: string): boolean {
  const custom = env().SHOP_CUSTOM_DOMAIN;
  return /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop) || (custom !== undefined && shop === custom);
}

/**
 * Verifies a webhook and parses its body: the signature over the bytes read within the limit (401 when
 * wrong), Shopify's headers (400 when missing), then a JSON object matching the topic's schema. Checked
 * here rather than by the library's `authenticate.webhook`, which also loads (and may refresh over the
 * network) the shop's offline session for every delivery: no webhook uses it, and it was a third of an
 * order webhook's CPU (docs/benchmarks.md).
 */
export async function receiveWebhook<Schema extends z.ZodType>(request: Request, payloadSchema: Schema) {
  const body = await readBodyWithin(request, MAX_WEBHOOK_BYTES, "webhook");
  return verifyWebhook(body, request.headers, payloadSchema);
}

/**
 * What receiveWebhook does once the body is read, shared with the bare edge of the order webhooks
 * (app/webhooks/order-edge.server.ts), so both take a delivery in by the same checks: the signature
 * (401), the headers (400), the shop's domain, then a JSON object matching the schema (400, counted).
 */
export async function verifyWebhook<Schema extends z.ZodType>(
  body: Uint8Array,
  headers: WebhookHeaders,
  payloadSchema: Schema,
) {
  const check = checkWebhookSignature(body, headers, env().SHOPIFY_API_SECRET);
  if (!check.ok) {
    throw check.status === 401
      ? new Response("Unauthorized", { status: 401 })
      : Response.json(
          { error: `The webhook is missing the headers ${check.missingHeaders.join(", ")}.` },
          { status: 400 },
        );
  }
  if (!isShopDomain(check.shop)) throw badRequest("The X-Shopify-Shop-Domain header is not a shop's domain.");
  // The header's spelling (orders/create) is the one merchants and Shopify's documentation use.
  const topicName = check.topic;
  let payload: unknown;
  try {
    payload = JSON.parse(textDecoder.decode(body));
  } catch {
    await refuseSigned(
      appContext(),
      { shop: check.shop, topic: topicName, reason: "not_json" },
      "The webhook body is not valid JSON.",
    );
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    await refuseSigned(
      appContext(),
      { shop: check.shop, topic: topicName, reason: "not_an_object" },
      `The ${topicName} body is not a JSON object.`,
    );
  }
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) {
    await refuseSigned(
      appContext(),
      {
        shop: check.shop,
        topic: topicName,
        reason: "schema",
        fields: parsed.error.issues.map((issue) => issue.path.join(".") || "(body)"),
      },
      `The ${topicName} payload is not what Shopify sends:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return {
    shop: check.shop,
    topic: topicName,
    webhookId: check.webhookId,
    eventId: check.eventId,
    payload: parsed.data as z.infer<Schema>,
  };
}

/**
 * For the topics whose body names the shop (the compliance ones): the signed body's shop must be the
 * header's, else a delivery for one shop could act on another (400, nothing changes).
 */
export function requireSameShop(headerShop: string, bodyShop: string, topic: string): void {
  if (bodyShop.trim().toLowerCase() !== headerShop.trim().toLowerCase()) {
    throw badRequest(
      `The ${topic} body names the shop ${bodyShop}, but the delivery came for ${headerShop}; nothing was changed.`,
    );
  }
}

/**
 * Shopify ids arrive as JSON numbers (sometimes beyond 2^53, already rounded by JSON.parse) or digit
 * strings; we keep them as digit strings. Not z.number().int(): zod's int stops at 2^53.
 */
export const shopifyId = z
  .union([
    z.number().refine((id) => Number.isInteger(id) && id >= 0, "must be a whole number"),
    z.string().regex(/^\d+$/),
  ])
  .transform((id) => (typeof id === "number" ? BigInt(id).toString() : id));

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

/**
 * app/uninstalled carries the shop object; only its myshopify_domain matters (it must be the header's
 * shop when present), so any JSON object is accepted.
 */
export const appUninstalledPayload = z.looseObject({
  myshopify_domain: z.string().nullish().catch(undefined),
});
