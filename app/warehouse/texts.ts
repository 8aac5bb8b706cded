// A failed warehouse call in the merchant's words, the same on every page and in every kind of work: one
// sentence (namespace `warehouse`, both languages) for each way a call fails (app/warehouse/errors.ts), with
// the warehouse's own words (a refusal's messages) kept apart as `said`. A caller adds what its context
// needs as a sentence of its own (a report's "the sync stopped"), never by rewording these.
import { message, type Message } from "../i18n/message";
import { writeTexts } from "../i18n/texts";
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
} from "./errors";

const said = (messages: readonly string[]) => (messages.length ? messages.join("; ") : undefined);
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function warehouseErrorText(error: WarehouseError): Message {
  if (error instanceof WarehouseUnauthorized) return message("warehouse:error.unauthorized");
  if (error instanceof WarehouseBusinessError)
    return message("warehouse:error.refused", undefined, said(error.messages));
  if (error instanceof WarehouseBadRequest)
    return message("warehouse:error.badRequest", undefined, said(error.messages));
  if (error instanceof WarehouseUnknownMethod)
    return message("warehouse:error.unknownMethod", { url: error.url });
  if (error instanceof WarehouseRateLimited)
    return error.retryAfterMs === undefined
      ? message("warehouse:error.rateLimitedNoWait")
      : message("warehouse:error.rateLimited", { count: seconds(error.retryAfterMs) });
  if (error instanceof WarehouseServerError)
    return message("warehouse:error.serverError", { status: error.status });
  if (error instanceof WarehouseNetworkError)
    return message("warehouse:error.unreachable", { reason: error.reason });
  if (error instanceof WarehouseTimeout)
    return message("warehouse:error.timeout", { count: seconds(error.timeoutMs) });
  if (error instanceof WarehouseAnswerInvalid) return message("warehouse:error.answerInvalid");
  if (error instanceof WarehouseRequestInvalid) return message("warehouse:error.requestInvalid");
  return message("warehouse:error.other", { detail: error.message });
}

/** The failure as a stored problem (a schedule's or a set's `lastError`), which a page reads back with readTexts. */
export function storedWarehouseError(error: WarehouseError): string {
  return writeTexts([warehouseErrorText(error)])!;
}
