import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { recordShopUninstall } from "../shops/lifecycle.server";
import { appUninstalledPayload, receiveWebhook } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await receiveWebhook(request, appUninstalledPayload);
  await recordShopUninstall(appContext(), shop);
  return new Response(null, { status: 200 });
};
