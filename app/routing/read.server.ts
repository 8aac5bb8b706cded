// The Admin API reads of fulfillment orders: a page of the shop's fulfillment orders changed since a watermark
// (the top-level `fulfillmentOrders`, sorted by updatedAt, closed ones too) listed with scalars only, the stored
// facts (FULFILLMENT_ORDER_FIELDS) read by `nodes(ids:)` only of those whose updatedAt is not the one stored,
// and the rest of the lines of a fulfillment order with more than a page of them. Throttling is waited out by
// the ShopAdmin client.
//
// Why two reads: a change is listed about twice (a tip pass and a settle pass, work.server.ts), and a listed
// fulfillment order costs 1 point (an object, its scalars free) where the stored facts cost 8 for one line. So
// the facts are read once a version, a settle pass that finds nothing new costs a point a fulfillment order.
import type { ServiceDeps } from "../context.server";
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  RoutingFulfillmentOrderLinesQuery,
  RoutingFulfillmentOrderNodesQuery,
  RoutingFulfillmentOrdersListQuery,
} from "../types/admin.generated";
import { FULFILLMENT_ORDER_FIELDS, FULFILLMENT_ORDER_LINE_FIELDS } from "./fields";
import type { FulfillmentOrderNode } from "./store.server";

/** Fulfillment orders listed a page (scalars only: 1 point each, 252 asked a page, under the 1,000 allowed). */
export const FULFILLMENT_ORDERS_PAGE_SIZE = 250;
/** Fulfillment orders whose facts are read by one `nodes(ids:)` request. */
export const FULFILLMENT_ORDER_NODES_BATCH = 50;
/**
 * A stored row read this soon after its updatedAt may have missed a second change within the same second
 * (Shopify's updatedAt has whole seconds): its facts are read again when it is listed with that updatedAt.
 */
export const SAME_SECOND_READ_MS = 5_000;

export const ROUTING_FULFILLMENT_ORDERS_LIST_QUERY = `#graphql
  query RoutingFulfillmentOrdersList($query: String!, $after: String) {
    fulfillmentOrders(first: 250, after: $after, sortKey: UPDATED_AT, includeClosed: true, query: $query) {
      nodes {
        id
        orderId
        updatedAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const ROUTING_FULFILLMENT_ORDER_NODES_QUERY = `#graphql
  query RoutingFulfillmentOrderNodes($ids: [ID!]!) {
    nodes(ids: $ids) {
      ...RoutingFulfillmentOrder
    }
  }
${FULFILLMENT_ORDER_FIELDS}`;

export const ROUTING_FULFILLMENT_ORDER_LINES_QUERY = `#graphql
  query RoutingFulfillmentOrderLines($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      lineItems(first: 100, after: $after) {
        nodes {
          ...RoutingFulfillmentOrderLine
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
${FULFILLMENT_ORDER_LINE_FIELDS}`;

/** The search text of fulfillment orders updated at or after `from` (Shopify's search syntax, UTC). */
export function updatedSince(from: Date): string {
  return `updated_at:>='${from.toISOString().replace(/\.\d{3}Z$/, "Z")}'`;
}

/** A fulfillment order as listed: enough to tell whether its stored facts are the newest. */
export interface ListedFulfillmentOrder {
  id: string;
  orderId: string;
  updatedAt: string;
}

export interface FulfillmentOrdersPage {
  /** Every fulfillment order the page listed, oldest change first. */
  listed: ListedFulfillmentOrder[];
  /** The facts of those whose stored row was not the newest (or none was stored), every line read. */
  nodes: FulfillmentOrderNode[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/**
 * One page of the fulfillment orders updated since `from`, oldest change first: listed, and the facts read of
 * those the shop's stored rows do not hold at their listed updatedAt.
 */
export async function readFulfillmentOrdersPage(
  deps: Pick<ServiceDeps, "db">,
  admin: ShopAdmin,
  shop: string,
  from: Date,
  after: string | null,
): Promise<FulfillmentOrdersPage> {
  const data = await admin.query<RoutingFulfillmentOrdersListQuery>(ROUTING_FULFILLMENT_ORDERS_LIST_QUERY, {
    query: updatedSince(from),
    after,
  });
  const { nodes: listed, pageInfo } = data.fulfillmentOrders;
  const stored = listed.length
    ? await deps.db.shopifyFulfillmentOrder.findMany({
        where: { shop, id: { in: listed.map((fo) => fo.id) } },
        select: { id: true, shopifyUpdatedAt: true, readAt: true },
      })
    : [];
  const rows = new Map(stored.map((row) => [row.id, row]));
  const stale = listed.filter((fo) => {
    const row = rows.get(fo.id);
    if (!row) return true;
    const updatedAt = Date.parse(fo.updatedAt as string);
    const kept = row.shopifyUpdatedAt.getTime();
    return updatedAt > kept || (updatedAt === kept && row.readAt.getTime() - kept < SAME_SECOND_READ_MS);
  });
  return {
    listed: listed.map((fo) => ({ id: fo.id, orderId: fo.orderId, updatedAt: fo.updatedAt as string })),
    nodes: await readFulfillmentOrders(
      admin,
      stale.map((fo) => fo.id),
    ),
    hasNextPage: pageInfo.hasNextPage,
    endCursor: pageInfo.endCursor ?? null,
  };
}

/** The stored facts of these fulfillment orders (gone ones left out), every line read. */
export async function readFulfillmentOrders(
  admin: ShopAdmin,
  ids: readonly string[],
): Promise<FulfillmentOrderNode[]> {
  const nodes: FulfillmentOrderNode[] = [];
  for (let start = 0; start < ids.length; start += FULFILLMENT_ORDER_NODES_BATCH) {
    const data = await admin.query<RoutingFulfillmentOrderNodesQuery>(ROUTING_FULFILLMENT_ORDER_NODES_QUERY, {
      ids: ids.slice(start, start + FULFILLMENT_ORDER_NODES_BATCH),
    });
    for (const node of data.nodes)
      if (node && "orderId" in node) nodes.push(node as unknown as FulfillmentOrderNode);
  }
  return completeLines(admin, nodes);
}

/**
 * The nodes with every line: a fulfillment order with more lines than the fragment's page has the rest read,
 * a hundred a request, so a stored row never sends part of what the warehouse should get.
 */
export async function completeLines(
  admin: ShopAdmin,
  nodes: readonly FulfillmentOrderNode[],
): Promise<FulfillmentOrderNode[]> {
  const complete: FulfillmentOrderNode[] = [];
  for (const node of nodes) {
    let page = node.lineItems.pageInfo;
    if (!page?.hasNextPage) {
      complete.push(node);
      continue;
    }
    const lines = [...node.lineItems.nodes];
    while (page?.hasNextPage && page.endCursor) {
      const data: RoutingFulfillmentOrderLinesQuery = await admin.query<RoutingFulfillmentOrderLinesQuery>(
        ROUTING_FULFILLMENT_ORDER_LINES_QUERY,
        {
          id: node.id,
          after: page.endCursor,
        },
      );
      // Gone meanwhile: stored with what was read; the next read of it has all.
      if (!data.fulfillmentOrder) break;
      lines.push(...data.fulfillmentOrder.lineItems.nodes);
      page = data.fulfillmentOrder.lineItems.pageInfo;
    }
    complete.push({ ...node, lineItems: { nodes: lines, pageInfo: { hasNextPage: false } } });
  }
  return complete;
}
