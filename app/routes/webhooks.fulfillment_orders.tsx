import { fulfillmentOrderWebhookAction } from "../webhooks/routing.server";

export const action = fulfillmentOrderWebhookAction;
