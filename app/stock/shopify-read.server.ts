// Reading Shopify for a stock sync: the items stocked at the warehouse location, the report's other SKUs
// wherever Shopify has them, and what it holds now of a quantity refused as stale. Every read is paged and
// turned into small records; a location Shopify does not have fails the read as StockLocationNotFound.
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type { StockAtLocationQuery, StockItemsBySkuQuery } from "../types/admin.generated";
import type { ShopifyStockItem } from "./plan";
import type { QuantityName } from "./quantities";

// 250 levels a page at 3 points each (level, item, quantities) asks for 753 points, under the 1,000 a single
// query may cost; a page is turned into small records before the next is read.
export const STOCK_AT_LOCATION_QUERY = `#graphql
  query StockAtLocation($locationId: ID!, $names: [String!]!, $after: String) {
    location(id: $locationId) {
      inventoryLevels(first: 250, after: $after) {
        nodes {
          item {
            id
            sku
            tracked
            duplicateSkuCount
          }
          quantities(names: $names) {
            name
            quantity
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

// A batch of SKUs joined by OR (skuSearch) usually finds one variant each; more are paged. 4 points a variant.
export const STOCK_ITEMS_BY_SKU_QUERY = `#graphql
  query StockItemsBySku($query: String!, $locationId: ID!, $names: [String!]!, $after: String) {
    productVariants(first: 100, query: $query, after: $after) {
      nodes {
        sku
        inventoryItem {
          id
          tracked
          inventoryLevel(locationId: $locationId) {
            quantities(names: $names) {
              name
              quantity
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const STOCK_QUANTITIES_NOW_QUERY = `#graphql
  query StockQuantitiesNow($ids: [ID!]!, $locationId: ID!, $names: [String!]!) {
    nodes(ids: $ids) {
      ... on InventoryItem {
        id
        inventoryLevel(locationId: $locationId) {
          quantities(names: $names) {
            name
            quantity
          }
        }
      }
    }
  }
`;

/** SKUs a search asks for at once: a query string of a few kilobytes at most. */
const SKUS_PER_SEARCH = 50;

/**
 * A search term for exactly this SKU. Quoted, with backslash and quote escaped, a SKU is one value whatever it
 * holds (spaces, `:`, `OR`, quotes), so no SKU can change what the query asks.
 */
export function skuSearchTerm(sku: string): string {
  return `sku:"${sku.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** The location the settings name is not one of the shop's (deleted, or never there): nothing was written. */
export class StockLocationNotFound extends Error {
  constructor(readonly locationId: string) {
    super(`Shopify has no location ${locationId}; choose the warehouse location again in Settings.`);
    this.name = "StockLocationNotFound";
  }
}

type Quantities = ReadonlyArray<{ name: string; quantity: number }>;

export function quantityNamed(quantities: Quantities, name: QuantityName): number {
  const found = quantities.find((quantity) => quantity.name === name);
  if (!found) throw new Error(`Shopify answered without the ${name} quantity it was asked for`);
  return found.quantity;
}

/** Every item stocked at the location, page by page, with its SKU, tracking and quantity of `quantityName`. */
export async function readLocationItems(
  admin: ShopAdmin,
  locationId: string,
  quantityName: QuantityName,
): Promise<Array<ShopifyStockItem & { duplicateSkuCount: number }>> {
  const items: Array<ShopifyStockItem & { duplicateSkuCount: number }> = [];
  let after: string | null = null;
  for (;;) {
    const data: StockAtLocationQuery = await admin.query<StockAtLocationQuery>(STOCK_AT_LOCATION_QUERY, {
      locationId,
      names: [quantityName],
      after,
    });
    if (!data.location) throw new StockLocationNotFound(locationId);
    const levels = data.location.inventoryLevels;
    for (const { item, quantities } of levels.nodes) {
      items.push({
        inventoryItemId: item.id,
        sku: item.sku ?? null,
        tracked: item.tracked,
        quantity: quantityNamed(quantities, quantityName),
        duplicateSkuCount: item.duplicateSkuCount,
      });
    }
    if (!levels.pageInfo.hasNextPage || !levels.pageInfo.endCursor) return items;
    after = levels.pageInfo.endCursor;
  }
}

/**
 * The inventory items whose variant has exactly one of `skus`, with their quantity at the location (null where
 * not stocked). Shopify's search is looser than equality (case, tokens), so what it finds is filtered here.
 */
export async function findItemsBySku(
  admin: ShopAdmin,
  skus: readonly string[],
  locationId: string,
  quantityName: QuantityName,
): Promise<ShopifyStockItem[]> {
  const items: ShopifyStockItem[] = [];
  for (let start = 0; start < skus.length; start += SKUS_PER_SEARCH) {
    const batch = skus.slice(start, start + SKUS_PER_SEARCH);
    const wanted = new Set(batch);
    const query = batch.map(skuSearchTerm).join(" OR ");
    let after: string | null = null;
    for (;;) {
      const data: StockItemsBySkuQuery = await admin.query<StockItemsBySkuQuery>(STOCK_ITEMS_BY_SKU_QUERY, {
        query,
        locationId,
        names: [quantityName],
        after,
      });
      const variants = data.productVariants;
      for (const { sku, inventoryItem } of variants.nodes) {
        if (!sku || !wanted.has(sku)) continue;
        const level = inventoryItem.inventoryLevel;
        items.push({
          inventoryItemId: inventoryItem.id,
          sku,
          tracked: inventoryItem.tracked,
          quantity: level ? quantityNamed(level.quantities, quantityName) : null,
        });
      }
      if (!variants.pageInfo.hasNextPage || !variants.pageInfo.endCursor) break;
      after = variants.pageInfo.endCursor;
    }
  }
  return items;
}
