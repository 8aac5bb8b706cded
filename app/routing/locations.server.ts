// The shop's online locations (ShopSettings.onlineLocations): the active locations that fulfil online orders,
// read when the warehouse's location is saved, on locations/* webhooks, and daily (ONLINE_LOCATIONS_KIND), for
// isOneLocationShop (online.ts). Fulfillment services' legacy locations are included: orders can be routed there.
import type { ServiceDeps } from "../context.server";
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type { RoutingOnlineLocationsQuery } from "../types/admin.generated";
import type { ShopWork } from "../work/steps.server";
import { scheduledKind, type ScheduledRun } from "../work/schedule.server";
import { ONLINE_LOCATIONS_KIND } from "./kinds.server";

export const ROUTING_ONLINE_LOCATIONS_QUERY = `#graphql
  query RoutingOnlineLocations($after: String) {
    locations(first: 50, after: $after, includeLegacy: true) {
      nodes {
        id
        isActive
        fulfillsOnlineOrders
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** The read is repeated this often while nothing asks sooner. */
export const ONLINE_LOCATIONS_EVERY_MS = 24 * 3600_000;

/** The ids of the shop's active locations that fulfil online orders, in Shopify's order. */
export async function readOnlineLocations(admin: ShopAdmin): Promise<string[]> {
  const online: string[] = [];
  let after: string | null = null;
  for (;;) {
    const data: RoutingOnlineLocationsQuery = await admin.query<RoutingOnlineLocationsQuery>(
      ROUTING_ONLINE_LOCATIONS_QUERY,
      { after },
    );
    for (const location of data.locations.nodes)
      if (location.isActive && location.fulfillsOnlineOrders) online.push(location.id);
    const page = data.locations.pageInfo;
    if (!page.hasNextPage || !page.endCursor) return online;
    after = page.endCursor;
  }
}

/** Reads the online locations and keeps them on the shop's settings (nothing when the shop has no settings). */
export async function refreshOnlineLocations(
  deps: Pick<ServiceDeps, "db" | "log" | "clock">,
  shop: string,
  admin: ShopAdmin,
): Promise<string[]> {
  const online = await readOnlineLocations(admin);
  await deps.db.shopSettings.updateMany({
    where: { shop },
    data: { onlineLocations: JSON.stringify(online), onlineLocationsAt: deps.clock() },
  });
  deps.log.info(
    { shop, event: "routing.online_locations_read", count: online.length },
    "the shop's online locations read",
  );
  return online;
}

export const onlineLocationsWork = scheduledKind(ONLINE_LOCATIONS_KIND, readLocationsRun);

async function readLocationsRun(work: ShopWork): Promise<ScheduledRun> {
  await refreshOnlineLocations(work, work.shop, await work.admin());
  return { nextRunAt: new Date(work.clock().getTime() + ONLINE_LOCATIONS_EVERY_MS) };
}
