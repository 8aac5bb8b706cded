import { requestWebhookAction } from "../service/callback.server";

export const action = requestWebhookAction;
