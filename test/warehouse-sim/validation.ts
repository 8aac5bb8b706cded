// Request validation as the warehouse itself would do it, independent of the client's schemas so that a client
// mistake is caught: every error names the field and the bad value, in Russian, as the provider's 1C writes them.
import {
  CARRIER_REF_PATTERN,
  DATE_FORMAT,
  DELIVERY_METHOD,
  type DeliveryMethodLiteral,
  NUMERIC_STRING_PATTERN,
  PAYER_TYPE,
  PAYMENT_METHOD,
  PHONE_PATTERN,
  RECIPIENT_TYPE,
} from "./spec-literals";
import { isCalendarDate } from "./clock";
import type { ReferenceData } from "./reference-data";
import type { KeyStore, OrderLine } from "./state";

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as the message quotes it: strings in quotes, everything else as JSON, long values cut. */
export function show(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const list = (values: readonly string[]) => values.map((value) => `"${value}"`).join(", ");

export const MESSAGES = {
  required: (field: string) => `Не заполнено обязательное поле ${field}`,
  notString: (field: string, value: unknown) =>
    `Некорректное значение поля ${field}: ${show(value)}. Ожидается строка`,
  notBoolean: (field: string, value: unknown) =>
    `Некорректное значение поля ${field}: ${show(value)}. Ожидается true или false`,
  notOneOf: (field: string, value: unknown, allowed: readonly string[]) =>
    `Некорректное значение поля ${field}: ${show(value)}. Допустимые значения: ${list(allowed)}`,
  dayMonthYear: (field: string, value: unknown) =>
    `Некорректная дата ${field}: ${show(value)}. Ожидается дата в формате ДД.ММ.ГГГГ`,
  compactDate: (field: string, value: unknown) =>
    `Некорректная дата ${field}: ${show(value)}. Ожидается дата в формате ГГГГММДД`,
  compactDateTime: (field: string, value: unknown) =>
    `Некорректная дата ${field}: ${show(value)}. Ожидается дата и время в формате ГГГГММДДччммсс`,
  periodReversed: (from: string, to: string) => `Начало периода ${from} позже его окончания ${to}`,
  page: (value: unknown) => `Некорректный номер страницы page: ${show(value)}. Ожидается целое число от 1`,
  phone: (value: unknown) => `Некорректный номер телефона rec_phone: ${show(value)}. Ожидается 380XXXXXXXXX`,
  cost: (value: unknown) =>
    `Некорректное значение Cost: ${show(value)}. Ожидается целое неотрицательное число (гривны), не строка`,
  paymentMethod: (value: unknown) =>
    `Некорректный способ оплаты payment_method: ${show(value)}. Допустимые значения: ${list(Object.values(PAYMENT_METHOD))}`,
  deliveryMethod: (value: unknown) =>
    `Некорректный способ доставки delivery_method: ${show(value)}. Допустимые значения: ${list(Object.values(DELIVERY_METHOD))}`,
  paymentSum: (value: unknown) =>
    `Некорректная сумма order_payment_sum: ${show(value)}. Ожидается число строкой, например "149.50", или пустая строка`,
  noProducts: () => "Не заполнен список товаров products: нужна хотя бы одна строка",
  count: (field: string, value: unknown, sku: string) =>
    `Некорректное количество ${field}: ${show(value)} (sku "${sku}"). Ожидается целое число больше нуля строкой, например "2"`,
  price: (field: string, value: unknown, sku: string) =>
    `Некорректная цена ${field}: ${show(value)} (sku "${sku}"). Ожидается число строкой, например "149.50"`,
  unknownSku: (field: string, sku: string) => `Товар с артикулом ${field}: "${sku}" не найден в каталоге`,
  addressRequired: (field: string, method: string) =>
    `Не заполнено обязательное поле delivery_address.${field} (обязательно для способа доставки "${method}")`,
  unknownBranch: (value: unknown) =>
    `Отделение delivery_address.WarehouseRef: ${show(value)} не найдено в справочнике отделений перевозчика`,
  postcode: (value: unknown) =>
    `Некорректный индекс delivery_address.postcode: ${show(value)}. Ожидается 5 цифр`,
  unknownCity: (value: unknown) =>
    `Город delivery_address.DeliveryCity: ${show(value)} не найден в справочнике`,
  notKyiv: (value: unknown, name: string) =>
    `Курьерская доставка Киев возможна только по Киеву, указан город delivery_address.DeliveryCity: ${show(value)} (${name})`,
  ownTtn: (value: unknown) =>
    `Некорректный номер ТТН delivery_address.ttn: ${show(value)}. Ожидается 14 цифр (itMyTTN: true)`,
  edrpou: (value: unknown) => `Некорректный код ЕДРПОУ EDRPOU: ${show(value)}. Ожидается 8 цифр`,
  unknownSender: (value: unknown) =>
    `Отправитель delivery_sender_id: ${show(value)} не найден в данных отправителя`,
  insufficientStock: (sku: string, ordered: number, available: number) =>
    `Недостаточно товара sku: "${sku}" на складе: заказано ${ordered}, доступно ${available}`,
  duplicateIdOrder: (idOrder: string, idOrderFF: string) =>
    `Заказ с номером id_order: "${idOrder}" уже существует (${idOrderFF})`,
  unknownKeyOrder: (value: unknown) => `Заказ с ключом key_order: ${show(value)} не найден`,
  unknownIdOrder: (value: unknown) => `Заказ с номером id_order: ${show(value)} не найден`,
  notObject: (field: string, value: unknown) =>
    `Некорректное значение поля ${field}: ${show(value)}. Ожидается объект`,
  notArray: (field: string, value: unknown) =>
    `Некорректное значение поля ${field}: ${show(value)}. Ожидается массив`,
} as const;

/** Collects messages; each helper returns the checked value or undefined when it added a message. */
export class Checker {
  readonly errors: string[] = [];

  constructor(private readonly source: JsonObject) {}

  fail(message: string): undefined {
    this.errors.push(message);
    return undefined;
  }

  requiredString(field: string, label = field): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === "") return this.fail(MESSAGES.required(label));
    if (typeof value !== "string") return this.fail(MESSAGES.notString(label, value));
    return value;
  }

  optionalString(field: string, label = field): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") return this.fail(MESSAGES.notString(label, value));
    return value;
  }

  optionalBoolean(field: string, label = field): boolean | undefined {
    const value = this.source[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "boolean") return this.fail(MESSAGES.notBoolean(label, value));
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], required: boolean): T | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === "")
      return required ? this.fail(MESSAGES.required(field)) : undefined;
    if (!allowed.includes(value as T)) return this.fail(MESSAGES.notOneOf(field, value, allowed));
    return value as T;
  }

  dayMonthYear(field: string, required = true): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === "")
      return required ? this.fail(MESSAGES.required(field)) : undefined;
    return isDayMonthYear(value) ? value : this.fail(MESSAGES.dayMonthYear(field, value));
  }

  compactDate(field: string): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === "") return this.fail(MESSAGES.required(field));
    return isCompactDate(value) ? value : this.fail(MESSAGES.compactDate(field, value));
  }

  compactDateTime(field: string): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === "") return this.fail(MESSAGES.required(field));
    return isCompactDateTime(value) ? value : this.fail(MESSAGES.compactDateTime(field, value));
  }

  /** `page` of the list operations: absent means the first. */
  page(): number | undefined {
    const value = this.source.page;
    if (value === undefined || value === null) return 1;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      return this.fail(MESSAGES.page(value));
    return value;
  }

  /** A from/to period whose ends are comparable as text (both compact dates or both compact moments). */
  period(from: string | undefined, to: string | undefined): void {
    if (from !== undefined && to !== undefined && from > to) this.fail(MESSAGES.periodReversed(from, to));
  }
}

export function isDayMonthYear(value: unknown): value is string {
  const match = typeof value === "string" ? DATE_FORMAT.dayMonthYear.exec(value) : null;
  return match !== null && isCalendarDate(Number(match[3]), Number(match[2]), Number(match[1]));
}

export function isCompactDate(value: unknown): value is string {
  const match = typeof value === "string" ? DATE_FORMAT.compactDate.exec(value) : null;
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

export function isCompactDateTime(value: unknown): value is string {
  const match = typeof value === "string" ? DATE_FORMAT.compactDateTime.exec(value) : null;
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A quantity as order and inbound lines carry it: a whole number above zero, written as a string. */
export function parseCount(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return undefined;
  const count = Number(value);
  return count > 0 && Number.isSafeInteger(count) ? count : undefined;
}

export function parsePrice(value: unknown): number | undefined {
  return typeof value === "string" && NUMERIC_STRING_PATTERN.test(value) ? Number(value) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// The order object of AddOrder and EditOrder.

const ORDER_FIELDS = new Set([
  "id_order",
  "external_id",
  "key_order",
  "date_order",
  "recipient",
  "rec_phone",
  "comment",
  "serviceComment",
  "Cost",
  "Draft",
  "PayerType",
  "payment_method",
  "order_payment_sum",
  "delivery_method",
  "delivery_sender_id",
  "RecipientType",
  "OrganizationName",
  "EDRPOU",
  "OwnershipForm",
  "delivery_address",
  "products",
]);
const ADDRESS_FIELDS = new Set([
  "WarehouseRef",
  "postcode",
  "DeliveryCity",
  "Street",
  "House",
  "Flat",
  "NumberOfFloorsLifting",
  "itMyTTN",
  "ttn",
  "ttnRef",
]);
const LINE_FIELDS = new Set(["sku", "name", "count", "price"]);

export interface ValidOrder {
  /** Absent only in an EditOrder that keeps the order's id. */
  id_order?: string;
  key_order?: string;
  deliveryMethod: DeliveryMethodLiteral;
  draft: boolean;
  lines: OrderLine[];
  submitted: JsonObject;
}

export interface OrderCheck {
  order?: ValidOrder;
  errors: string[];
  /** Fields the warehouse does not know, silently ignored as a 1C service would (counted in stats). */
  ignoredFields: string[];
}

export interface OrderContext {
  store: KeyStore;
  reference: ReferenceData;
  kyivCityRef: string;
}

export function checkOrder(input: unknown, context: OrderContext, forEdit: boolean): OrderCheck {
  if (!isObject(input)) return { errors: [MESSAGES.notObject("order", input)], ignoredFields: [] };
  const ignoredFields = Object.keys(input).filter((field) => !ORDER_FIELDS.has(field));
  const check = new Checker(input);

  // EditOrder identifies the order by key_order ([oa]); its id_order may be left out to keep the old one.
  const id_order = forEdit ? check.optionalString("id_order") : check.requiredString("id_order");
  const key_order = forEdit ? check.requiredString("key_order") : undefined;
  check.optionalString("external_id");
  check.dayMonthYear("date_order");
  check.requiredString("recipient");
  const phone = input.rec_phone;
  if (phone === undefined || phone === null || phone === "") check.fail(MESSAGES.required("rec_phone"));
  else if (typeof phone !== "string" || !PHONE_PATTERN.test(phone)) check.fail(MESSAGES.phone(phone));
  check.optionalString("comment");
  check.optionalString("serviceComment");
  const cost = input.Cost;
  if (cost === undefined || cost === null) check.fail(MESSAGES.required("Cost"));
  else if (typeof cost !== "number" || !Number.isSafeInteger(cost) || cost < 0)
    check.fail(MESSAGES.cost(cost));
  const draft = check.optionalBoolean("Draft") ?? false;
  check.oneOf("PayerType", Object.values(PAYER_TYPE), false);

  const payment = input.payment_method;
  if (payment === undefined || payment === null || payment === "")
    check.fail(MESSAGES.required("payment_method"));
  else if (!(Object.values(PAYMENT_METHOD) as unknown[]).includes(payment))
    check.fail(MESSAGES.paymentMethod(payment));
  // Empty (or absent) means "the order total" ([oa]); a number instead of a numeric string is the usual mistake.
  const sum = input.order_payment_sum;
  if (sum !== undefined && sum !== null && sum !== "" && parsePrice(sum) === undefined)
    check.fail(MESSAGES.paymentSum(sum));

  const method = input.delivery_method;
  let deliveryMethod: DeliveryMethodLiteral | undefined;
  if (method === undefined || method === null || method === "")
    check.fail(MESSAGES.required("delivery_method"));
  else if (!(Object.values(DELIVERY_METHOD) as unknown[]).includes(method))
    check.fail(MESSAGES.deliveryMethod(method));
  else deliveryMethod = method as DeliveryMethodLiteral;

  const senderId = check.optionalString("delivery_sender_id");
  if (senderId && !context.store.account.senders.some((sender) => sender.id === senderId))
    check.fail(MESSAGES.unknownSender(senderId));
  const recipientType = check.oneOf("RecipientType", Object.values(RECIPIENT_TYPE), false);
  check.optionalString("OwnershipForm");
  if (recipientType === RECIPIENT_TYPE.organization) {
    check.requiredString("OrganizationName");
    const edrpou = check.requiredString("EDRPOU");
    if (edrpou !== undefined && !/^\d{8}$/.test(edrpou)) check.fail(MESSAGES.edrpou(edrpou));
  } else {
    check.optionalString("OrganizationName");
    check.optionalString("EDRPOU");
  }

  if (deliveryMethod) checkAddress(input.delivery_address, deliveryMethod, context, check, ignoredFields);
  else if (input.delivery_address !== undefined && !isObject(input.delivery_address))
    check.fail(MESSAGES.notObject("delivery_address", input.delivery_address));

  const lines = checkLines(input.products, context.store, check, ignoredFields);

  if (check.errors.length > 0 || (!id_order && !forEdit) || !deliveryMethod || !lines)
    return { errors: check.errors, ignoredFields };
  return {
    order: { id_order, key_order, deliveryMethod, draft, lines, submitted: input },
    errors: [],
    ignoredFields,
  };
}

function checkAddress(
  address: unknown,
  method: DeliveryMethodLiteral,
  context: OrderContext,
  check: Checker,
  ignoredFields: string[],
): void {
  if (address === undefined || address === null) {
    if (method !== DELIVERY_METHOD.pickup) check.fail(MESSAGES.required("delivery_address"));
    return;
  }
  if (!isObject(address)) {
    check.fail(MESSAGES.notObject("delivery_address", address));
    return;
  }
  for (const field of Object.keys(address))
    if (!ADDRESS_FIELDS.has(field)) ignoredFields.push(`delivery_address.${field}`);
  const at = new Checker(address);
  const label = (field: string) => `delivery_address.${field}`;
  for (const field of ["Flat", "NumberOfFloorsLifting", "ttnRef"]) at.optionalString(field, label(field));
  const ownTtn = at.optionalBoolean("itMyTTN", label("itMyTTN")) ?? false;
  const ttn = at.optionalString("ttn", label("ttn"));
  if (ownTtn && (ttn === undefined || !/^\d{14}$/.test(ttn))) at.fail(MESSAGES.ownTtn(address.ttn));

  const required = (field: string): string | undefined => {
    const value = address[field];
    if (value === undefined || value === null || value === "")
      return at.fail(MESSAGES.addressRequired(field, method));
    if (typeof value !== "string") return at.fail(MESSAGES.notString(label(field), value));
    return value;
  };

  if (method === DELIVERY_METHOD.novaPoshta) {
    // With the client's own waybill (itMyTTN) the parcel is already addressed; otherwise a branch is needed.
    const ref = ownTtn ? at.optionalString("WarehouseRef", label("WarehouseRef")) : required("WarehouseRef");
    if (ref !== undefined && (!CARRIER_REF_PATTERN.test(ref) || !context.reference.branchByRef(ref)))
      at.fail(MESSAGES.unknownBranch(ref));
  } else if (method === DELIVERY_METHOD.ukrposhta) {
    const postcode = required("postcode");
    if (postcode !== undefined && !/^\d{5}$/.test(postcode)) at.fail(MESSAGES.postcode(postcode));
  } else if (method === DELIVERY_METHOD.kyivCourier) {
    const cityRef = required("DeliveryCity");
    const city = cityRef === undefined ? undefined : context.reference.cityByRef(cityRef);
    if (cityRef !== undefined && !city) at.fail(MESSAGES.unknownCity(cityRef));
    else if (cityRef !== undefined && city && cityRef !== context.kyivCityRef)
      at.fail(MESSAGES.notKyiv(cityRef, city.Description));
    required("Street");
    required("House");
  }
  check.errors.push(...at.errors);
}

function checkLines(
  products: unknown,
  store: KeyStore,
  check: Checker,
  ignoredFields: string[],
): OrderLine[] | undefined {
  if (products === undefined || products === null) return check.fail(MESSAGES.noProducts());
  if (!Array.isArray(products)) return check.fail(MESSAGES.notArray("products", products));
  if (products.length === 0) return check.fail(MESSAGES.noProducts());
  const lines: OrderLine[] = [];
  products.forEach((product: unknown, index) => {
    const label = (field: string) => `products[${index}].${field}`;
    if (!isObject(product)) return check.fail(MESSAGES.notObject(`products[${index}]`, product));
    for (const field of Object.keys(product)) if (!LINE_FIELDS.has(field)) ignoredFields.push(label(field));
    const line = new Checker(product);
    const sku = line.requiredString("sku", label("sku"));
    const name = line.optionalString("name", label("name"));
    const count = parseCount(product.count);
    if (count === undefined) line.fail(MESSAGES.count(label("count"), product.count, sku ?? ""));
    const price = parsePrice(product.price);
    if (price === undefined) line.fail(MESSAGES.price(label("price"), product.price, sku ?? ""));
    const known = sku === undefined ? undefined : store.products.get(sku);
    if (sku !== undefined && !known) line.fail(MESSAGES.unknownSku(label("sku"), sku));
    check.errors.push(...line.errors);
    if (line.errors.length === 0 && known && count !== undefined && price !== undefined)
      lines.push({ sku: known.sku, name: name || known.name, count, price });
  });
  return lines.length === products.length ? lines : undefined;
}

/** The stock an order needs beyond what is free, per sku; `own` lines (the order being edited) count as free. */
export function stockShortages(
  store: KeyStore,
  lines: readonly OrderLine[],
  own: readonly OrderLine[] = [],
): string[] {
  const wanted = new Map<string, number>();
  for (const line of lines) wanted.set(line.sku, (wanted.get(line.sku) ?? 0) + line.count);
  const released = new Map<string, number>();
  for (const line of own) released.set(line.sku, (released.get(line.sku) ?? 0) + line.count);
  const shortages: string[] = [];
  for (const [sku, count] of wanted) {
    const available = store.available(sku) + (released.get(sku) ?? 0);
    if (count > available) shortages.push(MESSAGES.insufficientStock(sku, count, Math.max(0, available)));
  }
  return shortages;
}
