// Loading and saving the stock settings (their own form on the Stock page). A new quantity name or interval
// asks for a sync now, so the merchant sees its effect without waiting for the schedule.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { fieldErrors } from "../settings/settings.server";
import { sectionVersion, settingsVersionField, writeSettings } from "../settings/versions.server";
import { requestStockSync } from "./kinds.server";
import { parseStockSettings, stockSettingsSchema, type StockSettings } from "./settings";

export interface StockSettingsView {
  settings: StockSettings;
  /** Why the stored settings were not used as they are (then the defaults are shown). */
  problem: string | null;
  locationId: string | null;
  locationName: string | null;
  /** The version of these settings as shown, sent back with a save (app/settings/versions.server.ts). */
  version: number;
}

export async function loadStockSettings(db: Db, shop: string): Promise<StockSettingsView> {
  const row = await db.shopSettings.findUnique({
    where: { shop },
    select: { stockSettings: true, locationId: true, locationName: true, settingsVersions: true },
  });
  const { settings, problem } = parseStockSettings(row?.stockSettings);
  return {
    settings,
    problem,
    locationId: row?.locationId ?? null,
    locationName: row?.locationName ?? null,
    version: sectionVersion(row?.settingsVersions, "stock"),
  };
}

/** The error a save refused for a clash answers, by the field "version". */
export const STOCK_CHANGED_MEANWHILE =
  "the stock settings were saved meanwhile by someone else: reload the page and make your changes again";

/** The stock form: the settings, and the version the page showed. */
const stockFormSchema = stockSettingsSchema.extend({ version: settingsVersionField });

export async function saveStockSettings(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
): Promise<
  { ok: true; view: StockSettingsView; version: number } | { ok: false; errors: Record<string, string> }
> {
  const parsed = stockFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const { version, ...settings } = parsed.data;
  const read = await deps.db.shopSettings.findUnique({ where: { shop }, select: { settingsVersions: true } });
  const stockSettings = JSON.stringify(settings);
  const written = await writeSettings(deps.db, shop, {
    read,
    section: "stock",
    shown: version,
    data: { stockSettings },
  });
  // Saved meanwhile by another admin or tab: nothing written (the page says it in the admin's language).
  if (written === null) return { ok: false, errors: { version: STOCK_CHANGED_MEANWHILE } };
  await requestStockSync(deps.db, shop, deps.clock());
  deps.log.info({ shop, event: "settings.stock_saved", ...settings }, "stock settings saved");
  deps.wake?.(shop);
  return { ok: true, view: await loadStockSettings(deps.db, shop), version: written };
}
