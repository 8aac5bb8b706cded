// The shop's stock settings (ShopSettings.stockSettings, JSON): which warehouse figure becomes which Shopify
// quantity, and how often stock is synced. Parsed tolerantly from storage: a stored value that no longer
// validates gives the defaults and says why, so a bad row never stops the sync.
import { z } from "zod";
import { parseStoredSettings } from "../settings/stored";
import { quantityNameSchema } from "./quantities";

/**
 * ReportSklad may go once a minute per key; a sync every minute would leave no report slot for anything
 * else, so the shortest interval is five minutes.
 */
export const MIN_STOCK_INTERVAL_MINUTES = 5;
/** The longest interval: a day. */
export const MAX_STOCK_INTERVAL_MINUTES = 24 * 60;

export const stockSettingsSchema = z.object({
  quantityName: quantityNameSchema,
  intervalMinutes: z.coerce
    .number()
    .int("must be a whole number of minutes")
    .min(MIN_STOCK_INTERVAL_MINUTES, `must be at least ${MIN_STOCK_INTERVAL_MINUTES} minutes`)
    .max(MAX_STOCK_INTERVAL_MINUTES, `must be at most a day (${MAX_STOCK_INTERVAL_MINUTES} minutes)`)
    .default(10),
});
export type StockSettings = z.infer<typeof stockSettingsSchema>;

/** The stored settings, or the defaults with the reason they could not be read. */
export function parseStockSettings(stored: string | null | undefined) {
  return parseStoredSettings(stockSettingsSchema, stored, "stock settings");
}
