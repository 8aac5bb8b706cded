// Every `#graphql` operation in app/ must be valid against the real Admin schema of our API version, so an
// operation Shopify would refuse fails here rather than in a merchant's store.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  getNamedType,
  isCompositeType,
  Kind,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { describe, expect, it } from "vitest";
import { ADMIN_SCHEMA_PATH } from "../../scripts/admin-schema-path";
import { adminSchema, validateAdminOperation } from "../shopify-fake";
import { appToml } from "../support/webhooks";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "types" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

// A template's `${…}` is a fragment's text appended at run time (app/routing/fields.ts): codegen drops it and
// finds the fragment by name across app/, and so does this test.
const templates = sourceFiles("app").flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/`#graphql([\s\S]*?)`/g)].map((match) => ({
    file,
    source: match[1]!.replace(/\$\{[^}]*\}/g, ""),
  })),
);

const fragments = new Map(
  templates.flatMap(({ source }) =>
    parse(source).definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION
        ? [[definition.name.value, print(definition)] as const]
        : [],
    ),
  ),
);

/** The operation's text with the fragments it spreads (and theirs) that it does not define itself. */
function withFragments(source: string): string {
  const defined = new Set(
    parse(source).definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])),
  );
  let text = source;
  for (let added = true; added;) {
    added = false;
    for (const [, name] of text.matchAll(/\.\.\.\s*(\w+)/g)) {
      if (name === "on" || defined.has(name!) || !fragments.has(name!)) continue;
      defined.add(name!);
      text += `\n${fragments.get(name!)}`;
      added = true;
    }
  }
  return text;
}

const operations = templates
  .filter(({ source }) => /(?:query|mutation)\s+\w+/.test(source))
  .map(({ file, source }) => ({
    file,
    name: /(?:query|mutation)\s+(\w+)/.exec(source)?.[1] ?? "(anonymous)",
    source: withFragments(source),
  }));

describe("Admin GraphQL operations in app/", () => {
  it("are found (the extraction itself works)", () => {
    expect(operations.map((operation) => operation.name)).toContain("ShopFacts");
  });

  it("are given the fragments they spread, defined in another template", () => {
    const page = operations.find((operation) => operation.name === "RoutingFulfillmentOrderNodes");
    expect(page?.source).toContain("fragment RoutingFulfillmentOrder on FulfillmentOrder");
    expect(page?.source).toContain("fragment RoutingFulfillmentOrderLine on FulfillmentOrderLineItem");
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

/** `requiredAccess` of every field that names one, by `Type.field`: the introspection keeps it, graphql-js drops it. */
function requiredAccessByField(): Map<string, string> {
  const raw = JSON.parse(readFileSync(ADMIN_SCHEMA_PATH, "utf8")) as {
    data: {
      __schema: {
        types: Array<{ name: string; fields?: Array<{ name: string; requiredAccess?: string }> | null }>;
      };
    };
  };
  const access = new Map<string, string>();
  for (const type of raw.data.__schema.types) {
    for (const field of type.fields ?? [])
      if (field.requiredAccess) access.set(`${type.name}.${field.name}`, field.requiredAccess);
  }
  return access;
}

describe("the access scopes in shopify.app.toml", () => {
  it("cover every field the operations in app/ select, as the schema states its required access", () => {
    const granted = new Set(appToml().access_scopes.scopes.split(","));
    // A write_ scope includes its read_ scope.
    for (const scope of [...granted])
      if (scope.startsWith("write_")) granted.add(scope.replace(/^write_/, "read_"));
    const access = requiredAccessByField();
    const schema = adminSchema();
    const missing: string[] = [];
    for (const operation of operations) {
      const typeInfo = new TypeInfo(schema);
      visit(
        parse(operation.source),
        visitWithTypeInfo(typeInfo, {
          Field(node) {
            const parent = typeInfo.getParentType();
            const named = parent && getNamedType(parent);
            if (!named || !isCompositeType(named)) return;
            const required = access.get(`${named.name}.${node.name.value}`);
            // The scopes named before "Also:" are alternatives ("`a` access scope or `b` access scope").
            const scopes = [...(required?.split("Also:")[0] ?? "").matchAll(/`([a-z_]+)`/g)].map(
              (m) => m[1]!,
            );
            if (scopes.length > 0 && !scopes.some((scope) => granted.has(scope))) {
              missing.push(
                `${operation.name}: ${named.name}.${node.name.value} needs one of ${scopes.join(", ")}`,
              );
            }
          },
        }),
      );
    }
    expect(missing).toEqual([]);
  });
});
