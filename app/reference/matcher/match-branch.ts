// The branch for an order without a chosen one, in order of trust: a branch Ref from structured data, a
// city from structured data with its number or branch text, then the shipping address. Never throws: odd
// input gives a match with nothing in it.
import type { ShopifyOrder } from "../../orders/payload";
import { readStructuredHints } from "../structured";
import { branchLabel, type BranchCandidate, type BranchMatch, type ReferenceSearch } from "../types";
import { branchesIn, type Found, type Scored } from "./branches";
import { addressCities, structuredCities } from "./cities";
import { round, STRUCTURED_REF_CONFIDENCE } from "./confidence";
import { readingOf, type Reading } from "./reading";

const NONE: BranchMatch = { ref: null, confidence: 0, candidates: [], source: "none", evidence: {} };

export function matchBranch(order: ShopifyOrder, search: ReferenceSearch): BranchMatch {
  try {
    return matchBranchOrThrow(order, search);
  } catch {
    return { ...NONE, candidates: [], evidence: {} };
  }
}

function matchBranchOrThrow(order: ShopifyOrder, search: ReferenceSearch): BranchMatch {
  const hints = readStructuredHints(order, search);

  // 1. A branch Ref the reference data has.
  for (const hint of hints) {
    const branch = hint.branchRefs.map((ref) => search.branch(ref)).find((found) => found !== undefined);
    if (!branch) continue;
    const city = search.city(branch.cityRef);
    return {
      ref: branch.ref,
      confidence: STRUCTURED_REF_CONFIDENCE,
      candidates: [candidate({ branch, city, score: STRUCTURED_REF_CONFIDENCE })],
      source: "structured",
      evidence: { city: city?.name, number: branch.number, kind: branch.kind, field: hint.field },
    };
  }

  // 2. A city from the structured data, with its number or branch text.
  for (const hint of hints) {
    const cities = structuredCities(hint, search);
    if (cities.length === 0) continue;
    const readings: Reading[] = [
      ...hint.branchNumbers.map((number) => ({ field: hint.field, text: `№${number}` })),
      ...hint.branchTexts.map((text) => readingOf(hint.field, text)),
    ];
    if (readings.length === 0) continue;
    const result = branchesIn(cities, readings, hint.kind, search);
    if (result) {
      return finish(result, "structured", {
        city: hint.cityNames[0] ?? cities[0]?.city.name,
        field: hint.field,
      });
    }
  }

  // 3. The shipping address (and what structured data said of the city, if it named no branch).
  const address = order.shipping_address ?? undefined;
  const structuredFields = new Set(hints.map((hint) => hint.field));
  const readings: Reading[] = [];
  const push = (field: string, text: string | null | undefined) => {
    if (typeof text === "string" && text.trim().length > 0) readings.push(readingOf(field, text));
  };
  push("address1", address?.address1);
  push("address2", address?.address2);
  push("company", address?.company);
  if (!structuredFields.has("note")) push("note", order.note);
  for (const hint of hints) for (const text of hint.branchTexts) push(hint.field, text);
  for (const hint of hints) for (const number of hint.branchNumbers) push(hint.field, `№${number}`);

  const hintCities = hints.flatMap((hint) => structuredCities(hint, search));
  const cities =
    hintCities.length > 0 ? hintCities : addressCities(address, readings, search, order.note ?? "");
  if (cities.length === 0) return { ...NONE, candidates: [], evidence: {} };
  const kind = hints.find((hint) => hint.kind)?.kind;
  const result = branchesIn(cities, readings, kind, search);
  const cityText = address?.city?.trim() || cities[0]!.city.name;
  if (!result) {
    return { ...NONE, candidates: [], evidence: { city: cityText } };
  }
  return finish(result, hintCities.length > 0 ? "structured" : "address", {
    city: cityText,
    ...(hintCities.length > 0
      ? { field: hints.find((hint) => structuredCities(hint, search).length > 0)?.field }
      : {}),
  });
}

function finish(found: Found, source: BranchMatch["source"], evidence: BranchMatch["evidence"]): BranchMatch {
  const top = found.best[0]!;
  const clean = Object.fromEntries(
    Object.entries({ ...evidence, ...found.evidence }).filter(([, value]) => value !== undefined),
  );
  return {
    ref: top.branch.ref,
    confidence: round(top.score),
    candidates: labelled(found.best.slice(0, 3)),
    source,
    evidence: clean,
  };
}

/**
 * The candidates with their labels; when they lie in different settlements of one name, each label names
 * its region too, or the merchant would see the same "(Березівка)" three times.
 */
function labelled(best: readonly Scored[]): BranchCandidate[] {
  const names = new Map<string, Set<string>>();
  for (const { city } of best) {
    if (city) names.set(city.name, (names.get(city.name) ?? new Set()).add(city.ref));
  }
  return best.map((scored) => {
    const city = scored.city;
    if (!city?.area || (names.get(city.name)?.size ?? 0) < 2) return candidate(scored);
    return candidate({ ...scored, city: { ...city, name: `${city.name}, ${city.area} обл.` } });
  });
}

function candidate(scored: Scored): BranchCandidate {
  return {
    ref: scored.branch.ref,
    label: branchLabel(scored.branch, scored.city),
    score: round(scored.score),
  };
}
