import type { ActionFunctionArgs } from "@remix-run/node";
import { answerCustomerDataRequest } from "../compliance/compliance.server";
import { appContext } from "../context.server";
import { customersDataRequestPayload, receiveWebhook, requireSameShop } from "../webhooks/receive.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await receiveWebhook(request, customersDataRequestPayload);
  requireSameShop(shop, payload.shop_domain, "customers/data_request");
  await answerCustomerDataRequest(appContext(), {
    shop,
    webhookId,
    dataRequestId: payload.data_request.id,
    customer: {
      customerId: payload.customer.id,
      email: payload.customer.email ?? null,
      phone: payload.customer.phone ?? null,
      orderIds: payload.orders_requested,
    },
  });
  return new Response(null, { status: 200 });
};
