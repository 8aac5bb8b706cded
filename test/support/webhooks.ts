// Sends a Shopify webhook the way Shopify does: the topic's subscription is looked up in shopify.app.toml,
// the body signed with HMAC-SHA256 under the app secret, and the request given to the real route action.
import { createHmac, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
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
    application_url: string;
    access_scopes: { scopes: string };
    app_proxy: { url: string; subpath: string; prefix: string };
    webhooks: { api_version: string; subscriptions: Subscription[] };
  };
}

/**
 * The route file that serves a URI, by Remix's flat-route convention (`webhooks.orders.create.tsx`; a
 * `$name` part matches any one segment, as in `warehouse.notify.$token.tsx`), with the params it gives.
 * A URI no file serves gets the file the convention names, so importing it fails with that name.
 */
export function routeFor(uri: string): { file: string; params: Record<string, string> } {
  const segments = uri.replace(/^\//, "").split("/");
  const named = `${segments.join(".")}.tsx`;
  // Read once: the route servers ask for every request, and the files do not change under a run.
  routeFiles ??= readdirSync(ROUTES).filter((file) => file.endsWith(".tsx"));
  if (routeFiles.includes(named)) return { file: path.join(ROUTES, named), params: {} };
  for (const name of routeFiles) {
    const parts = name.slice(0, -".tsx".length).split(".");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (!part.startsWith("$")) return part === segments[i];
      params[part.slice(1)] = decodeURIComponent(segments[i]!);
      return segments[i] !== "";
    });
    if (matches) return { file: path.join(ROUTES, name), params };
  }
  return { file: path.join(ROUTES, named), params: {} };
}

const ROUTES = path.join("app", "routes");
let routeFiles: string[] | undefined;

/** The route file that serves a webhook URI. */
export function routeFileFor(uri: string): string {
  return routeFor(uri).file;
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
