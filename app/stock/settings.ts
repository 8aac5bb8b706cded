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
  /**
   * Returned items the warehouse took back fit for sale reach Shopify through the stock sync: a newly booked
   * return asks for a sync at once (app/returns/). Off by default. The sync writes the warehouse's own figure,
   * which already counts them; nothing is ever added on top (docs/decisions/015-returns-and-restocking.md).
   */
  restockReturns: z.boolean().default(false),
});
export type StockSettings = z.infer<typeof stockSettingsSchema>;

/** The stored settings, or the defaults with the reason they could not be read. */
export function parseStockSettings(stored: string | null | undefined) {
  return parseStoredSettings(stockSettingsSchema, stored, "stock settings");
}
