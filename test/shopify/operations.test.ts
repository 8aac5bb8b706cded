// Every `#graphql` operation in app/ must be valid against the real Admin schema of our API version, so an
// operation Shopify would refuse fails here rather than in a merchant's store.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateAdminOperation } from "../shopify-fake";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "types" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

const operations = sourceFiles("app").flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/`#graphql([\s\S]*?)`/g)].map((match) => ({
    file,
    name: /(?:query|mutation)\s+(\w+)/.exec(match[1]!)?.[1] ?? "(anonymous)",
    source: match[1]!,
  })),
);

describe("Admin GraphQL operations in app/", () => {
  it("are found (the extraction itself works)", () => {
    expect(operations.map((operation) => operation.name)).toContain("ShopFacts");
  });

  it.each(operations.map((operation) => [`${operation.name} in ${operation.file}`, operation] as const))(
    "%s is valid against the real schema",
    (_, operation) => {
      expect(validateAdminOperation(operation.source).map((error) => error.message)).toEqual([]);
    },
  );

  it("refuses an operation the real schema refuses (the check is not a formality)", () => {
    const errors = validateAdminOperation("query Broken { shop { name inventoryPolicy } }");
    expect(errors.map((error) => error.message).join()).toMatch(/inventoryPolicy/);
  });
});
