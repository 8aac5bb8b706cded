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
  "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED" | "ON_HOLD" | "SCHEDULED";
export type FulfillmentOrderRecord = Text<
  "id" | "orderId" | "createdAt" | "updatedAt" | "assignedLocationId"
> & {
  status: FulfillmentOrderStatus;
  lineItems: Array<{ id: Gid; lineItemId: Gid; totalQuantity: number; remainingQuantity: number }>;
  /** FulfillmentOrderAction values; null means what Shopify offers a merchant-managed location in this status. */
  supportedActions: string[] | null;
};
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
  /** Answers of `@idempotent` mutations by key, replayed on retries as Shopify does. */
  readonly idempotency = new Map<string, { fingerprint: string; payload: unknown }>();

  constructor(
    private readonly state: FakeState,
    readonly shop: ShopRecord,
  ) {}

  newId(type: string): Gid {
    return gid(type, this.state.allocateId());
  }

  timestamp(): string {
    return this.state.timestamp();
  }

  addLocation(
    input: Partial<Omit<LocationRecord, "id" | "address">> & Partial<LocationRecord["address"]> = {},
  ) {
    const { name, isActive = true, fulfillsOnlineOrders = true, ...address } = input;
    const location: LocationRecord = {
      id: this.newId("Location"),
      name: name ?? `Location ${this.locations.size + 1}`,
      isActive,
      fulfillsOnlineOrders,
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
      assignedLocationId: locationId,
      lineItems: lineItems.map((line) => ({
        id: this.newId("FulfillmentOrderLineItem"),
        ...{ lineItemId: line.id, totalQuantity: line.quantity, remainingQuantity: line.quantity },
      })),
      supportedActions: input.supportedActions ?? null,
    };
    order.fulfillmentOrderIds.push(fulfillmentOrder.id);
    this.orders.set(order.id, order);
    this.fulfillmentOrders.set(fulfillmentOrder.id, fulfillmentOrder);
    return { order, fulfillmentOrder };
  }
}
