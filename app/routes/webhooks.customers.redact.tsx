import type { ActionFunctionArgs } from "@remix-run/node";
import { redactCustomer } from "../compliance/compliance.server";
import { appContext } from "../context.server";
import { customersRedactPayload, receiveWebhook, requireSameShop } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await receiveWebhook(request, customersRedactPayload);
  requireSameShop(shop, payload.shop_domain, "customers/redact");
  await redactCustomer(appContext(), {
    shop,
    webhookId,
    customer: {
      customerId: payload.customer.id,
      email: payload.customer.email ?? null,
      phone: payload.customer.phone ?? null,
      orderIds: payload.orders_to_redact,
    },
  });
  return new Response(null, { status: 200 });
};
