// A shop's warehouse settings: the ApiKey (encrypted at rest, only its hint ever leaves the server), the
// environment, the batch switch and the order mapping. Saving a new key lifts a pause the old key caused;
// saving a changed mapping asks the worker to map open orders again (app/orders/remap.server.ts).
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import type { SqlTransaction } from "../db/sql.server";
import type { Log } from "../logger.server";
import {
  idOrderPrefixesCanMeet,
  keySharerColliding,
  orderSettingsSchema,
  parseMapping,
  type KeySharer,
  type OrderSettings,
  type ShopMapping,
} from "../orders/settings";
import { BATCH_PROOF, REMAP_KIND } from "../orders/states";
import { WAREHOUSE_ENVIRONMENTS, type WarehouseAccess, type WarehouseEnvironment } from "../warehouse/access";
import { rateLimitKey } from "../warehouse/limiter.server";
import { requestRun } from "../work/schedule.server";
import { requestReferenceRefresh } from "../reference/kinds.server";
import { FIRST_SWEEP_AFTER_KEY_MS, requestReturnsSweep } from "../returns/kinds.server";
import { message, type Message } from "../i18n/message";
import { readTexts, writeTexts } from "../i18n/texts";
import { fieldMessages } from "./field-messages";
import { encryptSecret, keyOf, readApiKey, secretHint, type EncryptionKeyDeps } from "./secret-box.server";
import {
  CHANGED_MEANWHILE,
  sectionVersion,
  settingsVersionField,
  writeSettings,
  type SettingsSection,
} from "./versions.server";

export { WAREHOUSE_ENVIRONMENTS, type WarehouseAccess, type WarehouseEnvironment };

export interface SettingsView {
  hasApiKey: boolean;
  apiKeyHint: string | null;
  environment: WarehouseEnvironment;
  batchAddOrder: boolean;
  mapping: OrderSettings;
  /** Why the saved mapping no longer validates (the form then shows what of it still does). */
  mappingProblem: string | null;
  /** The same, by field, for the page to say in the admin's language; null when the mapping validates. */
  mappingIssues: Record<string, Message> | null;
  pausedAt: Date | null;
  /** Why the work is paused (PAUSE_REASONS; an older row's English words as a stored text). */
  pauseReason: Message | null;
  /** The version of these settings as shown, sent back with a save (app/settings/versions.server.ts). */
  version: number;
  /** The same for the sender, which its own card saves. */
  senderVersion: number;
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
  /** The version the page showed: a save over a newer one is refused as changed meanwhile. */
  version: settingsVersionField,
});
export type SettingsForm = z.input<typeof settingsFormSchema>;

type SettingsRow = Awaited<ReturnType<Db["shopSettings"]["findUnique"]>>;

/** The shop's mapping settings, its defaults when it has saved none; a problem is logged with the shop. */
export async function shopMapping(db: Db, shop: string, log?: Log): Promise<ShopMapping> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { mapping: true } });
  return checkedMapping(shop, row?.mapping, log);
}

/** The same, read by a statement of `tx` (order intake's own transaction). */
export async function shopMappingIn(tx: SqlTransaction, shop: string, log?: Log): Promise<ShopMapping> {
  const [row] = await tx.query(`SELECT "mapping" FROM "ShopSettings" WHERE "shop" = ?`, [shop]);
  return checkedMapping(shop, typeof row?.mapping === "string" ? row.mapping : undefined, log);
}

/**
 * Each shop's mapping as last parsed, with the text it was parsed from. Every order reads the stored text
 * (so a save elsewhere is seen by the next order, in any process); only when that text is the one already
 * parsed is the parse skipped. Bounded: a shop beyond the bound is parsed again.
 */
const parsedMappings = new Map<string, { stored: string | undefined; parsed: ShopMapping }>();
const PARSED_MAPPINGS_KEPT = 1_000;

function parsedMapping(shop: string, stored: string | undefined): ShopMapping {
  const kept = parsedMappings.get(shop);
  if (kept && kept.stored === stored) return kept.parsed;
  const parsed = deepFreeze(parseMapping(stored));
  parsedMappings.delete(shop);
  if (parsedMappings.size >= PARSED_MAPPINGS_KEPT) {
    parsedMappings.delete(parsedMappings.keys().next().value!);
  }
  parsedMappings.set(shop, { stored, parsed });
  return parsed;
}

/** Frozen, so that no caller can change the copy the next orders get. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A shop's stored mapping parsed, with a problem logged. */
export function checkedMapping(shop: string, stored: string | undefined, log: Log | undefined): ShopMapping {
  const parsed = parsedMapping(shop, stored);
  if (parsed.problem !== null) {
    log?.warn(
      { shop, event: "settings.mapping_invalid", problem: parsed.problem },
      "the shop's saved order settings no longer validate; its orders are held until they are saved again",
    );
  }
  return parsed;
}

function view(row: SettingsRow, log?: Log): SettingsView {
  const { mapping, problem } = checkedMapping(row?.shop ?? "", row?.mapping, log);
  return {
    hasApiKey: Boolean(row?.apiKeyCiphertext),
    apiKeyHint: row?.apiKeyHint ?? null,
    environment: row?.environment === "staging" ? "staging" : "production",
    batchAddOrder: row?.batchAddOrder ?? true,
    mapping,
    mappingProblem: problem,
    mappingIssues: problem === null ? null : mappingIssues(row?.mapping),
    pausedAt: row?.pausedAt ?? null,
    pauseReason: readTexts(row?.pauseReason)[0] ?? null,
    version: sectionVersion(row?.settingsVersions, "warehouse"),
    senderVersion: sectionVersion(row?.settingsVersions, "sender"),
  };
}

export async function loadSettings(db: Db, shop: string, log?: Log): Promise<SettingsView> {
  return view(await db.shopSettings.findUnique({ where: { shop } }), log);
}

/** What is wrong with a stored mapping that does not validate, by field (app/settings/field-messages.ts). */
function mappingIssues(stored: string | null | undefined): Record<string, Message> {
  let raw: unknown;
  try {
    raw = stored ? JSON.parse(stored) : {};
  } catch {
    return { form: message("settings:errors.mappingNotJson") };
  }
  const parsed = orderSettingsSchema.safeParse(raw);
  return parsed.success ? {} : fieldMessages(parsed.error, ["mapping"]);
}

/**
 * The errors of a form in English, keyed by dotted field path ("apiKey", "mapping.deliveryRules.0.match").
 * The settings and statuses forms answer with `fieldMessages` instead, said in the admin's language.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[issue.path.join(".") || "form"] ??= issue.message;
  return errors;
}

/**
 * A save's outcome. Refused: each field's error (by dotted path, "form" for the whole) as a Message, for the
 * page to put into words with `translate(t, message)` (app/i18n/message.ts); nothing was saved.
 */
export type SaveSettingsResult =
  /** `version`: the saved section's version now, for the page's next save. */
  { ok: true; view: SettingsView; version: number } | { ok: false; errors: Record<string, Message> };

export async function saveSettings(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
  options: {
    /** Whose version `input.version` is: the Sender card saves the sender ("sender"); else "warehouse". */
    section?: Extract<SettingsSection, "warehouse" | "sender">;
    /** Keep the sender as saved, whatever the input says (the main form: the Sender card owns it). */
    keepSavedSender?: boolean;
    /**
     * A save of one part (a checklist step, the Sender card): the form is made from the settings as this
     * save reads them, so what it keeps of the rest is what its conditional write checks.
     */
    change?: (saved: SavedForm) => unknown;
  } = {},
): Promise<SaveSettingsResult> {
  const existing = await deps.db.shopSettings.findUnique({ where: { shop } });
  const base = options.change ? options.change(savedFormOf(existing, deps.log)) : input;
  const form = options.keepSavedSender ? withSender(base, existing?.mapping) : base;
  const parsed = settingsFormSchema.safeParse(form);
  if (!parsed.success) return { ok: false, errors: fieldMessages(parsed.error) };
  const { apiKey, environment, batchAddOrder, mapping, version } = parsed.data;
  const section = options.section ?? "warehouse";
  // Said before anything else is checked: the page's other answers were about settings no longer there.
  if (version !== undefined && version !== sectionVersion(existing?.settingsVersions, section))
    return { ok: false, errors: CHANGED_MEANWHILE };
  const keyChanged = apiKey !== undefined && rateLimitKey(apiKey) !== existing?.apiKeyDigest;
  const digest = keyChanged ? rateLimitKey(apiKey) : (existing?.apiKeyDigest ?? null);
  const before = parseMapping(existing?.mapping);
  const refused = await idOrderRefusals(deps.db, { shop, digest, keyChanged, mapping, before });
  if (refused) return { ok: false, errors: refused };
  const stored = JSON.stringify(mapping);
  // Only a change of what mapping reads re-maps open orders; a stored mapping that no longer validated
  // counts as changed, since its orders were held for it.
  const mappingChanged = before.problem !== null || JSON.stringify(before.mapping) !== stored;
  const data = {
    environment,
    batchAddOrder,
    mapping: stored,
    ...(keyChanged && {
      apiKeyCiphertext: encryptSecret(apiKey, keyOf(deps), shop),
      apiKeyHint: secretHint(apiKey),
      apiKeyDigest: rateLimitKey(apiKey),
      // A new key is the fix for a refused one: work resumes at once.
      pausedAt: null,
      pauseReason: null,
      // It may be another account: its answer to a batch must prove itself again.
      batchProof: BATCH_PROOF.unproven,
    }),
  };
  const written = await writeSettings(deps.db, shop, { read: existing, section, shown: version, data });
  if (written === null) return { ok: false, errors: CHANGED_MEANWHILE };
  const row = await deps.db.shopSettings.findUnique({ where: { shop } });
  deps.log.info(
    { shop, event: "settings.saved", keyChanged, mappingChanged, environment, batchAddOrder },
    keyChanged ? "warehouse settings saved with a new ApiKey" : "warehouse settings saved",
  );
  // The remap runs in the worker, never inside this request: a shop may have thousands of open orders.
  if (mappingChanged) await requestRun(deps.db, shop, REMAP_KIND, deps.clock());
  // A new key may be another account: its carrier reference data is fetched (or found stored for the key).
  if (keyChanged) await requestReferenceRefresh(deps.db, shop, deps.clock());
  // ... and its returns register is swept, a few minutes on: the first minutes of a key belong to its orders.
  if (keyChanged)
    await requestReturnsSweep(deps.db, shop, new Date(deps.clock().getTime() + FIRST_SWEEP_AFTER_KEY_MS));
  // A loop running with the old key stops before its next step and starts again with the new one.
  if (keyChanged) (deps.shopChanged ?? deps.wake)?.(shop);
  else if (mappingChanged) deps.wake?.(shop);
  return { ok: true, view: view(row), version: written };
}

/** The settings form's fields as saved (a shop without a row: the defaults). */
export interface SavedForm {
  environment: WarehouseEnvironment;
  batchAddOrder: boolean;
  mapping: OrderSettings;
}

function savedFormOf(row: SettingsRow, log?: Log): SavedForm {
  const current = view(row, log);
  return { environment: current.environment, batchAddOrder: current.batchAddOrder, mapping: current.mapping };
}

/**
 * The form with the sender as `stored` has it: the Sender card owns the choice, so a form opened before the
 * card saved (or in another tab) never puts the old sender back. Read from the same row the save checks.
 */
export function withSender(input: unknown, stored: string | null | undefined): unknown {
  if (typeof input !== "object" || input === null) return input;
  const form = input as { mapping?: unknown };
  if (typeof form.mapping !== "object" || form.mapping === null) return input;
  let saved: unknown;
  try {
    saved = stored ? (JSON.parse(stored) as { deliverySenderId?: unknown }).deliverySenderId : undefined;
  } catch {
    saved = undefined;
  }
  const { deliverySenderId: _sent, ...mapping } = form.mapping as Record<string, unknown>;
  return { ...form, mapping: typeof saved === "string" ? { ...mapping, deliverySenderId: saved } : mapping };
}

/**
 * The field errors that keep two orders from getting the same `id_order`: a new prefix that could meet
 * the one this shop used so far (possible only from a prefix saved before the digit rule), or a key that
 * another shop sends with a prefix this one could meet. Null when the save may go ahead.
 */
async function idOrderRefusals(
  db: Db,
  input: {
    shop: string;
    digest: string | null;
    keyChanged: boolean;
    mapping: OrderSettings;
    before: ShopMapping;
  },
): Promise<Record<string, Message> | null> {
  const prefix = input.mapping.idOrderPrefix;
  const previous = input.before.mapping.idOrderPrefix;
  if (prefix.toUpperCase() !== previous.toUpperCase() && idOrderPrefixesCanMeet(prefix, previous)) {
    return {
      "mapping.idOrderPrefix": message("settings:errors.prefix.meetsPrevious", { previous, prefix }),
    };
  }
  if (input.digest === null) return null;
  const other = keySharerColliding(prefix, await keySharers(db, input.shop, input.digest));
  if (!other) return null;
  const errors: Record<string, Message> = {
    "mapping.idOrderPrefix":
      other.idOrderPrefix === ""
        ? message("settings:errors.prefix.sharedKeyNoPrefix", { shop: other.shop })
        : message("settings:errors.prefix.sharedKey", { shop: other.shop, prefix: other.idOrderPrefix }),
  };
  if (input.keyChanged) errors.apiKey = message("settings:errors.apiKey.shared", { shop: other.shop });
  return errors;
}

/** The other shops whose saved key has this digest, with their prefixes (as older releases allowed them). */
async function keySharers(db: Db, shop: string, digest: string): Promise<KeySharer[]> {
  const rows = await db.shopSettings.findMany({
    where: { apiKeyDigest: digest, shop: { not: shop } },
    select: { shop: true, mapping: true },
    orderBy: { shop: "asc" },
  });
  return rows.map((row) => ({
    shop: row.shop,
    idOrderPrefix: parseMapping(row.mapping).mapping.idOrderPrefix,
  }));
}

export interface SharedKeyConflict {
  otherShop: string;
  /** For the log: what is wrong and what to do. */
  message: string;
  /** The same for the merchant, in the admin's language. */
  text: Message;
}

/**
 * Whether the shop shares its ApiKey with another shop whose orders could get the same `id_order`; such a
 * shop must not send until each has its own prefix. Saving settings refuses this, so it is found only in
 * rows saved before that check or by two saves at once; the worker asks before sending.
 */
export async function sharedKeyConflict(db: Db, shop: string): Promise<SharedKeyConflict | null> {
  const row = await db.shopSettings.findUnique({
    where: { shop },
    select: { apiKeyDigest: true, mapping: true },
  });
  if (!row?.apiKeyDigest) return null;
  const prefix = parseMapping(row.mapping).mapping.idOrderPrefix;
  const other = keySharerColliding(prefix, await keySharers(db, shop, row.apiKeyDigest));
  if (!other) return null;
  return {
    otherShop: other.shop,
    message: `This store and ${other.shop} use the same warehouse ApiKey with order number prefixes that could give two orders the same id_order, so no orders are sent until each store has its own prefix in Settings.`,
    text: message("settings:keyConflict.body", { shop: other.shop }),
  };
}

/** What the worker needs to call the warehouse for a shop; null while there is no key or it is paused. */
export async function warehouseAccess(
  db: Db,
  shop: string,
  keys: EncryptionKeyDeps = {},
): Promise<WarehouseAccess | null> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  if (!row?.apiKeyCiphertext || row.pausedAt) return null;
  const apiKey = await readApiKey(db, shop, row.apiKeyCiphertext, keyOf(keys));
  return {
    apiKey,
    keyDigest: row.apiKeyDigest ?? rateLimitKey(apiKey),
    environment: row.environment === "staging" ? "staging" : "production",
    batchAddOrder: row.batchAddOrder,
  };
}

/** Why a shop's work stops until a new key is saved, for the Settings page's banner. */
export const PAUSE_REASONS = {
  refused: message("settings:pause.reason.refused"),
  unreadable: message("settings:pause.reason.unreadable"),
} as const;

/**
 * The warehouse refused the key (401), or it cannot be read: stop all work for the shop until a new key
 * is saved. Only while `keyDigest` is still the saved key: a late refusal of a key the merchant has
 * replaced meanwhile must not pause the new one. `reason` is one of PAUSE_REASONS.
 */
export async function pauseShop(
  db: Db,
  shop: string,
  keyDigest: string | null,
  at: Date,
  reason: Message,
): Promise<boolean> {
  const { count } = await db.shopSettings.updateMany({
    where: { shop, pausedAt: null, apiKeyDigest: keyDigest },
    // Kept as a Message (app/i18n/texts.ts): Settings says it in the admin's language.
    data: { pausedAt: at, pauseReason: writeTexts([reason]) },
  });
  return count === 1;
}

/**
 * The warehouse has just taken the key `keyDigest` names (a test of the saved key, which saving the same
 * key again does not count as a change): a pause it caused is lifted and work resumes. Only while it is
 * still the saved key; false when another was saved during the test, which then proved nothing of it.
 */
export async function keyConfirmed(deps: ServiceDeps, shop: string, keyDigest: string): Promise<boolean> {
  const lifted = await deps.db.shopSettings.updateMany({
    where: { shop, apiKeyDigest: keyDigest, pausedAt: { not: null } },
    data: { pausedAt: null, pauseReason: null },
  });
  if (lifted.count) {
    (deps.shopChanged ?? deps.wake)?.(shop);
    return true;
  }
  return (await deps.db.shopSettings.count({ where: { shop, apiKeyDigest: keyDigest } })) === 1;
}
