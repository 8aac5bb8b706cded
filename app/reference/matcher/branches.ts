// The branches of the candidate cities that an order's fields name, each scored: a number first, then a
// freight branch asked for by kind, a locker in a shop the text names, a street and house, a city's only
// branch; then capped by how sure the city is and whether the address can mean one branch at all.
import { tokens } from "../fold";
import type { BranchKind, CarrierBranch, CarrierCity, ReferenceSearch } from "../types";
import type { CityChoice } from "./cities";
import { hostedIn, streetCandidates, streetFits } from "./branch-address";
import {
  AMBIGUOUS_CITY_CAP,
  CONTRADICTION_CAP,
  FREIGHT_FIT,
  HOST_FIT,
  KIND_MISMATCH_FACTOR,
  MARKED_NUMBER_FIT,
  NO_CHOICE_CAP,
  ONLY_BRANCH_FIT,
  SHOP_ALONE_FACTOR,
  STREET_ONLY_FIT,
} from "./confidence";
import { parseReading, type Reading } from "./reading";

export interface Scored {
  branch: CarrierBranch;
  city: CarrierCity | undefined;
  score: number;
}

export interface Found {
  best: Scored[];
  evidence: { number?: string; street?: string; kind?: BranchKind; field?: string };
}

/**
 * The branches of the candidate cities that the readings name, best first; undefined when no reading
 * names one. A number decides before a street: a home address in address1 and "НП 12" in address2 is
 * branch 12, not the branch that happens to stand at the buyer's house.
 */
export function branchesIn(
  cities: readonly CityChoice[],
  readings: readonly Reading[],
  hintKind: BranchKind | undefined,
  search: ReferenceSearch,
): Found | undefined {
  const cityWords = new Set(
    cities.flatMap(({ city }) => [...tokens(city.name), ...tokens(city.nameRu ?? "")]),
  );
  // Another carrier's numbers are not Nova Poshta's: such a field names no branch.
  const ours = readings.filter((reading) => !reading.otherCarrier);
  const parsed = ours.map((reading) => parseReading(reading, cityWords));
  const kind = hintKind ?? parsed.find((reading) => reading.kind)?.kind;
  const freight = readings.some((reading) => reading.freight);
  const scored: Scored[] = [];
  let evidence: Found["evidence"] = {};
  /** Below any threshold: the address cannot tell one branch. */
  let noChoice = readings.some((reading) => reading.otherCarrier);

  // Numbers, strongest reading first.
  const numbers = parsed
    .flatMap((reading) => reading.numbers.map((number) => ({ ...number, field: reading.field })))
    .sort((a, b) => b.fit - a.fit);
  if (numbers.length > 0) {
    const found = new Set<string>();
    for (const choice of cities) {
      const branches = search.branchesOf(choice.city.ref);
      const hits = new Map<string, { branch: CarrierBranch; fit: number }>();
      for (const number of numbers) {
        const branch = findNumber(branches, number.value);
        if (!branch) continue;
        found.add(number.value);
        if (hits.has(branch.ref)) continue;
        const kindFactor = kind && kind !== branch.kind ? KIND_MISMATCH_FACTOR : 1;
        hits.set(branch.ref, { branch, fit: number.fit * kindFactor });
        if (Object.keys(evidence).length === 0) {
          evidence = { number: number.value, field: number.field, ...(kind ? { kind } : {}) };
        }
      }
      for (const hit of hits.values()) {
        scored.push({ branch: hit.branch, city: choice.city, score: hit.fit });
      }
    }
    // Two numbers ("5 або 12", or one in each field) name two branches; a marked number no candidate
    // settlement has is a mistake somewhere, and the street beside it cannot say where.
    const values = new Set(numbers.map((number) => number.value));
    const missing = numbers.some((number) => number.fit >= MARKED_NUMBER_FIT && !found.has(number.value));
    if (values.size > 1 || missing) noChoice = true;
  }

  // A freight branch asked for by its kind alone ("вантажне до 1100 кг"): the city's one, if it has one.
  if (scored.length === 0 && freight) {
    for (const choice of cities) {
      const heavy = search
        .branchesOf(choice.city.ref)
        .filter((branch) => branch.working && (branch.maxWeightKg ?? 0) >= FREIGHT_KG);
      if (heavy.length > 1) noChoice = true;
      for (const branch of heavy) {
        scored.push({ branch, city: choice.city, score: FREIGHT_FIT / Math.sqrt(heavy.length) });
      }
    }
  }

  // A parcel locker or point known by the shop that hosts it ("поштомат в Сільпо"), a street narrowing it.
  if (scored.length === 0) {
    const words = [
      ...new Set(parsed.flatMap((reading) => reading.streets.flatMap((street) => street.words))),
    ];
    for (const choice of cities) {
      const hosted = hostedIn(search.branchesOf(choice.city.ref), words, kind);
      if (hosted.branches.length === 0) continue;
      if (hosted.branches.length > 1) noChoice = true;
      for (const branch of hosted.branches) {
        // "Відділення біля АТБ" and only a locker inside it, or a shop's name with no word of the
        // carrier's (a landmark, perhaps): offered, not chosen.
        const kindFactor = kind && kind !== branch.kind ? KIND_MISMATCH_FACTOR : 1;
        const said = parsed.some((reading) => reading.carrier) ? 1 : SHOP_ALONE_FACTOR;
        const score = (HOST_FIT * kindFactor * said) / Math.sqrt(hosted.branches.length);
        scored.push({ branch, city: choice.city, score });
      }
      evidence.street ??= hosted.word;
    }
  }

  // Streets, when no number named a branch.
  if (scored.length === 0) {
    for (const reading of parsed) {
      for (const street of reading.streets) {
        for (const choice of cities) {
          const fits = streetFits(streetCandidates(choice.city.ref, street, search), street, kind);
          for (const fit of fits) {
            // A flat or an office beside the street: the buyer's home, where a branch may merely stand.
            const score = reading.home ? Math.min(fit.fit, STREET_ONLY_FIT) : fit.fit;
            scored.push({ branch: fit.branch, city: choice.city, score });
          }
          if (fits.length > 0 && evidence.street === undefined) {
            evidence = {
              street: [street.text].join(" "),
              field: reading.field,
              ...(kind ? { kind } : {}),
            };
          }
        }
      }
    }
  }

  // A city with a single branch, when nothing named one.
  if (scored.length === 0) {
    for (const choice of cities) {
      const branches = search.branchesOf(choice.city.ref).filter((branch) => branch.working);
      if (branches.length === 1)
        scored.push({ branch: branches[0]!, city: choice.city, score: ONLY_BRANCH_FIT });
    }
  }
  if (scored.length === 0) return undefined;

  // How sure the city is, and what the other namesakes' fits do to that.
  const certaintyOf = new Map(cities.map((choice) => [choice.city.ref, choice]));
  const fittingCities = new Set(scored.map((entry) => entry.branch.cityRef));
  const anyAmbiguous = [...fittingCities].some((ref) => certaintyOf.get(ref)?.ambiguous);
  for (const entry of scored) {
    const choice = certaintyOf.get(entry.branch.cityRef);
    let score = entry.score * (choice?.certainty ?? 0.5);
    if (anyAmbiguous) {
      score =
        Math.min(score, AMBIGUOUS_CITY_CAP) / (fittingCities.size > 1 ? Math.sqrt(fittingCities.size) : 1);
    }
    if (choice?.contradicted) score = Math.min(score, CONTRADICTION_CAP);
    if (noChoice) score = Math.min(score, NO_CHOICE_CAP);
    entry.score = score;
  }
  const best = dedupe(scored).sort(
    (a, b) => b.score - a.score || Number(a.branch.number) - Number(b.branch.number),
  );
  return { best: best.slice(0, 3), evidence };
}

/** Freight branches take 1000 kg and more; ordinary ones 30. */
const FREIGHT_KG = 1000;

function dedupe(scored: Scored[]): Scored[] {
  const byRef = new Map<string, Scored>();
  for (const entry of scored) {
    const seen = byRef.get(entry.branch.ref);
    if (!seen || seen.score < entry.score) byRef.set(entry.branch.ref, entry);
  }
  return [...byRef.values()];
}

/** Branches are in number order; numbers are digits. */
function findNumber(branches: readonly CarrierBranch[], number: string): CarrierBranch | undefined {
  for (const branch of branches) if (branch.number === number) return branch;
  return undefined;
}
