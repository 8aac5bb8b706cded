// The one place the Shopify Admin API version is written. shopify.server.ts, the codegen config,
// the schema fetch and shopify.app.toml (checked by test/config/api-version.test.ts) follow it.
export const ADMIN_API_VERSION = "2026-10" as const;
