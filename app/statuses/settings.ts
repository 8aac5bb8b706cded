// A shop's settings for statuses coming back (ShopSettings.statusSettings, JSON): the additions to the status
// table, the carriers' tracking pages, whether Shopify tells the buyer, and how often orders in flight are
// looked up. Pure: parsed with zod wherever it is read or saved.
import { z } from "zod";
import { parseStoredSettings } from "../settings/stored";
import { STAGES } from "../orders/states";

/** A `{ttn}` in a tracking page pattern is replaced by the waybill number. */
export const TTN_PLACEHOLDER = "{ttn}";

const trackingPattern = z
  .string()
  .trim()
  .max(300)
  .refine((value) => /^https:\/\/[^\s{}]+/.test(value) && value.includes(TTN_PLACEHOLDER), {
    message: `Give an https address with ${TTN_PLACEHOLDER} where the waybill number goes.`,
  });

/** A rule's stage: one of ours, or "none" for a status that means no stage yet (new, reserved...). */
export const RULE_STAGES = [...STAGES, "none"] as const;

/** One row the merchant adds to the status table: the warehouse's status id or name, and our stage. */
export const statusRuleSchema = z
  .object({
    id: z.string().trim().max(40).default(""),
    name: z.string().trim().max(120).default(""),
    stage: z.enum(RULE_STAGES),
  })
  .refine((rule) => rule.id !== "" || rule.name !== "", {
    message: "Give the warehouse's status id, its name, or both.",
  });
export type StatusRule = z.infer<typeof statusRuleSchema>;

export const DEFAULT_TRACKING_URLS = {
  novaPoshta: `https://novaposhta.ua/tracking/?cargo_number=${TTN_PLACEHOLDER}`,
  ukrposhta: `https://track.ukrposhta.ua/tracking_UA.html?barcode=${TTN_PLACEHOLDER}`,
} as const;

export const statusSettingsSchema = z.object({
  /** Checked before the built-in table (app/statuses/status-table.ts), so a merchant can correct it. */
  statusRules: z.array(statusRuleSchema).max(100).default([]),
  trackingUrls: z
    .object({
      novaPoshta: trackingPattern.default(DEFAULT_TRACKING_URLS.novaPoshta),
      ukrposhta: trackingPattern.default(DEFAULT_TRACKING_URLS.ukrposhta),
    })
    .default(DEFAULT_TRACKING_URLS),
  /** Whether Shopify e-mails the buyer when a fulfillment is made or its tracking changes. */
  notifyBuyer: z.boolean().default(true),
  /** How long an order in flight goes unchecked before polling looks it up again. */
  pollMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
  /** The most id_orders one ReportStatusOrder carries. */
  idsPerReport: z.number().int().min(1).max(500).default(100),
});
export type StatusSettings = z.infer<typeof statusSettingsSchema>;

export const DEFAULT_STATUS_SETTINGS: StatusSettings = statusSettingsSchema.parse({});

/**
 * A shop's stored status settings; what no longer validates is reported with the defaults in its place
 * (unlike the order mapping, nothing here can send an order wrongly: at worst an order waits).
 */
export function parseStatusSettings(stored: string | null | undefined) {
  return parseStoredSettings(statusSettingsSchema, stored, "status settings");
}

/** The tracking page of a waybill, by the carrier's pattern. */
export function trackingUrl(pattern: string, ttn: string): string {
  return pattern.replaceAll(TTN_PLACEHOLDER, encodeURIComponent(ttn));
}
