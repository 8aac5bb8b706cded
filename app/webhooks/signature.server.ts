// A Shopify webhook's signature and headers, checked as the library does but without what the library's
// `authenticate.webhook` adds: it loads (and may refresh over the network) the shop's offline session for
// every delivery, which no webhook route of ours uses. Measured, that lookup and the library's header
// handling were a third of an order webhook's CPU (bench/intake-parts.ts).
import { createHmac, timingSafeEqual } from "node:crypto";

/** The headers every Shopify webhook delivery carries, as the library requires them. */
export const REQUIRED_WEBHOOK_HEADERS = [
  "x-shopify-hmac-sha256",
  "x-shopify-topic",
  "x-shopify-shop-domain",
  "x-shopify-api-version",
  "x-shopify-webhook-id",
] as const;

/** A request's headers as the check reads them: a Fetch `Headers`, or the bare edge's view of Node's. */
export type WebhookHeaders = Pick<Headers, "get">;

export type WebhookSignatureCheck =
  | {
      ok: true;
      shop: string;
      /** As Shopify spells it in the header: `orders/create`. */
      topic: string;
      apiVersion: string;
      webhookId: string;
      /** Shared by a delivery and its redeliveries; absent from older API versions. */
      eventId: string | null;
      triggeredAt: string | null;
    }
  | { ok: false; status: 401; reason: "invalid_hmac" }
  | { ok: false; status: 400; reason: "missing_headers"; missingHeaders: string[] };

/**
 * Checks that `rawBody` (the bytes as received) was signed with `secret`, and that the delivery's
 * headers are all there. A wrong signature answers 401 and a missing header 400, as the library does.
 */
export function checkWebhookSignature(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): WebhookSignatureCheck {
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(headers.get("x-shopify-hmac-sha256") ?? "", "base64");
  // timingSafeEqual throws on a length mismatch; a signature of the wrong length is simply wrong.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, status: 401, reason: "invalid_hmac" };
  }
  const missingHeaders = REQUIRED_WEBHOOK_HEADERS.filter((name) => !headers.get(name));
  if (missingHeaders.length) return { ok: false, status: 400, reason: "missing_headers", missingHeaders };
  return {
    ok: true,
    shop: headers.get("x-shopify-shop-domain")!,
    topic: headers.get("x-shopify-topic")!,
    apiVersion: headers.get("x-shopify-api-version")!,
    webhookId: headers.get("x-shopify-webhook-id")!,
    eventId: headers.get("x-shopify-event-id") || null,
    triggeredAt: headers.get("x-shopify-triggered-at") || null,
  };
}
