import type { ActionFunctionArgs } from "@remix-run/node";
import { redactShop } from "../compliance/compliance.server";
import { appContext } from "../context.server";
import { receiveWebhook, shopRedactPayload } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await receiveWebhook(request, shopRedactPayload);
  await redactShop(appContext(), { shop });
  return new Response(null, { status: 200 });
};
