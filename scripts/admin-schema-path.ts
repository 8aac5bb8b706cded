// Where the cached Admin schema lives, shared by the fetch script, codegen and the tests.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN_API_VERSION } from "../app/api-version";

/** The npm package that ships Shopify's Admin introspection results; pinned so the schema is reproducible. */
export const DEV_MCP_PACKAGE = "@shopify/dev-mcp@1.16.0";

export const ADMIN_SCHEMA_PATH = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  ".cache",
  "shopify",
  `admin-${ADMIN_API_VERSION}.json`,
);
