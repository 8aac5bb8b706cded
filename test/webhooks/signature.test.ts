import { shopifyApi, ApiVersion } from "@shopify/shopify-api";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
// The library reads a Fetch Request (as the app gives it one) through its web adapter.
import "@shopify/shopify-api/adapters/web-api";
import { describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/api-version";
import { checkWebhookSignature } from "../../app/webhooks/signature.server";
import { signedWebhookRequest, type WebhookOptions } from "../support/webhooks";

const shop = "signature.myshopify.com";
// The library's own check, which checkWebhookSignature must agree with on every delivery.
const library = shopifyApi({
  apiKey: API_KEY,
  apiSecretKey: API_SECRET_KEY,
  apiVersion: Object.values(ApiVersion).find((version) => version === ADMIN_API_VERSION)!,
  hostName: "sklad-sync.test",
  isEmbeddedApp: true,
  logger: { level: 0 },
});

async function bothChecks(options: Partial<WebhookOptions> = {}, edit?: (request: Request) => Request) {
  let request = signedWebhookRequest({
    topic: "orders/create",
    shop,
    payload: { id: 1, name: "#1" },
    ...options,
  });
  if (edit) request = edit(request);
  const body = await request.clone().text();
  const ours = checkWebhookSignature(body, request.headers, API_SECRET_KEY);
  const theirs = await library.webhooks.validate({ rawBody: body, rawRequest: request });
  return { ours, theirs };
}

function withHeaders(request: Request, change: (headers: Headers) => void, body?: string): Request {
  const headers = new Headers(request.headers);
  change(headers);
  return new Request(request.url, {
    method: "POST",
    headers,
    body: body ?? request.body,
    duplex: "half",
  } as RequestInit);
}

describe("checkWebhookSignature", () => {
  it("accepts a signed delivery and reads its shop, topic and ids from the headers", async () => {
    const { ours, theirs } = await bothChecks({ eventId: "event-1", webhookId: "hook-1" });
    expect(theirs.valid).toBe(true);
    expect(ours).toMatchObject({
      ok: true,
      shop,
      topic: "orders/create",
      webhookId: "hook-1",
      eventId: "event-1",
    });
  });

  it("accepts a body in bytes as well as text, signed over its UTF-8", async () => {
    const request = signedWebhookRequest({ topic: "orders/create", shop, payload: { name: "Чашка" } });
    const bytes = new Uint8Array(await request.arrayBuffer());
    expect(checkWebhookSignature(bytes, request.headers, API_SECRET_KEY).ok).toBe(true);
  });

  it("refuses with 401 a body signed with another secret, as the library does", async () => {
    const { ours, theirs } = await bothChecks({ secret: "not-the-app-secret" });
    expect(theirs.valid).toBe(false);
    expect(ours).toEqual({ ok: false, status: 401, reason: "invalid_hmac" });
  });

  it("refuses with 401 a body changed after it was signed", async () => {
    const { ours, theirs } = await bothChecks({}, (request) =>
      withHeaders(request, () => undefined, JSON.stringify({ id: 2, name: "#1" })),
    );
    expect(theirs.valid).toBe(false);
    expect(ours).toMatchObject({ ok: false, status: 401 });
  });

  it("refuses with 401 a signature that is not base64 of 32 bytes, without throwing", async () => {
    for (const hmac of ["", "abc", "AAAA".repeat(20), "not base64 at all!"]) {
      const { ours, theirs } = await bothChecks({ hmac });
      expect(theirs.valid).toBe(false);
      expect(ours).toMatchObject({ ok: false, status: 401 });
    }
  });

  it("refuses with 400 a signed delivery missing a header the library requires, naming it", async () => {
    for (const name of [
      "X-Shopify-Topic",
      "X-Shopify-Shop-Domain",
      "X-Shopify-API-Version",
      "X-Shopify-Webhook-Id",
    ]) {
      const { ours, theirs } = await bothChecks({}, (request) =>
        withHeaders(request, (headers) => headers.delete(name)),
      );
      expect(theirs).toMatchObject({ valid: false, reason: "missing_headers" });
      expect(ours).toEqual({
        ok: false,
        status: 400,
        reason: "missing_headers",
        missingHeaders: [name.toLowerCase()],
      });
    }
  });

  it("takes a delivery without an event id (older API versions) with eventId null", async () => {
    const { ours, theirs } = await bothChecks({}, (request) =>
      withHeaders(request, (headers) => headers.delete("X-Shopify-Event-Id")),
    );
    expect(theirs.valid).toBe(true);
    expect(ours).toMatchObject({ ok: true, eventId: null });
  });
});
