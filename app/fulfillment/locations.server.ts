// The shop's locations for Settings, where the merchant picks the one that stands for the warehouse.
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type { ShopLocationsQuery } from "../types/admin.generated";

// Active locations only (the argument's default): a deactivated one can no longer fulfil orders.
export const SHOP_LOCATIONS_QUERY = `#graphql
  query ShopLocations($after: String) {
    locations(first: 100, after: $after, sortKey: NAME) {
      nodes {
        id
        name
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface ShopLocation {
  id: string;
  name: string;
}

/** Every active location, by name. */
export async function listLocations(admin: ShopAdmin): Promise<ShopLocation[]> {
  const locations: ShopLocation[] = [];
  let after: string | null = null;
  for (;;) {
    const data: ShopLocationsQuery = await admin.query<ShopLocationsQuery>(SHOP_LOCATIONS_QUERY, { after });
    locations.push(...data.locations.nodes.map(({ id, name }) => ({ id, name })));
    const page = data.locations.pageInfo;
    if (!page.hasNextPage || !page.endCursor) return locations;
    after = page.endCursor;
  }
}
