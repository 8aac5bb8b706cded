// The warehouse's data: accounts, and per ApiKey an isolated store (catalogue with stock and reservations,
// orders, movements, inbound delivery requests, returns). Production and staging keys never share a store.
import { randomUUID } from "node:crypto";
import type { DeliveryMethodLiteral } from "./spec-literals";
import { compactDateTime, formatDate } from "./clock";
import type { OrderStage } from "./statuses";

export interface SenderDetails {
  id: string;
  name: string;
  EDRPOU: string;
  phone: string;
  CityRef: string;
  CityDescription: string;
  ContactPerson: string;
  [field: string]: string;
}

export interface SimulatorAccount {
  login: string;
  password: string;
  apiKey: string;
  stagingApiKey: string;
  senders: SenderDetails[];
}

export type Environment = "production" | "staging";

export interface ProductRecord {
  sku: string;
  name: string;
  barcode: string;
  /** On hand. */
  quantity: number;
  /** Held by accepted orders not yet shipped. */
  reserved: number;
  lastReceiptAt: number | null;
}

export interface OrderLine {
  sku: string;
  name: string;
  count: number;
  price: number;
}

export interface OrderRecord {
  id_order: string;
  id_order_FF: string;
  key_order: string;
  /** The order object as last accepted by AddOrder or EditOrder, for inspection by tests. */
  submitted: Record<string, unknown>;
  lines: OrderLine[];
  deliveryMethod: DeliveryMethodLiteral;
  draft: boolean;
  stage: OrderStage;
  stageAt: number;
  history: Array<{ stage: OrderStage; at: number }>;
  createdAt: number;
  /** Kyiv date of creation, `YYYYMMDD`, which ListOrder filters on. */
  createdDate: string;
  editedAt: number | null;
  TTN: string;
  deliveryCost: number;
}

export interface MovementRecord {
  at: number;
  sku: string;
  quantity: number;
  endingBalance: number;
  document: string;
  /** Kyiv time, `YYYYMMDDHHMMSS`, which ReportMoveProduct filters on. */
  compactAt: string;
}

export interface ReturnLine {
  sku: string;
  count: number;
  marriage: boolean;
}

export interface ReturnRecord {
  id_return: string;
  id_order: string;
  id_order_FF: string;
  at: number;
  createdDate: string;
  TTN: string;
  products: ReturnLine[];
}

export interface InboundLine {
  sku: string;
  name: string;
  count: number;
  price: string;
  received: number;
}

export interface DeliveryRequestRecord {
  id: string;
  idRequest: string;
  dateOfDelivery: string;
  deliveryMethod: string;
  seatsAmount: string;
  ttn: string;
  comment: string;
  products: InboundLine[];
  status: 1 | 2 | 3;
  createdAt: number;
  createdDate: string;
}

/** Per-key sliding windows of the moments of counted requests. */
export interface RateWindows {
  all: number[];
  reports: Map<string, number[]>;
}

export class KeyStore {
  readonly products = new Map<string, ProductRecord>();
  readonly orders: OrderRecord[] = [];
  readonly orderByKey = new Map<string, OrderRecord>();
  readonly ordersById = new Map<string, OrderRecord[]>();
  readonly movements: MovementRecord[] = [];
  readonly returns: ReturnRecord[] = [];
  readonly deliveries = new Map<string, DeliveryRequestRecord>();
  readonly rate: RateWindows = { all: [], reports: new Map() };
  notificationUrl: string | null = null;

  constructor(
    readonly apiKey: string,
    readonly account: SimulatorAccount,
    readonly environment: Environment,
  ) {}

  /** The newest order carrying this client id (ids may repeat: the warehouse accepts duplicates by default). */
  latestOrder(idOrder: string): OrderRecord | undefined {
    return this.ordersById.get(idOrder)?.at(-1);
  }

  addOrder(order: OrderRecord): void {
    this.orders.push(order);
    this.orderByKey.set(order.key_order, order);
    this.indexId(order);
  }

  reindexId(order: OrderRecord, previousId: string): void {
    const same = this.ordersById.get(previousId)?.filter((other) => other !== order) ?? [];
    if (same.length > 0) this.ordersById.set(previousId, same);
    else this.ordersById.delete(previousId);
    this.indexId(order);
  }

  private indexId(order: OrderRecord): void {
    const same = this.ordersById.get(order.id_order);
    if (same) same.push(order);
    else this.ordersById.set(order.id_order, [order]);
  }

  upsertProduct(sku: string, name: string, barcode: string): { product: ProductRecord; created: boolean } {
    const existing = this.products.get(sku);
    if (existing) {
      existing.name = name;
      existing.barcode = barcode;
      return { product: existing, created: false };
    }
    const product = { sku, name, barcode, quantity: 0, reserved: 0, lastReceiptAt: null };
    this.products.set(sku, product);
    return { product, created: true };
  }

  available(sku: string): number {
    const product = this.products.get(sku);
    return product ? product.quantity - product.reserved : 0;
  }

  /** Adds `count` per line to the reservations (negative counts release them). */
  reserve(lines: readonly OrderLine[], sign: 1 | -1 = 1): void {
    for (const line of lines) {
      const product = this.products.get(line.sku);
      if (product) product.reserved = Math.max(0, product.reserved + sign * line.count);
    }
  }

  /** Changes what is on hand and writes the movement row a 1C register would hold for it. */
  move(sku: string, quantity: number, document: string, at: number): MovementRecord | undefined {
    const product = this.products.get(sku);
    if (!product || quantity === 0) return undefined;
    product.quantity += quantity;
    if (quantity > 0) product.lastReceiptAt = at;
    const movement = {
      at,
      sku,
      quantity,
      endingBalance: product.quantity,
      document,
      compactAt: compactDateTime(at),
    };
    this.movements.push(movement);
    return movement;
  }
}

/** Document numbers and names as the warehouse's 1C prints them in movements. */
export const MOVEMENT_DOCUMENT = {
  shipment: (idOrderFF: string, at: number) => `Реализация товаров ${idOrderFF} от ${formatDate(at)}`,
  receipt: (requestId: string, at: number) => `Поступление товаров ${requestId} от ${formatDate(at)}`,
  customerReturn: (idReturn: string, at: number) =>
    `Возврат товаров от покупателя ${idReturn} от ${formatDate(at)}`,
  capitalisation: (number: string, at: number) => `Оприходование товаров ${number} от ${formatDate(at)}`,
  writeOff: (number: string, at: number) => `Списание товаров ${number} от ${formatDate(at)}`,
} as const;

const FIRST_ORDER_NUMBER = 316_001;
const FIRST_TTN = 20_450_000_000_001;
const FIRST_POSTAL_BARCODE = 500_000_000_001;

/** Every store of the simulator and the counters behind the warehouse's own identifiers. */
export class SimulatorState {
  private readonly stores = new Map<string, KeyStore>();
  private readonly accountByKey = new Map<string, { account: SimulatorAccount; environment: Environment }>();
  private counters = { order: 0, ttn: 0, postal: 0, delivery: 0, customerReturn: 0, adjustment: 0 };

  constructor(readonly accounts: readonly SimulatorAccount[]) {
    for (const account of accounts) {
      this.accountByKey.set(account.apiKey, { account, environment: "production" });
      this.accountByKey.set(account.stagingApiKey, { account, environment: "staging" });
    }
  }

  isKnownKey(apiKey: string): boolean {
    return this.accountByKey.has(apiKey);
  }

  /** The store of a known key, created on first use; undefined for an unknown key. */
  store(apiKey: string): KeyStore | undefined {
    let store = this.stores.get(apiKey);
    if (!store) {
      const owner = this.accountByKey.get(apiKey);
      if (!owner) return undefined;
      store = new KeyStore(apiKey, owner.account, owner.environment);
      this.stores.set(apiKey, store);
    }
    return store;
  }

  allStores(): KeyStore[] {
    return [...this.stores.values()];
  }

  reset(): void {
    this.stores.clear();
    this.counters = { order: 0, ttn: 0, postal: 0, delivery: 0, customerReturn: 0, adjustment: 0 };
  }

  nextOrderIds(): { id_order_FF: string; key_order: string } {
    return { id_order_FF: `AVS${FIRST_ORDER_NUMBER + this.counters.order++}`, key_order: randomUUID() };
  }

  /** Nova Poshta waybills are 14 digits. */
  nextTtn(): string {
    return String(FIRST_TTN + this.counters.ttn++);
  }

  /** Ukrposhta barcodes are 13 digits. */
  nextPostalBarcode(): string {
    return String(FIRST_POSTAL_BARCODE + this.counters.postal++).padStart(13, "0");
  }

  nextDeliveryRequestId(): string {
    return String(100_001 + this.counters.delivery++);
  }

  nextReturnId(): string {
    return `ВП-${String(++this.counters.customerReturn).padStart(6, "0")}`;
  }

  nextAdjustmentNumber(): string {
    return `ОП-${String(++this.counters.adjustment).padStart(6, "0")}`;
  }
}
