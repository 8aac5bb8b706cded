// Saves of the merchant's settings that never overwrite each other unseen. Each settings form (a "section":
// the warehouse settings, the sender, the statuses, the stock) has a version, kept in the row's
// `settingsVersions` JSON. A page sends back the version of its section it showed; a save is refused with
// "changed meanwhile" when that section was saved since, and its write is conditional on the whole text
// it read, so two saves at once (any sections, any processes) cannot both go through on one read: the
// second finds the text changed and is refused. Forms that save disjoint columns (the stock page and the
// main settings form) only clash when they race; a form saved meanwhile clashes until the page is reloaded.
// Generic: a save writes what it writes; a new settings field needs nothing here.
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import { message, type Message } from "../i18n/message";

export const SETTINGS_SECTIONS = ["warehouse", "sender", "statuses", "stock"] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The version a form sends back: the one it showed (absent: a caller that read nothing to compare with). */
export const settingsVersionField = z.coerce.number().int().min(0).max(2_147_483_647).optional();

/** What a save refused for a clash says, by the form's own "form" key. */
export const CHANGED_MEANWHILE: Record<"form", Message> = {
  form: message("settings:errors.changedMeanwhile"),
};

const versionsSchema = z.record(z.string(), z.number().int().min(0)).catch({});

/** The stored text's versions; anything unreadable reads as none saved yet. */
export function readVersions(stored: string | null | undefined): Record<string, number> {
  try {
    return versionsSchema.parse(stored ? JSON.parse(stored) : {});
  } catch {
    return {};
  }
}

/** A section's version as stored (0 before its first save). */
export function sectionVersion(stored: string | null | undefined, section: SettingsSection): number {
  return readVersions(stored)[section] ?? 0;
}

/** What a save read: the row's versions text, or null when the shop had no settings row. */
export type SettingsRead = { settingsVersions: string } | null;

/**
 * Writes `data` to the shop's settings row and raises `section`'s version, if the section is still at
 * `shown` (when given) and the row's versions are still as `read`. The section's version now, which the
 * page's next save stands on; null: changed meanwhile, nothing written.
 */
export async function writeSettings(
  db: Db,
  shop: string,
  input: {
    read: SettingsRead;
    section: SettingsSection;
    shown?: number;
    data: Omit<Prisma.ShopSettingsUncheckedCreateInput, "shop" | "settingsVersions">;
  },
): Promise<number | null> {
  const { read, section, shown, data } = input;
  const versions = readVersions(read?.settingsVersions);
  const current = versions[section] ?? 0;
  if (shown !== undefined && shown !== current) return null;
  const settingsVersions = JSON.stringify({ ...versions, [section]: current + 1 });
  let expected = read?.settingsVersions;
  if (expected === undefined) {
    try {
      await db.shopSettings.create({ data: { ...data, shop, settingsVersions } });
      return current + 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    // Made meanwhile: by a settings save (then it clashes), or by a write that saves no form (the
    // notification address, the checklist's progress), which leaves nothing of this save's to overwrite.
    const made = await db.shopSettings.findUnique({ where: { shop }, select: { settingsVersions: true } });
    if (!made || Object.keys(readVersions(made.settingsVersions)).length > 0) return null;
    expected = made.settingsVersions;
  }
  const { count } = await db.shopSettings.updateMany({
    where: { shop, settingsVersions: expected },
    data: { ...data, settingsVersions },
  });
  return count === 1 ? current + 1 : null;
}
