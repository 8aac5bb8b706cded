// Resolvers for the Shopify fake: views that shape state records into Admin API objects, and the root fields.
// A view is a plain object of values or (args, ctx, info) functions; asking for a field it lacks is an error.
import {
  getDirectiveValues,
  GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
} from "graphql";
import { adminSchema } from "./schema";
import {
  attachServiceViews,
  serviceFulfillmentRefusal,
  serviceMutations,
  serviceQueries,
  serviceSupportedActions,
} from "./services";
import {
  FulfillmentRuleError,
  parseGid,
  ShopStore,
  type FulfillmentHoldReason,
  type FulfillmentOrderRecord,
  type FulfillmentRecord,
  type Gid,
  type InventoryLevelRecord,
  type LineItemRecord,
  type LineQuantity,
} from "./state";

export interface ResolverContext {
  store: ShopStore;
}
type Args = Record<string, unknown>;
type View = Record<string, unknown>;
type UserError = { field: string[] | null; message: string; code?: string | null };

export function notImplemented(what: string): GraphQLError {
  return new GraphQLError(`the Shopify fake does not implement ${what} (extend test/shopify-fake)`, {
    extensions: { code: "NOT_IMPLEMENTED_BY_FAKE" },
  });
}

const ROOT_LABELS: Record<string, string> = { QueryRoot: "Query", Mutation: "Mutation" };

export const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (source, args, ctx, info) => {
  if (typeof source !== "object" || source === null || !(info.fieldName in source)) {
    throw notImplemented(`${ROOT_LABELS[info.parentType.name] ?? info.parentType.name}.${info.fieldName}`);
  }
  const value: unknown = (source as View)[info.fieldName];
  return typeof value === "function" ? value(args, ctx, info) : value;
};

export function typeResolver(value: unknown): string | undefined {
  const typename = typeof value === "object" && value !== null ? (value as View).__typename : undefined;
  return typeof typename === "string" ? typename : undefined;
}

const legacyNumber = (id: Gid) => parseGid(id)?.id ?? 0;
/** Every node view: the record's Admin-named fields, its type for abstract fields, and its legacy ID. */
const node = <T extends { id: Gid }>(__typename: string, record: T) => ({
  __typename,
  legacyResourceId: String(legacyNumber(record.id)),
  ...record,
});

function requireGid(value: unknown): { type: string; id: number } {
  const parsed = typeof value === "string" ? parseGid(value) : null;
  if (!parsed) throw new GraphQLError(`Invalid global id '${String(value)}'`);
  return parsed;
}

// ---- connections and search ---------------------------------------------------------------------------------

const encodeCursor = (id: Gid, value?: string) => {
  const lastId = legacyNumber(id);
  const json = { last_id: lastId, last_value: value ?? String(lastId) };
  return Buffer.from(JSON.stringify(json)).toString("base64url");
};

function decodeCursorValue(cursor: unknown): { lastId: number; lastValue: string } {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(String(cursor), "base64url").toString("utf8"));
    const { last_id: lastId, last_value: lastValue } =
      typeof decoded === "object" && decoded !== null ? (decoded as View) : {};
    if (typeof lastId === "number") return { lastId, lastValue: String(lastValue ?? lastId) };
  } catch {
    // not a cursor this fake issued
  }
  throw new GraphQLError("Invalid cursor for current pagination sort.");
}

function decodeCursor(cursor: unknown): number {
  return decodeCursorValue(cursor).lastId;
}

/**
 * A list sorted by a key (ties by ID), for `connection`: its cursors carry the key, and a cursor is a position in
 * the order, as Shopify's are: paging on after an item whose key changed continues from where it was, so an
 * item updated meanwhile comes again later in an UPDATED_AT list.
 */
export type SortOrder<T> = { value: (item: T) => string };

function connection<T extends { id: Gid }>(
  items: readonly T[],
  args: Args,
  view: (item: T) => unknown,
  sort?: SortOrder<T>,
): View {
  const first = typeof args.first === "number" ? args.first : null;
  const last = typeof args.last === "number" ? args.last : null;
  if (first === null && last === null) throw new GraphQLError("you must provide one of first or last");
  const reverse = args.reverse === true;
  const list = reverse ? [...items].reverse() : items;
  const cursorOf = (item: T) => encodeCursor(item.id, sort?.value(item));
  // Shopify's cursor is a position (the last id and sort value), not an item, so it outlives a deleted item.
  // The fake places one whose item is gone in a list in ID order (Shopify's default sort) and refuses it elsewhere.
  const place = (cursor: unknown): { index: number; present: boolean } => {
    if (sort) {
      const { lastId, lastValue } = decodeCursorValue(cursor);
      const direction = reverse ? -1 : 1;
      const after = (item: T) =>
        direction * (sort.value(item).localeCompare(lastValue) || legacyNumber(item.id) - lastId) > 0;
      const index = list.findIndex(
        (item) => after(item) || (legacyNumber(item.id) === lastId && sort.value(item) === lastValue),
      );
      if (index < 0) return { index: list.length, present: false };
      return { index, present: !after(list[index]!) };
    }
    const lastId = decodeCursor(cursor);
    const ids = list.map((item) => legacyNumber(item.id));
    const index = ids.indexOf(lastId);
    if (index >= 0) return { index, present: true };
    if (ids.some((id, at) => at > 0 && id < ids[at - 1]!))
      throw new GraphQLError("Invalid cursor for current pagination sort.");
    const next = ids.findIndex((id) => id > lastId);
    return { index: next < 0 ? list.length : next, present: false };
  };
  const after = args.after ? place(args.after) : null;
  let start = after ? after.index + (after.present ? 1 : 0) : 0;
  let end = args.before ? place(args.before).index : list.length;
  if (first !== null) end = Math.min(end, start + first);
  if (last !== null) start = Math.max(start, end - last);
  const page = list.slice(start, end);
  const nodes = page.map(view);
  const [head, tail] = [page[0], page[page.length - 1]];
  return {
    edges: page.map((item, index) => ({ cursor: cursorOf(item), node: nodes[index] })),
    nodes,
    pageInfo: {
      hasNextPage: end < list.length,
      hasPreviousPage: start > 0,
      startCursor: head ? cursorOf(head) : null,
      endCursor: tail ? cursorOf(tail) : null,
    },
  };
}

/**
 * The part of Shopify's search syntax the app uses: `field:value` terms joined by AND (also when nothing joins
 * them) or OR, AND binding tighter; `-` negates a term. A value is bare (a trailing `*` makes it a prefix) or
 * quoted with "…" or '…', where it is taken literally; a backslash makes the next character literal in both,
 * which is how Shopify escapes its special characters (`:` `\` `(` `)`) and a quote inside quotes. A field in
 * `ranges` (a time or an id) also takes the comparators `:<`, `:<=`, `:>`, `:>=` before its value, compared as a
 * number (a time's value is parsed as a date). Grouping with parentheses, comparators on other fields and fields
 * not listed are not modelled, and refused rather than misread.
 */
function search<T>(
  query: unknown,
  root: string,
  fields: Record<string, (item: T) => Array<string | null>>,
  ranges: Record<string, { value: (item: T) => number; parse: (text: string) => number }> = {},
) {
  if (typeof query !== "string") return () => true;
  const refuse = (what: string) => notImplemented(`"${what}" in ${root}(query:)`);
  const unescape = (text: string) => text.replace(/\\(.)/g, "$1");
  const term =
    /(-?)(?:(\w+):(<=|>=|<|>)?)?(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|((?:[^\s()"'\\:]|\\.)+))|(\S)/g;
  const alternatives: Array<Array<(item: T) => boolean>> = [[]];
  for (const [text, negate, field, comparator, double, single, bare, stray] of query.matchAll(term)) {
    if (stray !== undefined) throw refuse(stray);
    if (!negate && !field && bare === "OR") {
      alternatives.push([]);
      continue;
    }
    if (!negate && !field && bare === "AND") continue;
    const quoted = double ?? single;
    const range = field ? ranges[field] : undefined;
    if (range) {
      const wanted = range.parse(unescape(quoted ?? bare!));
      if (Number.isNaN(wanted)) throw refuse(text);
      const compare: Record<string, (a: number) => boolean> = {
        "<": (a) => a < wanted,
        "<=": (a) => a <= wanted,
        ">": (a) => a > wanted,
        ">=": (a) => a >= wanted,
        "": (a) => a === wanted,
      };
      const holds = compare[comparator ?? ""]!;
      alternatives.at(-1)!.push((item: T) => holds(range.value(item)) !== (negate === "-"));
      continue;
    }
    const valuesOf = fields[field ?? "default"];
    if (!valuesOf || comparator || (quoted === undefined && /^[<>=]/.test(bare ?? ""))) throw refuse(text);
    const prefix = quoted === undefined && /(^|[^\\])\*$/.test(bare ?? "");
    const raw = quoted ?? (prefix ? bare!.slice(0, -1) : bare!);
    const wanted = unescape(raw).toLowerCase();
    const matches = (value: string | null) =>
      value !== null && (prefix ? value.toLowerCase().startsWith(wanted) : value.toLowerCase() === wanted);
    alternatives.at(-1)!.push((item: T) => valuesOf(item).some(matches) !== (negate === "-"));
  }
  if (alternatives.length > 1 && alternatives.some((terms) => terms.length === 0)) throw refuse("OR");
  return (item: T) => alternatives.some((terms) => terms.every((matches) => matches(item)));
}

/** A search range over a DateTime field: the query's value is parsed as a date, compared to the millisecond. */
const timeRange = <T>(value: (item: T) => string) => ({
  value: (item: T) => Date.parse(value(item)),
  parse: (text: string) => (/^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN),
});
/** A search range over an ID field: the query's value is the numeric (legacy) id. */
const idRange = <T>(value: (item: T) => Gid) => ({
  value: (item: T) => legacyNumber(value(item)),
  parse: (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.NaN),
});

function sorted<T extends { id: Gid }>(
  items: T[],
  sortKey: unknown,
  root: string,
  keys: Record<string, (i: T) => string>,
) {
  const key = typeof sortKey === "string" ? keys[sortKey] : undefined;
  if (sortKey !== "ID" && !key) throw notImplemented(`${root}(sortKey: ${String(sortKey)})`);
  return items.sort(
    (a, b) => (key ? key(a).localeCompare(key(b)) : 0) || legacyNumber(a.id) - legacyNumber(b.id),
  );
}

/** The filters of a fulfillment-order search: `status:`, and `updated_at:`, `id:`, `assigned_location_id:` ranges. */
function fulfillmentOrderSearch(query: unknown, root: string) {
  type Fo = FulfillmentOrderRecord;
  return search(
    query,
    root,
    { status: (fo: Fo) => [fo.status] },
    {
      updated_at: timeRange((fo: Fo) => fo.updatedAt),
      id: idRange((fo: Fo) => fo.id),
      assigned_location_id: idRange((fo: Fo) => fo.assignedLocationId),
    },
  );
}

// ---- views ----------------------------------------------------------------------------------------------------

/** FulfillmentHold.displayReason as the admin shows it in English. */
const HOLD_DISPLAY_REASONS: Record<FulfillmentHoldReason, string> = {
  AWAITING_PAYMENT: "Awaiting payment",
  AWAITING_RETURN_ITEMS: "Awaiting return items",
  HIGH_RISK_OF_FRAUD: "High risk of fraud",
  INCORRECT_ADDRESS: "Incorrect address",
  INVENTORY_OUT_OF_STOCK: "Inventory out of stock",
  ONLINE_STORE_POST_PURCHASE_CROSS_SELL: "Online store post-purchase cross-sell",
  OTHER: "Other",
  UNKNOWN_DELIVERY_DATE: "Unknown delivery date",
};

const FULFILLABLE = new Set(["OPEN", "IN_PROGRESS"]);

/** What Shopify offers on a merchant-managed location's fulfillment order in each status. */
function supportedActions(store: ShopStore, fo: FulfillmentOrderRecord): string[] {
  if (fo.supportedActions) return fo.supportedActions;
  if (fo.status === "OPEN") {
    const merge = store.fulfillmentOrdersForMerge(fo.id).length > 0 ? ["MERGE"] : [];
    return ["CREATE_FULFILLMENT", "REPORT_PROGRESS", "MOVE", "HOLD", "SPLIT", ...merge];
  }
  if (fo.status === "IN_PROGRESS") return ["CREATE_FULFILLMENT", "REPORT_PROGRESS", "HOLD", "MARK_AS_OPEN"];
  return fo.status === "ON_HOLD" ? ["RELEASE_HOLD", "MOVE"] : [];
}

/**
 * What another part of the fake (services.ts: fulfillment services) adds to the roots and views: root fields
 * merged into Query and Mutation, and the view of a fulfillment service for `Location.fulfillmentService`.
 * Registered once per process with extendResolvers.
 */
export interface ResolverExtension {
  query?: (store: ShopStore, v: Views) => View;
  mutation?: (store: ShopStore, v: Views) => View;
  fulfillmentService?: (store: ShopStore, v: Views, serviceId: Gid) => View | null;
}
const extensions: ResolverExtension[] = [];

export function extendResolvers(extension: ResolverExtension): void {
  if (!extensions.includes(extension)) extensions.push(extension);
}

export type Views = ReturnType<typeof views>;

/** Views over one shop's records; relations are functions so they resolve only when selected. */
export function views(store: ShopStore) {
  const levelsWhere = (match: (level: InventoryLevelRecord) => boolean) =>
    [...store.inventoryLevels.values()].filter(match);
  const moneyBag = (amount: string) => {
    const money = { amount, currencyCode: store.shop.currencyCode };
    return { shopMoney: money, presentmentMoney: money };
  };
  const count = (value: number) => ({ count: value, precision: "EXACT" });
  // Variants by SKU, counted once per request: a page of items asking each for its duplicates stays linear.
  let skuCountCache: Map<string, number> | undefined;
  const skuCounts = () => {
    if (!skuCountCache) {
      skuCountCache = new Map();
      for (const { sku } of store.variants.values())
        if (sku) skuCountCache.set(sku, (skuCountCache.get(sku) ?? 0) + 1);
    }
    return skuCountCache;
  };
  const available = (inventoryItemId: Gid) =>
    levelsWhere((level) => level.inventoryItemId === inventoryItemId).reduce(
      (n, l) => n + l.quantities.available,
      0,
    );

  const v = {
    shop: (): View => {
      const { accessToken: _secret, primaryDomainHost: host, ...shop } = store.shop;
      const primaryDomain = {
        id: shop.id.replace("/Shop/", "/Domain/"),
        host,
        url: `https://${host}`,
        sslEnabled: true,
      };
      return { ...node("Shop", shop), url: `https://${host}`, primaryDomain };
    },
    location: (id: Gid): View | null => {
      const location = store.locations.get(id);
      if (!location) return null;
      const levels = () => levelsWhere((level) => level.locationId === id);
      return {
        ...node("Location", location),
        isFulfillmentService: location.fulfillmentServiceId !== null,
        // The merchant's own location has none; a fulfillment service's is answered by services.ts.
        fulfillmentService: () => {
          const serviceId = location.fulfillmentServiceId;
          if (serviceId === null) return null;
          for (const extension of extensions) {
            if (extension.fulfillmentService) return extension.fulfillmentService(store, v, serviceId);
          }
          throw notImplemented("Location.fulfillmentService of a fulfillment service's location");
        },
        inventoryLevel: (args: Args) => v.level(store.level(String(args.inventoryItemId), id)),
        inventoryLevels: (args: Args) => connection(levels(), args, v.level),
      };
    },
    product: (id: Gid): View | null => {
      const product = store.products.get(id);
      if (!product) return null;
      const variantIds = product.variantIds.map((variantId) => ({ id: variantId }));
      return {
        ...node("Product", product),
        totalInventory: () =>
          variantIds.reduce((n, { id }) => n + available(store.variants.get(id)!.inventoryItemId), 0),
        variantsCount: count(variantIds.length),
        variants: (args: Args) => connection(variantIds, args, ({ id }) => v.variant(id)),
      };
    },
    variant: (id: Gid | null): View | null => {
      const variant = id ? store.variants.get(id) : undefined;
      const product = variant && store.products.get(variant.productId);
      if (!variant || !product) return null;
      return {
        ...node("ProductVariant", variant),
        displayName: `${product.title} - ${variant.title}`,
        inventoryQuantity: () => available(variant.inventoryItemId),
        product: () => v.product(product.id),
        inventoryItem: () => v.inventoryItem(variant.inventoryItemId),
      };
    },
    inventoryItem: (id: Gid): View | null => {
      const item = store.inventoryItems.get(id);
      if (!item) return null;
      const levels = () => levelsWhere((level) => level.inventoryItemId === id);
      return {
        ...node("InventoryItem", item),
        sku: store.variants.get(item.variantId)?.sku ?? null,
        duplicateSkuCount: () => {
          const sku = store.variants.get(item.variantId)?.sku;
          return sku ? skuCounts().get(sku)! - 1 : 0;
        },
        variant: () => v.variant(item.variantId),
        locationsCount: () => count(levels().length),
        inventoryLevel: (args: Args) => v.level(store.level(id, String(args.locationId))),
        inventoryLevels: (args: Args) => connection(levels(), args, v.level),
      };
    },
    level: (level: InventoryLevelRecord | undefined): View | null => {
      if (!level) return null;
      const { quantities: _stored, ...record } = level;
      return {
        ...node("InventoryLevel", record),
        item: () => v.inventoryItem(level.inventoryItemId),
        location: () => v.location(level.locationId),
        quantities: (args: Args) =>
          (args.names as string[]).map((name) => {
            const quantity = store.quantity(level, name);
            if (quantity === null) throw new GraphQLError(`Invalid quantity name: '${name}'.`);
            const id = level.id.replace("/InventoryLevel/", "/InventoryQuantity/") + `&name=${name}`;
            return { id, name, quantity, updatedAt: level.updatedAt };
          }),
      };
    },
    order: (id: Gid): View | null => {
      const order = store.orders.get(id);
      if (!order) return null;
      const fulfillmentOrders = () =>
        order.fulfillmentOrderIds.map((foId) => store.fulfillmentOrders.get(foId)!);
      const foLines = () => fulfillmentOrders().flatMap((fo) => fo.lineItems);
      return {
        ...node("Order", order),
        processedAt: order.createdAt,
        currencyCode: store.shop.currencyCode,
        displayFulfillmentStatus: () => {
          const remaining = foLines().reduce((n, line) => n + line.remainingQuantity, 0);
          const total = foLines().reduce((n, line) => n + line.totalQuantity, 0);
          return remaining === 0 ? "FULFILLED" : remaining < total ? "PARTIALLY_FULFILLED" : "UNFULFILLED";
        },
        totalPriceSet: () =>
          moneyBag(order.lineItems.reduce((n, line) => n + Number(line.price) * line.quantity, 0).toFixed(2)),
        lineItems: (args: Args) => connection(order.lineItems, args, v.lineItem),
        fulfillmentOrders: (args: Args) => {
          const filter = fulfillmentOrderSearch(args.query, "Order.fulfillmentOrders");
          return connection(fulfillmentOrders().filter(filter), args, (fo) => v.fulfillmentOrder(fo.id));
        },
        fulfillments: (args: Args) => {
          if (args.query) throw notImplemented("Order.fulfillments(query:)");
          return order.fulfillmentIds.slice(0, Number(args.first ?? Infinity)).map(v.fulfillment);
        },
      };
    },
    lineItem: (line: LineItemRecord): View => {
      // Lazy: every fulfillment order of the shop is looked through, only when a query asks (a fulfillment
      // order's line names its LineItem, and reading thousands of them would be quadratic in the fake's CPU).
      const remaining = () =>
        [...store.fulfillmentOrders.values()]
          .flatMap((fo) => fo.lineItems)
          .filter((foLine) => foLine.lineItemId === line.id);
      const { sellingPlan, ...record } = line;
      return {
        ...node("LineItem", record),
        sellingPlan: sellingPlan && { name: sellingPlan.name, sellingPlanId: sellingPlan.id },
        name: line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title,
        unfulfilledQuantity: () => remaining().reduce((n, foLine) => n + foLine.remainingQuantity, 0),
        originalUnitPriceSet: moneyBag(line.price),
        variant: () => v.variant(line.variantId),
      };
    },
    fulfillmentOrder: (id: Gid): View | null => {
      const fo = store.fulfillmentOrders.get(id);
      const order = fo && store.orders.get(fo.orderId);
      if (!fo || !order) return null;
      const { name, address } = store.locations.get(fo.assignedLocationId)!;
      const { holds, statusBeforeHold: _before, deliveryMethod, merchantRequests, ...record } = fo;
      return {
        ...node("FulfillmentOrder", record),
        deliveryMethod: {
          ...node("DeliveryMethod", { id: `${fo.id}/delivery` }),
          methodType: deliveryMethod,
        },
        merchantRequests: (args: Args) =>
          connection(merchantRequests, args, (request) => ({
            ...node("FulfillmentOrderMerchantRequest", request),
            requestOptions: null,
            sentAt: fo.updatedAt,
            responseData: null,
          })),
        fulfillmentHolds: holds.map(({ byRequestingApp, ...hold }) => ({
          ...node("FulfillmentHold", hold),
          heldByRequestingApp: byRequestingApp,
          displayReason: HOLD_DISPLAY_REASONS[hold.reason],
        })),
        orderName: order.name,
        orderProcessedAt: order.createdAt,
        supportedActions: () =>
          (serviceSupportedActions(store, fo) ?? supportedActions(store, fo)).map((action) => ({
            action,
            externalUrl: null,
          })),
        order: () => v.order(order.id),
        locationsForMove: (args: Args) => {
          if (args.query) throw notImplemented("FulfillmentOrder.locationsForMove(query:)");
          const offers = store
            .locationsForMove(fo.id, args.lineItemIds as Gid[] | null | undefined)
            .filter(
              (offer) => !Array.isArray(args.locationIds) || args.locationIds.includes(offer.location.id),
            );
          const lineView = (line: FulfillmentOrderRecord["lineItems"][number]) => foLineView(line);
          return connection(
            offers.map((offer) => ({ id: offer.location.id, ...offer })),
            args,
            ({ location, movable, unavailable }) => {
              const available = fo.lineItems.filter(
                (line) => line.remainingQuantity > 0 && !unavailable.includes(line),
              );
              return {
                location: v.location(location.id),
                movable,
                message: movable ? null : "The location doesn't stock all of the items.",
                availableLineItemsCount: count(available.length),
                unavailableLineItemsCount: count(unavailable.length),
                availableLineItems: (a: Args) => connection(available, a, lineView),
                unavailableLineItems: (a: Args) => connection(unavailable, a, lineView),
              };
            },
          );
        },
        fulfillmentOrdersForMerge: (args: Args) =>
          connection(store.fulfillmentOrdersForMerge(fo.id), args, (other) => v.fulfillmentOrder(other.id)),
        assignedLocation: {
          name,
          ...address,
          phone: null,
          location: () => v.location(fo.assignedLocationId),
        },
        lineItems: (args: Args) => connection(fo.lineItems, args, (foLine) => foLineView(foLine)),
        fulfillments: (args: Args) => {
          const fulfillments = [...store.fulfillments.values()].filter((f) =>
            f.fulfillmentOrderIds.includes(id),
          );
          return connection(fulfillments, args, (f) => v.fulfillment(f.id));
        },
      };
      function foLineView(foLine: FulfillmentOrderRecord["lineItems"][number]): View {
        const line = order!.lineItems.find((candidate) => candidate.id === foLine.lineItemId)!;
        const inventoryItemId = line.variantId ? store.variants.get(line.variantId)?.inventoryItemId : null;
        return {
          ...node("FulfillmentOrderLineItem", foLine),
          ...{ sku: line.sku, productTitle: line.title, variantTitle: line.variantTitle },
          // Seeded lines are goods: a gift card or a service (no shipping) is not modelled.
          requiresShipping: true,
          inventoryItemId: inventoryItemId ?? null,
          lineItem: () => v.lineItem(line),
          variant: () => v.variant(line.variantId),
        };
      }
    },
    fulfillment: (id: Gid): View | null => {
      const fulfillment = store.fulfillments.get(id);
      if (!fulfillment) return null;
      const { lines, events, trackingInfo, fulfillmentOrderIds, buyerEmails: _sent, ...record } = fulfillment;
      const order = store.orders.get(fulfillment.orderId)!;
      return {
        ...node("Fulfillment", record),
        totalQuantity: lines.reduce((n, line) => n + line.quantity, 0),
        order: () => v.order(order.id),
        location: () => v.location(fulfillment.locationId),
        trackingInfo: (args: Args) => trackingInfo.slice(0, Number(args.first ?? Infinity)),
        // Sorted as asked (HAPPENED_AT unless told, as in Shopify), ties by id.
        events: (args: Args) =>
          connection(
            sorted([...events], args.sortKey ?? "HAPPENED_AT", "Fulfillment.events", {
              HAPPENED_AT: (event) => event.happenedAt,
            }),
            args,
            (event) => node("FulfillmentEvent", event),
          ),
        fulfillmentOrders: (args: Args) =>
          connection(
            fulfillmentOrderIds.map((foId) => ({ id: foId })),
            args,
            (fo) => v.fulfillmentOrder(fo.id),
          ),
        fulfillmentLineItems: (args: Args) =>
          connection(lines, args, (line) => ({
            ...node("FulfillmentLineItem", line),
            lineItem: () => v.lineItem(order.lineItems.find((item) => item.id === line.lineItemId)!),
          })),
      };
    },
    /** Any modelled object by GID: an unknown ID is null as in Shopify, an unmodelled type is an error. */
    node: (id: unknown): View | null => {
      const { type } = requireGid(id);
      const byId: Record<string, (id: Gid) => View | null> = {
        Product: v.product,
        ProductVariant: v.variant,
        InventoryItem: v.inventoryItem,
        InventoryLevel: (levelId) => v.level(levelsWhere((level) => level.id === levelId)[0]),
        Location: v.location,
        Order: v.order,
        FulfillmentOrder: v.fulfillmentOrder,
        Fulfillment: v.fulfillment,
      };
      const lookup = byId[type];
      if (!lookup) throw notImplemented(`node lookups of ${type}`);
      return lookup(String(id));
    },
    /** A typed lookup such as `product(id:)` answers null for another type's ID, as Shopify does. */
    typed: (id: unknown, type: string) => (requireGid(id).type === type ? v.node(id) : null),
  };
  attachServiceViews(store, v);
  return v;
}

// ---- roots ----------------------------------------------------------------------------------------------------

export function queryRoot(store: ShopStore): View {
  const v = views(store);
  const variantsOf = (productId: Gid) =>
    store.products.get(productId)!.variantIds.map((id) => store.variants.get(id)!);
  return {
    ...serviceQueries(store, v, { connection, sorted, notImplemented }),
    shop: () => v.shop(),
    shopLocales: (args: Args) =>
      store.shop.locales.filter((locale) => args.published !== true || locale.published),
    location: (args: Args) =>
      args.id == null ? v.location([...store.locations.keys()][0] ?? "") : v.typed(args.id, "Location"),
    locations: (args: Args) => {
      if (args.query) throw notImplemented("Query.locations(query:)");
      const list = [...store.locations.values()].filter(
        (location) => args.includeInactive || location.isActive,
      );
      const byName = sorted(list, args.sortKey, "Query.locations", { NAME: (location) => location.name });
      return connection(byName, args, (location) => v.location(location.id));
    },
    product: (args: Args) => v.typed(args.id, "Product"),
    products: (args: Args) => {
      const filter = search(args.query, "Query.products", {
        title: (p: { id: Gid; title: string; status: string }) => [p.title],
        id: (p) => [String(legacyNumber(p.id))],
        status: (p) => [p.status],
        sku: (p) => variantsOf(p.id).map((variant) => variant.sku),
        barcode: (p) => variantsOf(p.id).map((variant) => variant.barcode),
        default: (p) => [p.title],
      });
      const list = sorted([...store.products.values()].filter(filter), args.sortKey, "Query.products", {
        TITLE: (product) => product.title,
      });
      return connection(list, args, (product) => v.product(product.id));
    },
    productVariant: (args: Args) => v.typed(args.id, "ProductVariant"),
    // Shopify stops counting at `limit` (10,000 unless told; null counts all) and says so by its precision.
    productVariantsCount: (args: Args) => {
      if (args.query) throw notImplemented("Query.productVariantsCount(query:)");
      const limit = args.limit as number | null;
      const variants = store.variants.size;
      return limit !== null && variants > limit
        ? { count: limit, precision: "AT_LEAST" }
        : { count: variants, precision: "EXACT" };
    },
    productVariants: (args: Args) => {
      const filter = search(args.query, "Query.productVariants", {
        sku: (variant: { id: Gid; sku: string | null; barcode: string | null; productId: Gid }) => [
          variant.sku,
        ],
        barcode: (variant) => [variant.barcode],
        id: (variant) => [String(legacyNumber(variant.id))],
        product_id: (variant) => [String(legacyNumber(variant.productId))],
        default: (variant) => [variant.sku, variant.barcode],
      });
      const list = sorted(
        [...store.variants.values()].filter(filter),
        args.sortKey,
        "Query.productVariants",
        {
          SKU: (variant) => variant.sku ?? "",
        },
      );
      return connection(list, args, (variant) => v.variant(variant.id));
    },
    inventoryItem: (args: Args) => v.typed(args.id, "InventoryItem"),
    order: (args: Args) => v.typed(args.id, "Order"),
    orders: (args: Args) => {
      if (args.query) throw notImplemented("Query.orders(query:)");
      // Seeded orders are processed in creation order, so ID order is processing order.
      const sortKey = args.sortKey === "PROCESSED_AT" || args.sortKey === "CREATED_AT" ? "ID" : args.sortKey;
      const list = sorted([...store.orders.values()], sortKey, "Query.orders", {});
      return connection(list, args, (order) => v.order(order.id));
    },
    fulfillmentOrder: (args: Args) => v.typed(args.id, "FulfillmentOrder"),
    // Every fulfillment order of the shop; closed and cancelled ones only with includeClosed.
    fulfillmentOrders: (args: Args) => {
      const filter = fulfillmentOrderSearch(args.query, "Query.fulfillmentOrders");
      const list = [...store.fulfillmentOrders.values()].filter(
        (fo) => (args.includeClosed === true || !ShopStore.isClosed(fo)) && filter(fo),
      );
      const ordered = sorted(list, args.sortKey, "Query.fulfillmentOrders", {
        UPDATED_AT: (fo) => fo.updatedAt,
      });
      const sort =
        args.sortKey === "UPDATED_AT" ? { value: (fo: FulfillmentOrderRecord) => fo.updatedAt } : undefined;
      return connection(ordered, args, (fo) => v.fulfillmentOrder(fo.id), sort);
    },
    fulfillment: (args: Args) => v.typed(args.id, "Fulfillment"),
    node: (args: Args) => v.node(args.id),
    nodes: (args: Args) => (args.ids as unknown[]).map((id) => v.node(id)),
    ...Object.assign({}, ...extensions.map((extension) => extension.query?.(store, v) ?? {})),
  };
}

// graphql-js has coerced arguments against the schema before a resolver runs, so these mirror the input types.
interface InventorySetQuantitiesInput {
  name: string;
  reason: string;
  referenceDocumentUri?: string | null;
  quantities: Array<{
    inventoryItemId: Gid;
    locationId: Gid;
    quantity: number;
    changeFromQuantity?: number | null;
  }>;
}
interface FulfillmentInput {
  lineItemsByFulfillmentOrder: Array<{
    fulfillmentOrderId: Gid;
    fulfillmentOrderLineItems?: Array<{ id: Gid; quantity: number }> | null;
  }>;
  notifyCustomer?: boolean | null;
  trackingInfo?: TrackingInput | null;
}
type TrackingInput = { company?: string | null; number?: string | null; numbers?: string[] | null } & {
  url?: string | null;
  urls?: string[] | null;
};
type FulfillmentEventInput = { fulfillmentId: Gid; status: string; happenedAt?: string | null } & Partial<
  Record<
    "message" | "estimatedDeliveryAt" | "address1" | "city" | "province" | "country" | "zip",
    string | null
  >
> &
  Partial<Record<"latitude" | "longitude", number | null>>;

const SET_QUANTITY_REASONS = new Set(
  [
    "correction cycle_count_available damaged movement_created movement_updated movement_received",
    "movement_canceled other promotion quality_control received reservation_created reservation_deleted",
    "reservation_updated restock safety_stock shrinkage",
  ]
    .join(" ")
    .split(" "),
);
const QUANTITY_LIMIT = 1_000_000_000;

export function mutationRoot(store: ShopStore): View {
  const v = views(store);
  /** A mutation's payload with Shopify's rule broken: every other field null, the rule as its user error. */
  const refused = (keys: string[], error: FulfillmentRuleError | UserError) => ({
    ...Object.fromEntries(keys.map((key) => [key, null])),
    userErrors: [{ field: error.field, message: error.message, code: error.code ?? null }],
  });
  /**
   * Runs a fulfillment order mutation: an unknown fulfillment order is its user error (`notFound`), a rule the
   * change would break (FulfillmentRuleError) too, with nothing changed.
   */
  const onFulfillmentOrder =
    (keys: string[], notFoundCode: string | null, run: (fo: FulfillmentOrderRecord, args: Args) => View) =>
    (args: Args) => {
      const fo = store.fulfillmentOrders.get(String(args.id));
      if (!fo) {
        const notFound = { field: ["id"], message: "Fulfillment order does not exist.", code: notFoundCode };
        return refused(keys, notFound);
      }
      try {
        return run(fo, args);
      } catch (error) {
        if (error instanceof FulfillmentRuleError) return refused(keys, error);
        throw error;
      }
    };
  const fulfillmentOrderView = (fo: FulfillmentOrderRecord | null) => fo && v.fulfillmentOrder(fo.id);
  const lifecycle = {
    fulfillmentOrderMove: onFulfillmentOrder(
      ["movedFulfillmentOrder", "originalFulfillmentOrder", "remainingFulfillmentOrder"],
      null,
      (fo, args) => {
        const newLocationId = String(args.newLocationId);
        if (!store.locations.has(newLocationId)) {
          const error = { field: ["newLocationId"], message: "Location not found.", code: null };
          return refused(
            ["movedFulfillmentOrder", "originalFulfillmentOrder", "remainingFulfillmentOrder"],
            error,
          );
        }
        const lines = args.fulfillmentOrderLineItems as LineQuantity[] | null | undefined;
        const moved = store.moveFulfillmentOrder(fo.id, newLocationId, lines);
        return {
          movedFulfillmentOrder: fulfillmentOrderView(moved),
          originalFulfillmentOrder: fulfillmentOrderView(fo),
          remainingFulfillmentOrder: null, // deprecated in the schema; Shopify answers null
          userErrors: [],
        };
      },
    ),
    fulfillmentOrderHold: onFulfillmentOrder(
      ["fulfillmentHold", "fulfillmentOrder", "remainingFulfillmentOrder"],
      "FULFILLMENT_ORDER_NOT_FOUND",
      (fo, args) => {
        const input = args.fulfillmentHold as {
          reason: FulfillmentHoldReason;
          reasonNotes?: string | null;
          handle?: string | null;
          fulfillmentOrderLineItems?: LineQuantity[] | null;
        };
        const placed = store.placeHold(fo.id, {
          reason: input.reason,
          reasonNotes: input.reasonNotes ?? null,
          handle: input.handle ?? "",
          lineItems: input.fulfillmentOrderLineItems ?? null,
          byRequestingApp: true,
        });
        const { byRequestingApp, ...hold } = placed.hold;
        return {
          fulfillmentHold: {
            ...node("FulfillmentHold", hold),
            heldByRequestingApp: byRequestingApp,
            displayReason: HOLD_DISPLAY_REASONS[hold.reason],
          },
          fulfillmentOrder: fulfillmentOrderView(placed.fulfillmentOrder),
          remainingFulfillmentOrder: fulfillmentOrderView(placed.remainingFulfillmentOrder),
          userErrors: [],
        };
      },
    ),
    fulfillmentOrderSplit: (args: Args) => {
      const splits = args.fulfillmentOrderSplits as Array<{
        fulfillmentOrderId: Gid;
        fulfillmentOrderLineItems: LineQuantity[];
      }>;
      const keys = ["fulfillmentOrderSplits"];
      const missing = splits.findIndex((split) => !store.fulfillmentOrders.has(split.fulfillmentOrderId));
      if (missing >= 0) {
        const field = ["fulfillmentOrderSplits", String(missing), "fulfillmentOrderId"];
        const code = "FULFILLMENT_ORDER_NOT_FOUND";
        return refused(keys, { field, message: "Fulfillment order does not exist.", code });
      }
      try {
        // Not atomic across several splits: one refused stops there, as the fake's simplification.
        const results = splits.map((split) =>
          store.splitFulfillmentOrder(split.fulfillmentOrderId, split.fulfillmentOrderLineItems),
        );
        return {
          fulfillmentOrderSplits: results.map((result) => ({
            fulfillmentOrder: fulfillmentOrderView(result.fulfillmentOrder),
            remainingFulfillmentOrder: fulfillmentOrderView(result.remainingFulfillmentOrder),
            replacementFulfillmentOrder: fulfillmentOrderView(result.replacementFulfillmentOrder),
          })),
          userErrors: [],
        };
      } catch (error) {
        if (error instanceof FulfillmentRuleError) return refused(keys, error);
        throw error;
      }
    },
    fulfillmentOrderMerge: (args: Args) => {
      const inputs = args.fulfillmentOrderMergeInputs as Array<{
        mergeIntents: Array<{ fulfillmentOrderId: Gid; fulfillmentOrderLineItems?: LineQuantity[] | null }>;
      }>;
      const keys = ["fulfillmentOrderMerges"];
      for (const [index, input] of inputs.entries()) {
        const missing = input.mergeIntents.findIndex(
          (intent) => !store.fulfillmentOrders.has(intent.fulfillmentOrderId),
        );
        if (missing >= 0) {
          const field = ["fulfillmentOrderMergeInputs", String(index), "mergeIntents", String(missing)];
          const code = "FULFILLMENT_ORDER_NOT_FOUND";
          return refused(keys, { field, message: "Fulfillment order does not exist.", code });
        }
      }
      try {
        const merged = inputs.map((input) =>
          store.mergeFulfillmentOrders(
            input.mergeIntents.map((intent) => ({
              fulfillmentOrderId: intent.fulfillmentOrderId,
              lineItems: intent.fulfillmentOrderLineItems ?? null,
            })),
          ),
        );
        return {
          fulfillmentOrderMerges: merged.map((fo) => ({ fulfillmentOrder: fulfillmentOrderView(fo) })),
          userErrors: [],
        };
      } catch (error) {
        if (error instanceof FulfillmentRuleError) return refused(keys, error);
        throw error;
      }
    },
    fulfillmentOrderCancel: onFulfillmentOrder(
      ["fulfillmentOrder", "replacementFulfillmentOrder"],
      null,
      (fo) => {
        const cancelled = store.cancelFulfillmentOrder(fo.id);
        return {
          fulfillmentOrder: fulfillmentOrderView(cancelled.fulfillmentOrder),
          replacementFulfillmentOrder: fulfillmentOrderView(cancelled.replacementFulfillmentOrder),
          userErrors: [],
        };
      },
    ),
    fulfillmentOrderReschedule: onFulfillmentOrder(
      ["fulfillmentOrder"],
      "FULFILLMENT_ORDER_NOT_FOUND",
      (fo, args) => ({
        fulfillmentOrder: fulfillmentOrderView(
          store.rescheduleFulfillmentOrder(fo.id, String(args.fulfillAt)),
        ),
        userErrors: [],
      }),
    ),
  };
  /**
   * Runs a mutation that requires `@idempotent` (2026-04): refused without a key; a key seen before with the same
   * arguments replays its first answer and changes nothing, with other arguments it is refused.
   */
  const idempotent =
    (mutation: string, payloadKey: string, run: (args: Args) => unknown) =>
    (args: Args, _ctx: ResolverContext, info: GraphQLResolveInfo) => {
      const directive = adminSchema().getDirective("idempotent");
      const key = directive && getDirectiveValues(directive, info.fieldNodes[0]!, info.variableValues)?.key;
      if (typeof key !== "string") {
        const message = "The @idempotent directive is required for this mutation but was not provided.";
        throw new GraphQLError(message, { extensions: { code: "BAD_REQUEST" } });
      }
      const fingerprint = JSON.stringify(args);
      const previous = store.idempotency.get(`${mutation}:${key}`);
      if (previous && previous.fingerprint !== fingerprint) {
        const message = "The same idempotency key cannot be used with different operation parameters.";
        const code = "IDEMPOTENCY_KEY_PARAMETER_MISMATCH";
        return { [payloadKey]: null, userErrors: [{ field: null, message, code }] };
      }
      if (previous) return previous.payload; // a retry gets the first answer and changes nothing
      const payload = run(args);
      store.idempotency.set(`${mutation}:${key}`, { fingerprint, payload });
      return payload;
    };
  return {
    ...lifecycle,
    ...serviceMutations(store, v, { connection, sorted, notImplemented }),
    inventorySetQuantities: (args: Args, ctx: ResolverContext, info: GraphQLResolveInfo) => {
      const input = args.input as InventorySetQuantitiesInput;
      // Since 2026-04 every quantity must state changeFromQuantity (null opts out), checked before the key.
      if (input.quantities.some((quantity) => !("changeFromQuantity" in quantity))) {
        const message = "InventoryQuantityInput must include the following argument: changeFromQuantity.";
        throw new GraphQLError(message, { extensions: { code: "INVALID_FIELD_ARGUMENTS" } });
      }
      return idempotent("inventorySetQuantities", "inventoryAdjustmentGroup", () =>
        setQuantities(store, v, input),
      )(args, ctx, info);
    },
    inventoryActivate: idempotent("inventoryActivate", "inventoryLevel", (args) => {
      const inventoryItemId = String(args.inventoryItemId);
      const locationId = String(args.locationId);
      // Initial quantities, and stocking at a fulfillment service's location, are not modelled: refused, not guessed.
      for (const unmodelled of ["available", "onHand"]) {
        if (args[unmodelled] != null) throw notImplemented(`inventoryActivate(${unmodelled}:)`);
      }
      if (args.stockAtLegacyLocation === true)
        throw notImplemented("inventoryActivate(stockAtLegacyLocation:)");
      if (!store.inventoryItems.has(inventoryItemId)) {
        const message = "Inventory item does not exist";
        return { inventoryLevel: null, userErrors: [{ field: ["inventoryItemId"], message }] };
      }
      if (!store.locations.get(locationId)?.isActive) {
        const message = "Location does not exist or is not active";
        return { inventoryLevel: null, userErrors: [{ field: ["locationId"], message }] };
      }
      // An item already stocked there keeps its level and quantities: activating it again changes nothing.
      return { inventoryLevel: v.level(store.stock(inventoryItemId, locationId)), userErrors: [] };
    }),
    fulfillmentCreate: (args: Args) => createFulfillment(store, v, args.fulfillment as FulfillmentInput),
    fulfillmentTrackingInfoUpdate: (args: Args) => {
      const fulfillment = store.fulfillments.get(String(args.fulfillmentId));
      if (!fulfillment) {
        return {
          fulfillment: null,
          userErrors: [{ field: ["fulfillmentId"], message: "Fulfillment does not exist." }],
        };
      }
      if (fulfillment.status === "CANCELLED") {
        const message = "Cannot update the tracking information of a cancelled fulfillment.";
        return { fulfillment: null, userErrors: [{ field: ["fulfillmentId"], message }] };
      }
      fulfillment.trackingInfo = trackingRecords(args.trackingInfoInput as TrackingInput);
      // Once asked, the buyer hears of this and every later update (the argument's description).
      if (args.notifyCustomer === true) fulfillment.notifyCustomer = true;
      if (fulfillment.notifyCustomer) {
        const trackingNumbers = fulfillment.trackingInfo.flatMap((info) =>
          info.number ? [info.number] : [],
        );
        fulfillment.buyerEmails.push({ kind: "shipping_update", trackingNumbers });
      }
      fulfillment.updatedAt = store.timestamp();
      return { fulfillment: v.fulfillment(fulfillment.id), userErrors: [] };
    },
    fulfillmentOrderReleaseHold: (args: Args) => {
      const fo = store.fulfillmentOrders.get(String(args.id));
      if (!fo) {
        const message = "Fulfillment order not found.";
        const userErrors = [{ field: ["id"], message, code: "FULFILLMENT_ORDER_NOT_FOUND" }];
        return { fulfillmentOrder: null, userErrors };
      }
      const holdIds = Array.isArray(args.holdIds) ? (args.holdIds as Gid[]) : undefined;
      const released = fo.holds.filter((hold) => !holdIds || holdIds.includes(hold.id));
      // Conservative: the fake lets an app lift only the holds it placed, never a merchant's or fraud hold.
      if (released.some((hold) => !hold.byRequestingApp)) {
        const message = "The app doesn't have access to release the fulfillment hold.";
        return { fulfillmentOrder: null, userErrors: [{ field: ["id"], message, code: "INVALID_ACCESS" }] };
      }
      store.releaseHolds(
        fo.id,
        released.map((hold) => hold.id),
      );
      return { fulfillmentOrder: v.fulfillmentOrder(fo.id), userErrors: [] };
    },
    fulfillmentEventCreate: (args: Args) => {
      const { fulfillmentId, status, happenedAt, ...details } =
        args.fulfillmentEvent as FulfillmentEventInput;
      const fulfillment = store.fulfillments.get(fulfillmentId);
      if (!fulfillment) {
        const userErrors = [
          { field: ["fulfillmentEvent", "fulfillmentId"], message: "Fulfillment does not exist." },
        ];
        return { fulfillmentEvent: null, userErrors };
      }
      const now = store.timestamp();
      const event = {
        ...{ id: store.newId("FulfillmentEvent"), status, happenedAt: happenedAt ?? now, createdAt: now },
        ...{ message: null, estimatedDeliveryAt: null, address1: null, city: null, province: null },
        ...{ country: null, zip: null, latitude: null, longitude: null, ...details },
      };
      fulfillment.events.push(event);
      // The newest event is what the admin shows; every event status is also a display status.
      Object.assign(fulfillment, { displayStatus: status, updatedAt: now });
      if (event.estimatedDeliveryAt) fulfillment.estimatedDeliveryAt = event.estimatedDeliveryAt;
      if (status === "IN_TRANSIT") fulfillment.inTransitAt = event.happenedAt;
      if (status === "DELIVERED") fulfillment.deliveredAt = event.happenedAt;
      return { fulfillmentEvent: node("FulfillmentEvent", event), userErrors: [] };
    },
    ...Object.assign({}, ...extensions.map((extension) => extension.mutation?.(store, v) ?? {})),
  };
}

function setQuantities(store: ShopStore, v: ReturnType<typeof views>, input: InventorySetQuantitiesInput) {
  const userErrors: UserError[] = [];
  const fail = (field: Array<string | number>, code: string | null, message: string) =>
    void userErrors.push({ field: field.map(String), message, code });
  if (input.name !== "available" && input.name !== "on_hand") {
    fail(["input", "name"], "INVALID_NAME", "The quantity name must be either 'available' or 'on_hand'.");
  }
  if (!SET_QUANTITY_REASONS.has(input.reason)) {
    fail(["input", "reason"], "INVALID_REASON", "The specified reason is invalid.");
  }
  if (input.referenceDocumentUri != null && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(input.referenceDocumentUri)) {
    const message = "The specified reference document is invalid.";
    fail(["input", "referenceDocumentUri"], "INVALID_REFERENCE_DOCUMENT", message);
  }
  const seen = new Set<string>();
  const targets: Array<{ level: InventoryLevelRecord; quantity: number }> = [];
  input.quantities.forEach((entry, index) => {
    const at = (...field: string[]) => ["input", "quantities", index, ...field];
    const pair = `${entry.inventoryItemId}|${entry.locationId}`;
    const level = store.level(entry.inventoryItemId, entry.locationId);
    const current = level && store.quantity(level, input.name);
    if (!store.inventoryItems.has(entry.inventoryItemId)) {
      fail(
        at("inventoryItemId"),
        "INVALID_INVENTORY_ITEM",
        "The specified inventory item could not be found.",
      );
    } else if (!store.locations.has(entry.locationId)) {
      fail(at("locationId"), "INVALID_LOCATION", "The specified location could not be found.");
    } else if (seen.has(pair)) {
      const message = "The combination of inventoryItemId and locationId must be unique.";
      fail(at(), "NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR", message);
    } else if (Math.abs(entry.quantity) > QUANTITY_LIMIT) {
      const [code, bound] = entry.quantity > 0 ? ["TOO_HIGH", "higher than"] : ["TOO_LOW", "lower than -"];
      fail(at("quantity"), `INVALID_QUANTITY_${code}`, `The total quantity can't be ${bound}1,000,000,000.`);
    } else if (!level) {
      // The fake refuses rather than guesses: seed the item at the location first (ShopStore.stock).
      fail(at("locationId"), null, "The inventory item is not stocked at the location.");
    } else if (entry.changeFromQuantity != null && current != null && current !== entry.changeFromQuantity) {
      const message = "The changeFromQuantity argument no longer matches the persisted quantity.";
      fail(at("changeFromQuantity"), "CHANGE_FROM_QUANTITY_STALE", message);
    } else {
      targets.push({ level, quantity: entry.quantity });
    }
    seen.add(pair);
  });
  if (userErrors.length > 0) return { inventoryAdjustmentGroup: null, userErrors };

  // Whichever state is set, available absorbs the change and on_hand moves with it, so both are reported.
  const names = input.name === "available" ? ["available", "on_hand"] : ["on_hand", "available"];
  const changes = targets.flatMap(({ level, quantity }) => {
    const delta = quantity - (store.quantity(level, input.name) ?? 0);
    level.quantities.available += delta;
    level.updatedAt = store.timestamp();
    const { inventoryItemId, locationId } = level;
    return names.map((name) => {
      const quantityAfterChange = store.quantity(level, name);
      return { name, delta, quantityAfterChange, ledgerDocumentUri: null, inventoryItemId, locationId };
    });
  });
  const { reason, referenceDocumentUri = null } = input;
  const id = store.newId("InventoryAdjustmentGroup");
  const group = {
    ...node("InventoryAdjustmentGroup", { id }),
    createdAt: store.timestamp(),
    reason,
    referenceDocumentUri,
  };
  const wanted = (filter: unknown, value: string) => !Array.isArray(filter) || filter.includes(value);
  const changesView = (args: Args) =>
    changes
      .filter(
        (c) => wanted(args.inventoryItemIds, c.inventoryItemId) && wanted(args.locationIds, c.locationId),
      )
      .filter((c) => wanted(args.quantityNames, c.name))
      .map((c) => ({
        ...c,
        item: () => v.inventoryItem(c.inventoryItemId),
        location: () => v.location(c.locationId),
      }));
  return { inventoryAdjustmentGroup: { ...group, changes: changesView }, userErrors };
}

function createFulfillment(store: ShopStore, v: ReturnType<typeof views>, input: FulfillmentInput) {
  const failed = (field: Array<string | number>, message: string) => ({
    fulfillment: null,
    userErrors: [{ field: field.map(String), message }],
  });
  const picks: Array<{
    fo: FulfillmentOrderRecord;
    line: FulfillmentOrderRecord["lineItems"][number];
    quantity: number;
  }> = [];
  const groups = input.lineItemsByFulfillmentOrder;
  if (groups.length === 0)
    return failed(["fulfillment", "lineItemsByFulfillmentOrder"], "Line items can't be blank.");
  for (const [groupIndex, group] of groups.entries()) {
    const at = ["fulfillment", "lineItemsByFulfillmentOrder", groupIndex];
    const fo = store.fulfillmentOrders.get(group.fulfillmentOrderId);
    if (!fo) return failed([...at, "fulfillmentOrderId"], "Fulfillment order does not exist.");
    const firstFo = picks[0]?.fo ?? fo;
    if (fo.orderId !== firstFo.orderId || fo.assignedLocationId !== firstFo.assignedLocationId) {
      return failed(["fulfillment"], "Fulfillment orders must belong to the same order and location.");
    }
    if (!FULFILLABLE.has(fo.status)) {
      const status = fo.status.toLowerCase();
      return failed(
        ["fulfillment"],
        `Fulfillment order ${legacyNumber(fo.id)} has an unfulfillable status= ${status}.`,
      );
    }
    const refusal = serviceFulfillmentRefusal(store, fo);
    if (refusal) return failed(["fulfillment"], refusal);
    // No line items named means every remaining unit of the fulfillment order.
    const requested = group.fulfillmentOrderLineItems?.length
      ? group.fulfillmentOrderLineItems
      : fo.lineItems
          .filter((l) => l.remainingQuantity > 0)
          .map((l) => ({ id: l.id, quantity: l.remainingQuantity }));
    for (const [lineIndex, { id, quantity }] of requested.entries()) {
      const line = fo.lineItems.find((candidate) => candidate.id === id);
      if (quantity <= 0) {
        return failed(
          [...at, "fulfillmentOrderLineItems", lineIndex, "quantity"],
          "Quantity must be greater than 0",
        );
      }
      const picked = picks.filter((pick) => pick.line === line).reduce((n, pick) => n + pick.quantity, 0);
      if (!line || quantity > line.remainingQuantity - picked) {
        return failed(["fulfillment"], "Invalid fulfillment order line item quantity requested.");
      }
      picks.push({ fo, line, quantity });
    }
  }
  const order = picks[0] && store.orders.get(picks[0].fo.orderId);
  if (!picks[0] || !order)
    return failed(["fulfillment"], "Invalid fulfillment order line item quantity requested.");

  const now = store.timestamp();
  for (const { fo, line, quantity } of picks) {
    line.remainingQuantity -= quantity;
    store.fulfilUnits(fo, line.lineItemId, quantity);
    // A fully fulfilled fulfillment order closes; a partly fulfilled one stays fulfillable for the rest.
    fo.status = fo.lineItems.every((candidate) => candidate.remainingQuantity === 0)
      ? "CLOSED"
      : "IN_PROGRESS";
    fo.updatedAt = now;
  }
  const fulfillment: FulfillmentRecord = {
    id: store.newId("Fulfillment"),
    name: `${order.name}-F${order.fulfillmentIds.length + 1}`,
    ...{ status: "SUCCESS", displayStatus: "FULFILLED", createdAt: now, updatedAt: now },
    ...{ inTransitAt: null, deliveredAt: null, estimatedDeliveryAt: null },
    ...{ orderId: order.id, locationId: picks[0].fo.assignedLocationId },
    fulfillmentOrderIds: [...new Set(picks.map((pick) => pick.fo.id))],
    lines: picks.map(({ line, quantity }) => ({
      id: store.newId("FulfillmentLineItem"),
      lineItemId: line.lineItemId,
      quantity,
    })),
    trackingInfo: trackingRecords(input.trackingInfo ?? {}),
    notifyCustomer: input.notifyCustomer ?? false,
    events: [],
    buyerEmails: [],
  };
  if (fulfillment.notifyCustomer) {
    const trackingNumbers = fulfillment.trackingInfo.flatMap((info) => (info.number ? [info.number] : []));
    fulfillment.buyerEmails.push({ kind: "shipping_confirmation", trackingNumbers });
  }
  store.fulfillments.set(fulfillment.id, fulfillment);
  order.fulfillmentIds.push(fulfillment.id);
  return { fulfillment: v.fulfillment(fulfillment.id), userErrors: [] };
}

/** FulfillmentTrackingInput as the fulfillment's trackingInfo list: one entry per number (or URL), one company. */
function trackingRecords(input: TrackingInput): FulfillmentRecord["trackingInfo"] {
  const { company = null, number, numbers, url, urls } = input;
  const trackingNumbers = numbers?.length ? numbers : number != null ? [number] : [];
  const trackingUrls = urls?.length ? urls : url != null ? [url] : [];
  const trackingCount = Math.max(trackingNumbers.length, trackingUrls.length, company ? 1 : 0);
  return Array.from({ length: trackingCount }, (_, index) => ({
    ...{ number: trackingNumbers[index] ?? null, url: trackingUrls[index] ?? null, company },
  }));
}
