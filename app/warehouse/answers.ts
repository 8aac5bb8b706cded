// Reading the warehouse's answers and checking our requests: which error class an HTTP status, a transport
// failure or a malformed body becomes, and how the payload comes out of the three answer forms. Pure, so
// the exchange (exchange.server.ts) and the batch submission (submit-orders.server.ts) share one reading.
import { type z } from "zod";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  type WarehouseError,
  WarehouseNetworkError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseServerError,
  WarehouseTimeout,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
  type WarehouseEffect,
} from "./errors";
import { envelopeSchema, v2EnvelopeSchema } from "./schemas";
import { API_KEY_FIELD, type OperationName } from "./wire";

const ANSWER_EXCERPT_CHARS = 500;
export const MASKED_KEY = "[masked]";

/** Connection failures that happen before a byte of the request is sent. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

export type AnswerForm = "envelope" | "array" | "v2";

/** The request as the schema reads it, or a WarehouseRequestInvalid before anything is sent. */
export function checked<S extends z.ZodType>(
  operation: OperationName,
  schema: S,
  input: unknown,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new WarehouseRequestInvalid(operation, describeIssues(result.error));
  return result.data;
}

/** Takes the operation's payload out of whichever of the three answer forms it came in. */
export function unwrap(operation: OperationName, form: AnswerForm, body: unknown): unknown {
  if (form === "array" && Array.isArray(body)) return body;
  if (form === "v2") {
    const v2 = v2EnvelopeSchema.safeParse(body);
    if (!v2.success) throw new WarehouseAnswerInvalid(operation, describeIssues(v2.error), excerpt(body));
    if (!v2.data.ok) throw new WarehouseBusinessError(operation, v2.data.errors);
    return v2.data.Data;
  }
  // The v1 envelope; a bare-array operation still reports a business error this way.
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) {
    const expected = form === "array" ? ["expected a JSON array or an error envelope"] : [];
    throw new WarehouseAnswerInvalid(
      operation,
      [...expected, ...describeIssues(envelope.error)],
      excerpt(body),
    );
  }
  if (envelope.data.result === "error") throw new WarehouseBusinessError(operation, envelope.data.errors);
  return envelope.data.Data;
}

export function parseData<T>(operation: OperationName, schema: z.ZodType<T>, data: unknown, text: string): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new WarehouseAnswerInvalid(operation, describeIssues(result.error, "Data"), excerpt(text));
  }
  return result.data;
}

export function httpStatusError(
  operation: OperationName,
  response: Response,
  text: string,
  url: string,
): WarehouseError | undefined {
  const { status } = response;
  if (status === 200) return undefined;
  if (status === 401 || status === 403) return new WarehouseUnauthorized(operation);
  if (status === 400) return new WarehouseBadRequest(operation, errorsOf(text));
  if (status === 404) return new WarehouseUnknownMethod(operation, url);
  if (status === 429) return new WarehouseRateLimited(operation, "warehouse", retryAfterMs(response));
  if (status >= 500) return new WarehouseServerError(operation, status);
  return new WarehouseAnswerInvalid(operation, [`unexpected HTTP status ${status}`], excerpt(text));
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get("retry-after")?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function errorsOf(text: string): string[] {
  try {
    const envelope = envelopeSchema.safeParse(JSON.parse(text));
    return envelope.success ? envelope.data.errors : [];
  } catch {
    return [];
  }
}

export function transportError(operation: OperationName, error: unknown, timeoutMs: number): WarehouseError {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new WarehouseTimeout(operation, timeoutMs);
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code;
  const effect: WarehouseEffect = code && NEVER_SENT_CODES.has(code) ? "none" : "unknown";
  const reason = [code, cause?.message ?? (error instanceof Error ? error.message : String(error))]
    .filter(Boolean)
    .join(" ");
  return new WarehouseNetworkError(operation, effect, reason, { cause: error });
}

export function describeIssues(error: z.ZodError, root?: string): string[] {
  return error.issues.map((issue) => {
    const path = [root, ...issue.path.map(String)].filter(Boolean).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

export function excerpt(body: unknown): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS)}…` : text;
}

export function maskUrl(url: URL): string {
  const masked = new URL(url);
  for (const name of [API_KEY_FIELD, "apiKey"]) {
    if (masked.searchParams.has(name)) masked.searchParams.set(name, MASKED_KEY);
  }
  return masked.toString();
}
