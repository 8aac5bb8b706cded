// The typed client for the warehouse's 18 operations. One function per operation; every request is
// checked against its schema before it leaves and every answer parsed before it is returned, and every
// failure becomes one of the classes in errors.ts. It knows nothing of Shopify or the database.
// Sending and its rate limits live in exchange.server.ts, reading answers in answers.ts, and the many-order
// submission in submit-orders.server.ts; callers import all of it from here.
import { z } from "zod";
import { checked } from "./answers";
import { createExchange, type ExchangeOptions, type SendOptions } from "./exchange.server";
import { type Headroom } from "./limiter.server";
import {
  addDeliveryRequestSchema,
  addDeliveryRequestWire,
  addDeliveryRequestWireSchema,
  addedDeliveryRequestSchema,
  addedOrderSchema,
  addProductSchema,
  branchRecordSchema,
  cityRecordSchema,
  deliveryRequestRecordSchema,
  deliveryRequestReportSchema,
  editedOrderSchema,
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
  warehouseOrderSchema,
  type AddDeliveryRequestInput,
  type AddedOrder,
  type AddProductInput,
  type EditedWarehouseOrder,
  type WarehouseOrder,
} from "./schemas";
import {
  createOrderSubmission,
  type OrderSubmissionOutcome,
  type SubmitOptions,
} from "./submit-orders.server";
import { OPERATIONS, type OperationName } from "./wire";

export { DEFAULT_ENDPOINTS } from "./exchange.server";
export type { SendOptions, WarehouseEndpoints, WarehouseExchange } from "./exchange.server";
export type { OrderSubmissionOutcome, SubmitOptions } from "./submit-orders.server";

export interface WarehouseClientOptions extends ExchangeOptions {
  /** The per-account switch for the batch shape of AddOrder (a guess in the notes). */
  batchAddOrder?: boolean;
}

/** The whole branch list's answer may take this long (it is read once a day, in the background). */
const FULL_LIST_TIMEOUT_MS = 120_000;

export function createWarehouseClient(options: WarehouseClientOptions) {
  const { endpoints, limiter, apiKey, call, exchange } = createExchange(options);

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
     * order a request when off (see submit-orders.server.ts).
     */
    async submitOrders(
      orders: readonly WarehouseOrder[],
      send: SendOptions = {},
      how: SubmitOptions = {},
    ): Promise<OrderSubmissionOutcome[]> {
      return submitOrders(orders, send, how);
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

  const submitOrders = createOrderSubmission({
    exchange,
    addOrder: (order, send) => client.addOrder(order, send),
    batchAddOrder: options.batchAddOrder,
  });

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
