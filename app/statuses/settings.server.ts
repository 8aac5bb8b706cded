// The settings of statuses coming back, saved apart from the warehouse key and the order mapping (their own
// form on the Settings page): the status table's additions, the tracking pages, whether Shopify tells the
// buyer, how often orders in flight are looked up, and the Shopify location that stands for the warehouse.
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { fieldMessages } from "../settings/field-messages";
import {
  CHANGED_MEANWHILE,
  sectionVersion,
  settingsVersionField,
  writeSettings,
} from "../settings/versions.server";
import { requestRun } from "../work/schedule.server";
import { requestStockSync } from "../stock/kinds.server";
import { requestOnlineLocationsRead } from "../routing/kinds.server";
import { FULFILLMENT_KIND, requestStatusCheck, STATUSES_KIND } from "./kinds.server";
import { parseStatusSettings, statusSettingsSchema, type StatusSettings } from "./settings";

export interface StatusSettingsView {
  settings: StatusSettings;
  /** Why the stored settings were not used as they are (then the defaults are shown). */
  problem: string | null;
  /** The same by field, for the page to say in the admin's language; null when they validate. */
  issues: Record<string, Message> | null;
  locationId: string | null;
  locationName: string | null;
  /** The last status look-up that ran, and what kept it from working (null when it worked). */
  lastCheck: { at: Date; problem: string | null } | null;
  /** The version of these settings as shown, sent back with a save (app/settings/versions.server.ts). */
  version: number;
}

export async function loadStatusSettings(db: Db, shop: string): Promise<StatusSettingsView> {
  const [row, schedule] = await Promise.all([
    db.shopSettings.findUnique({
      where: { shop },
      select: { statusSettings: true, locationId: true, locationName: true, settingsVersions: true },
    }),
    db.shopSchedule.findUnique({
      where: { shop_kind: { shop, kind: STATUSES_KIND } },
      select: { lastRunAt: true, lastError: true },
    }),
  ]);
  const { settings, problem } = parseStatusSettings(row?.statusSettings);
  return {
    settings,
    problem,
    issues: problem === null ? null : storedIssues(row?.statusSettings),
    locationId: row?.locationId ?? null,
    locationName: row?.locationName ?? null,
    lastCheck: schedule?.lastRunAt ? { at: schedule.lastRunAt, problem: schedule.lastError } : null,
    version: sectionVersion(row?.settingsVersions, "statuses"),
  };
}

/** What is wrong with stored status settings that do not validate, by field. */
function storedIssues(stored: string | null | undefined): Record<string, Message> {
  let raw: unknown;
  try {
    raw = stored ? JSON.parse(stored) : {};
  } catch {
    return { form: message("statuses:errors.notJson") };
  }
  const parsed = statusSettingsSchema.safeParse(raw);
  return parsed.success ? {} : fieldMessages(parsed.error);
}

/** A Shopify location the merchant may pick (read from Shopify by the page, which offers them). */
export interface LocationChoice {
  id: string;
  name: string;
}

export const statusSettingsFormSchema = statusSettingsSchema.extend({
  /** The location standing for the warehouse; "" for none yet. */
  locationId: z.string().trim().max(200).default(""),
  /** The version the page showed: a save over a newer one is refused as changed meanwhile. */
  version: settingsVersionField,
});

/**
 * Saves the status settings. The location must be one of `locations` (the shop's, as Shopify lists them
 * now). A new location makes the orders waiting for one due for Shopify; a new polling interval takes
 * effect at the next check, which is asked for now.
 */
export async function saveStatusSettings(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
  locations: readonly LocationChoice[],
  options: {
    /** A save of one part (the checklist's location): the form made from the settings as this save reads them. */
    change?: (saved: StatusSettings & { locationId: string }) => unknown;
  } = {},
): Promise<
  { ok: true; view: StatusSettingsView; version: number } | { ok: false; errors: Record<string, Message> }
> {
  const read = await deps.db.shopSettings.findUnique({ where: { shop }, select: { settingsVersions: true } });
  const before = await loadStatusSettings(deps.db, shop);
  const form = options.change
    ? options.change({ ...before.settings, locationId: before.locationId ?? "" })
    : input;
  const parsed = statusSettingsFormSchema.safeParse(form);
  if (!parsed.success) return { ok: false, errors: fieldMessages(parsed.error) };
  const { locationId, version, ...settings } = parsed.data;
  if (version !== undefined && version !== sectionVersion(read?.settingsVersions, "statuses"))
    return { ok: false, errors: CHANGED_MEANWHILE };
  const location = locationId ? locations.find((choice) => choice.id === locationId) : undefined;
  if (locationId && !location) {
    return { ok: false, errors: { locationId: message("statuses:errors.location") } };
  }
  const data = {
    statusSettings: JSON.stringify(settings),
    locationId: location?.id ?? null,
    locationName: location?.name ?? null,
  };
  // Conditional on the versions read before `before`: a save between the two reads is caught too.
  const written = await writeSettings(deps.db, shop, { read, section: "statuses", shown: version, data });
  if (written === null) return { ok: false, errors: CHANGED_MEANWHILE };
  const now = deps.clock();
  const locationChanged = data.locationId !== before.locationId;
  if (locationChanged && data.locationId) {
    await requestRun(deps.db, shop, FULFILLMENT_KIND, now);
    // Stock is written at the location: a new one is synced at once.
    await requestStockSync(deps.db, shop, now);
  }
  if (settings.pollMinutes !== before.settings.pollMinutes) await requestStatusCheck(deps.db, shop, now);
  // Whether the warehouse's location is the shop's only online one (routing's fast path) is read afresh.
  if (data.locationId) await requestOnlineLocationsRead(deps.db, shop, now);
  deps.log.info(
    { shop, event: "settings.statuses_saved", locationChanged, pollMinutes: settings.pollMinutes },
    "status settings saved",
  );
  if (data.locationId) deps.wake?.(shop);
  return { ok: true, view: await loadStatusSettings(deps.db, shop), version: written };
}
