// The carrier's own tracking status as a Shopify fulfillment event. Pure: one table, read by the step that
// tells Shopify of a shipment's progress.

/** FulfillmentEventStatus of the Admin API (2026-10). */
export const FULFILLMENT_EVENT_STATUSES = [
  "ATTEMPTED_DELIVERY",
  "CARRIER_PICKED_UP",
  "CONFIRMED",
  "DELAYED",
  "DELIVERED",
  "FAILURE",
  "IN_TRANSIT",
  "LABEL_PRINTED",
  "LABEL_PURCHASED",
  "OUT_FOR_DELIVERY",
  "READY_FOR_PICKUP",
] as const;
export type FulfillmentEventStatus = (typeof FULFILLMENT_EVENT_STATUSES)[number];

/**
 * Nova Poshta's tracking status codes: `StatusCode` of its public API 2.0 (`TrackingDocument.getStatusDocuments`,
 * developers.novaposhta.ua, "Трекінг"), which the warehouse passes on as `status_TTN_id` in ReportStatusOrder and
 * as `StatusCode` in `tracking_novaposhta[]`. A code not listed (1 created by the sender, 2 deleted, 3 not
 * found, 4 still in the sender's city, and any the carrier adds later) adds no event: the buyer learns nothing
 * new from it, and an event is better missing than wrong.
 */
const NOVA_POSHTA_EVENTS: Readonly<Record<string, FulfillmentEventStatus>> = {
  // On the way: to the recipient's city (5), in it and bound for the branch (6), within one city (41).
  "5": "IN_TRANSIT",
  "6": "IN_TRANSIT",
  "41": "IN_TRANSIT",
  // Arrived at the branch (7) or loaded into a parcel locker (8): the buyer may collect it.
  "7": "READY_FOR_PICKUP",
  "8": "READY_FOR_PICKUP",
  // With the courier, on the way to the recipient's address.
  "101": "OUT_FOR_DELIVERY",
  // The courier found nobody at the address or could not reach the recipient (111); the recipient moved
  // the delivery to another day (112).
  "111": "ATTEMPTED_DELIVERY",
  "112": "DELAYED",
  // Received (9), received with cash on delivery to be paid out (10) or paid out (11), received with a
  // return waybill made (106).
  "9": "DELIVERED",
  "10": "DELIVERED",
  "11": "DELIVERED",
  "106": "DELIVERED",
  // Refused: a return ordered by the sender (102), refused by the recipient (103, 108).
  "102": "FAILURE",
  "103": "FAILURE",
  "108": "FAILURE",
};

/** The fulfillment event for a Nova Poshta status code, or null when the code is unknown or says nothing new. */
export function novaPoshtaEventStatus(
  statusCode: string | number | null | undefined,
): FulfillmentEventStatus | null {
  if (statusCode === null || statusCode === undefined) return null;
  return NOVA_POSHTA_EVENTS[String(statusCode).trim()] ?? null;
}
