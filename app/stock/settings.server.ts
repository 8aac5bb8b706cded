// Loading and saving the stock settings (their own form on the Stock page). A new quantity name or interval
// asks for a sync now, so the merchant sees its effect without waiting for the schedule.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { fieldErrors } from "../settings/settings.server";
import { requestStockSync } from "./kinds";
import { parseStockSettings, stockSettingsSchema, type StockSettings } from "./settings";

export interface StockSettingsView {
  settings: StockSettings;
  /** Why the stored settings were not used as they are (then the defaults are shown). */
  problem: string | null;
  locationId: string | null;
  locationName: string | null;
}

export async function loadStockSettings(db: Db, shop: string): Promise<StockSettingsView> {
  const row = await db.shopSettings.findUnique({
    where: { shop },
    select: { stockSettings: true, locationId: true, locationName: true },
  });
  const { settings, problem } = parseStockSettings(row?.stockSettings);
  return { settings, problem, locationId: row?.locationId ?? null, locationName: row?.locationName ?? null };
}

export async function saveStockSettings(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
): Promise<{ ok: true; view: StockSettingsView } | { ok: false; errors: Record<string, string> }> {
  const parsed = stockSettingsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const stockSettings = JSON.stringify(parsed.data);
  await deps.db.shopSettings.upsert({
    where: { shop },
    create: { shop, stockSettings },
    update: { stockSettings },
  });
  await requestStockSync(deps.db, shop, deps.clock());
  deps.log.info({ shop, event: "settings.stock_saved", ...parsed.data }, "stock settings saved");
  deps.wake?.(shop);
  return { ok: true, view: await loadStockSettings(deps.db, shop) };
}
