// Which carrier took a warehouse order, and the tracking Shopify is given for its waybill. Shopify knows
// neither Nova Poshta nor Ukrposhta, so the company goes as text and the tracking page always as an explicit
// URL (from the shop's settings); without one Shopify would guess a carrier from the number's format.
import { DEFAULT_ORDER_SETTINGS, type OrderSettings } from "../orders/settings";
import { trackingUrl, type StatusSettings } from "../statuses/settings";
import { DELIVERY_METHOD } from "../warehouse/wire";

export const CARRIERS = ["novaPoshta", "ukrposhta"] as const;
export type Carrier = (typeof CARRIERS)[number];

/** The tracking company as the buyer reads it in Shopify's e-mails and order status page. */
export const CARRIER_COMPANY: Readonly<Record<Carrier, string>> = {
  novaPoshta: "Nova Poshta",
  ukrposhta: "Ukrposhta",
};

export interface TrackingDetails {
  company: string;
  number: string;
  url: string;
}

const comparable = (text: string) => text.trim().toLowerCase();

/**
 * The carrier of a warehouse order from the `delivery_method` text it was sent with. The shop's own literals
 * are checked first (they are a setting), then the provider's defaults, so an order sent before the merchant
 * changed a literal is still recognised. The Kyiv courier and pickup carry no carrier waybill: null.
 */
export function carrierOfDeliveryMethod(
  deliveryMethod: string,
  literals: OrderSettings["deliveryLiterals"] = DEFAULT_ORDER_SETTINGS.deliveryLiterals,
): Carrier | null {
  const wanted = comparable(deliveryMethod);
  for (const source of [literals, DELIVERY_METHOD]) {
    const carrier = CARRIERS.find((candidate) => comparable(source[candidate]) === wanted);
    if (carrier) return carrier;
  }
  return null;
}

/**
 * A waybill number as the carriers print it may carry spaces ("20 4500 0000 0001"); Shopify is given, and
 * fulfillments are matched on, the number without them.
 */
export function normaliseTtn(ttn: string): string {
  return ttn.replace(/\s+/g, "");
}

/** The tracking Shopify is given for a waybill: company text, the number, and its page by the shop's pattern. */
export function trackingFor(
  carrier: Carrier,
  ttn: string,
  settings: Pick<StatusSettings, "trackingUrls">,
): TrackingDetails {
  const number = normaliseTtn(ttn);
  return {
    company: CARRIER_COMPANY[carrier],
    number,
    url: trackingUrl(settings.trackingUrls[carrier], number),
  };
}
