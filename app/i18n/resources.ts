// Every text of the admin, by language and namespace (one namespace per page or area, one JSON file each),
// and the few words the app proxy adds for the storefront's branch picker (`storefront`).
// Both languages are bundled: they are small, and a page then renders the same words on the server and in
// the browser without a second request.
import enCatalogue from "./locales/en/catalogue.json";
import enCommon from "./locales/en/common.json";
import enDashboard from "./locales/en/dashboard.json";
import enHolds from "./locales/en/holds.json";
import enLanding from "./locales/en/landing.json";
import enOnboarding from "./locales/en/onboarding.json";
import enOrders from "./locales/en/orders.json";
import enDeliveries from "./locales/en/deliveries.json";
import enPrivacy from "./locales/en/privacy.json";
import enReturns from "./locales/en/returns.json";
import enSettings from "./locales/en/settings.json";
import enStatuses from "./locales/en/statuses.json";
import enStock from "./locales/en/stock.json";
import enStorefront from "./locales/en/storefront.json";
import enWarehouse from "./locales/en/warehouse.json";
import ukCatalogue from "./locales/uk/catalogue.json";
import ukCommon from "./locales/uk/common.json";
import ukDashboard from "./locales/uk/dashboard.json";
import ukHolds from "./locales/uk/holds.json";
import ukLanding from "./locales/uk/landing.json";
import ukOnboarding from "./locales/uk/onboarding.json";
import ukOrders from "./locales/uk/orders.json";
import ukDeliveries from "./locales/uk/deliveries.json";
import ukPrivacy from "./locales/uk/privacy.json";
import ukReturns from "./locales/uk/returns.json";
import ukSettings from "./locales/uk/settings.json";
import ukStatuses from "./locales/uk/statuses.json";
import ukStock from "./locales/uk/stock.json";
import ukStorefront from "./locales/uk/storefront.json";
import ukWarehouse from "./locales/uk/warehouse.json";
import type { Locale } from "./locales";

export const resources = {
  en: {
    common: enCommon,
    orders: enOrders,
    holds: enHolds,
    settings: enSettings,
    statuses: enStatuses,
    stock: enStock,
    catalogue: enCatalogue,
    privacy: enPrivacy,
    onboarding: enOnboarding,
    dashboard: enDashboard,
    landing: enLanding,
    storefront: enStorefront,
    returns: enReturns,
    deliveries: enDeliveries,
    warehouse: enWarehouse,
  },
  uk: {
    common: ukCommon,
    orders: ukOrders,
    holds: ukHolds,
    settings: ukSettings,
    statuses: ukStatuses,
    stock: ukStock,
    catalogue: ukCatalogue,
    privacy: ukPrivacy,
    onboarding: ukOnboarding,
    dashboard: ukDashboard,
    landing: ukLanding,
    storefront: ukStorefront,
    returns: ukReturns,
    deliveries: ukDeliveries,
    warehouse: ukWarehouse,
  },
} satisfies Record<Locale, Record<string, unknown>>;

export type Namespace = keyof (typeof resources)["en"];
export const NAMESPACES = Object.keys(resources.en) as Namespace[];
