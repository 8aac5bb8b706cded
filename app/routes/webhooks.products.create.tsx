import { productWebhookAction } from "../webhooks/products.server";

export const action = productWebhookAction("products/create");
