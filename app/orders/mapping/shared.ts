// What every part of the mapping shares: the hold reasons and the result it gives, the matchers it is given,
// and the small readers all parts use (clean text, recognised words, amounts in integer kopecks).
import { type WarehouseOrder } from "../../warehouse/schemas";
import { type ShopifyOrder } from "../payload";
import { message, type Message, type MessageValues } from "../../i18n/message";
import { type BranchCandidate, type BranchMatch, type CityMatch } from "../../reference/types";
import { inEnglish } from "../words";

export type HoldCode =
  | "phone_missing"
  | "phone_invalid"
  | "recipient_missing"
  | "delivery_method_unknown"
  | "branch_missing"
  | "branch_invalid"
  | "courier_address_missing"
  | "city_invalid"
  | "postcode_missing"
  | "postcode_invalid"
  | "currency_not_uah"
  | "sku_missing"
  | "no_shippable_lines"
  | "mapping_invalid"
  /** Paid on delivery and split over locations: the cash the warehouse's parcel collects is the merchant's choice. */
  | "split_cod_undecided"
  /** Something the mapping needs is missing from the payload, or was unreadable there. */
  | "order_incomplete";

export type FixAction =
  | "phone"
  | "deliveryMethod"
  | "warehouseRef"
  | "courierAddress"
  | "postcode"
  | "settings"
  | "shopify"
  /** One of the split cash-on-delivery choices (SPLIT_COD_CHOICES), one click on the order page. */
  | "splitCod";

export interface HoldReason {
  code: HoldCode;
  /** What is wrong, naming the value as the order has it. */
  message: string;
  /** What the merchant does about it. */
  fix: string;
  /** Where the fix is made: a field of the order page, the settings, or Shopify itself. */
  action: FixAction | null;
  /** `message` and `fix` as keys and values, said in the admin's language (rows before them have none). */
  text?: Message;
  fixText?: Message;
  /** A branch held for: the address matcher's best guesses, offered as one-click choices. */
  candidates?: BranchCandidate[];
  /** A courier address held for: the carrier's Ref of the city it goes to, for the street search. */
  cityRef?: string;
}

/** A hold reason: its words in holds.json, kept in English too for logs and older readers. */
export function reason(
  code: HoldCode,
  action: FixAction | null,
  key: string,
  values: MessageValues | undefined,
  fix: string,
): HoldReason {
  const text = message(`holds:${key}`, values);
  const fixText = message(`holds:fix.${fix}`);
  return { code, message: inEnglish(text), fix: inEnglish(fixText), action, text, fixText };
}

/** A branch the order did not name, found for it by the address matcher: for the timeline. */
export interface FoundBranch {
  ref: string;
  label: string;
  confidence: number;
  source: BranchMatch["source"];
  evidence: BranchMatch["evidence"];
}

/** A courier order's city the order did not give as a Ref, found for it by the address matcher: for the timeline. */
export interface FoundCity {
  ref: string;
  label: string;
  confidence: number;
  source: CityMatch["source"];
}

export type MappingResult =
  | { ok: true; order: WarehouseOrder; foundBranch?: FoundBranch; foundCity?: FoundCity }
  | { ok: false; hold: HoldReason[] };

/** Reads a branch from an order that names none (app/reference/matcher/ over the shop's reference data). */
export type BranchMatcher = (order: ShopifyOrder) => BranchMatch;

/** Reads a courier order's city from its address or another checkout app's data (app/reference/matcher/). */
export type CityMatcher = (order: ShopifyOrder) => CityMatch;

/** What the merchant does about an order whose payload lacks something the mapping needs. */
export const INCOMPLETE_FIX = "incomplete";

/** An amount from its plain field, else from the shop side of its money set. */
export function amountOf(
  plain: string | null | undefined,
  set: { shop_money?: { amount: string } | null } | null | undefined,
): string | null {
  return plain ?? set?.shop_money?.amount ?? null;
}

export const clean = (text: string | null | undefined): string => (text ?? "").replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------------------
// Recognising words in gateway and shipping names, in English, Ukrainian and Russian.

/**
 * Lower case, accents dropped (й→и, ї→і, ё→е), і/ы→и, є→е, ґ→г, soft and hard signs and apostrophes
 * dropped, every other non-letter a single space: "Кур'єр", "Курьер" and "КУРЬЕР" all read "курер".
 */
export function normaliseText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ʼ’'`ʻ‘]/g, "")
    .replace(/[ьъ]/g, "")
    .replace(/[іы]/g, "и")
    .replace(/є/g, "е")
    .replace(/ґ/g, "г")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export const matchesAny = (text: string, patterns: RegExp[]) =>
  patterns.some((pattern) => pattern.test(text));

// ---------------------------------------------------------------------------------------------------
// Amounts, in integer kopecks

/** "414.95" → 41495 kopecks; digits past the second decimal are rounded half up. */
export function toMinor(amount: string): number {
  const match = amount.trim().match(/^(-?)(\d+)(?:\.(\d+))?$/);
  if (!match) return 0; // the payload schema admits only amounts of this form
  const [, sign, whole, decimals = ""] = match;
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, "0").slice(0, 2));
  const rounded = decimals.length > 2 && Number(decimals[2]) >= 5 ? cents + 1 : cents;
  return sign === "-" ? -rounded : rounded;
}

export function formatMinor(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** n / d for whole n ≥ 0 and d > 0, rounded half up, in integers. */
export const divideHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));
