// The theme app extension's files agree with the app and with themselves: the script writes exactly the cart
// attributes the order mapping reads, the script Shopify is given is the build of its source and within
// Shopify's limit, every text a block asks for exists in both languages, and the schema texts are
// translated too.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as cartAttributes from "../../app/reference/cart-attributes";
import { TokenBuckets } from "../../app/http/token-buckets";
import {
  APP_BLOCK_SCRIPT_LIMIT_BYTES,
  buildPicker,
  PICKER_SHIPPED,
  PICKER_SOURCE,
} from "../../scripts/picker-build";

const EXTENSION = "extensions/branch-picker";
const read = (file: string) => readFileSync(path.join(EXTENSION, file), "utf8");
type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe("the branch picker extension", () => {
  it("writes exactly the cart attributes app/reference/cart-attributes.ts names", () => {
    const script = readFileSync(PICKER_SOURCE, "utf8");
    const block = /const ATTRIBUTES = \{([\s\S]*?)\};/.exec(script)?.[1] ?? "";
    const written = [...block.matchAll(/"(_[a-z_]+)"/g)].map((match) => match[1]).sort();
    const named = Object.entries(cartAttributes)
      .filter(([name]) => name.endsWith("_ATTRIBUTE"))
      .map(([, value]) => value as string)
      .sort();
    expect(written).toEqual(named);
    const types = /const TYPES = (\[[^\]]*\]);/.exec(script)?.[1] ?? "[]";
    expect(JSON.parse(types)).toEqual([...cartAttributes.DELIVERY_TYPES]);
  });

  it("ships the build of its source, within Shopify's limit for an app block's script", async () => {
    const shipped = readFileSync(PICKER_SHIPPED, "utf8");
    // A change to the source without `npm run build:picker` ships the old script.
    expect(shipped === (await buildPicker()), `${PICKER_SHIPPED}: run npm run build:picker`).toBe(true);
    expect(Buffer.byteLength(shipped)).toBeLessThanOrEqual(APP_BLOCK_SCRIPT_LIMIT_BYTES);
    for (const block of ["cart-branch.liquid", "product-branch.liquid"]) {
      expect(read(`blocks/${block}`)).toContain(`"javascript": "${path.basename(PICKER_SHIPPED)}"`);
    }
  });

  it("has every storefront and schema text in English and Ukrainian", () => {
    const storefront = (name: string) => keys(JSON.parse(read(`locales/${name}`)) as Tree).sort();
    expect(storefront("uk.json")).toEqual(storefront("en.default.json"));
    expect(storefront("uk.schema.json")).toEqual(storefront("en.default.schema.json"));

    const liquid = ["snippets", "blocks"].flatMap((folder) =>
      readdirSync(path.join(EXTENSION, folder)).map((file) => read(`${folder}/${file}`)),
    );
    const asked = liquid.flatMap((source) => [...source.matchAll(/'([\w.]+)' \| t\b/g)].map((m) => m[1]!));
    expect(asked.length).toBeGreaterThan(20);
    for (const key of asked) expect(storefront("en.default.json"), key).toContain(key);
    const schemaAsked = liquid.flatMap((source) => [...source.matchAll(/"t:([\w.]+)"/g)].map((m) => m[1]!));
    expect(schemaAsked.length).toBeGreaterThan(0);
    for (const key of schemaAsked) expect(storefront("en.default.schema.json"), key).toContain(key);
  });
});

describe("TokenBuckets", () => {
  it("refills at its rate up to the capacity and says when the next token comes", () => {
    const buckets = new TokenBuckets({ capacity: 2, refillPerSecond: 0.5, maxKeys: 10 });
    expect(buckets.take("a", 0)).toEqual({ ok: true });
    expect(buckets.take("a", 0)).toEqual({ ok: true });
    expect(buckets.take("a", 0)).toEqual({ ok: false, retryAfterSeconds: 2 });
    expect(buckets.take("a", 1_000)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(buckets.take("a", 2_000)).toEqual({ ok: true });
    // Long idle: back to the capacity, not beyond.
    expect(buckets.take("a", 1_000_000)).toEqual({ ok: true });
    expect(buckets.take("a", 1_000_000)).toEqual({ ok: true });
    expect(buckets.take("a", 1_000_000).ok).toBe(false);
  });

  it("keeps at most maxKeys buckets, dropping the least recently seen", () => {
    const buckets = new TokenBuckets({ capacity: 1, refillPerSecond: 0.001, maxKeys: 3 });
    for (const key of ["a", "b", "c"]) buckets.take(key, 0);
    expect(buckets.take("a", 0).ok).toBe(false); // "a" seen again: now the most recent
    buckets.take("d", 0); // drops "b"
    expect(buckets.size).toBe(3);
    expect(buckets.take("b", 0).ok).toBe(true); // a fresh bucket; drops "c"
    expect(buckets.take("a", 0).ok).toBe(false);
    expect(buckets.size).toBe(3);
  });
});
