// The Shopify product webhook payloads (products/create, products/update, products/delete; REST-style JSON),
// read into CatalogueVariant. Unlike an order, a product refused here is not lost: its next update or the full
// sync reads it again. So ids and types are strict, and a payload that does not fit changes nothing; only the
// nulls and absences Shopify sends are taken (a variant's sku or barcode null or "", inventory_item_id null),
// and fields not read here are ignored, as every API version adds some.
//
// Webhooks carry the full details of a product's first 100 variants only; `variant_gids` lists them all, and
// a product with more must be read again through GraphQL (readProductVariants).
import { z } from "zod";
import { exactId, graphqlId, numericId } from "../shopify/ids";
import type { CatalogueVariant } from "./card";

/** Shopify's ceiling on a product's variants: a longer list is not Shopify's, and is refused before it is read. */
export const MAX_VARIANTS_PER_PRODUCT = 2048;

const variantList = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_VARIANTS_PER_PRODUCT, `a product has at most ${MAX_VARIANTS_PER_PRODUCT} variants`);

const gid = (type: string, digits: string) => `gid://shopify/${type}/${digits}`;

const variantSchema = z.looseObject({
  id: numericId,
  admin_graphql_api_id: graphqlId.nullish(),
  title: z.string().nullish(),
  sku: z.string().nullish(),
  barcode: z.string().nullish(),
  inventory_item_id: numericId.nullish(),
});

export interface ProductPayload {
  productId: string;
  title: string;
  /** When Shopify last changed the product (null when the payload does not say): orders deliveries. */
  updatedAt: Date | null;
  /** The variants the payload details, with the product's id and title. */
  variants: CatalogueVariant[];
  /** Every variant of the product, detailed or not. */
  variantCount: number;
  /** Some variants are not detailed: read the product again through GraphQL for its cards. */
  truncated: boolean;
}

/** products/create and products/update. */
export const productPayloadSchema = z
  .looseObject({
    id: numericId,
    admin_graphql_api_id: graphqlId.nullish(),
    title: z.string().nullish(),
    updated_at: z.iso.datetime({ offset: true }).nullish(),
    variants: variantList(variantSchema),
    // Each entry's gid, read as its digits by numericId.
    variant_gids: variantList(z.looseObject({ admin_graphql_api_id: numericId })).nullish(),
  })
  .transform((product): ProductPayload => {
    const productId = gid("Product", exactId(product.id, product.admin_graphql_api_id));
    const title = product.title ?? "";
    const variants = product.variants.map((variant): CatalogueVariant => ({
      productId,
      variantId: gid("ProductVariant", exactId(variant.id, variant.admin_graphql_api_id)),
      inventoryItemId: variant.inventory_item_id ? gid("InventoryItem", variant.inventory_item_id) : null,
      tracked: null,
      productTitle: title,
      variantTitle: variant.title ?? "",
      sku: variant.sku ?? null,
      barcode: variant.barcode ?? null,
    }));
    const detailed = new Set(variants.map((variant) => variant.variantId));
    const undetailed = new Set(
      (product.variant_gids ?? [])
        .map((entry) => gid("ProductVariant", entry.admin_graphql_api_id))
        .filter((variantId) => !detailed.has(variantId)),
    );
    return {
      productId,
      title,
      updatedAt: product.updated_at ? new Date(product.updated_at) : null,
      variants,
      variantCount: detailed.size + undetailed.size,
      truncated: undetailed.size > 0,
    };
  });

/**
 * products/delete: the product's id alone, with no gid to correct it, so a JSON number past 2^53 (which
 * JSON.parse has rounded to another id) is refused. Shopify's ids are far below it; its documented examples
 * are not.
 */
export const productDeletePayloadSchema = z
  .looseObject({
    id: z
      .unknown()
      .refine(
        (id) => typeof id !== "number" || id <= Number.MAX_SAFE_INTEGER,
        "is past 2^53, where JSON numbers are rounded, so which product it names is unknown",
      )
      .pipe(numericId),
  })
  .transform(({ id }) => ({ productId: gid("Product", id) }));
