// The warehouse's status notifications for one shop (the token is the shop's secret; see
// app/statuses/notify.server.ts). No Shopify authentication: it is the warehouse calling.
import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { takeWarehouseNotification } from "../statuses/notify.server";
import { wakeWorker } from "../work/worker.server";

function methodNotAllowed(): Response {
  return Response.json(
    { error: "Send notifications with POST." },
    { status: 405, headers: { Allow: "POST" } },
  );
}

export const loader = () => methodNotAllowed();

export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  return takeWarehouseNotification({ ...appContext(), wake: wakeWorker }, params.token, request);
};
