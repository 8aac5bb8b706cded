// Shopify's token exchange (POST /admin/oauth/access_token), as the app's embedded auth uses it on install:
// checks the app's credentials and the session token's HS256 signature and destination, then issues the
// shop a new access token that the Admin API endpoint accepts from then on.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FakeState } from "./state";

export interface FakeApp {
  apiKey: string;
  apiSecretKey: string;
  /** The scopes granted on install, comma-separated, as Shopify answers them. */
  scopes: string;
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

function verifiedClaims(token: string, secret: string): Record<string, unknown> | undefined {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return undefined;
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
}

export function exchangeToken(
  state: FakeState,
  app: FakeApp | undefined,
  shopDomain: string,
  body: unknown,
): { status: number; body: unknown } {
  const invalid = (description: string) => ({
    status: 400,
    body: { error: "invalid_request", error_description: description },
  });
  const request = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const store = state.shop(shopDomain);
  if (!app || !store) return { status: 404, body: { errors: "Not Found" } };
  if (request.client_id !== app.apiKey || request.client_secret !== app.apiSecretKey) {
    return { status: 401, body: { error: "invalid_client" } };
  }
  if (request.grant_type !== TOKEN_EXCHANGE) return invalid("unsupported grant_type");
  const claims =
    typeof request.subject_token === "string"
      ? verifiedClaims(request.subject_token, app.apiSecretKey)
      : undefined;
  if (!claims || claims.dest !== `https://${shopDomain}`) return invalid("the subject token is not valid");

  store.shop.accessToken = `shpat_${randomBytes(16).toString("hex")}`;
  const expiring = request.expiring === "1";
  return {
    status: 200,
    body: {
      access_token: store.shop.accessToken,
      scope: app.scopes,
      ...(expiring && {
        expires_in: 3600,
        refresh_token: `shprt_${randomBytes(16).toString("hex")}`,
        refresh_token_expires_in: 7_776_000,
      }),
    },
  };
}
