import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { recordScopesUpdate } from "../shops/lifecycle.server";
import { receiveWebhook, scopesUpdatePayload } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await receiveWebhook(request, scopesUpdatePayload);
  await recordScopesUpdate(appContext(), shop, payload.current);
  return new Response(null, { status: 200 });
};
