// The order page's street type-ahead for a courier address: the carrier's streets of a city, through the
// shop's warehouse key (getStreet), kept a week in CarrierStreetLookup (streetsFor). Typing costs few
// requests: the warehouse is asked for the first letters of the street's name only (its answer kept), and
// the rest of what is typed narrows that answer here. Never in the merchant's way: a key paused or
// missing, a warehouse that is rate limited or failing, answers an empty list that says so, and the
// merchant types the street by hand as before.
import type { AppContext } from "../context.server";
import { savedKeyClient } from "../work/saved-key-client.server";
import { WarehouseRateLimited } from "../warehouse/errors";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import type { StreetRecord } from "../warehouse/schemas";
import { fold } from "./fold";
import { REFERENCE_SOURCE } from "./kinds.server";
import { streetsFor } from "./store.server";

/** How many letters of the name the warehouse is asked for; longer texts are narrowed from that answer. */
export const STREET_STEM_LENGTH = 3;
export const STREET_HITS_LIMIT = 15;
/** The longest the type-ahead waits for the key's rate limits before answering that it could not ask. */
const LIMITER_WAIT_MS = 1_000;

export interface StreetHit {
  ref: string;
  /** Type and name as the carrier writes them: "вул. Хрещатик"; what fills the street field. */
  label: string;
}

export interface StreetSearchAnswer {
  /** False when the shop has no usable warehouse key (none saved, or its work paused). */
  available: boolean;
  streets: StreetHit[];
  /** The query could not be read (empty, too long, a malformed city). */
  invalid?: true;
  /** The warehouse could not answer now: the merchant types the street. */
  problem?: "rateLimited" | "failed";
}

// A street type the merchant may type before the name ("вул. Хре"): the name is what is looked up.
const STREET_TYPE =
  /^(?:вул|вулиця|ул|улица|просп|проспект|пров|провулок|пер|переулок|бульв|бульвар|пл|площа|площадь|наб|набережна|шосе|шоссе|узвіз|тупик|str|st|vul)\.?\s+/iu;

// A house number typed after the name ("Хрещатик, 22", "Хрещатик 22а"): not part of the street's name.
const HOUSE_AFTER = /(?:\s*,.*|\s+\d+[\p{L}]?(?:\/\d+[\p{L}]?)?)$/u;

/** The name part of what was typed: "вул. Хрещатик, 22" → "Хрещатик". */
export function streetNameOf(text: string): string {
  const trimmed = text.replace(/\s+/g, " ").trim();
  const name = trimmed.replace(STREET_TYPE, "").replace(HOUSE_AFTER, "").trim();
  return name || trimmed;
}

export const streetLabel = (street: StreetRecord) =>
  [street.StreetsType, street.Description].filter(Boolean).join(" ").trim();

function matches(street: StreetRecord, name: string): boolean {
  const wanted = fold(name);
  if (fold(street.Description).includes(wanted)) return true;
  return street.Description.toLowerCase().includes(name.toLowerCase());
}

/**
 * The city's streets whose name holds what was typed, best first (a name that starts with it before one
 * that only contains it). Throws nothing a warehouse or a key can cause: those are the answer's problem.
 */
export async function searchStreets(
  deps: AppContext & { endpoints?: Partial<WarehouseEndpoints> },
  shop: string,
  cityRef: string,
  text: string,
): Promise<StreetSearchAnswer> {
  const { db, log, clock } = deps;
  // The key's limits, shared with the engine's requests for the shop: waited for a moment at most.
  const keyed = await savedKeyClient(deps, shop, { maxLimiterWaitMs: LIMITER_WAIT_MS });
  if (!keyed) return { available: false, streets: [] };
  const { warehouse } = keyed;
  const name = streetNameOf(text);
  const stem = Array.from(name).slice(0, STREET_STEM_LENGTH).join("");
  try {
    const streets = await streetsFor(
      { db, warehouse, source: REFERENCE_SOURCE, now: clock() },
      cityRef,
      stem,
    );
    const wanted = fold(name);
    const found = streets
      .filter((street) => matches(street, name))
      .map((street) => ({ street, starts: fold(street.Description).startsWith(wanted) }))
      .sort(
        (a, b) =>
          Number(b.starts) - Number(a.starts) ||
          a.street.Description.localeCompare(b.street.Description, "uk"),
      );
    return {
      available: true,
      streets: found.slice(0, STREET_HITS_LIMIT).map(({ street }) => ({
        ref: street.Ref,
        label: streetLabel(street),
      })),
    };
  } catch (error) {
    const rateLimited = error instanceof WarehouseRateLimited;
    log.warn(
      { shop, event: "streets.unavailable", err: error },
      "the warehouse's streets could not be read; the merchant types the street",
    );
    return { available: true, streets: [], problem: rateLimited ? "rateLimited" : "failed" };
  }
}
