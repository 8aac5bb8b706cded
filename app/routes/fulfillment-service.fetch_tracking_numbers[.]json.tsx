// The same request in the older form, with .json after the name, as Shopify's fulfillment-service client once sent it.
export { loader } from "./fulfillment-service.fetch_tracking_numbers";
