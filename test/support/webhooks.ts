// Sends a Shopify webhook the way Shopify does: the topic's subscription is looked up in shopify.app.toml,
// the body signed with HMAC-SHA256 under the app secret, and the request given to the real route action.
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { parse } from "smol-toml";
import { ADMIN_API_VERSION } from "../../app/api-version";

interface Subscription {
  topics?: string[];
  compliance_topics?: string[];
  uri: string;
}

export function appToml() {
  return parse(readFileSync("shopify.app.toml", "utf8")) as unknown as {
    access_scopes: { scopes: string };
    webhooks: { api_version: string; subscriptions: Subscription[] };
  };
}

/** The route file that serves a webhook URI, by Remix's flat-route convention. */
export function routeFileFor(uri: string): string {
  return path.join("app", "routes", `${uri.replace(/^\//, "").replaceAll("/", ".")}.tsx`);
}

export function subscriptionFor(topic: string): Subscription {
  const found = appToml().webhooks.subscriptions.find(
    (subscription) => subscription.topics?.includes(topic) || subscription.compliance_topics?.includes(topic),
  );
  if (!found) throw new Error(`shopify.app.toml has no subscription for ${topic}`);
  return found;
}

export interface WebhookOptions {
  topic: string;
  shop: string;
  payload?: unknown;
  /** Sent as is instead of JSON.stringify(payload), to test malformed bodies. */
  rawBody?: string;
  secret?: string;
  webhookId?: string;
  eventId?: string;
  /** Replaces the computed signature. */
  hmac?: string;
}

export function signedWebhookRequest(options: WebhookOptions): Request {
  const { uri } = subscriptionFor(options.topic);
  const body = options.rawBody ?? JSON.stringify(options.payload ?? {});
  const hmac =
    options.hmac ??
    createHmac("sha256", options.secret ?? API_SECRET_KEY)
      .update(body, "utf8")
      .digest("base64");
  return new Request(new URL(uri, "https://sklad-sync.test"), {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": options.topic,
      "X-Shopify-Shop-Domain": options.shop,
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
      "X-Shopify-Event-Id": options.eventId ?? randomUUID(),
      "X-Shopify-API-Version": ADMIN_API_VERSION,
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
}

/** Delivers the webhook to its route's action; a thrown Response is answered, as Remix does. */
export async function sendWebhook(options: WebhookOptions): Promise<Response> {
  const file = routeFileFor(subscriptionFor(options.topic).uri);
  const route = (await import(/* @vite-ignore */ path.resolve(file))) as {
    action: (args: { request: Request; params: object; context: object }) => Promise<Response>;
  };
  try {
    return await route.action({ request: signedWebhookRequest(options), params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
