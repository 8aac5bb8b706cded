import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { recordShopUninstall } from "../shops/lifecycle.server";
import { appUninstalledPayload, receiveWebhook, requireSameShop } from "../webhooks/receive.server";
import { shopChanged } from "../work/worker.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await receiveWebhook(request, appUninstalledPayload);
  if (payload.myshopify_domain) requireSameShop(shop, payload.myshopify_domain, "app/uninstalled");
  await recordShopUninstall(appContext(), shop);
  // This process's loop for the shop stops before its next step; other processes see it between steps.
  shopChanged(shop);
  return new Response(null, { status: 200 });
};
