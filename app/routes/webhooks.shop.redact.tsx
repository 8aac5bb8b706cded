import type { ActionFunctionArgs } from "@remix-run/node";
import { redactShop } from "../compliance/compliance.server";
import { appContext } from "../context.server";
import { receiveWebhook, requireSameShop, shopRedactPayload } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await receiveWebhook(request, shopRedactPayload);
  requireSameShop(shop, payload.shop_domain, "shop/redact");
  await redactShop(appContext(), { shop });
  return new Response(null, { status: 200 });
};
