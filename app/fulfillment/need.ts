// What Shopify still has to be told about an order, from the order as we keep it: a fulfillment once it has
// shipped with a waybill, the new waybill when it changed, and the carrier's progress as fulfillment events.
// Pure: the Shopify side's step (work.server.ts) asks it after every call, and the order rules ask it to
// decide whether the order stays due.
import { STAGE } from "../orders/states";
import { normaliseTtn } from "./carriers";

/**
 * The fulfillment event statuses we send, in the order a parcel passes them: an event of a lower rank than
 * the last one sent is not sent (the parcel does not go back on its way). Those of one rank may follow each
 * other: out for delivery, a failed attempt or a delay, out for delivery again. A refusal and a delivery end.
 */
export const EVENT_RANK: Record<string, number> = {
  IN_TRANSIT: 1,
  READY_FOR_PICKUP: 2,
  OUT_FOR_DELIVERY: 2,
  ATTEMPTED_DELIVERY: 2,
  DELAYED: 2,
  FAILURE: 3,
  DELIVERED: 4,
};

export interface ShopifyFacts {
  stage: string | null;
  ttn: string | null;
  carrierStatus: string | null;
  fulfillmentId: string | null;
  fulfilledTtn: string | null;
  fulfillmentEvent: string | null;
  fulfillmentProblem: string | null;
}

export type ShopifyNeed = { do: "fulfil" } | { do: "tracking" } | { do: "event"; status: string } | null;

/** The carrier's status id as reported (JSON `{id, name, date}`), or "" when none. */
export function carrierStatusId(carrierStatus: string | null): string {
  if (!carrierStatus) return "";
  try {
    const parsed = JSON.parse(carrierStatus) as { id?: unknown };
    return typeof parsed.id === "string" ? parsed.id : "";
  } catch {
    return "";
  }
}

/**
 * The next thing Shopify must be told, or null. `eventFor` reads the carrier's status into a fulfillment
 * event status (null when it means none). A problem waits for the merchant.
 */
export function shopifyNeed(
  facts: ShopifyFacts,
  eventFor: (carrierStatusId: string) => string | null,
): ShopifyNeed {
  if (facts.fulfillmentProblem) return null;
  const shipped = facts.stage === STAGE.shipped || facts.stage === STAGE.delivered;
  if (!shipped || !facts.ttn) return null;
  if (!facts.fulfillmentId) return { do: "fulfil" };
  if (facts.fulfilledTtn !== facts.ttn) return { do: "tracking" };
  const wanted =
    facts.stage === STAGE.delivered ? "DELIVERED" : eventFor(carrierStatusId(facts.carrierStatus));
  if (!wanted || wanted === facts.fulfillmentEvent) return null;
  const told = facts.fulfillmentEvent ? (EVENT_RANK[facts.fulfillmentEvent] ?? 0) : 0;
  return (EVENT_RANK[wanted] ?? 0) >= told ? { do: "event", status: wanted } : null;
}

/** The waybill columns of an order, as waybillsOf reads them. */
export type WaybillFacts = { waybills?: string | null; ttn?: string | null; fulfilledTtn?: string | null };

/** The kept history; a column that does not read as a list of texts counts as none kept. */
function keptWaybills(row: WaybillFacts): string[] {
  try {
    const kept: unknown = row.waybills ? JSON.parse(row.waybills) : [];
    return Array.isArray(kept) ? kept.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Every waybill the order has had, normalised, oldest first: the kept history, and the waybill and the one
 * Shopify shows (rows from before the history was kept have only these). A fulfillment carrying any of them
 * is ours: a create whose answer was lost may have gone with a waybill the warehouse has changed since.
 */
export function waybillsOf(row: WaybillFacts): string[] {
  const all = [...keptWaybills(row), row.fulfilledTtn, row.ttn].filter((ttn): ttn is string => Boolean(ttn));
  return [...new Set(all.map(normaliseTtn))];
}

/** The history column with `ttns` added, or undefined when they are all there already (nothing to write). */
export function withWaybills(row: WaybillFacts, ttns: Array<string | null | undefined>): string | undefined {
  const kept = keptWaybills(row);
  const added = ttns.map((ttn) => normaliseTtn(ttn ?? "")).filter((ttn) => ttn && !kept.includes(ttn));
  return added.length ? JSON.stringify([...new Set([...kept, ...added])]) : undefined;
}
