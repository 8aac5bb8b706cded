import { productDeleteAction } from "../webhooks/products.server";

export const action = productDeleteAction;
