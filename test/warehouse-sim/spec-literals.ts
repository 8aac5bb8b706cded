// The simulator's wire literals, written here from the specification and not imported from the app's client
// (app/warehouse/wire.ts), which the simulator exists to check: a literal wrong in the client then fails a test
// against the simulator instead of being wrong on both sides. Sources, beside the project in ../shared/spec/:
// warehouse-api.md (the specification), warehouse-api-notes.md (what the provider's OpenAPI file adds, with
// [spec]/[oa]/[guess] marks) and provider-openapi.json. spec-literals.test.ts checks each literal is there.

/** Operation names, case-sensitive (warehouse-api-notes.md, "Operations"; warehouse-api.md, "Endpoints"). */
export const OPERATIONS = {
  getToken: "GetToken",
  addOrder: "AddOrder",
  editOrder: "EditOrder",
  cancelOrder: "CancelOrder",
  reportStatusOrder: "ReportStatusOrder",
  getStatusOrder: "getStatusOrder",
  listOrder: "ListOrder",
  addProduct: "AddProduct",
  reportSklad: "ReportSklad",
  reportMoveProduct: "ReportMoveProduct",
  listDeliveryRequest: "ListDeliveryRequest",
  addDeliveryRequest: "AddDeliveryRequest",
  reportDeliveryRequest: "ReportDeliveryRequest",
  listReturnOrder: "ListReturnOrder",
  getCities: "getCities",
  getWarehouses: "getWarehouses",
  getStreet: "getStreet",
  senderDetails: "senderDetails",
} as const;

export type OperationName = (typeof OPERATIONS)[keyof typeof OPERATIONS];
export const OPERATION_NAMES = Object.values(OPERATIONS) as OperationName[];

/** The Delivery group, on the v2 address with the name in the body's `method` (notes, "Addresses" [oa]). */
export const V2_OPERATIONS = [
  OPERATIONS.listDeliveryRequest,
  OPERATIONS.addDeliveryRequest,
  OPERATIONS.reportDeliveryRequest,
] as const satisfies readonly OperationName[];

/** One request a minute each, besides 60 a minute for all together (warehouse-api.md, "Limits"). */
export const REPORT_OPERATIONS = [
  OPERATIONS.reportSklad,
  OPERATIONS.reportStatusOrder,
  OPERATIONS.listOrder,
  OPERATIONS.listReturnOrder,
] as const satisfies readonly OperationName[];

/** warehouse-api.md, "Limits": 60 requests per minute per ApiKey, 1 a minute for a report, 100 orders a batch. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const REQUESTS_PER_WINDOW = 60;
export const REPORT_REQUESTS_PER_WINDOW = 1;
export const MAX_ORDERS_PER_BATCH = 100;
/** ListOrder and ListReturnOrder pages: "up to 100 a page" (notes, "Operations" [oa]). */
export const LIST_PAGE_SIZE = 100;

/** The key's body field; the v2 group spells it `ApiKey` in List, `apiKey` in Add and Report (notes, "v2 quirks"). */
export const API_KEY_FIELD = "ApiKey";
export const V2_API_KEY_FIELD = {
  [OPERATIONS.listDeliveryRequest]: "ApiKey",
  [OPERATIONS.addDeliveryRequest]: "apiKey",
  [OPERATIONS.reportDeliveryRequest]: "apiKey",
} as const;

/** AddDeliveryRequest's comment field, its first letter Cyrillic `с` (bytes d1 81) (notes, "v2 quirks"). */
export const DELIVERY_REQUEST_COMMENT_FIELD = "\u0441omment";

/** The envelope's `result` (notes, "Envelope and errors" [spec][oa]). */
export const RESULT_OK = "ok";
export const RESULT_ERROR = "error";

/** `payment_method` (warehouse-api.md, "Order"; notes, "The AddOrder order object"). */
export const PAYMENT_METHOD = {
  cashOnDelivery: "Наличными",
  prepaid: "На карту",
} as const;

/**
 * `delivery_method` (notes, "The AddOrder order object" [oa]; warehouse-api.md, "Order", for the last two):
 * the carrier's name in Russian with a capital П, the postal operator's in Latin letters.
 */
export const DELIVERY_METHOD = {
  novaPoshta: "Новая Почта",
  ukrposhta: "Ukrposhta",
  kyivCourier: "Курьерская доставка Киев",
  pickup: "Самовывоз",
} as const;
export type DeliveryMethodLiteral = (typeof DELIVERY_METHOD)[keyof typeof DELIVERY_METHOD];

/** `PayerType` (warehouse-api.md, "Order"). */
export const PAYER_TYPE = { recipient: "Recipient", sender: "Sender" } as const;
/** `RecipientType` (notes, "The AddOrder order object" [oa]). */
export const RECIPIENT_TYPE = { privatePerson: "Private person", organization: "Organization" } as const;
/** AddProduct's `AnswerOption` (notes, "Operations" [oa]). */
export const ADD_PRODUCT_ANSWER_OPTION = "Correct";

/** AddDeliveryRequest's `deliveryMethod`, lower-case п unlike the order's (notes, "Operations" [oa]). */
export const INBOUND_DELIVERY_METHOD = {
  novaPoshta: "Новая почта",
  ownTransport: "На склад",
} as const;

/** ReportDeliveryRequest's `status`: 1 new, 2 arrived not fully received, 3 received (notes, "Operations"). */
export const INBOUND_DELIVERY_STATUS = {
  new: 1,
  arrivedNotFullyReceived: 2,
  received: 3,
} as const;

/** Dates on the wire: `DD.MM.YYYY`, `YYYYMMDD`, `YYYYMMDDHHMMSS` (warehouse-api.md, "Order"; notes, "Operations"). */
export const DATE_FORMAT = {
  /** date_order, dateOfDelivery */
  dayMonthYear: /^(0[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])\.(\d{4})$/,
  /** ListOrder, ListReturnOrder, ListDeliveryRequest */
  compactDate: /^(\d{4})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/,
  /** ReportMoveProduct */
  compactDateTime: /^(\d{4})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])([0-5]\d)([0-5]\d)$/,
} as const;

/** `rec_phone`: 380 followed by nine digits (warehouse-api.md, "Order"). */
export const PHONE_PATTERN = /^380\d{9}$/;
/** A carrier `Ref`: 36 characters, lowercase hex uuid form (notes, "Carrier reference records"). */
export const CARRIER_REF_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `count`, `price`, `order_payment_sum`: numeric strings (warehouse-api.md, "Order"). */
export const NUMERIC_STRING_PATTERN = /^\d+(\.\d+)?$/;
