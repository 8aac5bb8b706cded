// What the Catalogue page says of a full catalogue sync: the step it is at, how far that step has got, and how
// long the cards still due take to send at the pace that leaves orders their share of the warehouse key's
// limit. Pure: the page's loader gives it the sync's counts, Shopify's count of variants and the pace.

/** A CatalogueSync's phases, in the order a sync goes through them (docs/decisions/011). */
export const SYNC_PHASES = ["shopify", "warehouse", "sending", "done", "failed"] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];
export const RUNNING_PHASES = ["shopify", "warehouse", "sending"] as const satisfies readonly SyncPhase[];
export type RunningPhase = (typeof RUNNING_PHASES)[number];

/** A count as the pages write it: 10,000. */
export const figure = (value: number) => value.toLocaleString("en-US");

/** A duration as a merchant reads it: "under a minute", "about 25 minutes", "about 3 hours 20 minutes". */
export function aboutDuration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 1) return "under a minute";
  if (minutes < 60) return `about ${minutes} minutes`;
  // Past an hour, to the nearest ten minutes: the pace itself shifts with the orders' traffic.
  const tens = Math.round(minutes / 10);
  const hours = Math.floor(tens / 6);
  const rest = (tens % 6) * 10;
  return `about ${hours} ${hours === 1 ? "hour" : "hours"}${rest ? ` ${rest} minutes` : ""}`;
}

/** Why sending takes as long as it does: one product a request, at `paceMs` between requests. */
function paceReason(paceMs: number): string {
  return `the warehouse takes one product a request, ${figure(Math.round(60_000 / paceMs))} a minute, so that orders are never held up.`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The confirmation's estimate: the longest a sync of the shop's variants could take to send. */
export function fullSyncEstimate(variantsInShop: number | null, paceMs: number): string {
  if (variantsInShop === null) {
    return `When the warehouse lacks many of them, sending takes a while: ${paceReason(paceMs)}`;
  }
  return (
    `Your shop has ${figure(variantsInShop)} variants. If the warehouse had none of them, sending them all ` +
    `would take ${aboutDuration(variantsInShop * paceMs)}: ${paceReason(paceMs)}`
  );
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
  title: string;
  detail: string;
  /** How far the current step has got, 0-100. */
  percent: number;
  /** While cards are being sent: how long the rest takes, and why. */
  timeLeft: string | null;
}

/** Where a running sync stands, step by step: reading Shopify, asking the warehouse, sending. */
export function syncProgress(
  sync: SyncCounts,
  { variantsInShop, paceMs }: { variantsInShop: number | null; paceMs: number },
): SyncProgress {
  const { variantsRead, alreadyThere, sent, stillDue } = sync;
  if (sync.phase === "shopify") {
    const read = variantsInShop
      ? `${figure(variantsRead)} of ${figure(variantsInShop)} variants read.`
      : `${figure(variantsRead)} variants read so far.`;
    return {
      title: "Step 1 of 3: reading your catalogue from Shopify",
      detail: `${read} How long sending takes is known once the warehouse has said which products it has.`,
      percent: variantsInShop ? Math.min(100, Math.floor((variantsRead * 100) / variantsInShop)) : 0,
      timeLeft: null,
    };
  }
  if (sync.phase === "warehouse") {
    return {
      title: "Step 2 of 3: asking the warehouse which products it already has",
      detail: `All ${figure(variantsRead)} variants read. The warehouse's stock report (it gives one a minute) is compared with them next.`,
      percent: 0,
      timeLeft: null,
    };
  }
  const total = sent + stillDue;
  return {
    title: "Step 3 of 3: sending the products the warehouse lacks",
    detail: `${figure(sent)} of ${figure(total)} sent; ${figure(alreadyThere)} were at the warehouse already.`,
    percent: total ? Math.floor((sent * 100) / total) : 100,
    timeLeft: stillDue
      ? `${capitalised(aboutDuration(stillDue * paceMs))} left: ${paceReason(paceMs)}`
      : null,
  };
}
