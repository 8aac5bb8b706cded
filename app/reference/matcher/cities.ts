// The settlements an order may mean, with how sure each is: from structured data (a Ref, or a name and
// region), else from the city field or a part of the address lines. A name several settlements share stays
// ambiguous unless the oblast, district or postcode picks one; what the order says of the place that no
// namesake fits contradicts the city. Shared by the branch match and the courier city match.
import { editDistance, NOISE_WORDS, queryTerms, tokens } from "../fold";
import type { ShopifyOrder } from "../../orders/payload";
import type { StructuredHints } from "../structured";
import type { CarrierCity, CityHit, ReferenceSearch } from "../types";
import { cyrillicLookAlikes } from "../writing";
import { DISTRICT_MARKERS, isRegionWord, MAX_TEXT, REGION_MARKERS, type Reading } from "./reading";

/** How many namesakes (or close spellings) of a city name are weighed. */
const CITY_CHOICES = 12;

export interface CityChoice {
  city: CarrierCity;
  /** 0..1: how sure the order means this city, before a branch fits or not. */
  certainty: number;
  /** True when it is one of several settlements the order's words fit equally. */
  ambiguous: boolean;
  /** An oblast, district or postcode the order gives contradicts it. */
  contradicted?: boolean;
}

/** The cities a structured hint names: by Ref (certain), else by name and region. */
export function structuredCities(hint: StructuredHints, search: ReferenceSearch): CityChoice[] {
  const byRef = hint.cityRefs
    .map((ref) => search.city(ref))
    .filter((city): city is CarrierCity => city !== undefined);
  if (byRef.length > 0) return byRef.slice(0, 1).map((city) => ({ city, certainty: 1, ambiguous: false }));
  for (const name of hint.cityNames) {
    const choices = resolveCity(name, { regions: hint.areas, districtAreas: [] }, search);
    if (choices.length > 0) return choices;
  }
  return [];
}

type Address = NonNullable<ShopifyOrder["shipping_address"]>;

/** What an order says of where its city lies, besides the city's name. */
interface Whereabouts {
  /** Oblasts as written ("Полтавська обл.", "Kharkiv Oblast", "Херсонська" in brackets). */
  regions: string[];
  /** The oblasts of the district centres the order names ("Броварський р-н" → Київська). */
  districtAreas: string[];
  /** Five digits. */
  zip?: string;
}

/** The order's city candidates: its city field (its region parts set aside), else a part of address1. */
export function addressCities(
  address: Address | undefined,
  readings: readonly Reading[],
  search: ReferenceSearch,
  note = "",
): CityChoice[] {
  const where: Whereabouts = { regions: [], districtAreas: [] };
  if (address?.province) where.regions.push(cyrillicLookAlikes(address.province));
  const zip = address?.zip?.replace(/\s/g, "");
  if (zip && /^\d{5}$/.test(zip)) where.zip = zip;
  const names: string[] = [];
  const districts = new Set<string>();
  for (const [index, raw] of [address?.city, address?.address1, address?.address2, note].entries()) {
    if (typeof raw !== "string") continue;
    let text = cyrillicLookAlikes(raw.slice(0, MAX_TEXT));
    for (const word of queryTerms(text).districts) districts.add(word);
    // "Миколаївка (Івано-Франківська обл.)", "Березівка (Херсонська)": the brackets hold the oblast.
    if (index === 0) {
      text = text.replace(/\(([^)]*)\)/g, (_, inner: string) => {
        where.regions.push(inner);
        return ",";
      });
    }
    if (index === 3) continue;
    for (const part of text.split(/[,;\n]/)) {
      const words = tokens(part);
      if (words.some((word) => REGION_MARKERS.has(word))) where.regions.push(part);
      else if (index === 0 && !words.some((word) => DISTRICT_MARKERS.has(word)) && part.trim())
        names.push(part);
    }
  }
  for (const district of districts) where.districtAreas.push(...districtAreas(district, search));
  for (const name of names) {
    const choices = resolveCity(name, where, search);
    if (choices.length > 0) return choices;
  }
  // No city field: a part of the address lines that is a city's exact name ("м. Полтава, НП 7").
  for (const reading of readings) {
    for (const part of reading.text.split(/[,;\n]/)) {
      const choices = resolveCity(part, where, search, true);
      if (choices.length > 0) return choices;
    }
  }
  return [];
}

/** The oblasts, as the carrier names them: a region that names none of them says nothing. */
const OBLASTS = [
  "Вінницька",
  "Волинська",
  "Дніпропетровська",
  "Донецька",
  "Житомирська",
  "Закарпатська",
  "Запорізька",
  "Івано-Франківська",
  "Київська",
  "Кіровоградська",
  "Луганська",
  "Львівська",
  "Миколаївська",
  "Одеська",
  "Полтавська",
  "Рівненська",
  "Сумська",
  "Тернопільська",
  "Харківська",
  "Херсонська",
  "Хмельницька",
  "Черкаська",
  "Чернівецька",
  "Чернігівська",
];

/**
 * The oblast of the town a district is named after ("Броварський" → Бровари → Київська), when one town
 * of that name is a district's centre. "Київський" is left out: it is a district of Kharkiv, Odesa and
 * Poltava too.
 */
function districtAreas(word: string, search: ReferenceSearch): string[] {
  const stem = word.replace(/(?:skoho|skomu|skoi|skii|ski|ska|sk)$/, "");
  if (stem.length < 4 || stem === word || stem === "kiv" || stem === "kev") return [];
  const areas = new Set<string>();
  for (const hit of search.searchCities(stem, CITY_CHOICES)) {
    if (hit.city.kind !== "місто" || !hit.city.area) continue;
    const named = folded(hit.city).some(
      (name) =>
        !name.includes(" ") &&
        name.length >= stem.length &&
        ((name.startsWith(stem) && name.length - stem.length <= 2) || editDistance(name, stem, 1) <= 1),
    );
    if (named) areas.add(hit.city.area);
  }
  return areas.size === 1 ? [...areas] : [];
}

/** Below this, a city name may be two letters typed in the wrong order ("Оедса", "Рінве", "Льівв"). */
const SWAP_BELOW = 0.9;
/** A city name read with two neighbouring letters swapped back: one typo, as the search scores one. */
const SWAPPED_CITY_CERTAINTY = 0.85;
/** Names longer than this are not tried letter by letter. */
const SWAP_LONGEST = 24;

/**
 * The hits for the one city name that the written name becomes with two neighbouring letters swapped
 * back, when exactly one name comes out exact. The search's typo index cannot find these: a swap spoils
 * most of a short name's trigrams.
 */
function swappedName(name: string, search: ReferenceSearch): CityHit[] | undefined {
  const letters = [...name.trim()];
  if (letters.length < 4 || letters.length > SWAP_LONGEST) return undefined;
  let found: CityHit[] | undefined;
  for (let i = 0; i + 1 < letters.length; i++) {
    const [a, b] = [letters[i]!, letters[i + 1]!];
    if (a === b || !/\p{L}/u.test(a) || !/\p{L}/u.test(b)) continue;
    const variant = [...letters.slice(0, i), b, a, ...letters.slice(i + 2)].join("");
    const hits = search.searchCities(variant, CITY_CHOICES);
    if ((hits[0]?.score ?? 0) < 0.99) continue;
    if (found && !sameFolded(found[0]!.city, hits[0]!.city)) return undefined;
    found ??= hits;
  }
  return found;
}

/** Whether any of the city's branches has a postcode of the same first two digits (the oblast's). */
function zipFits(city: CarrierCity, zip: string, search: ReferenceSearch): boolean | undefined {
  const postcodes = search
    .branchesOf(city.ref)
    .map((branch) => branch.postcode)
    .filter((postcode): postcode is string => typeof postcode === "string" && postcode.length === 5);
  if (postcodes.length === 0) return undefined;
  return postcodes.some((postcode) => postcode.slice(0, 2) === zip.slice(0, 2));
}

/**
 * The settlements a name (and the oblast, district and postcode written with it) may mean, with how
 * sure each is. An exact name that several settlements share is ambiguous unless those pick one; a typo or a prefix is less sure than an exact name, and less
 * still when another name is as close. What the order says of the place and no namesake fits
 * contradicts the city.
 */
function resolveCity(
  name: string,
  where: Whereabouts,
  search: ReferenceSearch,
  exactOnly = false,
): CityChoice[] {
  const words = tokens(name).filter((word) => !NOISE_WORDS.has(word) && !/^\d/.test(word));
  if (words.length === 0) return [];
  const query = words.join(" ");
  let hits = search.searchCities(name, CITY_CHOICES);
  let swapped = false;
  if (!exactOnly && (hits[0]?.score ?? 0) < SWAP_BELOW) {
    const found = swappedName(name, search);
    if (found) [hits, swapped] = [found, true];
  }
  if (hits.length === 0) return [];
  const top = hits[0]!;
  if (exactOnly && top.score < 0.99) return [];
  // Namesakes: every hit whose name reads as the top's (folded), wherever it is.
  const sameName = (city: CarrierCity) => sameFolded(city, top.city);
  const namesakes = hits.filter((hit) => sameName(hit.city) && hit.score >= top.score - 0.02);
  // A namesake without a branch counts too: a buyer in a village without one names the village and the
  // branch of a town nearby.
  let pool = namesakes;
  let contradicted = false;
  const narrow = (fits: (city: CarrierCity) => boolean | undefined) => {
    const verdicts = pool.map((hit) => fits(hit.city));
    const inside = pool.filter((_, index) => verdicts[index] === true);
    if (inside.length > 0) pool = inside;
    else if (verdicts.every((verdict) => verdict === false)) contradicted = true;
  };
  const regionStems = where.regions
    .flatMap(regionStem)
    .filter((stem) => stem.length > 0 && OBLASTS.some((oblast) => areaFits(stem, oblast)));
  if (regionStems.length > 0) {
    narrow((city) => (city.area ? regionStems.some((stem) => areaFits(stem, city.area)) : undefined));
  }
  if (where.districtAreas.length > 0) {
    narrow((city) => (city.area ? where.districtAreas.includes(city.area) : undefined));
  }
  const zip = where.zip;
  if (zip) narrow((city) => zipFits(city, zip, search));
  // How sure the name is: the search's score, less when a different name scores as high.
  const rival = hits.find((hit) => !sameName(hit.city));
  let certainty = top.score >= 0.97 ? 1 : top.score;
  if (swapped) certainty = SWAPPED_CITY_CERTAINTY;
  else if (rival && rival.score >= top.score - 0.05 && !folded(top.city).includes(query)) certainty *= 0.8;
  const ambiguous = pool.length > 1;
  return pool.map((hit) => ({ city: hit.city, certainty, ambiguous, contradicted }));
}

// Folded once per city object: the search keeps its cities for its lifetime.
const foldedNames = new WeakMap<CarrierCity, string[]>();

/** The city's Ukrainian and Russian names, folded. */
function folded(city: CarrierCity): string[] {
  let names = foldedNames.get(city);
  if (!names) {
    names = [tokens(city.name).join(" "), tokens(city.nameRu ?? "").join(" ")];
    foldedNames.set(city, names);
  }
  return names;
}

function sameFolded(a: CarrierCity, b: CarrierCity): boolean {
  return folded(a)[0] === folded(b)[0];
}

/** A region's written name reduced to a stem that its Ukrainian, Russian and Latin writings share. */
function regionStem(text: string): string[] {
  const words = tokens(text).filter(
    (word) => !NOISE_WORDS.has(word) && !isRegionWord(word) && !/^\d/.test(word),
  );
  if (words.length === 0) return [];
  return [stemOfArea(words.join(""))];
}

function stemOfArea(word: string): string {
  return word.replace(/(skaia|ska|skoi|ski|sk|kaia|ka|aia|ia|a)$/, "");
}

function areaFits(stem: string, area: string | undefined): boolean {
  if (!area) return false;
  const areaStem = stemOfArea(tokens(area).join(""));
  if (areaStem === stem) return true;
  // Ukrainian and Russian stems differ by a letter or two ("zaporiz"/"zaporozh", "rivnen"/"roven"); no two
  // regions' stems of six letters or more are within two of each other.
  const longer = Math.max(stem.length, areaStem.length);
  const allowance = longer >= 6 ? 2 : longer >= 3 ? 1 : 0;
  return allowance > 0 && editDistance(stem, areaStem, allowance) <= allowance;
}
