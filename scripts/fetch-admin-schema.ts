// Obtains the real Shopify Admin GraphQL schema (introspection JSON) for ADMIN_API_VERSION from the npm
// package @shopify/dev-mcp, which ships it, so codegen, the operation checks and the Shopify fake all use
// the schema Shopify serves. Needs nothing but the npm registry; the result is cached and git-ignored.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { ADMIN_API_VERSION } from "../app/api-version";
import { ADMIN_SCHEMA_PATH, DEV_MCP_PACKAGE } from "./admin-schema-path";

function fetchAdminSchema(): void {
  if (existsSync(ADMIN_SCHEMA_PATH)) return;
  const work = mkdtempSync(path.join(tmpdir(), "admin-schema-"));
  try {
    console.log(`Fetching the Admin GraphQL schema ${ADMIN_API_VERSION} from ${DEV_MCP_PACKAGE}...`);
    const tarball = execFileSync("npm", ["pack", DEV_MCP_PACKAGE, "--silent", "--pack-destination", work], {
      encoding: "utf8",
    }).trim();
    const member = `package/dist/data/admin_${ADMIN_API_VERSION}.json.gz`;
    execFileSync("tar", ["-xzf", path.join(work, tarball.split("\n").pop()!), "-C", work, member]);
    const json = gunzipSync(readFileSync(path.join(work, member))).toString("utf8");
    const parsed = JSON.parse(json) as { data?: { __schema?: unknown } };
    if (!parsed.data?.__schema) throw new Error(`${member} is not an introspection result`);
    mkdirSync(path.dirname(ADMIN_SCHEMA_PATH), { recursive: true });
    const partial = `${ADMIN_SCHEMA_PATH}.partial`;
    writeFileSync(partial, json);
    renameSync(partial, ADMIN_SCHEMA_PATH);
    console.log(`Wrote ${path.relative(process.cwd(), ADMIN_SCHEMA_PATH)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

fetchAdminSchema();
