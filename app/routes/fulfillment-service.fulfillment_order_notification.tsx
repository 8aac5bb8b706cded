// Shopify's callback for fulfillment-service mode: POST <callbackUrl>/fulfillment_order_notification, signed
// with the app's secret (X-Shopify-Hmac-Sha256 over the body), verified by the library, which also finds the
// shop's offline session (a shop without one gets 400). It only marks the shop's requests due.
import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { takeFulfillmentNotification } from "../service/callback.server";
import { authenticate } from "../shopify.server";
import { wakeWorker } from "../work/worker.server";

export async function action({ request }: ActionFunctionArgs) {
  const { session, payload } = await authenticate.fulfillmentService(request);
  return takeFulfillmentNotification({ ...appContext(), wake: wakeWorker }, session.shop, payload);
}
