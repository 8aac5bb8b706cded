// Whether a shop is a one-location shop for routing: the only active location that fulfils online orders is the
// warehouse's. Then, in location mode, an order is the warehouse's whole without reading its fulfillment orders
// (R2's fast path at intake). Pure: the settings row's columns in, the answer out.

/** The read is trusted this long: the daily read refreshes it, locations/* webhooks sooner. */
export const ONLINE_LOCATIONS_FRESH_MS = 3 * 24 * 3600_000;

export interface OnlineLocationsSettings {
  locationId: string | null;
  /** JSON array of location GIDs (ShopSettings.onlineLocations). */
  onlineLocations: string | null;
  onlineLocationsAt: Date | null;
}

/** The stored online locations; null when never read or unreadable. */
export function onlineLocationsOf(
  settings: Pick<OnlineLocationsSettings, "onlineLocations">,
): string[] | null {
  if (!settings.onlineLocations) return null;
  try {
    const parsed: unknown = JSON.parse(settings.onlineLocations);
    return Array.isArray(parsed) && parsed.every((id) => typeof id === "string") ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * True when the shop's only active online location is the warehouse's, as last read within
 * ONLINE_LOCATIONS_FRESH_MS of `now`. Not read, read long ago, no warehouse location, or any other online
 * location: false, and the order's fulfillment orders decide (never a guess that sends a showroom's lines).
 */
export function isOneLocationShop(settings: OnlineLocationsSettings, now: Date): boolean {
  if (!settings.locationId || !settings.onlineLocationsAt) return false;
  if (now.getTime() - settings.onlineLocationsAt.getTime() > ONLINE_LOCATIONS_FRESH_MS) return false;
  const online = onlineLocationsOf(settings);
  return online !== null && online.length === 1 && online[0] === settings.locationId;
}
