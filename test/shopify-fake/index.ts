// Public entry of the Shopify Admin API fake used by tests: the server, its state and the real schema.
export {
  startShopifyFake,
  type RecordedRequest,
  type ShopifyFake,
  type ShopifyFakeOptions,
  type ThrottleSetting,
} from "./server";
export { adminSchema, parseAdminOperation, validateAdminOperation } from "./schema";
export { operationCost, MUTATION_COST, SINGLE_QUERY_MAX_COST } from "./cost";
export { orderWebhookPayload } from "./payloads";
export {
  signedWebhookHeaders,
  type WebhookDeliveryOptions,
  type WebhookDeliveryRecord,
  type WebhookTarget,
} from "./webhooks";
export { extendResolvers, notImplemented, views, type ResolverExtension, type Views } from "./resolvers";
export * from "./state";
export * from "./services";
