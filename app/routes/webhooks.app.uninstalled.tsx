import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { recordShopUninstall } from "../shops/lifecycle.server";
import { appUninstalledPayload, receiveWebhook, requireSameShop } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await receiveWebhook(request, appUninstalledPayload);
  if (payload.myshopify_domain) requireSameShop(shop, payload.myshopify_domain, "app/uninstalled");
  await recordShopUninstall(appContext(), shop);
  return new Response(null, { status: 200 });
};
