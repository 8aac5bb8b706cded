// The Admin API reads of fulfillment orders: a page of the shop's fulfillment orders changed since a watermark
// (the top-level `fulfillmentOrders`, sorted by updatedAt, closed ones too), and the rest of the lines of a
// fulfillment order with more than a page of them. Throttling is waited out by the ShopAdmin client.
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  RoutingFulfillmentOrderLinesQuery,
  RoutingFulfillmentOrdersPageQuery,
} from "../types/admin.generated";
import { FULFILLMENT_ORDER_FIELDS, FULFILLMENT_ORDER_LINE_FIELDS } from "./fields";
import type { FulfillmentOrderNode } from "./store.server";

/** Fulfillment orders a page: the design's page size (see fields.ts for what a page costs). */
export const FULFILLMENT_ORDERS_PAGE_SIZE = 50;

export const ROUTING_FULFILLMENT_ORDERS_PAGE_QUERY = `#graphql
  query RoutingFulfillmentOrdersPage($query: String!, $after: String) {
    fulfillmentOrders(first: 50, after: $after, sortKey: UPDATED_AT, includeClosed: true, query: $query) {
      nodes {
        ...RoutingFulfillmentOrder
      }
      pageInfo {
        hasNextPage
        endCursor
      }
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

export interface FulfillmentOrdersPage {
  nodes: FulfillmentOrderNode[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** One page of the fulfillment orders updated since `from`, oldest change first, every line read. */
export async function readFulfillmentOrdersPage(
  admin: ShopAdmin,
  from: Date,
  after: string | null,
): Promise<FulfillmentOrdersPage> {
  const data = await admin.query<RoutingFulfillmentOrdersPageQuery>(ROUTING_FULFILLMENT_ORDERS_PAGE_QUERY, {
    query: updatedSince(from),
    after,
  });
  const { nodes, pageInfo } = data.fulfillmentOrders;
  return {
    nodes: await completeLines(admin, nodes),
    hasNextPage: pageInfo.hasNextPage,
    endCursor: pageInfo.endCursor ?? null,
  };
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
