// In-memory store behind the Shopify fake: shops keyed by myshopify domain, each with its own locations,
// catalogue, inventory and orders. Scalar fields carry their Admin API names so resolvers can expose them as-is.

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
  NullableText<"variantTitle" | "sku" | "variantId"> & { quantity: number };
export type OrderRecord = Text<"id" | "name" | "createdAt"> & { email: string | null } & {
  lineItems: LineItemRecord[];
  fulfillmentOrderIds: Gid[];
  fulfillmentIds: Gid[];
};
export type FulfillmentOrderStatus =
  "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED" | "ON_HOLD" | "SCHEDULED" | "INCOMPLETE";
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

export class FakeState {
  private readonly shopsByDomain = new Map<string, ShopStore>();
  // One counter for all shops: Shopify's numeric IDs are unique platform-wide, so GIDs never collide.
  private nextId = 1001;

  constructor(readonly now: () => number = Date.now) {}

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
  /** Webhooks this shop's changes raised, oldest first, as Shopify would send them (see emitWebhook). */
  readonly webhookOutbox: Array<{ topic: string; payload: unknown; at: string }> = [];
  /** Answers of `@idempotent` mutations by key, replayed on retries as Shopify does. */
  readonly idempotency = new Map<string, { fingerprint: string; payload: unknown }>();

  constructor(
    private readonly state: FakeState,
    readonly shop: ShopRecord,
  ) {}

  /** Records a webhook a change raised (`fulfillment_orders/moved`, ...); delivery is the fake server's. */
  emitWebhook(topic: string, payload: unknown): void {
    this.webhookOutbox.push({ topic, payload, at: this.timestamp() });
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
   * An order with one fulfillment order holding every line, assigned to `locationId` (default: first location).
   * Lines name a seeded variant by `variantId` or `sku`, or are custom items with a `title`.
   */
  addOrder(input: {
    name?: string;
    email?: string | null;
    lineItems: Array<{ variantId?: Gid; sku?: string; title?: string; quantity: number; price?: string }>;
    locationId?: Gid;
    fulfillmentOrderStatus?: FulfillmentOrderStatus;
    supportedActions?: string[];
  }): { order: OrderRecord; fulfillmentOrder: FulfillmentOrderRecord } {
    const locationId = input.locationId ?? [...this.locations.keys()][0];
    if (!locationId || !this.locations.has(locationId)) throw new Error("addOrder needs a seeded location");
    const createdAt = this.timestamp();
    const lineItems = input.lineItems.map((line): LineItemRecord => {
      const variant = line.variantId
        ? this.variants.get(line.variantId)
        : line.sku && this.variantBySku(line.sku);
      if ((line.variantId || line.sku) && !variant)
        throw new Error(`addOrder: no variant ${line.variantId ?? line.sku}`);
      return {
        id: this.newId("LineItem"),
        title: line.title ?? (variant && this.products.get(variant.productId)?.title) ?? "Custom item",
        variantTitle: variant && variant.title !== "Default Title" ? variant.title : null,
        ...{
          sku: variant ? variant.sku : null,
          quantity: line.quantity,
          variantId: variant ? variant.id : null,
        },
        price: line.price ?? (variant ? variant.price : "0.00"),
      };
    });
    const order: OrderRecord = {
      id: this.newId("Order"),
      name: input.name ?? `#${1001 + this.orders.size}`,
      email: input.email === undefined ? "customer@example.com" : input.email,
      ...{ createdAt, lineItems, fulfillmentOrderIds: [], fulfillmentIds: [] },
    };
    const fulfillmentOrder: FulfillmentOrderRecord = {
      id: this.newId("FulfillmentOrder"),
      ...{
        orderId: order.id,
        status: input.fulfillmentOrderStatus ?? "OPEN",
        createdAt,
        updatedAt: createdAt,
      },
      ...{ requestStatus: "UNSUBMITTED", fulfillAt: null, deliveryMethod: "SHIPPING", merchantRequests: [] },
      assignedLocationId: locationId,
      lineItems: lineItems.map((line) => ({
        id: this.newId("FulfillmentOrderLineItem"),
        ...{ lineItemId: line.id, totalQuantity: line.quantity, remainingQuantity: line.quantity },
      })),
      supportedActions: input.supportedActions ?? null,
      holds: [],
      statusBeforeHold: null,
    };
    order.fulfillmentOrderIds.push(fulfillmentOrder.id);
    this.orders.set(order.id, order);
    this.fulfillmentOrders.set(fulfillmentOrder.id, fulfillmentOrder);
    // A store commits what an open order will ship at its assigned location the moment the order is placed.
    if (fulfillmentOrder.status !== "CLOSED" && fulfillmentOrder.status !== "CANCELLED") {
      this.commitUnits(fulfillmentOrder, 1);
    }
    return { order, fulfillmentOrder };
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

  /** Puts a hold on a fulfillment order as the merchant (the default), fraud analysis or, with `byRequestingApp`, the app does. */
  holdFulfillmentOrder(
    fulfillmentOrderId: Gid,
    input: {
      reason?: FulfillmentHoldReason;
      byRequestingApp?: boolean;
      reasonNotes?: string;
      handle?: string;
    } = {},
  ): FulfillmentHoldRecord {
    const fo = this.fulfillmentOrders.get(fulfillmentOrderId);
    if (!fo) throw new Error(`holdFulfillmentOrder: no fulfillment order ${fulfillmentOrderId}`);
    // Shopify offers HOLD only on a fulfillment order that can still be fulfilled.
    if (fo.status !== "OPEN" && fo.status !== "IN_PROGRESS" && fo.status !== "ON_HOLD") {
      throw new Error(`holdFulfillmentOrder: a ${fo.status} fulfillment order cannot be held`);
    }
    const hold: FulfillmentHoldRecord = {
      id: this.newId("FulfillmentHold"),
      reason: input.reason ?? "OTHER",
      byRequestingApp: input.byRequestingApp ?? false,
      reasonNotes: input.reasonNotes ?? null,
      handle: input.handle ?? null,
    };
    if (fo.status !== "ON_HOLD") fo.statusBeforeHold = fo.status;
    fo.holds.push(hold);
    fo.status = "ON_HOLD";
    fo.updatedAt = this.timestamp();
    return hold;
  }

  /** Lifts holds (all when no ids are given); the fulfillment order returns to its status before the first. */
  releaseHolds(fulfillmentOrderId: Gid, holdIds?: readonly Gid[]): void {
    const fo = this.fulfillmentOrders.get(fulfillmentOrderId);
    if (!fo) throw new Error(`releaseHolds: no fulfillment order ${fulfillmentOrderId}`);
    fo.holds = holdIds ? fo.holds.filter((hold) => !holdIds.includes(hold.id)) : [];
    if (fo.holds.length === 0 && fo.status === "ON_HOLD") {
      fo.status = fo.statusBeforeHold ?? "OPEN";
      fo.statusBeforeHold = null;
    }
    fo.updatedAt = this.timestamp();
  }

  /**
   * The merchant moves a fulfillment order to another location, as `fulfillmentOrderMove` does: untouched, it is
   * re-assigned in place; once partly fulfilled, it is closed and a new fulfillment order at the new location
   * takes what remains. Returns the fulfillment order now holding the unfulfilled items.
   */
  moveFulfillmentOrder(fulfillmentOrderId: Gid, newLocationId: Gid): FulfillmentOrderRecord {
    const fo = this.fulfillmentOrders.get(fulfillmentOrderId);
    if (!fo) throw new Error(`moveFulfillmentOrder: no fulfillment order ${fulfillmentOrderId}`);
    if (!this.locations.has(newLocationId))
      throw new Error(`moveFulfillmentOrder: no location ${newLocationId}`);
    if (fo.status === "CLOSED" || fo.status === "CANCELLED") {
      throw new Error(`moveFulfillmentOrder: a ${fo.status} fulfillment order cannot be moved`);
    }
    const now = this.timestamp();
    // What is committed goes with the fulfillment order: released at the old location, committed at the new.
    this.commitUnits(fo, -1);
    if (fo.lineItems.every((line) => line.remainingQuantity === line.totalQuantity)) {
      fo.assignedLocationId = newLocationId;
      fo.updatedAt = now;
      this.commitUnits(fo, 1);
      return fo;
    }
    const moved: FulfillmentOrderRecord = {
      id: this.newId("FulfillmentOrder"),
      ...{ orderId: fo.orderId, status: "OPEN", createdAt: now, updatedAt: now },
      ...{
        requestStatus: "UNSUBMITTED",
        fulfillAt: null,
        deliveryMethod: fo.deliveryMethod,
        merchantRequests: [],
      },
      assignedLocationId: newLocationId,
      lineItems: fo.lineItems
        .filter((line) => line.remainingQuantity > 0)
        .map((line) => ({
          id: this.newId("FulfillmentOrderLineItem"),
          lineItemId: line.lineItemId,
          totalQuantity: line.remainingQuantity,
          remainingQuantity: line.remainingQuantity,
        })),
      ...{ supportedActions: null, holds: [], statusBeforeHold: null },
    };
    // The original keeps only what was fulfilled from it, so an order's quantities are not counted twice.
    for (const line of fo.lineItems) {
      line.totalQuantity -= line.remainingQuantity;
      line.remainingQuantity = 0;
    }
    Object.assign(fo, { status: "CLOSED", updatedAt: now, holds: [] });
    this.fulfillmentOrders.set(moved.id, moved);
    this.orders.get(fo.orderId)!.fulfillmentOrderIds.push(moved.id);
    this.commitUnits(moved, 1);
    return moved;
  }
}
