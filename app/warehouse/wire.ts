// The warehouse's wire literals, each written once. Everything here is quoted from
// ../shared/spec/warehouse-api-notes.md; a literal marked [guess] there is a design decision that a
// merchant setting or a tolerant parser must be able to correct.

/** The provider's addresses ([oa]); production and staging differ only by the ApiKey. */
export const DEFAULT_BASE_URL = "https://fulfillment.in.ua:34443/MTPGroupFulfillment/hs/api";
export const DEFAULT_BASE_URL_V2 = "https://fulfillment.in.ua:34443/MTPGroupFulfillment/hs/api2v/json";
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Operation names, case-sensitive as the provider spells them. */
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

/** The Delivery group is served on the second base address, with the name in the body field `method`. */
export const V2_OPERATIONS = [
  OPERATIONS.listDeliveryRequest,
  OPERATIONS.addDeliveryRequest,
  OPERATIONS.reportDeliveryRequest,
] as const satisfies readonly OperationName[];

/** Operations limited to one call a minute per ApiKey, on top of the 60 a minute for all together. */
export const REPORT_OPERATIONS = [
  OPERATIONS.reportSklad,
  OPERATIONS.reportStatusOrder,
  OPERATIONS.listOrder,
  OPERATIONS.listReturnOrder,
] as const satisfies readonly OperationName[];
export type ReportOperation = (typeof REPORT_OPERATIONS)[number];

export const RATE_LIMIT_WINDOW_MS = 60_000;
export const REQUESTS_PER_WINDOW = 60;
export const REPORT_REQUESTS_PER_WINDOW = 1;
export const MAX_ORDERS_PER_BATCH = 100;
/** ListOrder and ListReturnOrder pages hold at most this many records ([oa]). */
export const LIST_PAGE_SIZE = 100;

/** The body field that carries the key. The v2 group spells it two ways ([oa]); sent exactly so. */
export const API_KEY_FIELD = "ApiKey";
export const V2_API_KEY_FIELD = {
  [OPERATIONS.listDeliveryRequest]: "ApiKey",
  [OPERATIONS.addDeliveryRequest]: "apiKey",
  [OPERATIONS.reportDeliveryRequest]: "apiKey",
} as const;

/** AddDeliveryRequest's comment field: its first letter is CYRILLIC SMALL LETTER ES (bytes d1 81). */
export const DELIVERY_REQUEST_COMMENT_FIELD = "\u0441omment";

export const RESULT_OK = "ok";
export const RESULT_ERROR = "error";

export const PAYMENT_METHOD = {
  cashOnDelivery: "Наличными",
  prepaid: "На карту",
} as const;
export type PaymentMethodLiteral = (typeof PAYMENT_METHOD)[keyof typeof PAYMENT_METHOD];

/** Defaults only: the literal sent for each delivery method is a shop setting ("Ukrposhta" is doubtful). */
export const DELIVERY_METHOD = {
  novaPoshta: "Новая Почта",
  ukrposhta: "Ukrposhta",
  kyivCourier: "Курьерская доставка Киев",
  pickup: "Самовывоз",
} as const;
export type DeliveryMethodLiteral = (typeof DELIVERY_METHOD)[keyof typeof DELIVERY_METHOD];

export const PAYER_TYPE = { recipient: "Recipient", sender: "Sender" } as const;
export const RECIPIENT_TYPE = { privatePerson: "Private person", organization: "Organization" } as const;
export const ADD_PRODUCT_ANSWER_OPTION = "Correct";

/**
 * AddProduct's field lengths in characters ([guess]: no source gives any). The sku and barcode identify the
 * goods and cannot be cut, so their bound is generous and only keeps out text that is plainly not a code;
 * the name is cut to fit, so its bound is the common catalogue name length of the warehouse's accounting
 * system, where a longer name would be refused or cut by the warehouse at a place we do not choose.
 */
export const PRODUCT_FIELD_MAX_LENGTH = { sku: 50, barcode: 50, name: 100 } as const;

/** AddDeliveryRequest's `deliveryMethod` (note the lower-case п, unlike the order literal). */
export const INBOUND_DELIVERY_METHOD = {
  novaPoshta: "Новая почта",
  ownTransport: "На склад",
} as const;

/** ReportDeliveryRequest's `status` ([oa]). */
export const INBOUND_DELIVERY_STATUS = {
  new: 1,
  arrivedNotFullyReceived: 2,
  received: 3,
} as const;

/** Date formats on the wire. */
export const DATE_FORMAT = {
  /** date_order, dateOfDelivery */
  dayMonthYear: /^(0[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])\.(\d{4})$/,
  /** ListOrder, ListReturnOrder, ListDeliveryRequest */
  compactDate: /^(\d{4})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/,
  /** ReportMoveProduct */
  compactDateTime: /^(\d{4})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])([0-5]\d)([0-5]\d)$/,
} as const;

/** 380 followed by nine digits. */
export const PHONE_PATTERN = /^380\d{9}$/;
/** A carrier Ref: 36 characters, lowercase hex uuid form. */
export const CARRIER_REF_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A numeric string as count, price and order_payment_sum are written: digits, an optional dot and decimals. */
export const NUMERIC_STRING_PATTERN = /^\d+(\.\d+)?$/;
