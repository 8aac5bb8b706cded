// Choosing how the warehouse appears in Shopify. "service": the app registers its fulfillment service
// (fulfillmentServiceCreate; Shopify makes its location), puts the warehouse's address on that location
// (locationEdit), and saves the mode, the service and its location, through the settings' conditional write.
// Exactly once: the service is looked up by its name before one is made, so a create whose answer was lost,
// or a second click, finds the service made instead of making another (Shopify also refuses a second service
// of the same name: that refusal is answered with the look-up too). "location": back to a location of the
// merchant's; the service stays registered, so orders sent under it finish under it (each order keeps its own
// mode and location).
//
// Decisions. The address is the merchant's to enter (the app knows no warehouse address: the sender is the
// shop's, and the warehouse's API gives none); left empty, the location keeps the shop's address, which
// Shopify gives a new service's location. trackingSupport is on: Shopify may GET <callbackUrl>/
// fetch_tracking_numbers, answered from the recorded waybills (tracking.server.ts). inventoryManagement is off,
// so Shopify never GETs <callbackUrl>/fetch_stock: which quantity Shopify would set from that answer is not
// in the schema, and the stock sync already writes the warehouse's figures there itself, each write checked
// against the quantity it read and net of the units the store promised; a second writer on Shopify's
// schedule, from figures up to a sync old, could only undo that.
import type { ServiceDeps } from "../context.server";
import { message, type Message } from "../i18n/message";
import { ShopifyUserErrors, type ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  ServiceFulfillmentServiceCreateMutation,
  ServiceShopFulfillmentServicesQuery,
} from "../types/admin.generated";
import { requestStockSync } from "../stock/kinds.server";
import { FULFILLMENT_KIND } from "../statuses/kinds.server";
import { sectionVersion, writeSettings } from "../settings/versions.server";
import { requestRun } from "../work/schedule.server";
import {
  FULFILLMENT_SERVICE_CREATE,
  SERVICE_LOCATION_EDIT,
  SHOP_FULFILLMENT_SERVICES_QUERY,
} from "./operations";
import { requestFulfillmentRequests } from "./kinds.server";

/** The service's name in Shopify (the merchant sees it as a location and in order routing). */
export const SERVICE_NAME = "Sklad Sync";
/** The callback URL's path on the app: Shopify POSTs <this>/fulfillment_order_notification. */
export const CALLBACK_PATH = "/fulfillment-service";

export interface WarehouseAddress {
  address1: string;
  city: string;
  zip: string;
}

interface Service {
  id: string;
  location?: { id: string; name: string } | null;
}

export type ModeAnswer =
  | { ok: true; mode: "service" | "location"; locationName: string | null; version: number }
  | { ok: false; problem: Message };

/** This app's service among the shop's, by its name or its callback URL. */
async function findService(admin: ShopAdmin, callbackUrl: string): Promise<Service | null> {
  const data = await admin.query<ServiceShopFulfillmentServicesQuery>(SHOP_FULFILLMENT_SERVICES_QUERY);
  return (
    data.shop.fulfillmentServices.find(
      (service) => service.serviceName === SERVICE_NAME || service.callbackUrl === callbackUrl,
    ) ?? null
  );
}

/** The service, found or made: never two. */
async function ensureService(admin: ShopAdmin, callbackUrl: string): Promise<Service> {
  const found = await findService(admin, callbackUrl);
  if (found) return found;
  try {
    const made = await admin.mutate<ServiceFulfillmentServiceCreateMutation>(FULFILLMENT_SERVICE_CREATE, {
      name: SERVICE_NAME,
      callbackUrl,
      inventoryManagement: false,
      trackingSupport: true,
      requiresShippingMethod: true,
    });
    const service = made.fulfillmentServiceCreate?.fulfillmentService;
    if (service) return service;
  } catch (error) {
    // Made meanwhile (a second click, another admin): Shopify refuses the name; the look-up finds it.
    if (!(error instanceof ShopifyUserErrors)) throw error;
    const again = await findService(admin, callbackUrl);
    if (again) return again;
    throw error;
  }
  throw new Error("fulfillmentServiceCreate answered no service");
}

/**
 * Registers the service (once), puts the address on its location, and saves service mode with the service's
 * location as the warehouse's. `shown`: the statuses form's version the page showed.
 */
export async function chooseServiceMode(
  deps: ServiceDeps,
  shop: string,
  admin: ShopAdmin,
  input: { appUrl: string; shown?: number; address?: WarehouseAddress | null },
): Promise<ModeAnswer> {
  const read = await deps.db.shopSettings.findUnique({
    where: { shop },
    select: { settingsVersions: true, locationId: true },
  });
  if (input.shown !== undefined && input.shown !== sectionVersion(read?.settingsVersions, "statuses")) {
    return { ok: false, problem: message("settings:errors.changedMeanwhile") };
  }
  const callbackUrl = new URL(CALLBACK_PATH, input.appUrl).toString();
  let service: Service;
  try {
    service = await ensureService(admin, callbackUrl);
  } catch (error) {
    deps.log.warn(
      { shop, event: "service.register_failed", err: error },
      "the fulfillment service was not registered",
    );
    return { ok: false, problem: message("statuses:mode.registerFailed") };
  }
  if (!service.location) return { ok: false, problem: message("statuses:mode.registerFailed") };
  const address = input.address;
  if (address && (address.address1 || address.city || address.zip)) {
    try {
      await admin.mutate(SERVICE_LOCATION_EDIT, {
        id: service.location.id,
        input: {
          address: {
            ...(address.address1 && { address1: address.address1 }),
            ...(address.city && { city: address.city }),
            ...(address.zip && { zip: address.zip }),
            countryCode: "UA",
          },
        },
      });
    } catch (error) {
      deps.log.warn(
        { shop, event: "service.address_failed", err: error },
        "the service location's address was not set",
      );
      return { ok: false, problem: message("statuses:mode.addressFailed") };
    }
  }
  const written = await writeSettings(deps.db, shop, {
    read: read && { settingsVersions: read.settingsVersions },
    section: "statuses",
    data: {
      fulfillmentMode: "service",
      fulfillmentServiceId: service.id,
      locationId: service.location.id,
      locationName: service.location.name,
    },
  });
  if (written === null) return { ok: false, problem: message("settings:errors.changedMeanwhile") };
  const now = deps.clock();
  // Requests may already wait at the new location; stock and fulfillments now go there.
  await requestFulfillmentRequests(deps.db, shop, now);
  if (read?.locationId !== service.location.id) {
    await requestRun(deps.db, shop, FULFILLMENT_KIND, now);
    await requestStockSync(deps.db, shop, now);
  }
  deps.log.info(
    { shop, event: "service.mode_chosen", serviceId: service.id },
    "fulfillment-service mode chosen",
  );
  deps.wake?.(shop);
  return { ok: true, mode: "service", locationName: service.location.name, version: written };
}

/** Back to a location of the merchant's (chosen among the shop's locations by the caller). */
export async function chooseLocationMode(
  deps: ServiceDeps,
  shop: string,
  input: { location: { id: string; name: string }; shown?: number },
): Promise<ModeAnswer> {
  const read = await deps.db.shopSettings.findUnique({
    where: { shop },
    select: { settingsVersions: true, locationId: true },
  });
  const written = await writeSettings(deps.db, shop, {
    read: read && { settingsVersions: read.settingsVersions },
    section: "statuses",
    ...(input.shown === undefined ? {} : { shown: input.shown }),
    data: { fulfillmentMode: "location", locationId: input.location.id, locationName: input.location.name },
  });
  if (written === null) return { ok: false, problem: message("settings:errors.changedMeanwhile") };
  const now = deps.clock();
  if (read?.locationId !== input.location.id) {
    await requestRun(deps.db, shop, FULFILLMENT_KIND, now);
    await requestStockSync(deps.db, shop, now);
  }
  deps.log.info({ shop, event: "service.location_mode_chosen" }, "location mode chosen");
  deps.wake?.(shop);
  return { ok: true, mode: "location", locationName: input.location.name, version: written };
}
