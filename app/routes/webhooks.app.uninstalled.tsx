import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { recordShopUninstall } from "../shops/lifecycle.server";
import { appUninstalledPayload, receiveWebhook } from "../webhooks/receive.server";
import { shopChanged } from "../work/worker.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await receiveWebhook(request, appUninstalledPayload);
  await recordShopUninstall(appContext(), shop);
  // This process's loop for the shop stops before its next step; other processes see it between steps.
  shopChanged(shop);
  return new Response(null, { status: 200 });
};
