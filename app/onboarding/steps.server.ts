// Saving each step of the checklist through the settings' own save functions (saveSettings,
// saveStatusSettings), so the checklist and the Settings pages can never save differently. Each step is
// marked done only once what it saves was accepted.
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import { startCatalogueSync } from "../catalogue/full-sync.server";
import { message, type Message } from "../i18n/message";
import { orderSettingsSchema, type OrderSettings } from "../orders/settings";
import { keyConfirmed, loadSettings, saveSettings } from "../settings/settings.server";
import { rateLimitKey } from "../warehouse/limiter.server";
import { fieldMessages } from "../settings/field-messages";
import { settingsVersionField } from "../settings/versions.server";
import { chooseLocationMode, chooseServiceMode } from "../service/register.server";
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import { saveStatusSettings, type LocationChoice } from "../statuses/settings.server";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import {
  checkApiKey,
  connectionFormSchema,
  keyOfForm,
  type ConnectionCheck,
  type WarehouseSender,
} from "./connection.server";
import { markStepDone, recordConnectionChecked } from "./state.server";

export type StepAnswer =
  /** `version`: a settings save's version now, for a page that saves again (the Sender card). */
  { ok: true; done: Message; notice?: Message; version?: number } | { ok: false; problems: Message[] };

export interface StepDeps extends ServiceDeps {
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
}

/** What the settings' save functions refuse (a Message per field) as the checklist's list of problems. */
export function settingsProblems(errors: Record<string, Message>): Message[] {
  return Object.values(errors);
}

const invalidForm = (): StepAnswer => ({ ok: false, problems: [message("onboarding:problem.form")] });

/** The settings form's other fields as saved, to save one part of it. */
async function savedForm(deps: ServiceDeps, shop: string) {
  const current = await loadSettings(deps.db, shop, deps.log);
  return { environment: current.environment, batchAddOrder: current.batchAddOrder, mapping: current.mapping };
}

/** The connection step: a key (typed, or from a login) checked with the warehouse, then saved. */
export async function saveConnection(
  deps: StepDeps,
  shop: string,
  input: unknown,
): Promise<StepAnswer & { check?: ConnectionCheck }> {
  const parsed = connectionFormSchema.safeParse(input);
  if (!parsed.success) return invalidForm();
  const form = parsed.data;
  const key = await keyOfForm(deps, shop, form);
  if (!key.ok) return { ok: false, problems: [key.problem] };
  const check = await checkApiKey(deps, shop, key.apiKey);
  // A key the warehouse refuses is not saved: it would only pause the shop.
  if (!check.ok && check.refused) return { ok: false, problems: [check.problem], check };
  // The rest as this save reads it: its write is conditional on that read (app/settings/versions.server.ts).
  const saved = await saveSettings(deps, shop, undefined, {
    change: (current) => ({
      ...current,
      environment: form.environment,
      ...(key.typed && { apiKey: key.apiKey }),
    }),
  });
  if (!saved.ok) return { ok: false, problems: settingsProblems(saved.errors) };
  const now = deps.clock();
  if (!check.ok) {
    // Saved, but the warehouse could not say whether it takes the key: the step stays to do.
    return { ok: true, done: message("onboarding:connection.savedUnchecked"), notice: check.problem, check };
  }
  // The test took a while: only the key it tested counts as confirmed, and a pause it answers is lifted.
  if (!(await keyConfirmed(deps, shop, rateLimitKey(key.apiKey)))) {
    return { ok: true, done: message("onboarding:connection.changedMeanwhile") };
  }
  await recordConnectionChecked(deps.db, shop, now);
  await markStepDone(deps.db, shop, "connection", now);
  return { ok: true, done: message("onboarding:connection.saved"), check };
}

const locationFormSchema = z.object({ locationId: z.string().trim().min(1).max(200) });

/** The location step: one of the shop's locations, saved with the status settings. */
export async function saveLocation(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
  locations: readonly LocationChoice[],
): Promise<StepAnswer> {
  const parsed = locationFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: [message("onboarding:location.choose")] };
  const mode = await deps.db.shopSettings.findUnique({ where: { shop }, select: { fulfillmentMode: true } });
  if (mode?.fulfillmentMode === "service") {
    // Back from the fulfillment service to a location: the mode changes with it.
    const location = locations.find((choice) => choice.id === parsed.data.locationId);
    if (!location) return { ok: false, problems: [message("statuses:errors.location")] };
    const chosen = await chooseLocationMode(deps, shop, { location });
    if (!chosen.ok) return { ok: false, problems: [chosen.problem] };
    await markStepDone(deps.db, shop, "location", deps.clock());
    return { ok: true, done: message("onboarding:location.saved", { name: location.name }) };
  }
  const saved = await saveStatusSettings(deps, shop, undefined, locations, {
    change: (current) => ({ ...current, locationId: parsed.data.locationId }),
  });
  if (!saved.ok) return { ok: false, problems: settingsProblems(saved.errors) };
  await markStepDone(deps.db, shop, "location", deps.clock());
  return { ok: true, done: message("onboarding:location.saved", { name: saved.view.locationName ?? "" }) };
}

const serviceFormSchema = z.object({
  address1: z.string().trim().max(200).default(""),
  city: z.string().trim().max(100).default(""),
  zip: z.string().trim().max(20).default(""),
});

/** The location step in service mode: the app's fulfillment service, registered once, with the address. */
export async function saveServiceLocation(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
  admin: ShopAdmin,
  appUrl: string,
): Promise<StepAnswer> {
  const parsed = serviceFormSchema.safeParse(input);
  if (!parsed.success) return invalidForm();
  const chosen = await chooseServiceMode(deps, shop, admin, { appUrl, address: parsed.data });
  if (!chosen.ok) return { ok: false, problems: [chosen.problem] };
  await markStepDone(deps.db, shop, "location", deps.clock());
  return { ok: true, done: message("onboarding:location.serviceSaved", { name: chosen.locationName ?? "" }) };
}

export const rulesFormSchema = orderSettingsSchema.pick({ paymentRules: true, deliveryRules: true });

/** The rules the form sends, on the saved settings; null when they do not parse. */
export async function rulesOfForm(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
): Promise<{ ok: true; mapping: OrderSettings } | { ok: false; problems: Message[] }> {
  const parsed = rulesFormSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      // Said as the Settings page says the same fields' problems.
      problems: settingsProblems(fieldMessages(parsed.error, ["mapping"])),
    };
  }
  const { mapping } = await savedForm(deps, shop);
  return { ok: true, mapping: { ...mapping, ...parsed.data } };
}

/** The rules step: payment and delivery rules, saved with the rest of the order settings as they are. */
export async function saveRules(deps: ServiceDeps, shop: string, input: unknown): Promise<StepAnswer> {
  const rules = await rulesOfForm(deps, shop, input);
  if (!rules.ok) return rules;
  const parsed = rulesFormSchema.parse(input);
  const saved = await saveSettings(deps, shop, undefined, {
    change: (current) => ({ ...current, mapping: { ...current.mapping, ...parsed } }),
  });
  if (!saved.ok) return { ok: false, problems: settingsProblems(saved.errors) };
  await markStepDone(deps.db, shop, "rules", deps.clock());
  return { ok: true, done: message("onboarding:rules.saved") };
}

const senderFormSchema = z.object({
  senderId: z.string().trim().max(200).default(""),
  /** The sender's version the card showed (the checklist sends none). */
  version: settingsVersionField,
});

/**
 * The sender step: one of the account's senders as `delivery_sender_id`, or "" for the warehouse's
 * default. `senders` are the account's, as senderDetails lists them now.
 */
export async function saveSender(
  deps: ServiceDeps,
  shop: string,
  input: unknown,
  senders: readonly WarehouseSender[],
): Promise<StepAnswer> {
  const parsed = senderFormSchema.safeParse(input);
  if (!parsed.success) return invalidForm();
  const { senderId, version } = parsed.data;
  const sender = senders.find((choice) => choice.id === senderId);
  if (senderId && !sender) return { ok: false, problems: [message("onboarding:sender.unknown")] };
  const saved = await saveSettings(deps, shop, undefined, {
    section: "sender",
    change: (current) => {
      const { deliverySenderId: _previous, ...mapping } = current.mapping;
      return {
        ...current,
        version,
        mapping: { ...mapping, ...(senderId && { deliverySenderId: senderId }) },
      };
    },
  });
  if (!saved.ok) return { ok: false, problems: settingsProblems(saved.errors) };
  await markStepDone(deps.db, shop, "sender", deps.clock());
  return {
    ok: true,
    version: saved.version,
    done: sender
      ? message("onboarding:sender.saved", { name: sender.name })
      : message("onboarding:sender.savedDefault"),
  };
}

/** The notification step: the merchant says the address went to the warehouse. */
export async function confirmNotifications(deps: ServiceDeps, shop: string): Promise<StepAnswer> {
  await markStepDone(deps.db, shop, "notifications", deps.clock());
  return { ok: true, done: message("onboarding:notifications.saved") };
}

/** The catalogue step: the first full sync starts (or one already runs); the step shows its progress. */
export async function startFirstSync(deps: ServiceDeps, shop: string): Promise<StepAnswer> {
  const settings = await deps.db.shopSettings.findUnique({
    where: { shop },
    select: { apiKeyCiphertext: true },
  });
  if (!settings?.apiKeyCiphertext) {
    return { ok: false, problems: [message("onboarding:catalogue.needsKey")] };
  }
  const started = await startCatalogueSync(deps, shop);
  await markStepDone(deps.db, shop, "catalogue", deps.clock());
  return {
    ok: true,
    done: started.ok ? message("onboarding:catalogue.started") : message("onboarding:catalogue.running"),
  };
}
