// zod schemas for every request the client sends and every answer it reads, as the notes give them.
// Requests are strict (we only send what we mean); answers are loose objects (the provider may add
// fields) but strict on every field the app reads, so a changed answer fails loudly and says where.
import { z } from "zod";
import {
  ADD_PRODUCT_ANSWER_OPTION,
  CARRIER_REF_PATTERN,
  DATE_FORMAT,
  DELIVERY_REQUEST_COMMENT_FIELD,
  INBOUND_DELIVERY_METHOD,
  INBOUND_DELIVERY_STATUS,
  NUMERIC_STRING_PATTERN,
  PAYER_TYPE,
  PAYMENT_METHOD,
  PHONE_PATTERN,
  PRODUCT_FIELD_MAX_LENGTH,
  RECIPIENT_TYPE,
  RESULT_ERROR,
  RESULT_OK,
} from "./wire";

const numericString = (what: string) =>
  z.string().regex(NUMERIC_STRING_PATTERN, `${what} must be a number written as a string, e.g. "149.50"`);
const dayMonthYear = z.string().regex(DATE_FORMAT.dayMonthYear, "must be a date written DD.MM.YYYY");
/** A calendar date as callers write it, YYYY-MM-DD, and a real one (no 31 February). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, "must be a real calendar date");
const compactDate = z.string().regex(DATE_FORMAT.compactDate, "must be a date written YYYYMMDD");
const compactDateTime = z
  .string()
  .regex(DATE_FORMAT.compactDateTime, "must be a date and time written YYYYMMDDHHMMSS");
const carrierRef = z
  .string()
  .regex(CARRIER_REF_PATTERN, "must be a carrier Ref (36-character lowercase uuid)");

// ---------------------------------------------------------------------------------------------------
// The order object of AddOrder and EditOrder.

export const orderLineSchema = z.strictObject({
  sku: z.string().min(1, "sku must not be empty"),
  name: z.string(),
  count: numericString("count"),
  price: numericString("price"),
});

/** Branch delivery uses WarehouseRef; the postal operator postcode; address delivery city and street. */
export const deliveryAddressSchema = z.strictObject({
  WarehouseRef: carrierRef.optional(),
  postcode: z.string().optional(),
  DeliveryCity: carrierRef.optional(),
  Street: z.string().optional(),
  House: z.string().optional(),
  Flat: z.string().optional(),
  NumberOfFloorsLifting: z.string().optional(),
  itMyTTN: z.boolean().optional(),
  ttn: z.string().optional(),
  ttnRef: z.string().optional(),
});

export const warehouseOrderSchema = z.strictObject({
  id_order: z.string().min(1),
  external_id: z.string().optional(),
  key_order: z.string().optional(),
  date_order: dayMonthYear,
  recipient: z.string().min(1),
  rec_phone: z.string().regex(PHONE_PATTERN, "rec_phone must be 380 followed by nine digits"),
  comment: z.string().optional(),
  serviceComment: z.string().optional(),
  Cost: z.number().int("Cost must be a whole number of UAH").nonnegative(),
  Draft: z.boolean().optional(),
  PayerType: z.enum([PAYER_TYPE.recipient, PAYER_TYPE.sender]).optional(),
  payment_method: z.enum([PAYMENT_METHOD.cashOnDelivery, PAYMENT_METHOD.prepaid]),
  order_payment_sum: z.union([numericString("order_payment_sum"), z.literal("")]),
  // The literal is a shop setting with these defaults, so any non-empty text is accepted here.
  delivery_method: z.string().min(1),
  delivery_sender_id: z.string().optional(),
  RecipientType: z.enum([RECIPIENT_TYPE.privatePerson, RECIPIENT_TYPE.organization]).optional(),
  OrganizationName: z.string().optional(),
  EDRPOU: z.string().optional(),
  OwnershipForm: z.string().optional(),
  delivery_address: deliveryAddressSchema,
  products: z.array(orderLineSchema).min(1, "an order needs at least one product line"),
});
export type WarehouseOrder = z.infer<typeof warehouseOrderSchema>;

/** EditOrder identifies the order by key_order ([oa]). */
export const editedOrderSchema = warehouseOrderSchema.extend({ key_order: z.string().min(1) });
export type EditedWarehouseOrder = z.infer<typeof editedOrderSchema>;

// ---------------------------------------------------------------------------------------------------
// Other requests (the part after ApiKey).

const productField = (field: keyof typeof PRODUCT_FIELD_MAX_LENGTH) =>
  z
    .string()
    .max(
      PRODUCT_FIELD_MAX_LENGTH[field],
      `${field} must be at most ${PRODUCT_FIELD_MAX_LENGTH[field]} characters`,
    );

export const addProductSchema = z.strictObject({
  sku: productField("sku").min(1),
  name: productField("name").min(1),
  barcode: productField("barcode").optional(),
  AnswerOption: z.literal(ADD_PRODUCT_ANSWER_OPTION).default(ADD_PRODUCT_ANSWER_OPTION),
});
export type AddProductInput = z.input<typeof addProductSchema>;

export const listPeriodSchema = z.strictObject({
  datefrom: compactDate,
  dateto: compactDate,
  page: z.number().int().min(1).optional(),
});

export const moveProductQuerySchema = z.strictObject({
  dataStart: compactDateTime,
  dataFinish: compactDateTime,
  productSku: z.string().optional(),
});

export const stockQuerySchema = z.strictObject({
  ExcludeZero: z.boolean().optional(),
  ShowStorageDate: z.boolean().optional(),
});

export const inboundProductSchema = z.strictObject({
  sku: z.string().min(1),
  name: z.string(),
  count: numericString("count"),
  price: numericString("price").optional(),
});

/**
 * AddDeliveryRequest as callers give it: a plain `comment`, the date as YYYY-MM-DD and whole numbers. The
 * client writes the wire's forms itself (addDeliveryRequestWire), so the v2 quirks stay inside it.
 */
export const addDeliveryRequestSchema = z.strictObject({
  idRequest: z.string().min(1),
  dateOfDelivery: isoDate,
  deliveryMethod: z.enum([INBOUND_DELIVERY_METHOD.novaPoshta, INBOUND_DELIVERY_METHOD.ownTransport]),
  seatsAmount: z.number().int().positive(),
  ttn: z.string().optional(),
  comment: z.string().optional(),
  products: z
    .array(
      z.strictObject({
        sku: z.string().min(1),
        name: z.string(),
        count: z.number().int().positive(),
        price: numericString("price").optional(),
      }),
    )
    .optional(),
});
export type AddDeliveryRequestInput = z.infer<typeof addDeliveryRequestSchema>;

/** AddDeliveryRequest's `properties` as the wire has them ([oa]): DD.MM.YYYY, strings, the Cyrillic сomment. */
export const addDeliveryRequestWireSchema = z.strictObject({
  idRequest: z.string().min(1),
  dateOfDelivery: dayMonthYear,
  deliveryMethod: z.enum([INBOUND_DELIVERY_METHOD.novaPoshta, INBOUND_DELIVERY_METHOD.ownTransport]),
  seatsAmount: z.string().regex(/^\d+$/, "seatsAmount must be a whole number written as a string"),
  ttn: z.string().optional(),
  [DELIVERY_REQUEST_COMMENT_FIELD]: z.string().optional(),
  products: z.array(inboundProductSchema).optional(),
});
export type AddDeliveryRequestWire = z.infer<typeof addDeliveryRequestWireSchema>;

/** The caller's request in the wire's forms: "2026-11-20" → "20.11.2026", numbers as strings, сomment. */
export function addDeliveryRequestWire(request: AddDeliveryRequestInput): AddDeliveryRequestWire {
  const [year, month, day] = request.dateOfDelivery.split("-");
  return {
    idRequest: request.idRequest,
    dateOfDelivery: `${day}.${month}.${year}`,
    deliveryMethod: request.deliveryMethod,
    seatsAmount: String(request.seatsAmount),
    ...(request.ttn !== undefined && { ttn: request.ttn }),
    ...(request.comment !== undefined && { [DELIVERY_REQUEST_COMMENT_FIELD]: request.comment }),
    ...(request.products && {
      products: request.products.map((line) => ({
        sku: line.sku,
        name: line.name,
        count: String(line.count),
        ...(line.price !== undefined && { price: line.price }),
      })),
    }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Answers.

/** The v1 envelope. `errors` are plain strings ([oa]); Data's shape depends on the operation. */
export const envelopeSchema = z.looseObject({
  result: z.enum([RESULT_OK, RESULT_ERROR]),
  Data: z.unknown().optional(),
  errors: z.array(z.string()).optional().default([]),
});

/**
 * The v2 envelope: `success` per the notes. The OpenAPI file also types one v2 answer as the v1
 * envelope, so an answer carrying only `result` is read too.
 */
export const v2EnvelopeSchema = z
  .looseObject({
    success: z.boolean().optional(),
    result: z.enum([RESULT_OK, RESULT_ERROR]).optional(),
    Data: z.unknown().optional(),
    errors: z.array(z.string()).optional().default([]),
  })
  .refine((answer) => answer.success !== undefined || answer.result !== undefined, {
    message: "expected the field `success` (or `result`)",
  })
  .transform(({ success, result, ...rest }) => ({ ...rest, ok: success ?? result === RESULT_OK }));

const looseString = z.union([z.string(), z.number().transform(String)]);

export const tokenDataSchema = z.looseObject({ ApiKey: z.string().min(1) });

export const addedOrderSchema = z.looseObject({
  id_order_FF: z.string().min(1),
  key_order: z.string().min(1),
});
export type AddedOrder = z.infer<typeof addedOrderSchema>;

/**
 * One element of a batch answer ([guess]): accepted with identifiers, or refused with its messages. The
 * expected form of the whole answer is the envelope with `Data` an array holding one of these for each
 * order sent, by its id_order; an account proves it answers so before its orders go in batches
 * (ShopSettings.batchProof), since an answer in another form leaves every order of the batch in doubt.
 */
export const batchOrderResultSchema = z.looseObject({
  id_order: z.string().min(1),
  id_order_FF: z.string().min(1).optional(),
  key_order: z.string().min(1).optional(),
  errors: z.array(z.string()).optional(),
});

export const orderStatusSchema = z.looseObject({
  id_order: z.string(),
  TTN: z.string().optional().default(""),
  DeliveryCost: z.number().optional(),
  warnings: z.array(z.unknown()).optional().default([]),
  status_TTN: z.string().optional().default(""),
  status_TTN_id: looseString.optional().default(""),
  status_TTN_date: z.string().optional().default(""),
  status_mtp: z.string().optional().default(""),
  status_mtp_id: looseString.optional().default(""),
  status_mtp_date: z.string().optional().default(""),
  tracking_novaposhta: z.array(z.looseObject({})).optional().default([]),
});
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** getStatusOrder's dictionary entry; the wire names are not documented, so both spellings are read. */
export const statusDictionaryEntrySchema = z.looseObject({
  id: looseString,
  name: z.string(),
});

/** ListOrder records are not documented; the fields the app relies on are the identifiers. */
export const listedOrderSchema = z.looseObject({
  id_order: z.string(),
  id_order_FF: z.string().optional(),
  key_order: z.string().optional(),
  date_order: z.string().optional(),
  status_mtp: z.string().optional(),
  status_mtp_id: looseString.optional(),
});
export type ListedOrder = z.infer<typeof listedOrderSchema>;

export const stockRowSchema = z.looseObject({
  sku: z.string(),
  quantity: z.number(),
  quantityAvailable: z.number(),
  stock: z.number().optional(),
  barcode: z.string().optional().default(""),
});
export type StockRow = z.infer<typeof stockRowSchema>;

export const movementRowSchema = z.looseObject({
  Period: z.string(),
  MovementDoc: z.string(),
  Quantity: z.number(),
  EndingBalance: z.number(),
});
export type MovementRow = z.infer<typeof movementRowSchema>;

// ListReturnOrder records are not documented beyond a defective-goods ("marriage") flag per line: the client
// answers them as sent, and app/returns/read.ts reads each one on its own.

export const cityRecordSchema = z.looseObject({
  Ref: z.string(),
  Description: z.string(),
  DescriptionRu: z.string().optional(),
  Area: z.string().optional(),
  AreaDescription: z.string().optional(),
  SettlementType: z.string().optional(),
  SettlementTypeDescription: z.string().optional(),
  CityID: z.string().optional(),
  IsBranch: z.string().optional(),
});
export type CityRecord = z.infer<typeof cityRecordSchema>;

export const branchRecordSchema = z.looseObject({
  Ref: z.string(),
  Number: z.string(),
  Description: z.string(),
  DescriptionRu: z.string().optional(),
  ShortAddress: z.string().optional(),
  CityRef: z.string(),
  CityDescription: z.string().optional(),
  TypeOfWarehouse: z.string().optional(),
  CategoryOfWarehouse: z.string().optional(),
  WarehouseStatus: z.string().optional(),
  Latitude: z.string().optional(),
  Longitude: z.string().optional(),
  PlaceMaxWeightAllowed: z.string().optional(),
  PostalCodeUA: z.string().optional(),
  WarehouseIndex: z.string().optional(),
});
export type BranchRecord = z.infer<typeof branchRecordSchema>;

export const streetRecordSchema = z.looseObject({
  Ref: z.string(),
  Description: z.string(),
  StreetsTypeRef: z.string().optional(),
  StreetsType: z.string().optional(),
});
export type StreetRecord = z.infer<typeof streetRecordSchema>;

export const senderRecordSchema = z.looseObject({
  id: looseString,
  name: z.string(),
});
export type SenderRecord = z.infer<typeof senderRecordSchema>;

/** A count as the v2 answers may write it: a number, or a numeric string; anything else reads as absent. */
const wireCount = z.preprocess((value) => {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}, z.number().optional());

/** The v2 status 1, 2 or 3 ([oa]), written as a number or a numeric string. */
const deliveryStatusValue = z.preprocess(
  (value) => (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value),
  z.union([
    z.literal(INBOUND_DELIVERY_STATUS.new),
    z.literal(INBOUND_DELIVERY_STATUS.arrivedNotFullyReceived),
    z.literal(INBOUND_DELIVERY_STATUS.received),
  ]),
);
/** The same in a list's record: anything else reads as absent. */
const deliveryStatus = deliveryStatusValue.optional().catch(undefined);

/**
 * One record of ListDeliveryRequest. The file shows none ("Data: array"): only `id` is required, the rest is
 * read when present (the simulator writes what AddDeliveryRequest took).
 */
export const deliveryRequestRecordSchema = z.looseObject({
  id: looseString,
  idRequest: looseString.optional(),
  dateOfDelivery: z.string().optional(),
  deliveryMethod: z.string().optional(),
  seatsAmount: wireCount,
  ttn: z.string().optional(),
  status: deliveryStatus,
});
export type DeliveryRequestRecord = z.infer<typeof deliveryRequestRecordSchema>;

/**
 * ReportDeliveryRequest's Data. A line's planned `count` is the file's; `countReceived` is the simulator's
 * guess at how the received count comes (the file shows none): both are read when present, never required.
 */
export const deliveryRequestReportSchema = z.looseObject({
  id: looseString,
  status: deliveryStatusValue,
  products: z
    .array(
      z.looseObject({
        sku: looseString,
        name: z.string().optional().catch(undefined),
        count: wireCount,
        countReceived: wireCount,
      }),
    )
    .optional()
    .default([]),
});
export type DeliveryRequestReport = z.infer<typeof deliveryRequestReportSchema>;

/** AddDeliveryRequest's Data is not documented; the id (for ReportDeliveryRequest) is what matters. */
export const addedDeliveryRequestSchema = z.looseObject({ id: looseString });
