import { locationWebhookAction } from "../webhooks/routing.server";

export const action = locationWebhookAction;
