// The Admin operations of fulfillment-service mode, checked against the real 2026-10 schema by the codegen.
// Reading requests selects what every read of fulfillment orders selects (FULFILLMENT_ORDER_FIELDS, routing's
// fragment), so the rows stored from a request and from the top-level read are the same facts.
import { FULFILLMENT_ORDER_FIELDS } from "../routing/fields";

/**
 * One page of the service's fulfillment orders with a request of one kind outstanding: 50, as routing's read,
 * at the fragment's cost (under Shopify's 1,000 points a query; longer fulfillment orders have the rest of
 * their lines read by routing's completeLines).
 */
export const ASSIGNED_FULFILLMENT_ORDERS_QUERY = `#graphql
  query ServiceAssignedFulfillmentOrders(
    $status: FulfillmentOrderAssignmentStatus!
    $locationIds: [ID!]
    $after: String
  ) {
    assignedFulfillmentOrders(first: 50, after: $after, assignmentStatus: $status, locationIds: $locationIds) {
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

/** A fulfillment order's request status now: read before answering again after a call without an answer. */
export const FULFILLMENT_ORDER_REQUEST_STATUS_QUERY = `#graphql
  query ServiceFulfillmentOrderRequestStatus($id: ID!) {
    fulfillmentOrder(id: $id) { id status requestStatus }
  }
`;

export const ACCEPT_FULFILLMENT_REQUEST = `#graphql
  mutation ServiceAcceptFulfillmentRequest($id: ID!, $message: String, $estimatedShippedAt: DateTime) {
    fulfillmentOrderAcceptFulfillmentRequest(id: $id, message: $message, estimatedShippedAt: $estimatedShippedAt) {
      fulfillmentOrder { id requestStatus }
      userErrors { field message }
    }
  }
`;

export const REJECT_FULFILLMENT_REQUEST = `#graphql
  mutation ServiceRejectFulfillmentRequest($id: ID!, $reason: FulfillmentOrderRejectionReason, $message: String) {
    fulfillmentOrderRejectFulfillmentRequest(id: $id, reason: $reason, message: $message) {
      fulfillmentOrder { id requestStatus }
      userErrors { field message }
    }
  }
`;

export const ACCEPT_CANCELLATION_REQUEST = `#graphql
  mutation ServiceAcceptCancellationRequest($id: ID!, $message: String) {
    fulfillmentOrderAcceptCancellationRequest(id: $id, message: $message) {
      fulfillmentOrder { id requestStatus }
      userErrors { field message }
    }
  }
`;

export const REJECT_CANCELLATION_REQUEST = `#graphql
  mutation ServiceRejectCancellationRequest($id: ID!, $message: String) {
    fulfillmentOrderRejectCancellationRequest(id: $id, message: $message) {
      fulfillmentOrder { id requestStatus }
      userErrors { field message }
    }
  }
`;

/** The shop's fulfillment services: this app's, found by name before one is made, so it is made once. */
export const SHOP_FULFILLMENT_SERVICES_QUERY = `#graphql
  query ServiceShopFulfillmentServices {
    shop {
      fulfillmentServices { id serviceName handle callbackUrl location { id name } }
    }
  }
`;

// Neither permitsSkuSharing (gone) nor fulfillmentOrdersOptIn (deprecated) is sent.
export const FULFILLMENT_SERVICE_CREATE = `#graphql
  mutation ServiceFulfillmentServiceCreate(
    $name: String!
    $callbackUrl: URL
    $inventoryManagement: Boolean
    $trackingSupport: Boolean
    $requiresShippingMethod: Boolean
  ) {
    fulfillmentServiceCreate(
      name: $name
      callbackUrl: $callbackUrl
      inventoryManagement: $inventoryManagement
      trackingSupport: $trackingSupport
      requiresShippingMethod: $requiresShippingMethod
    ) {
      fulfillmentService { id serviceName handle callbackUrl location { id name } }
      userErrors { field message }
    }
  }
`;

export const SERVICE_LOCATION_EDIT = `#graphql
  mutation ServiceLocationEdit($id: ID!, $input: LocationEditInput!) {
    locationEdit(id: $id, input: $input) {
      location { id name }
      userErrors { field message }
    }
  }
`;
