// In-memory store behind the Shopify fake: shops keyed by myshopify domain, each with its own locations,
// catalogue, inventory and orders. Scalar fields carry their Admin API names so resolvers can expose them as-is.
// Fulfillment orders live here with Shopify's lifecycle (routing, moves, holds, splits, merges, cancels and
// schedules), each change raising the webhook Shopify sends for it into the shop's outbox (webhooks.ts delivers).
import { randomUUID } from "node:crypto";

export type Gid = string;

export function gid(type: string, id: number): Gid {
  return `gid://shopify/${type}/${id}`;
}

/** Splits `gid://shopify/Product/123` (a query string, as on InventoryLevel IDs, is ignored); null if malformed. */
export function parseGid(value: string): { type: string; id: number } | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(value);
  return match?.[1] && match[2] ? { type: match[1], id: Number(match[2]) } : null;
}

/** Quantity states kept per inventory level; `on_hand` is their sum without `incoming`, as in Shopify. */
export type StoredQuantityName =
  "available" | "committed" | "damaged" | "incoming" | "quality_control" | "reserved" | "safety_stock";
export const STORED_QUANTITY_NAMES: readonly StoredQuantityName[] = [
  ...(["available", "committed", "damaged", "incoming"] as const),
  ...(["quality_control", "reserved", "safety_stock"] as const),
];
type Quantities = Partial<Record<StoredQuantityName, number>>;

type Text<K extends string> = Record<K, string>;
type NullableText<K extends string> = Record<K, string | null>;

export type ShopLocaleRecord = { locale: string; name: string; primary: boolean; published: boolean };
export type ShopRecord = Text<
  "id" | "name" | "email" | "currencyCode" | "ianaTimezone" | "myshopifyDomain"
> & {
  /** Host of Shop.primaryDomain; the myshopify domain unless seeded otherwise. */
  primaryDomainHost: string;
  accessToken: string;
  locales: ShopLocaleRecord[];
};
export type LocationRecord = Text<"id" | "name"> & { isActive: boolean; fulfillsOnlineOrders: boolean } & {
  /** The fulfillment service whose location this is (Location.fulfillmentService); null: the merchant's own. */
  fulfillmentServiceId: Gid | null;
} & {
  address: NullableText<"address1" | "address2" | "city" | "province" | "zip"> & { countryCode: string };
};
export type ProductRecord = Text<"id" | "title" | "handle" | "vendor" | "createdAt"> & {
  status: "ACTIVE" | "ARCHIVED" | "DRAFT";
  variantIds: Gid[];
};
/** `price` is a decimal string, as the Money scalar is serialised. */
export type VariantRecord = Text<"id" | "title" | "price" | "createdAt" | "productId" | "inventoryItemId"> &
  NullableText<"sku" | "barcode"> & { position: number };
export type InventoryItemRecord = Text<"id" | "createdAt" | "variantId"> & { tracked: boolean };
export type InventoryLevelRecord = Text<"id" | "updatedAt" | "inventoryItemId" | "locationId"> & {
  quantities: Record<StoredQuantityName, number>;
};
export type LineItemRecord = Text<"id" | "title" | "price"> &
  NullableText<"variantTitle" | "sku" | "variantId"> & { quantity: number } & {
    /** The selling plan (pre-order, subscription) the buyer chose for this line; null for a plain purchase. */
    sellingPlan: { id: Gid; name: string } | null;
  };
export type OrderRecord = Text<"id" | "name" | "createdAt"> & { email: string | null } & {
  lineItems: LineItemRecord[];
  fulfillmentOrderIds: Gid[];
  fulfillmentIds: Gid[];
};
export type FulfillmentOrderStatus =
  "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED" | "INCOMPLETE" | "ON_HOLD" | "SCHEDULED";
export type FulfillmentOrderRecord = Text<
  "id" | "orderId" | "createdAt" | "updatedAt" | "assignedLocationId"
> & {
  status: FulfillmentOrderStatus;
  /** FulfillmentOrderRequestStatus: UNSUBMITTED until a merchant asks a fulfillment service to fulfil it. */
  requestStatus: FulfillmentOrderRequestStatus;
  /** When a SCHEDULED fulfillment order becomes due (ISO); null when it is not scheduled. */
  fulfillAt: string | null;
  /** DeliveryMethodType of the buyer's choice. */
  deliveryMethod: DeliveryMethodType;
  /** What the merchant asked a fulfillment service (FulfillmentOrderMerchantRequest), oldest first. */
  merchantRequests: Array<{
    id: Gid;
    kind: "FULFILLMENT_REQUEST" | "CANCELLATION_REQUEST";
    message: string | null;
  }>;
  lineItems: Array<{ id: Gid; lineItemId: Gid; totalQuantity: number; remainingQuantity: number }>;
  /** FulfillmentOrderAction values; null means what Shopify offers a merchant-managed location in this status. */
  supportedActions: string[] | null;
  /** Holds in force; the fulfillment order is ON_HOLD while any is, and returns to `statusBeforeHold` after. */
  holds: FulfillmentHoldRecord[];
  statusBeforeHold: FulfillmentOrderStatus | null;
};
export type FulfillmentOrderRequestStatus =
  | "UNSUBMITTED"
  | "SUBMITTED"
  | "ACCEPTED"
  | "REJECTED"
  | "CANCELLATION_REQUESTED"
  | "CANCELLATION_ACCEPTED"
  | "CANCELLATION_REJECTED"
  | "CLOSED";
export type DeliveryMethodType = "SHIPPING" | "PICK_UP" | "LOCAL" | "PICKUP_POINT" | "RETAIL" | "NONE";
export type FulfillmentHoldReason =
  | "AWAITING_PAYMENT"
  | "AWAITING_RETURN_ITEMS"
  | "HIGH_RISK_OF_FRAUD"
  | "INCORRECT_ADDRESS"
  | "INVENTORY_OUT_OF_STOCK"
  | "ONLINE_STORE_POST_PURCHASE_CROSS_SELL"
  | "OTHER"
  | "UNKNOWN_DELIVERY_DATE";
/** `byRequestingApp`: placed by the app under test (the fake serves one app), so it may release it. */
export type FulfillmentHoldRecord = Text<"id"> &
  NullableText<"handle" | "reasonNotes"> & { reason: FulfillmentHoldReason; byRequestingApp: boolean };
export type FulfillmentEventRecord = Text<"id" | "status" | "happenedAt" | "createdAt"> &
  NullableText<"message" | "estimatedDeliveryAt" | "address1" | "city" | "province" | "country" | "zip"> &
  Record<"latitude" | "longitude", number | null>;
export type FulfillmentRecord = Text<"id" | "name" | "displayStatus" | "createdAt" | "updatedAt"> &
  NullableText<"inTransitAt" | "deliveredAt" | "estimatedDeliveryAt"> &
  Text<"orderId" | "locationId"> & {
    status: "SUCCESS" | "CANCELLED" | "ERROR" | "FAILURE";
    fulfillmentOrderIds: Gid[];
    lines: Array<{ id: Gid; lineItemId: Gid; quantity: number }>;
    trackingInfo: Array<NullableText<"number" | "url" | "company">>;
    notifyCustomer: boolean;
    events: FulfillmentEventRecord[];
    /**
     * The e-mails Shopify sent the buyer about this fulfillment: the shipping confirmation when it was made
     * with notifyCustomer, a shipping update at each tracking change once the buyer is notified.
     */
    buyerEmails: Array<{ kind: "shipping_confirmation" | "shipping_update"; trackingNumbers: string[] }>;
  };

/** A webhook a change raised, as Shopify would send it: the webhook and event ids stay the same across retries. */
export interface WebhookEntry {
  /** X-Shopify-Webhook-Id */
  id: string;
  /** X-Shopify-Event-Id */
  eventId: string;
  topic: string;
  payload: unknown;
  /** When the change happened (X-Shopify-Triggered-At), on the fake's clock. */
  at: string;
}

/**
 * A rule of Shopify's that a change would break. A mutation answers it as a user error with this message and
 * code; a method called by a test throws it.
 */
export class FulfillmentRuleError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly field: string[] | null = null,
  ) {
    super(message);
  }
}

/** A fulfillment order's line and a quantity of it, as the lifecycle mutations name them. */
export type LineQuantity = { id: Gid; quantity: number };

/** The app the fake serves, as a webhook names the app that placed a hold (`held_by_app`). */
export const FAKE_APP_GID = "gid://shopify/App/1";

export class FakeState {
  private readonly shopsByDomain = new Map<string, ShopStore>();
  // One counter for all shops: Shopify's numeric IDs are unique platform-wide, so GIDs never collide.
  private nextId = 1001;
  private offsetMs = 0;
  /** Called after a shop's change put a webhook in its outbox (the server's delivery listens here). */
  onWebhook: (() => void) | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The fake's time: the clock it was given, moved on by advanceClock. */
  readonly now = (): number => this.clock() + this.offsetMs;

  /** Moves the fake's time on (schedules fall due, timestamps follow); the injected clock is left as it is. */
  advanceClock(ms: number): void {
    if (!(ms >= 0)) throw new Error(`advanceClock: ${ms} is not a forward step`);
    this.offsetMs += ms;
  }

  /** Locales default to Ukrainian only; the first is primary unless one says otherwise. */
  addShop(
    input: { domain: string; accessToken: string } & Partial<Omit<ShopRecord, "id" | "locales">> & {
        locales?: Array<Pick<ShopLocaleRecord, "locale"> & Partial<ShopLocaleRecord>>;
      },
  ): ShopStore {
    if (this.shopsByDomain.has(input.domain)) throw new Error(`shop ${input.domain} is already seeded`);
    const { domain, locales = [{ locale: "uk" }], ...rest } = input;
    const hasPrimary = locales.some((locale) => locale.primary);
    const store = new ShopStore(this, {
      id: gid("Shop", this.allocateId()),
      name: domain.replace(/\.myshopify\.com$/, ""),
      email: `owner@${domain}`,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      myshopifyDomain: domain,
      primaryDomainHost: domain,
      ...rest,
      locales: locales.map((locale, index) => ({
        name: locale.locale,
        primary: !hasPrimary && index === 0,
        published: true,
        ...locale,
      })),
    });
    this.shopsByDomain.set(domain, store);
    return store;
  }

  shop(domain: string): ShopStore | undefined {
    return this.shopsByDomain.get(domain);
  }

  shops(): ShopStore[] {
    return [...this.shopsByDomain.values()];
  }

  shopByToken(accessToken: string): ShopStore | undefined {
    return [...this.shopsByDomain.values()].find((store) => store.shop.accessToken === accessToken);
  }

  allocateId(): number {
    return this.nextId++;
  }

  /** Shopify's DateTime format: UTC, second precision. */
  timestamp(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
}

export class ShopStore {
  readonly locations = new Map<Gid, LocationRecord>();
  readonly products = new Map<Gid, ProductRecord>();
  readonly variants = new Map<Gid, VariantRecord>();
  readonly inventoryItems = new Map<Gid, InventoryItemRecord>();
  readonly inventoryLevels = new Map<string, InventoryLevelRecord>();
  readonly orders = new Map<Gid, OrderRecord>();
  readonly fulfillmentOrders = new Map<Gid, FulfillmentOrderRecord>();
  readonly fulfillments = new Map<Gid, FulfillmentRecord>();
  /**
   * Where the shop's orders go: a line goes to the first location here that is active, fulfils online orders
   * and stocks its variant (has an inventory level for its item). Locations join it as they are added.
   */
  routing: Gid[] = [];
  /** Webhooks this shop's changes raised, oldest first, as Shopify would send them (see emitWebhook). */
  readonly webhookOutbox: WebhookEntry[] = [];
  /** Answers of `@idempotent` mutations by key, replayed on retries as Shopify does. */
  readonly idempotency = new Map<string, { fingerprint: string; payload: unknown }>();

  constructor(
    private readonly state: FakeState,
    readonly shop: ShopRecord,
  ) {}

  /** Records a webhook a change raised (`fulfillment_orders/moved`, ...); delivery is the fake server's. */
  emitWebhook(topic: string, payload: unknown): WebhookEntry {
    const entry = { id: randomUUID(), eventId: randomUUID(), topic, payload, at: this.timestamp() };
    this.webhookOutbox.push(entry);
    this.state.onWebhook?.();
    return entry;
  }

  /** Replaces the routing list; every id must be one of the shop's locations. */
  setRouting(locationIds: readonly Gid[]): void {
    const unknown = locationIds.find((id) => !this.locations.has(id));
    if (unknown) throw new Error(`setRouting: no location ${unknown}`);
    this.routing = [...locationIds];
  }

  newId(type: string): Gid {
    return gid(type, this.state.allocateId());
  }

  timestamp(): string {
    return this.state.timestamp();
  }

  addLocation(
    input: Partial<Omit<LocationRecord, "id" | "address">> & Partial<LocationRecord["address"]> = {},
  ) {
    const {
      name,
      isActive = true,
      fulfillsOnlineOrders = true,
      fulfillmentServiceId = null,
      ...address
    } = input;
    const location: LocationRecord = {
      id: this.newId("Location"),
      name: name ?? `Location ${this.locations.size + 1}`,
      isActive,
      fulfillsOnlineOrders,
      fulfillmentServiceId,
      address: {
        address1: null,
        address2: null,
        city: null,
        province: null,
        zip: null,
        countryCode: "UA",
        ...address,
      },
    };
    this.locations.set(location.id, location);
    this.routing.push(location.id);
    return location;
  }

  /** Every variant gets an inventory item; without `inventory` it is stocked at every location with 0. */
  addProduct(input: {
    title: string;
    vendor?: string;
    status?: ProductRecord["status"];
    variants?: Array<
      Partial<Pick<VariantRecord, "title" | "sku" | "barcode" | "price">> & {
        inventory?: Array<{ locationId: Gid } & Quantities>;
      }
    >;
  }): { product: ProductRecord; variants: VariantRecord[] } {
    const createdAt = this.timestamp();
    const product: ProductRecord = {
      id: this.newId("Product"),
      title: input.title,
      handle: input.title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-"),
      vendor: input.vendor ?? this.shop.name,
      status: input.status ?? "ACTIVE",
      createdAt,
      variantIds: [],
    };
    this.products.set(product.id, product);
    // A Shopify product always has at least one variant, titled "Default Title".
    const variants = (input.variants ?? [{}]).map(({ inventory, ...fields }, index) => {
      const variant: VariantRecord = {
        id: this.newId("ProductVariant"),
        ...{ title: "Default Title", sku: null, barcode: null, price: "0.00", ...fields },
        ...{
          position: index + 1,
          createdAt,
          productId: product.id,
          inventoryItemId: this.newId("InventoryItem"),
        },
      };
      this.variants.set(variant.id, variant);
      const item = { id: variant.inventoryItemId, tracked: true, createdAt, variantId: variant.id };
      this.inventoryItems.set(item.id, item);
      product.variantIds.push(variant.id);
      const stock = inventory ?? [...this.locations.keys()].map((locationId) => ({ locationId }));
      for (const { locationId, ...quantities } of stock) this.stock(item.id, locationId, quantities);
      return variant;
    });
    return { product, variants };
  }

  /** Deletes a product as `productDelete` does: its variants, their inventory items and levels go with it. */
  deleteProduct(productId: Gid): void {
    const product = this.products.get(productId);
    if (!product) throw new Error(`deleteProduct: no product ${productId}`);
    for (const variantId of product.variantIds) {
      const { inventoryItemId } = this.variants.get(variantId)!;
      this.variants.delete(variantId);
      this.inventoryItems.delete(inventoryItemId);
      for (const [key, level] of this.inventoryLevels)
        if (level.inventoryItemId === inventoryItemId) this.inventoryLevels.delete(key);
    }
    this.products.delete(productId);
  }

  /** Activates an item at a location if needed, then sets the given quantity states. */
  stock(inventoryItemId: Gid, locationId: Gid, quantities: Quantities = {}): InventoryLevelRecord {
    if (!this.inventoryItems.has(inventoryItemId) || !this.locations.has(locationId)) {
      throw new Error(`cannot stock ${inventoryItemId} at ${locationId}: not seeded`);
    }
    let level = this.level(inventoryItemId, locationId);
    if (!level) {
      const zero = Object.fromEntries(STORED_QUANTITY_NAMES.map((name) => [name, 0]));
      level = {
        id: `${this.newId("InventoryLevel")}?inventory_item_id=${parseGid(inventoryItemId)?.id}`,
        ...{ updatedAt: this.timestamp(), inventoryItemId, locationId },
        quantities: zero as Record<StoredQuantityName, number>,
      };
      this.inventoryLevels.set(`${inventoryItemId}|${locationId}`, level);
    }
    Object.assign(level.quantities, quantities);
    return level;
  }

  level(inventoryItemId: Gid, locationId: Gid): InventoryLevelRecord | undefined {
    return this.inventoryLevels.get(`${inventoryItemId}|${locationId}`);
  }

  /** A named quantity including the derived `on_hand`; null for a name Shopify does not know. */
  quantity(level: InventoryLevelRecord, name: string): number | null {
    const { incoming: _incoming, ...onHandParts } = level.quantities;
    if (name === "on_hand") return Object.values(onHandParts).reduce((sum, value) => sum + value, 0);
    return name in level.quantities ? level.quantities[name as StoredQuantityName] : null;
  }

  variantBySku(sku: string): VariantRecord | undefined {
    return [...this.variants.values()].find((variant) => variant.sku === sku);
  }

  /**
   * An order, routed as Shopify routes it: with `locationId` every line goes there; otherwise each line goes to
   * the first location of the routing list that is active, fulfils online orders and stocks its variant (a custom
   * item, or a variant stocked nowhere on the list, goes to the list's first such location). The lines of one
   * location (and one `fulfillAt`) form one fulfillment order, and each raises
   * `fulfillment_orders/order_routing_complete`. Lines name a seeded variant by `variantId` or `sku`, or are custom
   * items with a `title`. `fulfillAt` (the order's, or a selling plan's for its line) in the future makes a
   * SCHEDULED fulfillment order, as a pre-order or a subscription's later delivery is.
   */
  addOrder(input: {
    name?: string;
    email?: string | null;
    lineItems: Array<{
      variantId?: Gid;
      sku?: string;
      title?: string;
      quantity: number;
      price?: string;
      sellingPlan?: { name: string; fulfillAt?: string | null };
    }>;
    locationId?: Gid;
    fulfillAt?: string | null;
    deliveryMethod?: DeliveryMethodType;
    fulfillmentOrderStatus?: FulfillmentOrderStatus;
    supportedActions?: string[];
  }): {
    order: OrderRecord;
    fulfillmentOrder: FulfillmentOrderRecord;
    fulfillmentOrders: FulfillmentOrderRecord[];
  } {
    if (input.locationId !== undefined && !this.locations.has(input.locationId))
      throw new Error(`addOrder: no location ${input.locationId}`);
    if (this.locations.size === 0) throw new Error("addOrder needs a seeded location");
    const createdAt = this.timestamp();
    const lines = input.lineItems.map((line) => {
      const variant = line.variantId
        ? this.variants.get(line.variantId)
        : line.sku
          ? this.variantBySku(line.sku)
          : undefined;
      if ((line.variantId || line.sku) && !variant)
        throw new Error(`addOrder: no variant ${line.variantId ?? line.sku}`);
      const record: LineItemRecord = {
        id: this.newId("LineItem"),
        title: line.title ?? (variant && this.products.get(variant.productId)?.title) ?? "Custom item",
        variantTitle: variant && variant.title !== "Default Title" ? variant.title : null,
        ...{
          sku: variant ? variant.sku : null,
          quantity: line.quantity,
          variantId: variant ? variant.id : null,
        },
        price: line.price ?? (variant ? variant.price : "0.00"),
        sellingPlan: line.sellingPlan ? { id: this.newId("SellingPlan"), name: line.sellingPlan.name } : null,
      };
      const given = line.sellingPlan?.fulfillAt ?? input.fulfillAt ?? null;
      if (given !== null && Number.isNaN(Date.parse(given)))
        throw new Error(`addOrder: fulfillAt ${given} is not a date`);
      // Shopify's DateTime: UTC, to the second.
      const fulfillAt = given && new Date(given).toISOString().replace(/\.\d{3}Z$/, "Z");
      return { record, locationId: input.locationId ?? this.routeLine(variant), fulfillAt };
    });
    const order: OrderRecord = {
      id: this.newId("Order"),
      name: input.name ?? `#${1001 + this.orders.size}`,
      email: input.email === undefined ? "customer@example.com" : input.email,
      ...{
        createdAt,
        lineItems: lines.map((line) => line.record),
        fulfillmentOrderIds: [],
        fulfillmentIds: [],
      },
    };
    this.orders.set(order.id, order);
    const groups = new Map<string, typeof lines>();
    for (const line of lines) {
      const key = `${line.locationId}|${line.fulfillAt ?? ""}`;
      groups.set(key, [...(groups.get(key) ?? []), line]);
    }
    const fulfillmentOrders = [...groups.values()].map((group) => {
      const { locationId, fulfillAt } = group[0]!;
      const due = fulfillAt === null || Date.parse(fulfillAt) <= this.state.now();
      const fo = this.createFulfillmentOrder(
        order.id,
        locationId,
        group.map(({ record }) => ({ lineItemId: record.id, quantity: record.quantity })),
        {
          status: input.fulfillmentOrderStatus ?? (due ? "OPEN" : "SCHEDULED"),
          fulfillAt: due ? null : fulfillAt,
          deliveryMethod: input.deliveryMethod ?? "SHIPPING",
          supportedActions: input.supportedActions ?? null,
        },
      );
      // A store commits what an open order will ship at its assigned location the moment the order is placed.
      if (fo.status !== "CLOSED" && fo.status !== "CANCELLED") this.commitUnits(fo, 1);
      return fo;
    });
    for (const fo of fulfillmentOrders)
      this.emitWebhook("fulfillment_orders/order_routing_complete", { fulfillment_order: brief(fo) });
    return { order, fulfillmentOrder: fulfillmentOrders[0]!, fulfillmentOrders };
  }

  /** Where routing sends a line of `variant` (a custom item when undefined); see addOrder. */
  routeLine(variant: VariantRecord | undefined): Gid {
    const candidates = this.routing
      .map((id) => this.locations.get(id))
      .filter(
        (location): location is LocationRecord => !!location?.isActive && location.fulfillsOnlineOrders,
      );
    const stocking =
      variant && candidates.find((location) => this.level(variant.inventoryItemId, location.id));
    return (stocking ?? candidates[0] ?? [...this.locations.values()][0]!).id;
  }

  /** A new fulfillment order of `orderId` at `locationId` holding the given quantities of the order's lines. */
  private createFulfillmentOrder(
    orderId: Gid,
    locationId: Gid,
    lines: Array<{ lineItemId: Gid; quantity: number }>,
    fields: Partial<
      Pick<
        FulfillmentOrderRecord,
        "status" | "fulfillAt" | "deliveryMethod" | "supportedActions" | "requestStatus" | "holds"
      >
    > = {},
  ): FulfillmentOrderRecord {
    const now = this.timestamp();
    const fo: FulfillmentOrderRecord = {
      id: this.newId("FulfillmentOrder"),
      ...{ orderId, status: "OPEN", createdAt: now, updatedAt: now },
      ...{ requestStatus: "UNSUBMITTED", fulfillAt: null, deliveryMethod: "SHIPPING", merchantRequests: [] },
      assignedLocationId: locationId,
      lineItems: lines.map(({ lineItemId, quantity }) => ({
        id: this.newId("FulfillmentOrderLineItem"),
        ...{ lineItemId, totalQuantity: quantity, remainingQuantity: quantity },
      })),
      ...{ supportedActions: null, holds: [], statusBeforeHold: null },
      ...fields,
    };
    this.fulfillmentOrders.set(fo.id, fo);
    this.orders.get(orderId)!.fulfillmentOrderIds.push(fo.id);
    return fo;
  }

  /**
   * Moves the still unfulfilled units of a fulfillment order between `available` and `committed` at its assigned
   * location, as Shopify does when an order is placed (sign 1) or leaves the location (sign -1). Only a tracked
   * item stocked there is counted; `available` may go below 0, as an oversold item's does in Shopify.
   */
  commitUnits(fo: FulfillmentOrderRecord, sign: 1 | -1): void {
    for (const line of fo.lineItems) {
      const level = this.levelOfLine(fo, line.lineItemId);
      if (!level || line.remainingQuantity === 0) continue;
      level.quantities.available -= sign * line.remainingQuantity;
      level.quantities.committed += sign * line.remainingQuantity;
      level.updatedAt = this.timestamp();
    }
  }

  /**
   * A fulfillment of `quantity` units of a fulfillment order's line: they leave `committed`, and so `on_hand`,
   * at the assigned location, as the parcel leaves the shelf.
   */
  fulfilUnits(fo: FulfillmentOrderRecord, lineItemId: Gid, quantity: number): void {
    const level = this.levelOfLine(fo, lineItemId);
    if (!level) return;
    level.quantities.committed = Math.max(0, level.quantities.committed - quantity);
    level.updatedAt = this.timestamp();
  }

  /** The level a fulfillment order's line draws on: its tracked item at the assigned location, if stocked there. */
  private levelOfLine(fo: FulfillmentOrderRecord, lineItemId: Gid): InventoryLevelRecord | undefined {
    const line = this.orders.get(fo.orderId)?.lineItems.find((candidate) => candidate.id === lineItemId);
    const variant = line?.variantId ? this.variants.get(line.variantId) : undefined;
    if (!variant || !this.inventoryItems.get(variant.inventoryItemId)?.tracked) return undefined;
    return this.level(variant.inventoryItemId, fo.assignedLocationId);
  }

  /** The fulfillment order, or an Error naming the method (a test's mistake, not one of Shopify's rules). */
  private fulfillmentOrderFor(method: string, id: Gid): FulfillmentOrderRecord {
    const fo = this.fulfillmentOrders.get(id);
    if (!fo) throw new Error(`${method}: no fulfillment order ${id}`);
    return fo;
  }

  private touch(...fos: Array<FulfillmentOrderRecord | null | undefined>): void {
    const now = this.timestamp();
    for (const fo of fos) if (fo) fo.updatedAt = now;
  }

  /**
   * Checks that `requested` names lines of `fo` with quantities from 1 to what remains, each once; answers them
   * by line. None given means every line's remaining quantity.
   */
  private requestedLines(
    fo: FulfillmentOrderRecord,
    requested: readonly LineQuantity[] | null | undefined,
    codes: { greater: string; invalid: string; duplicate?: string },
    field: string[],
  ): Map<FulfillmentOrderRecord["lineItems"][number], number> {
    const byLine = new Map<FulfillmentOrderRecord["lineItems"][number], number>();
    if (!requested || requested.length === 0) {
      for (const line of fo.lineItems)
        if (line.remainingQuantity > 0) byLine.set(line, line.remainingQuantity);
      return byLine;
    }
    requested.forEach(({ id, quantity }, index) => {
      const line = fo.lineItems.find((candidate) => candidate.id === id);
      const at = [...field, String(index)];
      if (quantity <= 0)
        throw new FulfillmentRuleError("The line item quantity must be greater than 0.", codes.greater, at);
      if (!line || quantity > line.remainingQuantity) {
        throw new FulfillmentRuleError("The line item quantity is invalid.", codes.invalid, at);
      }
      if (byLine.has(line)) {
        const code = codes.duplicate ?? codes.invalid;
        throw new FulfillmentRuleError("The fulfillment order line items are not unique.", code, at);
      }
      byLine.set(line, quantity);
    });
    return byLine;
  }

  /**
   * Takes `quantities` of `fo`'s lines out into a new fulfillment order at `locationId` (committed units follow).
   * `fo` keeps the rest; when nothing remains on it, it is closed with what was fulfilled from it, so an order's
   * quantities are never counted twice.
   */
  private carveOut(
    fo: FulfillmentOrderRecord,
    quantities: ReadonlyMap<FulfillmentOrderRecord["lineItems"][number], number>,
    locationId: Gid,
    fields: Parameters<ShopStore["createFulfillmentOrder"]>[3] = {},
  ): FulfillmentOrderRecord {
    this.commitUnits(fo, -1);
    const carved = this.createFulfillmentOrder(
      fo.orderId,
      locationId,
      [...quantities].map(([line, quantity]) => ({ lineItemId: line.lineItemId, quantity })),
      { deliveryMethod: fo.deliveryMethod, fulfillAt: fo.fulfillAt, ...fields },
    );
    for (const [line, quantity] of quantities) {
      line.totalQuantity -= quantity;
      line.remainingQuantity -= quantity;
    }
    fo.lineItems = fo.lineItems.filter((line) => line.totalQuantity > 0);
    if (fo.lineItems.every((line) => line.remainingQuantity === 0)) {
      Object.assign(fo, { status: "CLOSED", holds: [], statusBeforeHold: null });
    }
    this.commitUnits(fo, 1);
    this.commitUnits(carved, 1);
    this.touch(fo, carved);
    return carved;
  }

  /** Whether the fulfillment order is done with: closed, cancelled or incomplete. */
  static isClosed(fo: FulfillmentOrderRecord): boolean {
    return fo.status === "CLOSED" || fo.status === "CANCELLED" || fo.status === "INCOMPLETE";
  }

  /**
   * The locations a fulfillment order may move to (`FulfillmentOrder.locationsForMove`): every other active
   * location, movable when it stocks each of the lines' variants (a custom item goes anywhere). No line ids (or
   * none at all, the schema's default) means every line with units left.
   */
  locationsForMove(
    fulfillmentOrderId: Gid,
    lineItemIds?: readonly Gid[] | null,
  ): Array<{ location: LocationRecord; movable: boolean; unavailable: FulfillmentOrderRecord["lineItems"] }> {
    const fo = this.fulfillmentOrderFor("locationsForMove", fulfillmentOrderId);
    const lines = fo.lineItems.filter(
      (line) => line.remainingQuantity > 0 && (!lineItemIds?.length || lineItemIds.includes(line.id)),
    );
    const closed = ShopStore.isClosed(fo);
    return [...this.locations.values()]
      .filter((location) => location.isActive && location.id !== fo.assignedLocationId)
      .map((location) => {
        const unavailable = lines.filter((line) => {
          const variantId = this.orders
            .get(fo.orderId)
            ?.lineItems.find((l) => l.id === line.lineItemId)?.variantId;
          const variant = variantId ? this.variants.get(variantId) : undefined;
          return variant !== undefined && !this.level(variant.inventoryItemId, location.id);
        });
        return { location, movable: !closed && lines.length > 0 && unavailable.length === 0, unavailable };
      });
  }

  /**
   * The merchant moves a fulfillment order (or `lineItems` of it) to another location, as `fulfillmentOrderMove`
   * does: untouched and moved whole, it is re-assigned in place; otherwise a new fulfillment order at the new
   * location takes the moved units and the original keeps the rest (closed when nothing remains on it).
   * Refused as Shopify refuses it: a closed fulfillment order, one awaiting a fulfillment service (request
   * SUBMITTED, ACCEPTED, CANCELLATION_REQUESTED or CANCELLATION_REJECTED), or a location not offered by
   * locationsForMove. Raises `fulfillment_orders/moved`. Returns the fulfillment order now holding the moved units.
   */
  moveFulfillmentOrder(
    fulfillmentOrderId: Gid,
    newLocationId: Gid,
    lineItems?: readonly LineQuantity[] | null,
  ): FulfillmentOrderRecord {
    const fo = this.fulfillmentOrderFor("moveFulfillmentOrder", fulfillmentOrderId);
    if (!this.locations.has(newLocationId))
      throw new Error(`moveFulfillmentOrder: no location ${newLocationId}`);
    if (ShopStore.isClosed(fo)) {
      throw new FulfillmentRuleError(
        `Cannot move a fulfillment order with status ${fo.status.toLowerCase()}.`,
        null,
        ["id"],
      );
    }
    if (
      ["SUBMITTED", "ACCEPTED", "CANCELLATION_REQUESTED", "CANCELLATION_REJECTED"].includes(fo.requestStatus)
    ) {
      const message = `Cannot move a fulfillment order with request status ${fo.requestStatus.toLowerCase()}.`;
      throw new FulfillmentRuleError(message, null, ["id"]);
    }
    const quantities = this.requestedLines(
      fo,
      lineItems,
      { greater: "GREATER_THAN_ZERO", invalid: "INVALID_LINE_ITEM_QUANTITY" },
      ["fulfillmentOrderLineItems"],
    );
    const offer = this.locationsForMove(
      fo.id,
      [...quantities.keys()].map((line) => line.id),
    ).find((candidate) => candidate.location.id === newLocationId);
    if (!offer?.movable) {
      const why = offer ? "doesn't stock the requested inventory items" : "is not a location it can move to";
      throw new FulfillmentRuleError(`The location ${why}.`, null, ["newLocationId"]);
    }
    const source = fo.assignedLocationId;
    const untouched = fo.lineItems.every((line) => line.remainingQuantity === line.totalQuantity);
    const whole = fo.lineItems.every((line) => (quantities.get(line) ?? 0) === line.remainingQuantity);
    let moved: FulfillmentOrderRecord;
    if (untouched && whole) {
      // What is committed goes with the fulfillment order: released at the old location, committed at the new.
      this.commitUnits(fo, -1);
      fo.assignedLocationId = newLocationId;
      this.commitUnits(fo, 1);
      this.touch(fo);
      moved = fo;
    } else {
      moved = this.carveOut(fo, quantities, newLocationId);
    }
    this.emitWebhook("fulfillment_orders/moved", {
      original_fulfillment_order: { ...brief(fo), assigned_location_id: fo.assignedLocationId },
      moved_fulfillment_order: { ...brief(moved), assigned_location_id: moved.assignedLocationId },
      destination_location_id: newLocationId,
      fulfillment_order_line_items_requested: (lineItems ?? []).map(({ id, quantity }) => ({ id, quantity })),
      source_location: { id: source },
    });
    return moved;
  }

  /** Puts a hold on a fulfillment order as the merchant (the default), fraud analysis or, with `byRequestingApp`, the app does. */
  holdFulfillmentOrder(
    fulfillmentOrderId: Gid,
    input: Parameters<ShopStore["placeHold"]>[1] = {},
  ): FulfillmentHoldRecord {
    return this.placeHold(fulfillmentOrderId, input).hold;
  }

  /**
   * A hold as `fulfillmentOrderHold` places it. With `lineItems`, only those units are held: the rest go to a new
   * fulfillment order (`remainingFulfillmentOrder`), which an already held one refuses (not splittable). An app's
   * holds on one fulfillment order need distinct handles ("" unless given), at most 10 of them. The first hold
   * raises `fulfillment_orders/placed_on_hold`; further ones change the status no more and raise nothing.
   */
  placeHold(
    fulfillmentOrderId: Gid,
    input: {
      reason?: FulfillmentHoldReason;
      byRequestingApp?: boolean;
      reasonNotes?: string | null;
      handle?: string | null;
      lineItems?: readonly LineQuantity[] | null;
    } = {},
  ): {
    hold: FulfillmentHoldRecord;
    fulfillmentOrder: FulfillmentOrderRecord;
    remainingFulfillmentOrder: FulfillmentOrderRecord | null;
  } {
    const fo = this.fulfillmentOrderFor("holdFulfillmentOrder", fulfillmentOrderId);
    // Shopify offers HOLD only on a fulfillment order that can still be fulfilled.
    if (fo.status !== "OPEN" && fo.status !== "IN_PROGRESS" && fo.status !== "ON_HOLD") {
      const message = `A fulfillment order with status ${fo.status.toLowerCase()} cannot be held.`;
      throw new FulfillmentRuleError(message, null, ["id"]);
    }
    const byRequestingApp = input.byRequestingApp ?? false;
    if (byRequestingApp) {
      const ours = fo.holds.filter((hold) => hold.byRequestingApp);
      const handle = input.handle ?? "";
      if (ours.some((hold) => (hold.handle ?? "") === handle)) {
        const message =
          "The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.";
        throw new FulfillmentRuleError(message, "DUPLICATE_FULFILLMENT_HOLD_HANDLE", [
          "fulfillmentHold",
          "handle",
        ]);
      }
      if (ours.length >= 10) {
        const message =
          "The maximum number of fulfillment holds for this fulfillment order has been reached for this app.";
        throw new FulfillmentRuleError(message, "FULFILLMENT_ORDER_HOLD_LIMIT_REACHED", ["id"]);
      }
    }
    let remaining: FulfillmentOrderRecord | null = null;
    let held = this.requestedLines(fo, null, { greater: "", invalid: "" }, []);
    if (input.lineItems?.length) {
      if (fo.status === "ON_HOLD") {
        const message = "The fulfillment order is not in a splittable state.";
        throw new FulfillmentRuleError(message, "FULFILLMENT_ORDER_NOT_SPLITTABLE", [
          "fulfillmentHold",
          "fulfillmentOrderLineItems",
        ]);
      }
      held = this.requestedLines(
        fo,
        input.lineItems,
        {
          greater: "GREATER_THAN_ZERO",
          invalid: "INVALID_LINE_ITEM_QUANTITY",
          duplicate: "DUPLICATED_FULFILLMENT_ORDER_LINE_ITEMS",
        },
        ["fulfillmentHold", "fulfillmentOrderLineItems"],
      );
      const rest = new Map(
        fo.lineItems
          .map((line) => [line, line.remainingQuantity - (held.get(line) ?? 0)] as const)
          .filter(([, quantity]) => quantity > 0),
      );
      if (rest.size > 0) remaining = this.carveOut(fo, rest, fo.assignedLocationId);
    }
    const hold: FulfillmentHoldRecord = {
      id: this.newId("FulfillmentHold"),
      reason: input.reason ?? "OTHER",
      byRequestingApp,
      reasonNotes: input.reasonNotes ?? null,
      handle: input.handle ?? (byRequestingApp ? "" : null),
    };
    const first = fo.status !== "ON_HOLD";
    if (first) fo.statusBeforeHold = fo.status;
    fo.holds.push(hold);
    fo.status = "ON_HOLD";
    this.touch(fo);
    if (first) {
      this.emitWebhook("fulfillment_orders/placed_on_hold", {
        fulfillment_order: { ...brief(fo), fulfillment_holds: fo.holds.map(holdPayload) },
        remaining_fulfillment_order: remaining && brief(remaining),
        held_fulfillment_order_line_items: [...held].map(([line]) => ({
          id: line.id,
          quantity: line.remainingQuantity,
        })),
        created_fulfillment_hold: holdPayload(hold),
      });
    }
    return { hold, fulfillmentOrder: fo, remainingFulfillmentOrder: remaining };
  }

  /**
   * Lifts holds (all when no ids are given); the fulfillment order returns to its status before the first, and
   * raises `fulfillment_orders/hold_released` when no hold is left.
   */
  releaseHolds(fulfillmentOrderId: Gid, holdIds?: readonly Gid[]): void {
    const fo = this.fulfillmentOrderFor("releaseHolds", fulfillmentOrderId);
    fo.holds = holdIds ? fo.holds.filter((hold) => !holdIds.includes(hold.id)) : [];
    const released = fo.holds.length === 0 && fo.status === "ON_HOLD";
    if (released) {
      fo.status = fo.statusBeforeHold ?? "OPEN";
      fo.statusBeforeHold = null;
    }
    this.touch(fo);
    if (released) this.emitWebhook("fulfillment_orders/hold_released", { fulfillment_order: brief(fo) });
  }

  /**
   * `fulfillmentOrderSplit`: the given units go to a new fulfillment order at the same location
   * (`remainingFulfillmentOrder`), the original keeps the rest. One partly fulfilled already cannot be split in
   * place: it is closed with what was fulfilled, and a `replacementFulfillmentOrder` takes what was not split off.
   * Only an OPEN or IN_PROGRESS fulfillment order splits, and not wholly (nothing would remain). Raises
   * `fulfillment_orders/split`.
   */
  splitFulfillmentOrder(
    fulfillmentOrderId: Gid,
    lineItems: readonly LineQuantity[],
  ): {
    fulfillmentOrder: FulfillmentOrderRecord;
    remainingFulfillmentOrder: FulfillmentOrderRecord;
    replacementFulfillmentOrder: FulfillmentOrderRecord | null;
  } {
    const fo = this.fulfillmentOrderFor("splitFulfillmentOrder", fulfillmentOrderId);
    const field = ["fulfillmentOrderSplits", "0", "fulfillmentOrderLineItems"];
    if (lineItems.length === 0) {
      const message = "The fulfillment order must have at least one line item input to split.";
      throw new FulfillmentRuleError(message, "NO_LINE_ITEMS_PROVIDED_TO_SPLIT", field);
    }
    if (fo.status !== "OPEN" && fo.status !== "IN_PROGRESS") {
      const message = `Cannot split a fulfillment order with status ${fo.status.toLowerCase()}.`;
      throw new FulfillmentRuleError(message, null, ["fulfillmentOrderSplits", "0", "fulfillmentOrderId"]);
    }
    const split = this.requestedLines(
      fo,
      lineItems,
      { greater: "GREATER_THAN", invalid: "INVALID_LINE_ITEM_QUANTITY" },
      field,
    );
    const rest = new Map(
      fo.lineItems
        .map((line) => [line, line.remainingQuantity - (split.get(line) ?? 0)] as const)
        .filter(([, quantity]) => quantity > 0),
    );
    if (rest.size === 0) {
      throw new FulfillmentRuleError(
        "The line item quantity is invalid.",
        "INVALID_LINE_ITEM_QUANTITY",
        field,
      );
    }
    const untouched = fo.lineItems.every((line) => line.remainingQuantity === line.totalQuantity);
    const remaining = this.carveOut(fo, split, fo.assignedLocationId, { status: "OPEN" });
    const replacement = untouched ? null : this.carveOut(fo, rest, fo.assignedLocationId, { status: "OPEN" });
    this.emitWebhook("fulfillment_orders/split", {
      split_line_items: lineItems.map(({ id, quantity }) => ({ id, quantity })),
      fulfillment_order: brief(fo),
      remaining_fulfillment_order: brief(remaining),
      replacement_fulfillment_order: replacement && brief(replacement),
    });
    return {
      fulfillmentOrder: fo,
      remainingFulfillmentOrder: remaining,
      replacementFulfillmentOrder: replacement,
    };
  }

  /**
   * The fulfillment orders `fo` may merge with (`fulfillmentOrdersForMerge`): the order's others at the same
   * location, OPEN, not yet requested from a service, with the same delivery method.
   */
  fulfillmentOrdersForMerge(fulfillmentOrderId: Gid): FulfillmentOrderRecord[] {
    const fo = this.fulfillmentOrderFor("fulfillmentOrdersForMerge", fulfillmentOrderId);
    if (!mergeable(fo)) return [];
    return this.orders
      .get(fo.orderId)!
      .fulfillmentOrderIds.map((id) => this.fulfillmentOrders.get(id)!)
      .filter(
        (other) =>
          other.id !== fo.id &&
          mergeable(other) &&
          other.assignedLocationId === fo.assignedLocationId &&
          other.deliveryMethod === fo.deliveryMethod,
      );
  }

  /**
   * `fulfillmentOrderMerge`, one set: the named fulfillment orders (two or more, of one order, one location, all
   * mergeable as fulfillmentOrdersForMerge says) become the first of them; the others are closed, their units
   * moved onto it (all remaining unless line items are named). Raises `fulfillment_orders/merged`.
   */
  mergeFulfillmentOrders(
    intents: ReadonlyArray<{ fulfillmentOrderId: Gid; lineItems?: readonly LineQuantity[] | null }>,
  ): FulfillmentOrderRecord {
    const fos = intents.map(({ fulfillmentOrderId }) =>
      this.fulfillmentOrderFor("mergeFulfillmentOrders", fulfillmentOrderId),
    );
    const [target, ...others] = fos;
    if (!target || others.length === 0 || new Set(fos.map((fo) => fo.id)).size !== fos.length) {
      throw new FulfillmentRuleError("At least two different fulfillment orders are needed to merge.", null, [
        "fulfillmentOrderMergeInputs",
      ]);
    }
    const forMerge = new Set(this.fulfillmentOrdersForMerge(target.id).map((fo) => fo.id));
    const refused = others.find((fo) => !forMerge.has(fo.id));
    if (refused) {
      const message = `Fulfillment order ${refused.id} cannot be merged with ${target.id}.`;
      throw new FulfillmentRuleError(message, null, ["fulfillmentOrderMergeInputs"]);
    }
    const taken = intents.map(({ lineItems }, index) =>
      this.requestedLines(
        fos[index]!,
        lineItems,
        { greater: "GREATER_THAN", invalid: "INVALID_LINE_ITEM_QUANTITY" },
        ["fulfillmentOrderMergeInputs", "0", "mergeIntents", String(index), "fulfillmentOrderLineItems"],
      ),
    );
    // The target keeps only what was named of it; the rest of it, if any, stays as a fulfillment order of its own.
    const targetRest = new Map(
      target.lineItems
        .map((line) => [line, line.remainingQuantity - (taken[0]!.get(line) ?? 0)] as const)
        .filter(([, quantity]) => quantity > 0),
    );
    if (targetRest.size > 0) this.carveOut(target, targetRest, target.assignedLocationId);
    for (const fo of fos) this.commitUnits(fo, -1);
    others.forEach((fo, index) => {
      for (const [line, quantity] of taken[index + 1]!) {
        const into = target.lineItems.find((candidate) => candidate.lineItemId === line.lineItemId);
        if (into) {
          into.totalQuantity += quantity;
          into.remainingQuantity += quantity;
        } else {
          const id = this.newId("FulfillmentOrderLineItem");
          target.lineItems.push({
            id,
            lineItemId: line.lineItemId,
            totalQuantity: quantity,
            remainingQuantity: quantity,
          });
        }
        line.totalQuantity -= quantity;
        line.remainingQuantity -= quantity;
      }
      fo.lineItems = fo.lineItems.filter((line) => line.totalQuantity > 0);
      if (fo.lineItems.every((line) => line.remainingQuantity === 0)) fo.status = "CLOSED";
    });
    for (const fo of fos) this.commitUnits(fo, 1);
    this.touch(...fos);
    this.emitWebhook("fulfillment_orders/merged", {
      // Shopify's documented example gives these as numeric ids; the fake follows it.
      merge_intents: intents.map(({ fulfillmentOrderId, lineItems }, index) => ({
        fulfillment_order_id: legacyId(fulfillmentOrderId),
        fulfillment_order_line_items: (lineItems?.length
          ? lineItems
          : [...taken[index]!].map(([line, quantity]) => ({ id: line.id, quantity }))
        ).map(({ id, quantity }) => ({ id: legacyId(id), quantity })),
      })),
      fulfillment_order_merges: { fulfillment_order: brief(target) },
    });
    return target;
  }

  /**
   * `fulfillmentOrderCancel`: only for a fulfillment order awaiting its fulfillment service (request SUBMITTED,
   * or CANCELLATION_REQUESTED); it is cancelled and a replacement at the same location, not requested, takes what
   * remained. Raises `fulfillment_orders/cancelled`. (Shopify's mutation text says the original is "closed", its
   * webhook example and the status's own description say CANCELLED: the fake uses CANCELLED.)
   */
  cancelFulfillmentOrder(fulfillmentOrderId: Gid): {
    fulfillmentOrder: FulfillmentOrderRecord;
    replacementFulfillmentOrder: FulfillmentOrderRecord | null;
  } {
    const fo = this.fulfillmentOrderFor("cancelFulfillmentOrder", fulfillmentOrderId);
    if (
      ShopStore.isClosed(fo) ||
      (fo.requestStatus !== "SUBMITTED" && fo.requestStatus !== "CANCELLATION_REQUESTED")
    ) {
      const message = `Cannot cancel a fulfillment order with status ${fo.status.toLowerCase()} and request status ${fo.requestStatus.toLowerCase()}.`;
      throw new FulfillmentRuleError(message, null, ["id"]);
    }
    const rest = this.requestedLines(fo, null, { greater: "", invalid: "" }, []);
    const replacement =
      rest.size > 0 ? this.carveOut(fo, rest, fo.assignedLocationId, { status: "OPEN" }) : null;
    Object.assign(fo, { status: "CANCELLED", holds: [], statusBeforeHold: null });
    this.touch(fo);
    this.emitWebhook("fulfillment_orders/cancelled", {
      fulfillment_order: brief(fo),
      replacement_fulfillment_order: replacement && brief(replacement),
    });
    return { fulfillmentOrder: fo, replacementFulfillmentOrder: replacement };
  }

  /**
   * `fulfillmentOrderReschedule`: a SCHEDULED fulfillment order gets another `fulfillAt` (Shopify may merge it
   * with one due at the same time; the fake does not). Raises `fulfillment_orders/rescheduled`.
   */
  rescheduleFulfillmentOrder(fulfillmentOrderId: Gid, fulfillAt: string): FulfillmentOrderRecord {
    const fo = this.fulfillmentOrderFor("rescheduleFulfillmentOrder", fulfillmentOrderId);
    if (fo.status !== "SCHEDULED") {
      const message = `Cannot reschedule a fulfillment order with status ${fo.status.toLowerCase()}.`;
      throw new FulfillmentRuleError(message, null, ["id"]);
    }
    if (Number.isNaN(Date.parse(fulfillAt)))
      throw new FulfillmentRuleError("fulfillAt is not a date.", null, ["fulfillAt"]);
    fo.fulfillAt = new Date(fulfillAt).toISOString().replace(/\.\d{3}Z$/, "Z");
    this.touch(fo);
    this.emitWebhook("fulfillment_orders/rescheduled", {
      fulfillment_order: { ...brief(fo), fulfill_at: fo.fulfillAt },
    });
    return fo;
  }

  /**
   * Opens every SCHEDULED fulfillment order whose `fulfillAt` has come on the fake's clock, each raising
   * `fulfillment_orders/scheduled_fulfillment_order_ready`. The server runs it before every request it answers;
   * a test reading the store directly calls it. Answers the fulfillment orders it opened.
   */
  releaseDueSchedules(): FulfillmentOrderRecord[] {
    const now = this.state.now();
    const due = [...this.fulfillmentOrders.values()].filter(
      (fo) => fo.status === "SCHEDULED" && fo.fulfillAt !== null && Date.parse(fo.fulfillAt) <= now,
    );
    for (const fo of due) {
      fo.status = "OPEN";
      this.touch(fo);
      this.emitWebhook("fulfillment_orders/scheduled_fulfillment_order_ready", {
        fulfillment_order: brief(fo),
      });
    }
    return due;
  }
}

/** A fulfillment order as Shopify's fulfillment_orders/* webhooks name one: its GID and lower-case status. */
function brief(fo: FulfillmentOrderRecord): { id: Gid; status: string } {
  return { id: fo.id, status: fo.status.toLowerCase() };
}

function holdPayload(hold: FulfillmentHoldRecord) {
  return {
    id: hold.id,
    reason: hold.reason.toLowerCase(),
    reason_notes: hold.reasonNotes,
    held_by_requesting_app: hold.byRequestingApp,
    handle: hold.handle ?? "",
    held_by_app: hold.byRequestingApp ? { id: FAKE_APP_GID } : null,
  };
}

function mergeable(fo: FulfillmentOrderRecord): boolean {
  return fo.status === "OPEN" && fo.requestStatus === "UNSUBMITTED";
}

function legacyId(id: Gid): number {
  return parseGid(id)?.id ?? 0;
}
