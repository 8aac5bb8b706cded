// What every read of fulfillment orders asks for, as one fragment, so the top-level read (read.server.ts), a
// fulfillment service's assignedFulfillmentOrders (app/service/) and any per-order read store the same facts.
// A query spreads `...RoutingFulfillmentOrder` and appends this text: `${FULFILLMENT_ORDER_FIELDS}` after its
// closing brace. Codegen resolves the fragment by name across app/ (types: RoutingFulfillmentOrderFragment).
//
// Cost (Shopify's calculated cost: objects 1, connections 2 plus page size times a node): a fulfillment order
// costs 6 plus 2 per line asked for. The top-level read does not ask it of every fulfillment order changed
// since a watermark: it lists them with scalars only (1 point each, read.server.ts), and asks this fragment by
// `nodes(ids:)` of those whose updatedAt is not the stored one. A fulfillment order with more lines than the
// fragment's page has the rest read by ROUTING_FULFILLMENT_ORDER_LINES_QUERY (read.server.ts: completeLines), so
// a stored row always holds every line. No deliveryMethod: the decision does not read it (a pickup or local
// delivery fulfillment order at the warehouse's location follows the shop's rules like any other).

/** A fulfillment order's line as stored; appended alone to a query that reads lines only. */
export const FULFILLMENT_ORDER_LINE_FIELDS = `#graphql
  fragment RoutingFulfillmentOrderLine on FulfillmentOrderLineItem {
    id
    sku
    totalQuantity
    remainingQuantity
    lineItem {
      id
    }
  }
`;

/** A fulfillment order as stored (with its line fragment): append it to any query spreading it. */
export const FULFILLMENT_ORDER_FIELDS = `#graphql
  fragment RoutingFulfillmentOrder on FulfillmentOrder {
    id
    orderId
    status
    requestStatus
    updatedAt
    fulfillAt
    assignedLocation {
      location {
        id
      }
    }
    fulfillmentHolds {
      id
      reason
      heldByRequestingApp
    }
    lineItems(first: 5) {
      nodes {
        ...RoutingFulfillmentOrderLine
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
${FULFILLMENT_ORDER_LINE_FIELDS}`;
