// The typed client for the warehouse's 18 operations. One function per operation; every request is
// checked against its schema before it leaves and every answer parsed before it is returned, and every
// failure becomes one of the classes in errors.ts. It knows nothing of Shopify or the database.
import { z } from "zod";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseNetworkError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseServerError,
  WarehouseTimeout,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
  type WarehouseEffect,
} from "./errors";
import { type Headroom, WarehouseRateLimiter } from "./limiter.server";
import { warehouseFetch } from "./transport.server";
import {
  addDeliveryRequestSchema,
  addDeliveryRequestWire,
  addDeliveryRequestWireSchema,
  addedDeliveryRequestSchema,
  addedOrderSchema,
  addProductSchema,
  batchOrderResultSchema,
  branchRecordSchema,
  cityRecordSchema,
  deliveryRequestRecordSchema,
  deliveryRequestReportSchema,
  editedOrderSchema,
  envelopeSchema,
  listedOrderSchema,
  listPeriodSchema,
  moveProductQuerySchema,
  movementRowSchema,
  orderStatusSchema,
  senderRecordSchema,
  statusDictionaryEntrySchema,
  stockQuerySchema,
  stockRowSchema,
  streetRecordSchema,
  tokenDataSchema,
  v2EnvelopeSchema,
  warehouseOrderSchema,
  type AddDeliveryRequestInput,
  type AddedOrder,
  type AddProductInput,
  type EditedWarehouseOrder,
  type WarehouseOrder,
} from "./schemas";
import {
  API_KEY_FIELD,
  DEFAULT_BASE_URL,
  DEFAULT_BASE_URL_V2,
  DEFAULT_TIMEOUT_MS,
  MAX_ORDERS_PER_BATCH,
  OPERATIONS,
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

export interface WarehouseClientOptions {
  apiKey: string;
  endpoints?: Partial<WarehouseEndpoints>;
  /** Shared by every client of the same key; without one, each client keeps its own limits. */
  limiter?: WarehouseRateLimiter;
  /** How long a call may wait for the limiter before failing with a local WarehouseRateLimited. */
  maxLimiterWaitMs?: number;
  /** The per-account switch for the batch shape of AddOrder (a guess in the notes). */
  batchAddOrder?: boolean;
  onExchange?: (exchange: WarehouseExchange) => void;
  fetch?: typeof fetch;
  /**
   * Once aborted (the shop's lease is lost), no request leaves: each fails as certainly not sent, so
   * another worker's requests for the shop are not joined by ours. Requests already out are not cut
   * off, since cutting one off would leave its outcome in doubt.
   */
  stopSending?: AbortSignal;
}

/** What happened to one order of a submission. */
export type OrderSubmissionOutcome =
  | { id_order: string; status: "accepted"; id_order_FF: string; key_order: string }
  | { id_order: string; status: "rejected"; messages: string[] }
  | { id_order: string; status: "failed"; error: WarehouseError };

const ANSWER_EXCERPT_CHARS = 500;
const MASKED_KEY = "[masked]";

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

type AnswerForm = "envelope" | "array" | "v2";

interface Call<T> extends SendOptions {
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

/** How submitOrders sends: the batch choice of this call, and whether it proves the batch shape. */
export interface SubmitOptions {
  /** Overrides the client's `batchAddOrder` for this call. */
  batch?: boolean;
  /**
   * This batch tests whether the account answers batches in the expected form; told the verdict once the
   * warehouse answered (see addOrderBatch).
   */
  proveBatch?: (expected: boolean) => void;
}

/** The whole branch list's answer may take this long (it is read once a day, in the background). */
const FULL_LIST_TIMEOUT_MS = 120_000;

export function createWarehouseClient(options: WarehouseClientOptions) {
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
  async function exchange(spec: Omit<Call<unknown>, "data" | "answer"> & { answer?: AnswerForm }) {
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

  function checked<S extends z.ZodType>(operation: OperationName, schema: S, input: unknown): z.output<S> {
    const result = schema.safeParse(input);
    if (!result.success) throw new WarehouseRequestInvalid(operation, describeIssues(result.error));
    return result.data;
  }

  /**
   * One AddOrder request carrying `orders` as the batch shape; an outcome for each order. With `proof`,
   * the request tests the shape: any answer but a result for each order in the batch form puts every
   * order in doubt (the warehouse may have read the batch another way), and `proof` hears the verdict.
   * A refusal before the warehouse read the batch (the key, the limits, a network failure, a 5xx) is no
   * verdict.
   */
  async function addOrderBatch(
    orders: WarehouseOrder[],
    options: SendOptions,
    proof?: (expected: boolean) => void,
  ): Promise<OrderSubmissionOutcome[]> {
    const operation = OPERATIONS.addOrder;
    let raw: { body: unknown; text: string };
    try {
      raw = await exchange({ operation, fields: { order: orders }, ...options });
    } catch (error) {
      if (!(error instanceof WarehouseError)) throw error;
      if (proof && isAnswerToTheBatch(error)) {
        proof(false);
        return unprovenBatch(orders, error.message);
      }
      return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
    }
    const envelope = envelopeSchema.safeParse(raw.body);
    const results = z.array(batchOrderResultSchema).safeParse(envelope.data?.Data);
    if (proof) {
      const expected = isBatchAnswer(orders, results.data);
      proof(expected);
      if (!expected) return unprovenBatch(orders, excerpt(raw.text));
    }
    if (!envelope.success || (envelope.data.result === "ok" && !results.success)) {
      const problems = describeIssues((envelope.error ?? results.error)!);
      const error = new WarehouseAnswerInvalid(operation, problems, excerpt(raw.text));
      return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
    }
    const byId = new Map((results.data ?? []).map((result) => [result.id_order, result]));
    return orders.map((order): OrderSubmissionOutcome => {
      const result = byId.get(order.id_order);
      if (result?.id_order_FF && result.key_order) {
        return {
          id_order: order.id_order,
          status: "accepted",
          id_order_FF: result.id_order_FF,
          key_order: result.key_order,
        };
      }
      if (result?.errors?.length)
        return { id_order: order.id_order, status: "rejected", messages: result.errors };
      // Refused as a whole (too many orders, say): every order was certainly not created.
      if (envelope.data.result === "error") {
        return { id_order: order.id_order, status: "rejected", messages: envelope.data.errors };
      }
      const error = new WarehouseAnswerInvalid(
        operation,
        [`the answer has no result for order ${order.id_order}`],
        excerpt(raw.text),
      );
      return { id_order: order.id_order, status: "failed", error };
    });
  }

  /** Every order of a batch whose answer did not prove the batch shape: in doubt, looked up before anything. */
  function unprovenBatch(orders: WarehouseOrder[], answer: string): OrderSubmissionOutcome[] {
    const error = new WarehouseAnswerInvalid(
      OPERATIONS.addOrder,
      ["the warehouse did not answer a batch of orders in the expected batch form"],
      answer,
    );
    return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
  }

  const client = {
    /** GetToken: the account's ApiKey for its login and password. Keyless, so outside the limiter. */
    async getToken(credentials: { login: string; password: string }): Promise<string> {
      const operation = OPERATIONS.getToken;
      const fields = checked(
        operation,
        z.strictObject({
          login: z.string().min(1, "login is empty"),
          password: z.string().min(1, "password is empty"),
        }),
        credentials,
      );
      const data = await call({
        operation,
        fields,
        keyless: true,
        answer: "envelope",
        data: tokenDataSchema,
      });
      return data.ApiKey;
    },

    /** AddOrder with one order. */
    async addOrder(order: WarehouseOrder, options: SendOptions = {}): Promise<AddedOrder> {
      const operation = OPERATIONS.addOrder;
      return call({
        operation,
        fields: { order: checked(operation, warehouseOrderSchema, order) },
        answer: "envelope",
        data: addedOrderSchema,
        ...options,
      });
    },

    /**
     * Sends many orders: AddOrder batches of at most 100 when the account's batch switch is on, one
     * order a request when off. Each order gets an outcome; an order that fails its schema, or repeats
     * an id_order of this submission, is not sent. After a refusal that will repeat for every request
     * (the key, the limiter), the remaining orders are failed with the same error without being sent.
     */
    async submitOrders(
      orders: readonly WarehouseOrder[],
      send: SendOptions = {},
      how: SubmitOptions = {},
    ): Promise<OrderSubmissionOutcome[]> {
      const batchAddOrder = how.batch ?? options.batchAddOrder;
      const operation = OPERATIONS.addOrder;
      const outcomes = new Map<number, OrderSubmissionOutcome>();
      const sendable: { index: number; order: WarehouseOrder }[] = [];
      const seen = new Set<string>();
      orders.forEach((order, index) => {
        const parsed = warehouseOrderSchema.safeParse(order);
        const problems = parsed.success ? [] : describeIssues(parsed.error);
        if (seen.has(order.id_order))
          problems.push(`id_order ${order.id_order} appears twice in this submission`);
        seen.add(order.id_order);
        if (problems.length || !parsed.success) {
          const error = new WarehouseRequestInvalid(operation, problems);
          outcomes.set(index, { id_order: order.id_order, status: "failed", error });
        } else {
          sendable.push({ index, order: parsed.data });
        }
      });

      const chunkSize = batchAddOrder ? MAX_ORDERS_PER_BATCH : 1;
      let stopped: WarehouseError | undefined;
      for (let start = 0; start < sendable.length; start += chunkSize) {
        const chunk = sendable.slice(start, start + chunkSize);
        let results: OrderSubmissionOutcome[];
        if (stopped) {
          const error = stopped;
          results = chunk.map(({ order }) => ({ id_order: order.id_order, status: "failed", error }));
        } else if (batchAddOrder) {
          results = await addOrderBatch(
            chunk.map(({ order }) => order),
            start === 0 ? send : {},
            how.proveBatch,
          );
        } else {
          results = [await submitOne(chunk[0]!.order, start === 0 ? send : {})];
        }
        chunk.forEach(({ index }, position) => outcomes.set(index, results[position]!));
        const failure = results.find((result) => result.status === "failed");
        if (failure?.status === "failed" && stopsSubmission(failure.error)) stopped = failure.error;
      }
      return orders.map((_, index) => outcomes.get(index)!);
    },

    /** EditOrder: the whole order again, identified by key_order; refused once picking has started. */
    async editOrder(order: EditedWarehouseOrder, send: SendOptions = {}): Promise<void> {
      const operation = OPERATIONS.editOrder;
      await call({
        operation,
        fields: { order: checked(operation, editedOrderSchema, order) },
        answer: "envelope",
        data: z.unknown(),
        ...send,
      });
    },

    /** CancelOrder by our id_order; refused once the order has shipped. */
    async cancelOrder(idOrder: string, send: SendOptions = {}): Promise<void> {
      const operation = OPERATIONS.cancelOrder;
      const id_order = checked(operation, z.string().min(1), idOrder);
      await call({
        operation,
        fields: { order: { id_order } },
        answer: "envelope",
        data: z.unknown(),
        ...send,
      });
    },

    /** ReportStatusOrder (one a minute): the status, waybill and tracking of each listed order. */
    async reportStatusOrder(idOrders: readonly string[]) {
      const operation = OPERATIONS.reportStatusOrder;
      const orders = checked(operation, z.array(z.string().min(1)).min(1), idOrders);
      return call({ operation, fields: { orders }, answer: "array", data: z.array(orderStatusSchema) });
    },

    /** getStatusOrder as the specification has it: the current status of one order. */
    async getStatusOrder(idOrder: string) {
      const operation = OPERATIONS.getStatusOrder;
      const id_order = checked(operation, z.string().min(1), idOrder);
      return call({ operation, fields: { id_order }, answer: "envelope", data: orderStatusSchema });
    },

    /** getStatusOrder as the OpenAPI file has it: GET, the dictionary of all warehouse statuses. */
    async getStatusDictionary() {
      return call({
        operation: OPERATIONS.getStatusOrder,
        method: "GET",
        keyless: true,
        answer: "envelope",
        data: z.array(statusDictionaryEntrySchema),
      });
    },

    /** ListOrder (one a minute): one page (up to 100) of orders created between two dates, YYYYMMDD. */
    async listOrder(query: z.input<typeof listPeriodSchema>) {
      const operation = OPERATIONS.listOrder;
      return call({
        operation,
        fields: checked(operation, listPeriodSchema, query),
        answer: "envelope",
        data: z.array(listedOrderSchema),
      });
    },

    /** AddProduct: adds or updates (by sku) a catalogue item. */
    async addProduct(product: AddProductInput): Promise<void> {
      const operation = OPERATIONS.addProduct;
      await call({
        operation,
        fields: checked(operation, addProductSchema, product),
        answer: "envelope",
        data: z.unknown(),
      });
    },

    /** ReportSklad (one a minute): stock per SKU. */
    async reportSklad(query: z.input<typeof stockQuerySchema> = {}) {
      const operation = OPERATIONS.reportSklad;
      return call({
        operation,
        fields: checked(operation, stockQuerySchema, query),
        answer: "array",
        data: z.array(stockRowSchema),
      });
    },

    /** ReportMoveProduct: goods movement between two instants (YYYYMMDDHHMMSS), optionally for one SKU. */
    async reportMoveProduct(query: z.input<typeof moveProductQuerySchema>) {
      const operation = OPERATIONS.reportMoveProduct;
      return call({
        operation,
        fields: checked(operation, moveProductQuerySchema, query),
        answer: "envelope",
        data: z.array(movementRowSchema),
      });
    },

    /**
     * ListReturnOrder (one a minute): one page of the returns register, each record as sent. The records are
     * not documented, so each is read on its own (app/returns/read.ts): one odd record must not cost the page.
     */
    async listReturnOrder(query: z.input<typeof listPeriodSchema>): Promise<unknown[]> {
      const operation = OPERATIONS.listReturnOrder;
      return call({
        operation,
        fields: checked(operation, listPeriodSchema, query),
        answer: "envelope",
        data: z.array(z.unknown()),
      });
    },

    /** ListDeliveryRequest (v2): inbound delivery requests between two dates, YYYYMMDD. */
    async listDeliveryRequest(query: { datefrom: string; dateto: string }) {
      const operation = OPERATIONS.listDeliveryRequest;
      return call({
        operation,
        fields: checked(operation, listPeriodSchema.omit({ page: true }), query),
        answer: "v2",
        data: z.array(deliveryRequestRecordSchema),
      });
    },

    /**
     * AddDeliveryRequest (v2): announces an inbound delivery; answers its id. The caller gives a plain
     * `comment` and a YYYY-MM-DD date; the wire's `сomment` (Cyrillic с) and DD.MM.YYYY are written here.
     */
    async addDeliveryRequest(request: AddDeliveryRequestInput, send: SendOptions = {}) {
      const operation = OPERATIONS.addDeliveryRequest;
      const wire = addDeliveryRequestWire(checked(operation, addDeliveryRequestSchema, request));
      return call({
        operation,
        fields: checked(operation, addDeliveryRequestWireSchema, wire),
        answer: "v2",
        data: addedDeliveryRequestSchema,
        ...send,
      });
    },

    /** ReportDeliveryRequest (v2): status 1 new, 2 arrived not fully received, 3 received. */
    async reportDeliveryRequest(id: string) {
      const operation = OPERATIONS.reportDeliveryRequest;
      return call({
        operation,
        fields: { id: checked(operation, z.string().min(1), id) },
        answer: "v2",
        data: deliveryRequestReportSchema,
      });
    },

    /** getCities: carrier cities whose name contains the text. */
    async getCities(cityName: string) {
      const operation = OPERATIONS.getCities;
      return call({
        operation,
        fields: { CityName: checked(operation, z.string().trim().min(1), cityName) },
        answer: "envelope",
        data: z.array(cityRecordSchema),
      });
    },

    /** getWarehouses: the branches and parcel lockers of a city; without a city, the full list (GET). */
    async getWarehouses(cityRef?: string) {
      const operation = OPERATIONS.getWarehouses;
      const data = z.array(branchRecordSchema);
      if (cityRef === undefined) return call({ operation, method: "GET", answer: "envelope", data });
      const CityRef = checked(operation, z.string().min(1), cityRef);
      return call({ operation, fields: { CityRef }, answer: "envelope", data });
    },

    /**
     * getWarehouses without a city (GET: every branch and parcel locker, tens of thousands), each record left
     * for the caller to read (app/reference/records.ts): one malformed record must not cost the rest.
     */
    async getAllWarehouseRecords(): Promise<unknown[]> {
      const operation = OPERATIONS.getWarehouses;
      return call({
        operation,
        method: "GET",
        answer: "envelope",
        data: z.array(z.unknown()),
        // Tens of megabytes: the timeout of an ordinary call would cut the answer off on a slow link.
        timeoutMs: Math.max(endpoints.timeoutMs, FULL_LIST_TIMEOUT_MS),
      });
    },

    /** getStreet (GET): the streets of a city for courier delivery, filtered by text. */
    async getStreet(query: { CityRef: string; FindByString?: string }) {
      const operation = OPERATIONS.getStreet;
      const fields = checked(
        operation,
        z.strictObject({ CityRef: z.string().min(1), FindByString: z.string().optional() }),
        query,
      );
      return call({
        operation,
        method: "GET",
        fields,
        answer: "envelope",
        data: z.array(streetRecordSchema),
      });
    },

    /** senderDetails: the account's sender legal entities (their ids feed delivery_sender_id). */
    async senderDetails() {
      return call({
        operation: OPERATIONS.senderDetails,
        answer: "envelope",
        data: z.array(senderRecordSchema),
      });
    },

    /** When `operation` may next be called with this key, without calling it (ms since the epoch). */
    nextAllowedAt(operation: OperationName): Promise<number> {
      return limiter.nextAllowedAt(apiKey, operation);
    },

    /** The key's standing in its rate-limit window (see WarehouseRateLimiter.headroom). */
    headroom(operation: OperationName): Promise<Headroom> {
      return limiter.headroom(apiKey, operation);
    },
  };

  async function submitOne(order: WarehouseOrder, options: SendOptions): Promise<OrderSubmissionOutcome> {
    try {
      const added = await client.addOrder(order, options);
      const { id_order_FF, key_order } = added;
      return { id_order: order.id_order, status: "accepted", id_order_FF, key_order };
    } catch (error) {
      if (error instanceof WarehouseBusinessError) {
        return { id_order: order.id_order, status: "rejected", messages: error.messages };
      }
      if (error instanceof WarehouseError) return { id_order: order.id_order, status: "failed", error };
      throw error;
    }
  }

  return client;
}

export type WarehouseClient = ReturnType<typeof createWarehouseClient>;

/** GetToken without a key at hand: exchanges the account's login and password for its ApiKey. */
export function requestApiKey(
  credentials: { login: string; password: string },
  options: Omit<WarehouseClientOptions, "apiKey" | "limiter"> = {},
): Promise<string> {
  return createWarehouseClient({ ...options, apiKey: "" }).getToken(credentials);
}

/** Errors after which the next request of the same submission would certainly fail the same way. */
/** An answer that shows how the warehouse read a batch: it refused the body or answered something unreadable. */
function isAnswerToTheBatch(error: WarehouseError): boolean {
  return (
    error instanceof WarehouseBadRequest ||
    error instanceof WarehouseUnknownMethod ||
    error instanceof WarehouseAnswerInvalid ||
    error instanceof WarehouseBusinessError
  );
}

/** Whether a batch answer has the expected form: a result for each order sent, by its id_order. */
function isBatchAnswer(
  orders: readonly WarehouseOrder[],
  results:
    readonly { id_order: string; id_order_FF?: string; key_order?: string; errors?: string[] }[] | undefined,
): boolean {
  if (!results || results.length !== orders.length) return false;
  const byId = new Map(results.map((result) => [result.id_order, result]));
  return orders.every((order) => {
    const result = byId.get(order.id_order);
    return Boolean(result && ((result.id_order_FF && result.key_order) || result.errors?.length));
  });
}

function stopsSubmission(error: WarehouseError): boolean {
  return (
    error instanceof WarehouseUnauthorized ||
    error instanceof WarehouseRateLimited ||
    error instanceof WarehouseUnknownMethod
  );
}

/** Takes the operation's payload out of whichever of the three answer forms it came in. */
function unwrap(operation: OperationName, form: AnswerForm, body: unknown): unknown {
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

function parseData<T>(operation: OperationName, schema: z.ZodType<T>, data: unknown, text: string): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new WarehouseAnswerInvalid(operation, describeIssues(result.error, "Data"), excerpt(text));
  }
  return result.data;
}

function httpStatusError(
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

function transportError(operation: OperationName, error: unknown, timeoutMs: number): WarehouseError {
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

function describeIssues(error: z.ZodError, root?: string): string[] {
  return error.issues.map((issue) => {
    const path = [root, ...issue.path.map(String)].filter(Boolean).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

function excerpt(body: unknown): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS)}…` : text;
}

function maskUrl(url: URL): string {
  const masked = new URL(url);
  for (const name of [API_KEY_FIELD, "apiKey"]) {
    if (masked.searchParams.has(name)) masked.searchParams.set(name, MASKED_KEY);
  }
  return masked.toString();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
