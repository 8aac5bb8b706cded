// THE LEAST of fulfillment services the service mode's tests need, until piece S's test/shopify-fake/services.ts
// is merged (then this file and its two hooks in resolvers.ts go, in favour of S's). Services with their
// locations, shop.fulfillmentServices, locationEdit, assignedFulfillmentOrders, merchants' requests (in-process)
// and the four answers with Shopify's rule: only a submitted request (or a requested cancellation) is answered.
import type { FulfillmentOrderRecord, Gid, ShopStore } from "./state";

type Args = Record<string, unknown>;
type View = Record<string, unknown>;
type Views = { fulfillmentOrder(id: Gid): View | null; location(id: Gid): View | null };
/** The resolvers' connection (passed in: this file is imported by resolvers.ts). */
type Connection = <T extends { id: Gid }>(
  items: readonly T[],
  args: Args,
  view: (item: T) => unknown,
) => View;

export interface FakeServiceRecord {
  id: Gid;
  serviceName: string;
  handle: string;
  callbackUrl: string | null;
  inventoryManagement: boolean;
  trackingSupport: boolean;
  requiresShippingMethod: boolean;
  locationId: Gid;
}

/** Per shop: its services, and every answer the app made (for tests counting calls). */
const services = new WeakMap<ShopStore, FakeServiceRecord[]>();
const answers = new WeakMap<ShopStore, Array<{ mutation: string; id: Gid; message: string | null }>>();

export function fakeServices(store: ShopStore): FakeServiceRecord[] {
  let list = services.get(store);
  if (!list) services.set(store, (list = []));
  return list;
}

export function fakeAnswers(store: ShopStore) {
  let list = answers.get(store);
  if (!list) answers.set(store, (list = []));
  return list;
}

/** The merchant asks the service to fulfil (fulfillmentOrderSubmitFulfillmentRequest). */
export function submitFulfillmentRequest(store: ShopStore, id: Gid): FulfillmentOrderRecord {
  const fo = store.fulfillmentOrders.get(id)!;
  fo.requestStatus = "SUBMITTED";
  fo.merchantRequests.push({
    id: store.newId("FulfillmentOrderMerchantRequest"),
    kind: "FULFILLMENT_REQUEST",
    message: null,
  });
  fo.updatedAt = store.timestamp();
  return fo;
}

/** The merchant asks the service to cancel (fulfillmentOrderSubmitCancellationRequest): only once accepted. */
export function submitCancellationRequest(store: ShopStore, id: Gid): FulfillmentOrderRecord {
  const fo = store.fulfillmentOrders.get(id)!;
  if (fo.requestStatus !== "ACCEPTED") throw new Error(`cannot ask to cancel a ${fo.requestStatus} request`);
  fo.requestStatus = "CANCELLATION_REQUESTED";
  fo.merchantRequests.push({
    id: store.newId("FulfillmentOrderMerchantRequest"),
    kind: "CANCELLATION_REQUEST",
    message: null,
  });
  fo.updatedAt = store.timestamp();
  return fo;
}

const ASSIGNMENT: Record<string, string> = {
  FULFILLMENT_REQUESTED: "SUBMITTED",
  CANCELLATION_REQUESTED: "CANCELLATION_REQUESTED",
  FULFILLMENT_ACCEPTED: "ACCEPTED",
  FULFILLMENT_UNSUBMITTED: "UNSUBMITTED",
};

function serviceView(store: ShopStore, v: Views, service: FakeServiceRecord): View {
  return {
    __typename: "FulfillmentService",
    ...service,
    location: () => v.location(service.locationId),
  };
}

export function serviceQueryFields(
  store: ShopStore,
  v: Views & { shop(): View },
  connection: Connection,
): View {
  return {
    shop: () => ({
      ...v.shop(),
      fulfillmentServices: fakeServices(store).map((s) => serviceView(store, v, s)),
    }),
    fulfillmentService: (args: Args) => {
      const found = fakeServices(store).find((s) => s.id === args.id);
      return found ? serviceView(store, v, found) : null;
    },
    assignedFulfillmentOrders: (args: Args) => {
      const own = new Set(fakeServices(store).map((s) => s.locationId));
      const wanted = Array.isArray(args.locationIds) ? new Set(args.locationIds as Gid[]) : null;
      const status = typeof args.assignmentStatus === "string" ? ASSIGNMENT[args.assignmentStatus] : null;
      const list = [...store.fulfillmentOrders.values()].filter(
        (fo) =>
          own.has(fo.assignedLocationId) &&
          (!wanted || wanted.has(fo.assignedLocationId)) &&
          (!status || fo.requestStatus === status),
      );
      return connection(list, args, (fo) => v.fulfillmentOrder(fo.id));
    },
  };
}

export function serviceMutationFields(store: ShopStore, v: Views): View {
  const userError = (field: string, message: string) => ({ field: [field], message });
  const answer = (mutation: string, from: string, to: string) => (args: Args) => {
    const fo = store.fulfillmentOrders.get(String(args.id));
    const owned = fo && fakeServices(store).some((s) => s.locationId === fo.assignedLocationId);
    if (!fo || !owned)
      return { fulfillmentOrder: null, userErrors: [userError("id", "Fulfillment order not found.")] };
    if (fo.requestStatus !== from) {
      const message = `Cannot answer a request whose status is ${fo.requestStatus.toLowerCase()}.`;
      return { fulfillmentOrder: null, userErrors: [userError("id", message)] };
    }
    fo.requestStatus = to as FulfillmentOrderRecord["requestStatus"];
    if (to === "CANCELLATION_ACCEPTED") fo.status = "CLOSED";
    if (to === "ACCEPTED") fo.status = "IN_PROGRESS";
    fo.updatedAt = store.timestamp();
    fakeAnswers(store).push({ mutation, id: fo.id, message: (args.message as string | null) ?? null });
    return { fulfillmentOrder: v.fulfillmentOrder(fo.id), userErrors: [] };
  };
  return {
    fulfillmentServiceCreate: (args: Args) => {
      const name = String(args.name);
      if (fakeServices(store).some((s) => s.serviceName === name)) {
        return { fulfillmentService: null, userErrors: [userError("name", "Name has already been taken")] };
      }
      const location = store.addLocation({ name });
      const service: FakeServiceRecord = {
        id: store.newId("FulfillmentService"),
        serviceName: name,
        handle: name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-"),
        callbackUrl: (args.callbackUrl as string | null) ?? null,
        inventoryManagement: args.inventoryManagement === true,
        trackingSupport: args.trackingSupport === true,
        requiresShippingMethod: args.requiresShippingMethod !== false,
        locationId: location.id,
      };
      location.fulfillmentServiceId = service.id;
      fakeServices(store).push(service);
      return { fulfillmentService: serviceView(store, v, service), userErrors: [] };
    },
    locationEdit: (args: Args) => {
      const location = store.locations.get(String(args.id));
      if (!location) return { location: null, userErrors: [userError("id", "Location not found.")] };
      const input = args.input as { name?: string | null; address?: Record<string, string | null> | null };
      if (input.name) location.name = input.name;
      if (input.address) {
        const { provinceCode, phone: _phone, ...address } = input.address;
        Object.assign(
          location.address,
          address,
          provinceCode === undefined ? {} : { province: provinceCode },
        );
      }
      return { location: v.location(location.id), userErrors: [] };
    },
    fulfillmentOrderAcceptFulfillmentRequest: answer("accept", "SUBMITTED", "ACCEPTED"),
    fulfillmentOrderRejectFulfillmentRequest: answer("reject", "SUBMITTED", "REJECTED"),
    fulfillmentOrderAcceptCancellationRequest: answer(
      "accept_cancellation",
      "CANCELLATION_REQUESTED",
      "CANCELLATION_ACCEPTED",
    ),
    fulfillmentOrderRejectCancellationRequest: answer(
      "reject_cancellation",
      "CANCELLATION_REQUESTED",
      "CANCELLATION_REJECTED",
    ),
  };
}
