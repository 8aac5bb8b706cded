// The shop's variants as the catalogue needs them, read through paged GraphQL: the whole shop page by page for
// a full sync (resumable from the cursor of the last page done), or one product when its webhook payload
// left variants out. docs/decisions/010-catalogue-reads-by-pages.md says why pages rather than a bulk query.
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  CatalogueProductVariantsQuery,
  CatalogueVariantsCountQuery,
  CatalogueVariantsPageQuery,
} from "../types/admin.generated";
import type { CatalogueVariant } from "./card";

// 250 variants a page at 3 points each (the variant, its product, its inventory item) plus 2 for the
// connection: 752 points requested, under the 1,000 a single query may ask. The product's variantsCount
// would add a point a variant (1,002): the card's name needs only the variant's own title.
// By ID, so a cursor stays a position: variants created during a sync come after it, and none shifts.
export const CATALOGUE_VARIANTS_PAGE_QUERY = `#graphql
  query CatalogueVariantsPage($after: String) {
    productVariants(first: 250, after: $after, sortKey: ID) {
      nodes {
        id
        title
        sku
        barcode
        product {
          id
          title
        }
        inventoryItem {
          id
          tracked
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

// A product may have 2,048 variants; 250 a page at 2 points each, plus the product and the connection: 503.
export const CATALOGUE_PRODUCT_VARIANTS_QUERY = `#graphql
  query CatalogueProductVariants($id: ID!, $after: String) {
    product(id: $id) {
      id
      title
      variants(first: 250, after: $after) {
        nodes {
          id
          title
          sku
          barcode
          inventoryItem {
            id
            tracked
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

// How many variants the shop has, for the Catalogue page: the full sync's read as a share of it, and how long
// sending them all could take. Without `limit: null` Shopify stops counting at 10,000.
export const CATALOGUE_VARIANTS_COUNT_QUERY = `#graphql
  query CatalogueVariantsCount {
    productVariantsCount(limit: null) {
      count
    }
  }
`;

/** A variant node as both queries select it. */
interface VariantNode {
  id: string;
  title: string;
  sku?: string | null;
  barcode?: string | null;
  inventoryItem: { id: string; tracked: boolean };
}

function catalogueVariant(product: { id: string; title: string }, node: VariantNode): CatalogueVariant {
  return {
    productId: product.id,
    variantId: node.id,
    inventoryItemId: node.inventoryItem.id,
    tracked: node.inventoryItem.tracked,
    productTitle: product.title,
    variantTitle: node.title,
    sku: node.sku ?? null,
    barcode: node.barcode ?? null,
  };
}

export interface VariantPage {
  variants: CatalogueVariant[];
  /**
   * Where the next page starts: store it once this page's work is done, and pass it to readVariantPage to go
   * on from there after a restart. Null only when nothing has been read yet.
   */
  cursor: string | null;
  /** No page follows this one. */
  last: boolean;
}

/**
 * One page of up to 250 of the shop's variants, from the start or after `after` (the cursor a previous page
 * gave). The full sync reads one a run and stores the page's cursor with what it made of the page, so what
 * is in memory is one page whatever the shop's size, and a restart goes on after the last page stored.
 */
export async function readVariantPage(admin: ShopAdmin, after: string | null): Promise<VariantPage> {
  const data = await admin.query<CatalogueVariantsPageQuery>(CATALOGUE_VARIANTS_PAGE_QUERY, { after });
  const { nodes, pageInfo } = data.productVariants;
  return {
    variants: nodes.map((node) => catalogueVariant(node.product, node)),
    // An empty page has no end cursor; the position it was read from still stands.
    cursor: pageInfo.endCursor ?? after,
    last: !pageInfo.hasNextPage || !pageInfo.endCursor,
  };
}

/** One product's variants, every page; null when Shopify has no such product (deleted meanwhile). */
export async function readProductVariants(
  admin: ShopAdmin,
  productId: string,
): Promise<CatalogueVariant[] | null> {
  const variants: CatalogueVariant[] = [];
  let after: string | null = null;
  for (;;) {
    const data: CatalogueProductVariantsQuery = await admin.query<CatalogueProductVariantsQuery>(
      CATALOGUE_PRODUCT_VARIANTS_QUERY,
      { id: productId, after },
    );
    const product = data.product;
    if (!product) return null;
    variants.push(...product.variants.nodes.map((node) => catalogueVariant(product, node)));
    const page = product.variants.pageInfo;
    if (!page.hasNextPage || !page.endCursor) return variants;
    after = page.endCursor;
  }
}

/** How many variants the shop has now, as Shopify counts them; null when it does not say. */
export async function countShopVariants(admin: ShopAdmin): Promise<number | null> {
  const data = await admin.query<CatalogueVariantsCountQuery>(CATALOGUE_VARIANTS_COUNT_QUERY);
  return data.productVariantsCount?.count ?? null;
}
