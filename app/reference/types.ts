// Carrier reference data as the app keeps it (cities and branches of Nova Poshta, passed through by the
// warehouse), and the search over it that the branch picker, the order page and the address matcher share.
// The records are ours, not the wire's: app/reference/records.ts turns the warehouse's into these.

/** A branch's kind, from the carrier's CategoryOfWarehouse: a staffed branch, a parcel locker, or other. */
export type BranchKind = "branch" | "postomat" | "store";

export interface CarrierCity {
  ref: string;
  /** Ukrainian name, as the carrier writes it ("Київ"). */
  name: string;
  /** Russian name ("Киев"), when getCities described the city. */
  nameRu?: string | undefined;
  /** Region (oblast) in Ukrainian, e.g. "Київська", when known. */
  area?: string | undefined;
  /** Kind of settlement in Ukrainian ("місто", "село", "селище міського типу"), when known. */
  kind?: string | undefined;
}

export interface CarrierBranch {
  ref: string;
  cityRef: string;
  /** The branch's number in its city ("12"); parcel lockers have numbers too. */
  number: string;
  kind: BranchKind;
  /** The carrier's own text: "Відділення №1 (до 1000 кг): вул. Одеська, 48". */
  description: string;
  descriptionRu?: string | undefined;
  /** "Київ, Одеська, 48". */
  shortAddress?: string | undefined;
  postcode?: string | undefined;
  maxWeightKg?: number | undefined;
  /** False when the carrier marks it closed (WarehouseStatus other than Working). */
  working: boolean;
}

export interface CityHit {
  city: CarrierCity;
  /** 0..1: 1 is an exact name (after folding), less for prefixes, spelling variants and typos. */
  score: number;
}

export interface BranchHit {
  branch: CarrierBranch;
  city: CarrierCity | undefined;
  /** 0..1, comparable across one search's hits. */
  score: number;
}

export interface BranchQuery {
  /** Only this city's branches; without it, the text may name the city too ("Київ 12"). */
  cityRef?: string;
  /** Number ("12", "№12", "НП 12", "поштомат 3456"), address words ("Хрещатик 22") or name. */
  text: string;
  kinds?: readonly BranchKind[];
  /** Closed branches are left out unless asked for. */
  includeClosed?: boolean;
  limit?: number;
}

/** An in-memory search over one key's reference data: synchronous, built once per version of the set. */
export interface ReferenceSearch {
  readonly cityCount: number;
  readonly branchCount: number;
  city(ref: string): CarrierCity | undefined;
  branch(ref: string): CarrierBranch | undefined;
  /** The city's branches, in number order. */
  branchesOf(cityRef: string): readonly CarrierBranch[];
  /** Cities by name: Ukrainian, Russian or Latin spellings, apostrophe variants, typos; best first. */
  searchCities(text: string, limit?: number): CityHit[];
  searchBranches(query: BranchQuery): BranchHit[];
}

/** How a branch reads to a person: "Відділення №12: вул. Хрещатик, 22 (Київ)". */
export function branchLabel(branch: CarrierBranch, city?: CarrierCity): string {
  return city ? `${branch.description} (${city.name})` : branch.description;
}

/** One of the matcher's choices for an order, offered to the merchant as a one-click fix. */
export interface BranchCandidate {
  ref: string;
  label: string;
  /** 0..1. */
  score: number;
}

/** What the address matcher (app/reference/matcher/) made of an order without a chosen branch. */
export interface BranchMatch {
  /** The best branch's Ref, or null when nothing came close; used only at or above the shop's threshold. */
  ref: string | null;
  /** 0..1: how sure the matcher is of `ref`. */
  confidence: number;
  /** The best three, best first (the first is `ref`). */
  candidates: BranchCandidate[];
  /** Where the answer came from: another checkout app's structured data, or the address's words. */
  source: "structured" | "address" | "none";
  /** What decided it, for the order's timeline: the city, number, street as read from the order. */
  evidence: {
    city?: string;
    number?: string;
    street?: string;
    kind?: BranchKind;
    /** The note attribute (or "note") the structured data was read from. */
    field?: string;
  };
}

/** The city (and street) a courier order goes to, read from the order the same way. */
export interface CityMatch {
  cityRef: string | null;
  confidence: number;
  candidates: { ref: string; label: string; score: number }[];
  source: "structured" | "address" | "none";
  /** Street, house and flat as the order writes them (the street's Ref is found with getStreet). */
  street?: string;
  streetRef?: string;
  house?: string;
  flat?: string;
}

/** A confidence (0..1) as a whole percentage, rounded down so that 0.995 never reads as sure. */
export function percent(confidence: number): number {
  return Math.floor(Math.max(0, Math.min(1, confidence)) * 100);
}
