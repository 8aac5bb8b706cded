// Shopify's GET <callbackUrl>/fetch_tracking_numbers for the app's fulfillment service (trackingSupport):
// signed, answered from the waybills recorded on the orders (app/service/tracking.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { env } from "../env.server";
import { answerTrackingRequest } from "../service/tracking.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return answerTrackingRequest(appContext(), request, env().SHOPIFY_API_SECRET);
}
