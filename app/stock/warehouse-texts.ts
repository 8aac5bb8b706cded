// A failed warehouse call as the Stock and Catalogue pages say it: one sentence in the admin's language for
// each way a call fails, with the warehouse's own words (a refusal's messages) kept apart as `said`.
import { message, type Message } from "../i18n/message";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseNetworkError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseServerError,
  WarehouseTimeout,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
  type WarehouseError,
} from "../warehouse/errors";

const said = (messages: readonly string[]) => (messages.length ? messages.join("; ") : undefined);

export function warehouseErrorText(error: WarehouseError): Message {
  if (error instanceof WarehouseUnauthorized) return message("stock:warehouse.unauthorized");
  if (error instanceof WarehouseBusinessError)
    return message("stock:warehouse.refused", undefined, said(error.messages));
  if (error instanceof WarehouseBadRequest)
    return message("stock:warehouse.badRequest", undefined, said(error.messages));
  if (error instanceof WarehouseUnknownMethod)
    return message("stock:warehouse.unknownMethod", { url: error.url });
  if (error instanceof WarehouseRateLimited) return message("stock:warehouse.rateLimited");
  if (error instanceof WarehouseServerError)
    return message("stock:warehouse.serverError", { status: error.status });
  if (error instanceof WarehouseNetworkError)
    return message("stock:warehouse.unreachable", { reason: error.reason });
  if (error instanceof WarehouseTimeout)
    return message("stock:warehouse.timeout", { count: Math.max(1, Math.round(error.timeoutMs / 1000)) });
  if (error instanceof WarehouseAnswerInvalid) return message("stock:warehouse.answerInvalid");
  if (error instanceof WarehouseRequestInvalid) return message("stock:warehouse.requestInvalid");
  return message("stock:warehouse.other", { detail: error.message });
}
