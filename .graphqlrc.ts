// Codegen for the named `#graphql` operations in app/, typed against the real Admin schema of
// ADMIN_API_VERSION (cached by scripts/fetch-admin-schema.ts) instead of the preset's online address.
import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";
import { ADMIN_API_VERSION } from "./app/api-version";
import { ADMIN_SCHEMA_PATH } from "./scripts/admin-schema-path";

const project = shopifyApiProject({
  apiType: ApiType.Admin,
  apiVersion: ADMIN_API_VERSION,
  documents: ["./app/**/*.{js,ts,jsx,tsx}"],
  outputDir: "./app/types",
});

const codegen = project.extensions?.codegen;
if (!codegen) throw new Error("@shopify/api-codegen-preset returned no codegen extension");

// The preset would also copy the schema into app/types; the cache already holds it, so that output is dropped.
const generates = Object.fromEntries(
  Object.entries(codegen.generates as Record<string, object>)
    .filter(([file]) => !file.endsWith(".schema.json"))
    .map(([file, target]) => [file, { ...target, schema: ADMIN_SCHEMA_PATH }]),
);

export default {
  schema: ADMIN_SCHEMA_PATH,
  documents: project.documents,
  extensions: { codegen: { ...codegen, generates } },
};
