// A shop's warehouse settings: the ApiKey (encrypted at rest, only its hint ever leaves the server), the
// environment, the batch switch and the order mapping. Saving a new key lifts a pause the old key caused.
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { env } from "../env.server";
import { remapOpenOrders } from "../orders/intake.server";
import { orderSettingsSchema, type OrderSettings } from "../orders/settings";
import { rateLimitKey } from "../warehouse/limiter.server";
import { encryptionKey, encryptSecret, readApiKey, secretHint } from "./secret-box.server";

export const WAREHOUSE_ENVIRONMENTS = ["production", "staging"] as const;
export type WarehouseEnvironment = (typeof WAREHOUSE_ENVIRONMENTS)[number];

export interface SettingsView {
  hasApiKey: boolean;
  apiKeyHint: string | null;
  environment: WarehouseEnvironment;
  batchAddOrder: boolean;
  mapping: OrderSettings;
  pausedAt: Date | null;
  pauseReason: string | null;
}

const checkbox = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.null()])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true");

export const settingsFormSchema = z.object({
  apiKey: z
    .string()
    .trim()
    .max(200, "is too long for a warehouse ApiKey")
    .regex(
      /^[\w-]*$/,
      "may hold only letters, digits, '-' and '_': copy it again from the warehouse's cabinet",
    )
    .optional()
    .transform((value) => value || undefined),
  environment: z.enum(WAREHOUSE_ENVIRONMENTS, { error: "must be production or staging" }),
  batchAddOrder: checkbox,
  mapping: orderSettingsSchema,
});
export type SettingsForm = z.input<typeof settingsFormSchema>;

type SettingsRow = Awaited<ReturnType<Db["shopSettings"]["findUnique"]>>;

/** The mapping stored for a shop; a row from an older release is completed with today's defaults. */
export function parseMapping(stored: string | undefined): OrderSettings {
  const parsed = orderSettingsSchema.safeParse(stored ? JSON.parse(stored) : {});
  return parsed.success ? parsed.data : orderSettingsSchema.parse({});
}

function view(row: SettingsRow): SettingsView {
  return {
    hasApiKey: Boolean(row?.apiKeyCiphertext),
    apiKeyHint: row?.apiKeyHint ?? null,
    environment: row?.environment === "staging" ? "staging" : "production",
    batchAddOrder: row?.batchAddOrder ?? true,
    mapping: parseMapping(row?.mapping),
    pausedAt: row?.pausedAt ?? null,
    pauseReason: row?.pauseReason ?? null,
  };
}

export async function loadSettings(db: Db, shop: string): Promise<SettingsView> {
  return view(await db.shopSettings.findUnique({ where: { shop } }));
}

/** The errors of a form, keyed by dotted field path ("apiKey", "mapping.deliveryRules.0.match"). */
function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[issue.path.join(".") || "form"] ??= issue.message;
  return errors;
}

export async function saveSettings(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
): Promise<{ ok: true; view: SettingsView } | { ok: false; errors: Record<string, string> }> {
  const parsed = settingsFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const { apiKey, environment, batchAddOrder, mapping } = parsed.data;
  const existing = await deps.db.shopSettings.findUnique({ where: { shop } });
  const keyChanged = apiKey !== undefined && rateLimitKey(apiKey) !== existing?.apiKeyDigest;
  const data = {
    environment,
    batchAddOrder,
    mapping: JSON.stringify(mapping),
    ...(keyChanged && {
      apiKeyCiphertext: encryptSecret(apiKey, encryptionKey(env().SKLAD_ENCRYPTION_KEY), shop),
      apiKeyHint: secretHint(apiKey),
      apiKeyDigest: rateLimitKey(apiKey),
      // A new key is the fix for a refused one: work resumes at once.
      pausedAt: null,
      pauseReason: null,
    }),
  };
  const row = await deps.db.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  deps.log.info(
    { shop, event: "settings.saved", keyChanged, environment, batchAddOrder },
    keyChanged ? "warehouse settings saved with a new ApiKey" : "warehouse settings saved",
  );
  await remapOpenOrders(deps, shop);
  // A loop running with the old key stops before its next step and starts again with the new one.
  if (keyChanged) (deps.shopChanged ?? deps.wake)?.(shop);
  return { ok: true, view: view(row) };
}

export interface WarehouseAccess {
  apiKey: string;
  /** The saved key's digest: a refusal pauses the shop only while this key is still the saved one. */
  keyDigest: string;
  environment: WarehouseEnvironment;
  batchAddOrder: boolean;
  mapping: OrderSettings;
}

/** What the worker needs to call the warehouse for a shop; null while there is no key or it is paused. */
export async function warehouseAccess(db: Db, shop: string): Promise<WarehouseAccess | null> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  if (!row?.apiKeyCiphertext || row.pausedAt) return null;
  const apiKey = await readApiKey(db, shop, row.apiKeyCiphertext, encryptionKey(env().SKLAD_ENCRYPTION_KEY));
  return {
    apiKey,
    keyDigest: row.apiKeyDigest ?? rateLimitKey(apiKey),
    environment: row.environment === "staging" ? "staging" : "production",
    batchAddOrder: row.batchAddOrder,
    mapping: parseMapping(row.mapping),
  };
}

/**
 * The warehouse refused the key (401), or it cannot be read: stop all work for the shop until a new key
 * is saved. Only while `keyDigest` is still the saved key: a late refusal of a key the merchant has
 * replaced meanwhile must not pause the new one.
 */
export async function pauseShop(
  db: Db,
  shop: string,
  keyDigest: string | null,
  at: Date,
  reason: string,
): Promise<boolean> {
  const { count } = await db.shopSettings.updateMany({
    where: { shop, pausedAt: null, apiKeyDigest: keyDigest },
    data: { pausedAt: at, pauseReason: reason },
  });
  return count === 1;
}
