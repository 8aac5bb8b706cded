// One request to the warehouse and its answer: the key put in (or left out), the rate limits waited for and
// settled, the request sent with its timeout, every exchange recorded with the key masked, and every failure
// turned into a class of errors.ts. The operations (client.server.ts) are built on `call` and `exchange`.
import { type z } from "zod";
import {
  WarehouseAnswerInvalid,
  WarehouseError,
  WarehouseNetworkError,
  WarehouseRateLimited,
} from "./errors";
import {
  excerpt,
  httpStatusError,
  maskUrl,
  MASKED_KEY,
  parseData,
  transportError,
  unwrap,
  type AnswerForm,
} from "./answers";
import { WarehouseRateLimiter } from "./limiter.server";
import { warehouseFetch } from "./transport.server";
import {
  API_KEY_FIELD,
  DEFAULT_BASE_URL,
  DEFAULT_BASE_URL_V2,
  DEFAULT_TIMEOUT_MS,
  V2_API_KEY_FIELD,
  type OperationName,
} from "./wire";

export interface WarehouseEndpoints {
  /** v1 base; operations are POSTed to `{baseUrl}/{METHOD}`. */
  baseUrl: string;
  /** v2 base (the Delivery group); the operation name travels in the body field `method`. */
  baseUrlV2: string;
  timeoutMs: number;
  /** How long an idle connection to the warehouse is kept (see transport.server.ts). */
  idleSocketMs?: number;
}

export const DEFAULT_ENDPOINTS: WarehouseEndpoints = {
  baseUrl: DEFAULT_BASE_URL,
  baseUrlV2: DEFAULT_BASE_URL_V2,
  timeoutMs: DEFAULT_TIMEOUT_MS,
};

/** One request and its answer, with the key masked: what the order timeline and the logs may keep. */
export interface WarehouseExchange {
  operation: OperationName;
  method: "GET" | "POST";
  url: string;
  request: unknown;
  status?: number;
  answer?: string;
  durationMs: number;
  error?: WarehouseError;
}

/** How a client sends: its key, where, within which limits, and who hears of each exchange. */
export interface ExchangeOptions {
  apiKey: string;
  endpoints?: Partial<WarehouseEndpoints>;
  /** Shared by every client of the same key; without one, each client keeps its own limits. */
  limiter?: WarehouseRateLimiter;
  /** How long a call may wait for the limiter before failing with a local WarehouseRateLimited. */
  maxLimiterWaitMs?: number;
  onExchange?: (exchange: WarehouseExchange) => void;
  fetch?: typeof fetch;
  /**
   * Once aborted (the shop's lease is lost), no request leaves: each fails as certainly not sent, so
   * another worker's requests for the shop are not joined by ours. Requests already out are not cut
   * off, since cutting one off would leave its outcome in doubt.
   */
  stopSending?: AbortSignal;
}

export interface Call<T> extends SendOptions {
  operation: OperationName;
  method?: "GET" | "POST";
  /** Fields beside the key (POST body) or query parameters (GET). */
  fields?: Record<string, unknown>;
  answer: AnswerForm;
  data: z.ZodType<T>;
  /** Keyless operations (GetToken) send no key at all. */
  keyless?: boolean;
  /** How long this call may take, answer read included, instead of the endpoints' timeoutMs. */
  timeoutMs?: number;
}

export interface SendOptions {
  /**
   * Called once the rate limits have let the (first) request go, just before it leaves: from then on the
   * request holds its place in the window, and the caller may claim the next one.
   */
  onSent?: () => void;
  /** This call's exchanges, beside the client's own `onExchange` (which sees every call's). */
  onExchange?: (exchange: WarehouseExchange) => void;
}

/** The part of one call that `exchange` needs: the operation, its fields, and how it is sent. */
export type ExchangeSpec = Omit<Call<unknown>, "data" | "answer"> & { answer?: AnswerForm };

/** Sends one request and returns the parsed JSON body of a 200 answer (and its text); throws on everything else. */
export type Exchange = (spec: ExchangeSpec) => Promise<{ body: unknown; text: string }>;

/** The sending machinery of one client: `exchange` for a raw answer, `call` for a parsed payload. */
export function createExchange(options: ExchangeOptions) {
  const endpoints = { ...DEFAULT_ENDPOINTS, ...options.endpoints };
  const limiter = options.limiter ?? new WarehouseRateLimiter();
  const maxLimiterWaitMs = options.maxLimiterWaitMs ?? 0;
  const doFetch = options.fetch ?? warehouseFetch(endpoints.idleSocketMs);
  const { apiKey } = options;

  /** Waits for the limits; answers the send's stamp in the limiter's window. */
  async function waitForLimiter(operation: OperationName): Promise<number> {
    for (;;) {
      const decision = await limiter.tryAcquire(apiKey, operation);
      if (decision.granted) return decision.sentAt;
      if (decision.retryAfterMs > maxLimiterWaitMs) {
        throw new WarehouseRateLimited(operation, "local", decision.retryAfterMs);
      }
      await sleep(decision.retryAfterMs);
    }
  }

  async function call<T>(spec: Call<T>): Promise<T> {
    const raw = await exchange(spec);
    return parseData(spec.operation, spec.data, unwrap(spec.operation, spec.answer, raw.body), raw.text);
  }

  /** Sends one request and returns the parsed JSON body of a 200 answer; throws on everything else. */
  async function exchange(spec: ExchangeSpec): Promise<{ body: unknown; text: string }> {
    const { operation, fields = {} } = spec;
    const method = spec.method ?? "POST";
    const timeoutMs = spec.timeoutMs ?? endpoints.timeoutMs;
    const isV2 = spec.answer === "v2";
    const keyField = isV2 ? V2_API_KEY_FIELD[operation as keyof typeof V2_API_KEY_FIELD] : API_KEY_FIELD;
    const withKey = (key: string) =>
      spec.keyless
        ? fields
        : isV2
          ? { [keyField]: key, method: operation, properties: fields }
          : { [keyField]: key, ...fields };

    const base = isV2 ? endpoints.baseUrlV2 : `${endpoints.baseUrl}/${operation}`;
    const url = new URL(base);
    if (method === "GET") {
      for (const [name, value] of Object.entries(withKey(apiKey))) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
    }
    const maskedUrl = maskUrl(url);
    const masked = withKey(MASKED_KEY);

    const sentAt = spec.keyless ? undefined : await waitForLimiter(operation);
    spec.onSent?.();

    const started = performance.now();
    const record = (part: Partial<WarehouseExchange>) => {
      const exchange: WarehouseExchange = {
        operation,
        method,
        url: maskedUrl,
        request: masked,
        durationMs: performance.now() - started,
        ...part,
      };
      options.onExchange?.(exchange);
      spec.onExchange?.(exchange);
    };

    let status: number | undefined;
    let text: string | undefined;
    try {
      let response: Response;
      if (options.stopSending?.aborted) {
        throw new WarehouseNetworkError(operation, "none", "this worker stopped sending for the shop");
      }
      try {
        response = await doFetch(url, {
          method,
          headers:
            method === "POST"
              ? { "content-type": "application/json", accept: "application/json" }
              : { accept: "application/json" },
          body: method === "POST" ? JSON.stringify(withKey(apiKey)) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        throw transportError(operation, error, timeoutMs);
      }
      const statusError = httpStatusError(operation, response, text, maskedUrl);
      if (statusError) {
        if (statusError instanceof WarehouseRateLimited && statusError.retryAfterMs !== undefined) {
          await limiter.blockUntil(apiKey, operation, Date.now() + statusError.retryAfterMs);
        }
        throw statusError;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new WarehouseAnswerInvalid(operation, ["the answer is not JSON"], excerpt(text));
      }
      record({ status, answer: text });
      return { body, text };
    } catch (error) {
      if (error instanceof WarehouseError) record({ status, answer: text, error });
      throw error;
    } finally {
      if (sentAt !== undefined) await limiter.settle(apiKey, operation, sentAt);
    }
  }

  return { endpoints, limiter, apiKey, call, exchange };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
