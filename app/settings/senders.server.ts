// The sender in Settings: the account's senders as the warehouse lists them now (senderDetails), the one
// saved as `delivery_sender_id` in the order settings, and a new choice saved through the checklist's own
// sender step (saveSender), so that Settings and the checklist can never save differently. A saved id the
// warehouse no longer lists is said, never dropped; a warehouse that cannot answer leaves the saved choice.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { checkApiKey, type ConnectionCheck, type WarehouseSender } from "../onboarding/connection.server";
import { saveSender, type StepAnswer } from "../onboarding/steps.server";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import { loadSettings, warehouseAccess, withSender } from "./settings.server";

export interface SenderDeps extends ServiceDeps {
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
}

/** The account's senders, asked of the warehouse with the saved key (null: no key, or the shop paused). */
export async function accountSenders(deps: SenderDeps, shop: string): Promise<ConnectionCheck | null> {
  const access = await warehouseAccess(deps.db, shop, deps);
  if (!access) return null;
  return checkApiKey(deps, shop, access.apiKey);
}

/**
 * `saved` is the saved `delivery_sender_id` in every state; null: the warehouse's default. `version`: the
 * sender's version as read, sent back with a save (app/settings/versions.server.ts).
 */
export type SenderCardView = { saved: string | null; version: number } & (
  | { state: "listed"; senders: WarehouseSender[]; savedListed: boolean }
  /** No key saved. */
  | { state: "noKey" }
  /** The shop is paused: the warehouse refused its key. */
  | { state: "paused" }
  | { state: "failed"; problem: Message }
);

/** The Sender card's save answered: with the sender's version now, which the card's next save stands on. */
export type SenderAnswer = { ok: true; done: Message; version: number } | { ok: false; problems: Message[] };

/** What the Sender card shows: the saved choice, and the account's senders or why there are none. */
export async function senderCard(deps: SenderDeps, shop: string): Promise<SenderCardView> {
  const settings = await loadSettings(deps.db, shop, deps.log);
  const saved = settings.mapping.deliverySenderId ?? null;
  const version = settings.senderVersion;
  if (!settings.hasApiKey) return { saved, version, state: "noKey" };
  if (settings.pausedAt) return { saved, version, state: "paused" };
  const check = await accountSenders(deps, shop);
  if (check === null) return { saved, version, state: "paused" };
  if (!check.ok) return { saved, version, state: "failed", problem: check.problem };
  return {
    saved,
    version,
    state: "listed",
    senders: check.senders,
    savedListed: saved === null || check.senders.some((sender) => sender.id === saved),
  };
}

/**
 * Saves a choice of sender (`{ senderId }`, "" for the warehouse's default), from the Sender card or the
 * checklist's sender step, against the senders the warehouse lists now; saving a changed sender asks for a
 * re-mapping of the orders not yet sent, as every save of the order settings does. `noKey`: what the page
 * says when no usable key is saved.
 */
export async function chooseSender(
  deps: SenderDeps,
  shop: string,
  input: unknown,
  noKey: Message = message("settings:sender.noKey"),
): Promise<StepAnswer> {
  const check = await accountSenders(deps, shop);
  if (check === null) return { ok: false, problems: [noKey] };
  if (!check.ok) return { ok: false, problems: [check.problem] };
  return saveSender(deps, shop, input, check.senders);
}

/**
 * The main Settings form's input with the sender as saved: the Sender card owns the choice, so a form
 * opened before the card saved (or in another tab) never puts the old sender back. The Settings page has
 * saveSettings do this on its own read (`keepSavedSender`), so the save's check covers it.
 */
export async function withSavedSender(db: Db, shop: string, input: unknown): Promise<unknown> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { mapping: true } });
  return withSender(input, row?.mapping);
}
