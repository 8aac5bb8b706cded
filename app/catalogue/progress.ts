// What the Catalogue page says of a full catalogue sync: the step it is at, how far that step has got, and how
// long the cards still due take to send at the pace that leaves orders their share of the warehouse key's
// limit. Pure: the page's loader gives it the sync's counts, Shopify's count of variants and the pace. It
// answers Messages (keys of the catalogue namespace with their figures), which the page puts into words.
import { message, type Message } from "../i18n/message";

/** A CatalogueSync's phases, in the order a sync goes through them (docs/decisions/011). */
export const SYNC_PHASES = ["shopify", "warehouse", "sending", "done", "failed"] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];
export const RUNNING_PHASES = ["shopify", "warehouse", "sending"] as const satisfies readonly SyncPhase[];
export type RunningPhase = (typeof RUNNING_PHASES)[number];

/**
 * A duration as a merchant reads it, rounded as the pace allows: under a minute, whole minutes below an hour,
 * and past an hour to the nearest ten minutes (the pace itself shifts with the orders' traffic).
 */
export type AboutDuration =
  | { unit: "underMinute" }
  | { unit: "minutes"; minutes: number }
  | { unit: "hours"; hours: number; minutes: number };

export function aboutDuration(ms: number): AboutDuration {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 1) return { unit: "underMinute" };
  if (minutes < 60) return { unit: "minutes", minutes };
  const tens = Math.round(minutes / 10);
  return { unit: "hours", hours: Math.floor(tens / 6), minutes: (tens % 6) * 10 };
}

/**
 * The sentence saying the duration in its setting (`catalogue:<setting>.*`): a whole sentence per shape of
 * duration, with the plural of its leading figure, so no sentence is glued from a duration phrase.
 */
function durationSentence(setting: "estimate" | "left", ms: number): Message {
  const about = aboutDuration(ms);
  if (about.unit === "underMinute") return message(`catalogue:${setting}.underMinute`);
  if (about.unit === "minutes") return message(`catalogue:${setting}.minutes`, { count: about.minutes });
  if (!about.minutes) return message(`catalogue:${setting}.hours`, { count: about.hours });
  return message(`catalogue:${setting}.hoursMinutes`, { count: about.hours, minutes: about.minutes });
}

/** Why sending takes as long as it does: one product a request, at `paceMs` between requests. */
const paceReason = (paceMs: number) => message("catalogue:pace", { perMinute: Math.round(60_000 / paceMs) });

/** The confirmation's estimate: the longest a sync of the shop's variants could take to send. */
export function fullSyncEstimate(variantsInShop: number | null, paceMs: number): Message[] {
  if (variantsInShop === null) return [message("catalogue:estimate.unknown"), paceReason(paceMs)];
  return [
    message("catalogue:estimate.variants", { count: variantsInShop }),
    durationSentence("estimate", variantsInShop * paceMs),
    paceReason(paceMs),
  ];
}

/** A running sync's counts as the page reads them, `sent` and `stillDue` counted now. */
export interface SyncCounts {
  phase: RunningPhase;
  variantsRead: number;
  alreadyThere: number;
  sent: number;
  /** Cards still due to be sent. */
  stillDue: number;
}

export interface SyncProgress {
  /** "Step 2 of 3: …" */
  title: Message;
  detail: Message[];
  /** How far the current step has got, 0-100. */
  percent: number;
  /** While cards are being sent: how long the rest takes, and why. */
  timeLeft: Message[] | null;
}

/** Where a running sync stands, step by step: reading Shopify, asking the warehouse, sending. */
export function syncProgress(
  sync: SyncCounts,
  { variantsInShop, paceMs }: { variantsInShop: number | null; paceMs: number },
): SyncProgress {
  const { variantsRead, alreadyThere, sent, stillDue } = sync;
  if (sync.phase === "shopify") {
    return {
      title: message("catalogue:progress.read.title"),
      detail: [
        variantsInShop
          ? message("catalogue:progress.read.ofTotal", { read: variantsRead, count: variantsInShop })
          : message("catalogue:progress.read.soFar", { count: variantsRead }),
        message("catalogue:progress.read.then"),
      ],
      percent: variantsInShop ? Math.min(100, Math.floor((variantsRead * 100) / variantsInShop)) : 0,
      timeLeft: null,
    };
  }
  if (sync.phase === "warehouse") {
    return {
      title: message("catalogue:progress.compare.title"),
      detail: [
        message("catalogue:progress.compare.read", { count: variantsRead }),
        message("catalogue:progress.compare.then"),
      ],
      percent: 0,
      timeLeft: null,
    };
  }
  const total = sent + stillDue;
  return {
    title: message("catalogue:progress.send.title"),
    detail: [message("catalogue:progress.send.detail", { sent, total, count: alreadyThere })],
    percent: total ? Math.floor((sent * 100) / total) : 100,
    timeLeft: stillDue ? [durationSentence("left", stillDue * paceMs), paceReason(paceMs)] : null,
  };
}
