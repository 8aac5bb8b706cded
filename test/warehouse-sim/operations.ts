// The 18 operations against one key's store, answering the provider's envelopes: v1 `{result, Data, errors}`,
// bare arrays for ReportStatusOrder and ReportSklad, v2 `{success, Data, errors}` for the Delivery group.
import {
  ADD_PRODUCT_ANSWER_OPTION,
  CARRIER_REF_PATTERN,
  DELIVERY_METHOD,
  DELIVERY_REQUEST_COMMENT_FIELD,
  INBOUND_DELIVERY_METHOD,
  INBOUND_DELIVERY_STATUS,
  LIST_PAGE_SIZE,
  MAX_ORDERS_PER_BATCH,
  OPERATIONS,
  type OperationName,
  RESULT_ERROR,
  RESULT_OK,
} from "./spec-literals";
import { compactDate, formatDate, formatMoment } from "./clock";
import { count, type SimulatorCore } from "./core";
import type { DeliveryRequestRecord, KeyStore, OrderRecord, ReturnRecord } from "./state";
import { CARRIER_STATUS, ORDER_STATUS_TABLE, STATUS_DICTIONARY } from "./statuses";
import {
  checkOrder,
  Checker,
  isObject,
  type JsonObject,
  MESSAGES,
  parseCount,
  parsePrice,
  show,
  stockShortages,
} from "./validation";

export interface Answer {
  status: number;
  /** Serialised by the server; `raw` is sent as is (a cached serialisation). */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  businessError?: boolean;
}

export interface OperationCall {
  operation: OperationName;
  body: JsonObject;
  /** The key's store; undefined only for a keyless call of a keyless operation. */
  store: KeyStore | undefined;
}

export const ok = (Data: unknown): Answer => ({ status: 200, body: { result: RESULT_OK, Data, errors: [] } });
export const refuse = (errors: string[], Data: unknown = {}): Answer => ({
  status: 200,
  businessError: true,
  body: { result: RESULT_ERROR, Data, errors },
});
// The OpenAPI file types AddDeliveryRequest's answer as the v1 envelope and the other two as v2; carrying
// both `success` and `result` satisfies either reading.
const v2ok = (Data: unknown): Answer => ({
  status: 200,
  body: { success: true, result: RESULT_OK, Data, errors: [] },
});
const v2refuse = (errors: string[]): Answer => ({
  status: 200,
  businessError: true,
  body: { success: false, result: RESULT_ERROR, Data: {}, errors },
});

/** Operations that answer without a key ([spec]); a key that is sent must still be valid. */
export const KEYLESS_OPERATIONS = new Set<OperationName>([
  OPERATIONS.getToken,
  OPERATIONS.getCities,
  OPERATIONS.getWarehouses,
]);

type Handler = (core: SimulatorCore, call: OperationCall) => Answer;

function storeOf(call: OperationCall): KeyStore {
  if (!call.store) throw new Error(`${call.operation} reached without a key`);
  return call.store;
}

function noteIgnored(core: SimulatorCore, fields: readonly string[]): void {
  for (const field of fields) count(core.stats.ignoredFields, field);
}

// ---------------------------------------------------------------------------------------------------
// Records as the warehouse prints them.

export function statusRecord(order: OrderRecord): Record<string, unknown> {
  const status = ORDER_STATUS_TABLE[order.stage];
  const carrierEvents =
    order.deliveryMethod === DELIVERY_METHOD.novaPoshta && order.TTN ? carrierHistory(order) : [];
  const lastCarrier = carrierEvents.at(-1);
  return {
    id_order: order.id_order,
    TTN: order.TTN,
    DeliveryCost: order.deliveryCost,
    warnings: order.draft ? ["Черновик: товар зарезервирован, заказ не будет отгружен"] : [],
    status_TTN: lastCarrier?.Status ?? "",
    status_TTN_id: lastCarrier?.StatusCode ?? "",
    status_TTN_date: lastCarrier?.Date ?? "",
    status_mtp: status.name,
    status_mtp_id: status.id,
    status_mtp_date: formatMoment(order.stageAt),
    tracking_novaposhta: carrierEvents,
  };
}

function carrierHistory(order: OrderRecord): Array<{ Date: string; StatusCode: string; Status: string }> {
  return order.history
    .filter((entry) => entry.stage === "shipped" || entry.stage === "delivered")
    .map((entry) => {
      const carrier = CARRIER_STATUS[entry.stage as "shipped" | "delivered"];
      return { Date: formatMoment(entry.at), StatusCode: carrier.id, Status: carrier.name };
    });
}

function listedOrder(order: OrderRecord): Record<string, unknown> {
  const status = ORDER_STATUS_TABLE[order.stage];
  const submitted = order.submitted;
  return {
    id_order: order.id_order,
    id_order_FF: order.id_order_FF,
    key_order: order.key_order,
    external_id: typeof submitted.external_id === "string" ? submitted.external_id : "",
    date_order: submitted.date_order,
    date_create: formatMoment(order.createdAt),
    status_mtp: status.name,
    status_mtp_id: status.id,
    status_mtp_date: formatMoment(order.stageAt),
    TTN: order.TTN,
    recipient: submitted.recipient,
    delivery_method: order.deliveryMethod,
    Cost: submitted.Cost,
    products: order.lines.map((line) => ({
      sku: line.sku,
      name: line.name,
      count: String(line.count),
      price: String(line.price),
    })),
  };
}

export function returnRecord(record: ReturnRecord): Record<string, unknown> {
  return {
    id_return: record.id_return,
    id_order: record.id_order,
    date: formatDate(record.at),
    TTN: record.TTN,
    products: record.products.map((line) => ({
      sku: line.sku,
      count: String(line.count),
      marriage: line.marriage,
    })),
  };
}

export function deliveryRequestReport(request: DeliveryRequestRecord): Record<string, unknown> {
  return {
    id: request.id,
    idRequest: request.idRequest,
    status: request.status,
    dateOfDelivery: request.dateOfDelivery,
    products: request.products.map((line) => ({
      sku: line.sku,
      name: line.name,
      count: String(line.count),
      price: line.price,
      countReceived: String(line.received),
    })),
  };
}

function listedDeliveryRequest(request: DeliveryRequestRecord): Record<string, unknown> {
  return {
    id: request.id,
    idRequest: request.idRequest,
    date: formatDate(request.createdAt),
    dateOfDelivery: request.dateOfDelivery,
    deliveryMethod: request.deliveryMethod,
    seatsAmount: request.seatsAmount,
    ttn: request.ttn,
    status: request.status,
  };
}

function page<T>(records: readonly T[], pageNumber: number): T[] {
  return records.slice((pageNumber - 1) * LIST_PAGE_SIZE, pageNumber * LIST_PAGE_SIZE);
}

// ---------------------------------------------------------------------------------------------------
// Orders.

type OrderOutcome = { order: OrderRecord; errors?: undefined } | { order?: undefined; errors: string[] };

function acceptOrder(core: SimulatorCore, store: KeyStore, input: unknown): OrderOutcome {
  const context = { store, reference: core.reference, kyivCityRef: core.kyivCityRef };
  const checked = checkOrder(input, context, false);
  noteIgnored(core, checked.ignoredFields);
  if (!checked.order) return { errors: checked.errors };
  const valid = checked.order;
  const idOrder = valid.id_order!;
  const existing = store.latestOrder(idOrder);
  if (existing) {
    core.stats.duplicateIdOrders++;
    if (core.settings.duplicateIdOrder === "reject")
      return { errors: [MESSAGES.duplicateIdOrder(idOrder, existing.id_order_FF)] };
  }
  if (core.settings.insufficientStock === "reject") {
    const shortages = stockShortages(store, valid.lines);
    if (shortages.length > 0) return { errors: shortages };
  }
  const now = core.clock.now();
  const order: OrderRecord = {
    id_order: idOrder,
    ...core.state.nextOrderIds(),
    submitted: valid.submitted,
    lines: valid.lines,
    deliveryMethod: valid.deliveryMethod,
    draft: valid.draft,
    stage: "new",
    stageAt: now,
    history: [{ stage: "new", at: now }],
    createdAt: now,
    createdDate: compactDate(now),
    editedAt: null,
    TTN: "",
    deliveryCost: 0,
  };
  store.reserve(order.lines);
  store.addOrder(order);
  core.stats.ordersAccepted++;
  core.lifecycle.accepted(store, order);
  return { order };
}

const addOrder: Handler = (core, call) => {
  const store = storeOf(call);
  const input = call.body.order;
  if (input === undefined || input === null) return refuse([MESSAGES.required("order")]);
  if (!Array.isArray(input)) {
    const outcome = acceptOrder(core, store, input);
    if (!outcome.order) return refuse(outcome.errors);
    return ok({ id_order_FF: outcome.order.id_order_FF, key_order: outcome.order.key_order });
  }
  if (input.length === 0) return refuse(["Пустой список заказов order: нужен хотя бы один заказ"]);
  if (input.length > MAX_ORDERS_PER_BATCH)
    return refuse([
      `Превышено количество заказов в одном запросе: ${input.length}. Допустимо не более ${MAX_ORDERS_PER_BATCH}`,
    ]);
  const errors: string[] = [];
  const results = input.map((item: unknown, index) => {
    const given = isObject(item) ? item.id_order : undefined;
    const idOrder = typeof given === "string" && given !== "" ? given : `#${index + 1}`;
    const outcome = acceptOrder(core, store, item);
    if (outcome.order) {
      const { id_order_FF, key_order } = outcome.order;
      return { id_order: idOrder, id_order_FF, key_order };
    }
    errors.push(...outcome.errors.map((message) => `${idOrder}: ${message}`));
    return { id_order: idOrder, errors: outcome.errors };
  });
  // A fault: the account answers a batch as if it had carried one order (the shape the notes fear).
  if (core.faults.batchAnswerShape === "single") {
    const first = results[0]!;
    return first.errors
      ? refuse(first.errors)
      : ok({ id_order_FF: first.id_order_FF, key_order: first.key_order });
  }
  return errors.length === 0 ? ok(results) : refuse(errors, results);
};

const editOrder: Handler = (core, call) => {
  const store = storeOf(call);
  const input = call.body.order;
  if (input === undefined || input === null) return refuse([MESSAGES.required("order")]);
  if (!isObject(input)) return refuse([MESSAGES.notObject("order", input)]);
  const key = input.key_order;
  if (key === undefined || key === null || key === "") return refuse([MESSAGES.required("key_order")]);
  const order = typeof key === "string" ? store.orderByKey.get(key) : undefined;
  if (!order) return refuse([MESSAGES.unknownKeyOrder(key)]);
  if (order.stage !== "new") {
    const status = ORDER_STATUS_TABLE[order.stage];
    return refuse([
      `Заказ ${order.id_order_FF} уже в работе на складе (статус "${status.name}"), изменение невозможно`,
    ]);
  }
  const context = { store, reference: core.reference, kyivCityRef: core.kyivCityRef };
  const checked = checkOrder(input, context, true);
  noteIgnored(core, checked.ignoredFields);
  if (!checked.order) return refuse(checked.errors);
  const valid = checked.order;
  if (core.settings.insufficientStock === "reject") {
    const shortages = stockShortages(store, valid.lines, order.lines);
    if (shortages.length > 0) return refuse(shortages);
  }
  store.reserve(order.lines, -1);
  store.reserve(valid.lines);
  const previousId = order.id_order;
  order.id_order = valid.id_order ?? previousId;
  if (order.id_order !== previousId) store.reindexId(order, previousId);
  order.submitted = { ...valid.submitted, id_order: order.id_order };
  order.lines = valid.lines;
  order.deliveryMethod = valid.deliveryMethod;
  order.draft = valid.draft;
  order.editedAt = core.clock.now();
  core.lifecycle.edited(store, order);
  return ok({ id_order_FF: order.id_order_FF, key_order: order.key_order });
};

const cancelOrder: Handler = (core, call) => {
  const store = storeOf(call);
  const input = call.body.order;
  if (input === undefined || input === null) return refuse([MESSAGES.required("order")]);
  if (!isObject(input)) return refuse([MESSAGES.notObject("order", input)]);
  const check = new Checker(input);
  const idOrder = check.requiredString("id_order");
  if (idOrder === undefined) return refuse(check.errors);
  const order = store.latestOrder(idOrder);
  if (!order) return refuse([MESSAGES.unknownIdOrder(idOrder)]);
  const status = ORDER_STATUS_TABLE[order.stage];
  if (order.stage === "cancelled") return refuse([`Заказ ${order.id_order_FF} уже отменен`]);
  if (order.stage === "shipped" || order.stage === "delivered")
    return refuse([`Заказ ${order.id_order_FF} уже отгружен (статус "${status.name}"), отмена невозможна`]);
  core.lifecycle.cancel(store, order, core.clock.now());
  const cancelled = ORDER_STATUS_TABLE[order.stage];
  return ok({
    id_order: order.id_order,
    id_order_FF: order.id_order_FF,
    key_order: order.key_order,
    status_mtp: cancelled.name,
    status_mtp_id: cancelled.id,
  });
};

/** What ReportStatusOrder adds to a row when `statusReportIdentifiers` is on: beyond the notes. */
function statusIdentifiers(order: OrderRecord): Record<string, unknown> {
  const submitted = order.submitted;
  return {
    id_order_FF: order.id_order_FF,
    key_order: order.key_order,
    external_id: typeof submitted.external_id === "string" ? submitted.external_id : "",
    date_order: submitted.date_order,
  };
}

const reportStatusOrder: Handler = (core, call) => {
  const store = storeOf(call);
  const ids = call.body.orders;
  if (ids === undefined || ids === null) return refuse([MESSAGES.required("orders")]);
  if (!Array.isArray(ids)) return refuse([MESSAGES.notArray("orders", ids)]);
  const wrong = ids.findIndex((id) => typeof id !== "string");
  if (wrong >= 0) return refuse([MESSAGES.notString(`orders[${wrong}]`, ids[wrong])]);
  // A repeated id_order (accepted as a new order) reports every order carrying it.
  const show = (order: OrderRecord) =>
    core.settings.statusReportIdentifiers
      ? { ...statusRecord(order), ...statusIdentifiers(order) }
      : statusRecord(order);
  const records = (ids as string[]).flatMap((id) => (store.ordersById.get(id) ?? []).map(show));
  return { status: 200, body: records };
};

const getStatusOrder: Handler = (_core, call) => {
  const store = storeOf(call);
  const id = call.body.id_order;
  if (id === undefined || id === null || id === "") return ok(STATUS_DICTIONARY);
  if (typeof id !== "string") return refuse([MESSAGES.notString("id_order", id)]);
  const order = store.latestOrder(id);
  return order ? ok(statusRecord(order)) : refuse([MESSAGES.unknownIdOrder(id)]);
};

/** ListOrder and ListReturnOrder: the records created in a period of Kyiv dates, a page at a time. */
function periodPage<T extends { createdDate: string }>(
  call: Parameters<Handler>[1],
  records: readonly T[],
  show: (record: T) => unknown,
): ReturnType<Handler> {
  const check = new Checker(call.body);
  const from = check.compactDate("datefrom");
  const to = check.compactDate("dateto");
  const pageNumber = check.page();
  check.period(from, to);
  if (check.errors.length > 0 || !from || !to || !pageNumber) return refuse(check.errors);
  const inPeriod = records.filter((record) => record.createdDate >= from && record.createdDate <= to);
  return ok(page(inPeriod, pageNumber).map(show));
}

const listOrder: Handler = (_core, call) => periodPage(call, storeOf(call).orders, listedOrder);

const listReturnOrder: Handler = (_core, call) => periodPage(call, storeOf(call).returns, returnRecord);

// ---------------------------------------------------------------------------------------------------
// Catalogue and stock.

const addProduct: Handler = (_core, call) => {
  const store = storeOf(call);
  const check = new Checker(call.body);
  const sku = check.requiredString("sku");
  const name = check.requiredString("name");
  const barcode = check.optionalString("barcode") ?? "";
  check.oneOf("AnswerOption", [ADD_PRODUCT_ANSWER_OPTION], false);
  if (check.errors.length > 0 || !sku || !name) return refuse(check.errors);
  const { product } = store.upsertProduct(sku, name, barcode);
  return ok({ sku: product.sku, name: product.name, barcode: product.barcode });
};

const reportSklad: Handler = (_core, call) => {
  const store = storeOf(call);
  const check = new Checker(call.body);
  const excludeZero = check.optionalBoolean("ExcludeZero") ?? false;
  const showStorageDate = check.optionalBoolean("ShowStorageDate") ?? false;
  if (check.errors.length > 0) return refuse(check.errors);
  const rows: Array<Record<string, unknown>> = [];
  for (const product of store.products.values()) {
    if (excludeZero && product.quantity === 0) continue;
    rows.push({
      sku: product.sku,
      quantity: product.quantity,
      quantityAvailable: Math.max(0, product.quantity - product.reserved),
      stock: product.quantity,
      barcode: product.barcode,
      ...(showStorageDate
        ? { StorageDate: product.lastReceiptAt === null ? "" : formatDate(product.lastReceiptAt) }
        : {}),
    });
  }
  return { status: 200, body: rows };
};

const reportMoveProduct: Handler = (_core, call) => {
  const store = storeOf(call);
  const check = new Checker(call.body);
  const start = check.compactDateTime("dataStart");
  const finish = check.compactDateTime("dataFinish");
  const sku = check.optionalString("productSku") || undefined;
  check.period(start, finish);
  if (sku !== undefined && !store.products.has(sku)) check.fail(MESSAGES.unknownSku("productSku", sku));
  if (check.errors.length > 0 || !start || !finish) return refuse(check.errors);
  const rows = store.movements
    .filter((row) => row.compactAt >= start && row.compactAt <= finish && (!sku || row.sku === sku))
    .map((row) => ({
      Period: formatMoment(row.at),
      MovementDoc: row.document,
      sku: row.sku,
      Quantity: row.quantity,
      EndingBalance: row.endingBalance,
    }));
  return ok(rows);
};

// ---------------------------------------------------------------------------------------------------
// Inbound delivery requests (v2).

const PROPERTIES_FIELDS = new Set([
  "idRequest",
  "dateOfDelivery",
  "deliveryMethod",
  "seatsAmount",
  "ttn",
  DELIVERY_REQUEST_COMMENT_FIELD,
  "products",
]);

function propertiesOf(call: OperationCall): JsonObject | string[] {
  const properties = call.body.properties;
  if (properties === undefined || properties === null) return [MESSAGES.required("properties")];
  if (!isObject(properties)) return [MESSAGES.notObject("properties", properties)];
  return properties;
}

const addDeliveryRequest: Handler = (core, call) => {
  const store = storeOf(call);
  const properties = propertiesOf(call);
  if (Array.isArray(properties)) return v2refuse(properties);
  noteIgnored(
    core,
    Object.keys(properties)
      .filter((field) => !PROPERTIES_FIELDS.has(field))
      .map((field) => `properties.${field}`),
  );
  const check = new Checker(properties);
  const idRequest = check.requiredString("idRequest");
  const dateOfDelivery = check.dayMonthYear("dateOfDelivery");
  const deliveryMethod = check.oneOf("deliveryMethod", Object.values(INBOUND_DELIVERY_METHOD), true);
  const seats = properties.seatsAmount;
  if (seats === undefined || seats === null || seats === "") check.fail(MESSAGES.required("seatsAmount"));
  else if (typeof seats !== "string" || !/^\d+$/.test(seats))
    check.fail(
      `Некорректное значение поля seatsAmount: ${show(seats)}. Ожидается целое число строкой, например "3"`,
    );
  const ttn = check.optionalString("ttn") ?? "";
  const comment = check.optionalString(DELIVERY_REQUEST_COMMENT_FIELD) ?? "";
  const lines: DeliveryRequestRecord["products"] = [];
  const products = properties.products;
  if (products !== undefined && products !== null && !Array.isArray(products))
    check.fail(MESSAGES.notArray("products", products));
  else
    (products ?? []).forEach((product: unknown, index: number) => {
      const label = (field: string) => `products[${index}].${field}`;
      if (!isObject(product)) return check.fail(MESSAGES.notObject(`products[${index}]`, product));
      const line = new Checker(product);
      const sku = line.requiredString("sku", label("sku"));
      const name = line.optionalString("name", label("name"));
      const quantity = parseCount(product.count);
      if (quantity === undefined) line.fail(MESSAGES.count(label("count"), product.count, sku ?? ""));
      const price = product.price;
      if (price !== undefined && price !== "" && parsePrice(price) === undefined)
        line.fail(MESSAGES.price(label("price"), price, sku ?? ""));
      const known = sku === undefined ? undefined : store.products.get(sku);
      if (sku !== undefined && !known) line.fail(MESSAGES.unknownSku(label("sku"), sku));
      check.errors.push(...line.errors);
      if (line.errors.length === 0 && known && quantity !== undefined)
        lines.push({
          sku: known.sku,
          name: name || known.name,
          count: quantity,
          price: typeof price === "string" ? price : "",
          received: 0,
        });
    });
  if (
    check.errors.length > 0 ||
    !idRequest ||
    !dateOfDelivery ||
    !deliveryMethod ||
    typeof seats !== "string"
  )
    return v2refuse(check.errors);
  const now = core.clock.now();
  const request: DeliveryRequestRecord = {
    id: core.state.nextDeliveryRequestId(),
    idRequest,
    dateOfDelivery,
    deliveryMethod,
    seatsAmount: seats,
    ttn,
    comment,
    products: lines,
    status: INBOUND_DELIVERY_STATUS.new,
    createdAt: now,
    createdDate: compactDate(now),
  };
  store.deliveries.set(request.id, request);
  return v2ok({ id: request.id });
};

const reportDeliveryRequest: Handler = (_core, call) => {
  const store = storeOf(call);
  const properties = propertiesOf(call);
  if (Array.isArray(properties)) return v2refuse(properties);
  const check = new Checker(properties);
  const id = check.requiredString("id");
  if (id === undefined) return v2refuse(check.errors);
  const request = store.deliveries.get(id);
  return request
    ? v2ok(deliveryRequestReport(request))
    : v2refuse([`Заявка на поставку id: ${show(id)} не найдена`]);
};

const listDeliveryRequest: Handler = (_core, call) => {
  const store = storeOf(call);
  const properties = propertiesOf(call);
  if (Array.isArray(properties)) return v2refuse(properties);
  const check = new Checker(properties);
  const from = check.compactDate("datefrom");
  const to = check.compactDate("dateto");
  check.period(from, to);
  if (check.errors.length > 0 || !from || !to) return v2refuse(check.errors);
  const listed = [...store.deliveries.values()]
    .filter((request) => request.createdDate >= from && request.createdDate <= to)
    .map(listedDeliveryRequest);
  return v2ok(listed);
};

// ---------------------------------------------------------------------------------------------------
// Auth and reference.

const getToken: Handler = (core, call) => {
  const check = new Checker(call.body);
  const login = check.requiredString("login");
  const password = check.requiredString("password");
  if (check.errors.length > 0) return refuse(check.errors);
  const account = core.state.accounts.find((each) => each.login === login && each.password === password);
  return account ? ok({ ApiKey: account.apiKey }) : refuse(["Неверный логин или пароль"]);
};

const getCities: Handler = (core, call) => {
  const check = new Checker(call.body);
  const name = check.requiredString("CityName");
  if (name === undefined) return refuse(check.errors);
  return ok(core.reference.findCities(name));
};

const fullBranchLists = new WeakMap<object, string>();

/** The whole branch list, serialised once per reference data set (tens of thousands of records). */
export function allBranchesAnswer(core: SimulatorCore): Answer {
  let raw = fullBranchLists.get(core.reference);
  if (raw === undefined) {
    raw = JSON.stringify({ result: RESULT_OK, Data: core.reference.branches, errors: [] });
    fullBranchLists.set(core.reference, raw);
  }
  return { status: 200, raw };
}

const getWarehouses: Handler = (core, call) => {
  const check = new Checker(call.body);
  const cityRef = check.optionalString("CityRef");
  if (check.errors.length > 0) return refuse(check.errors);
  if (!cityRef) return allBranchesAnswer(core);
  if (!CARRIER_REF_PATTERN.test(cityRef))
    return refuse([
      `Некорректный идентификатор города CityRef: ${show(cityRef)}. Ожидается Ref справочника городов`,
    ]);
  return ok(core.reference.branchesInCity(cityRef));
};

const getStreet: Handler = (core, call) => {
  const check = new Checker(call.body);
  const cityRef = check.requiredString("CityRef");
  const find = check.optionalString("FindByString");
  if (cityRef !== undefined && !CARRIER_REF_PATTERN.test(cityRef))
    check.fail(
      `Некорректный идентификатор города CityRef: ${show(cityRef)}. Ожидается Ref справочника городов`,
    );
  if (check.errors.length > 0 || !cityRef) return refuse(check.errors);
  return ok(core.reference.streets(cityRef, find || undefined));
};

const senderDetails: Handler = (_core, call) => ok(storeOf(call).account.senders);

export const HANDLERS: Record<OperationName, Handler> = {
  [OPERATIONS.getToken]: getToken,
  [OPERATIONS.addOrder]: addOrder,
  [OPERATIONS.editOrder]: editOrder,
  [OPERATIONS.cancelOrder]: cancelOrder,
  [OPERATIONS.reportStatusOrder]: reportStatusOrder,
  [OPERATIONS.getStatusOrder]: getStatusOrder,
  [OPERATIONS.listOrder]: listOrder,
  [OPERATIONS.addProduct]: addProduct,
  [OPERATIONS.reportSklad]: reportSklad,
  [OPERATIONS.reportMoveProduct]: reportMoveProduct,
  [OPERATIONS.listDeliveryRequest]: listDeliveryRequest,
  [OPERATIONS.addDeliveryRequest]: addDeliveryRequest,
  [OPERATIONS.reportDeliveryRequest]: reportDeliveryRequest,
  [OPERATIONS.listReturnOrder]: listReturnOrder,
  [OPERATIONS.getCities]: getCities,
  [OPERATIONS.getWarehouses]: getWarehouses,
  [OPERATIONS.getStreet]: getStreet,
  [OPERATIONS.senderDetails]: senderDetails,
};
