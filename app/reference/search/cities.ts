// The city half of a search: the index of city names (whole names, and each word of a name of several) and
// their oblasts, answering type-ahead for cities (searchCities) and reading which city the words of a branch
// query name (cityInWords), an oblast the text names choosing among namesakes.
import { editDistance, fold, queryTerms, tokens, typoAllowance } from "../fold";
import type { CarrierCity, CityHit } from "../types";
import { MIN_PREFIX, QUALITY, round } from "./quality";
import { addPosting, TermIndex } from "./term-index";

const DEFAULT_CITY_LIMIT = 10;

/** An oblast's name without its adjective ending: "kivska" → "kiv", "kevskaia" → "kev", "kiv" stays. */
function areaStem(word: string): string {
  const at = word.lastIndexOf("sk");
  return at >= 3 ? word.slice(0, at) : word;
}

export interface CityScope {
  /** City index → how surely the text (or the caller) named it, 0..1. */
  cities: Map<number, number>;
  /** Positions of the query's words the city took, not to be matched against addresses. */
  used: Set<number>;
  /** Whether the city was read exactly (or given): then it bounds the search. */
  exact: boolean;
}

/**
 * The city names of the set indexed, and the city search over them. `sizeFactor`: each city's size (its
 * branch count) against the largest's, 0..1, by city index; equal matches rank the bigger city first.
 */
export function cityNameSearch(cities: readonly CarrierCity[], sizeFactor: Float64Array) {
  // City names: whole folded names ("bila tserkva") and, for names of several words, each word.
  const nameEntries = new Map<string, number[]>();
  const nameWordEntries = new Map<string, number[]>();
  /** Each city's oblast, folded: its last word ("frankivska") and that word's stem ("frankiv"). */
  const areaOf: ({ word: string; stem: string } | undefined)[] = [];
  cities.forEach((city, index) => {
    for (const name of [city.name, city.nameRu]) {
      if (!name) continue;
      const words = tokens(name);
      if (!words.length) continue;
      addPosting(nameEntries, words.join(" "), index);
      if (words.length > 1) for (const word of words) addPosting(nameWordEntries, word, index);
    }
    const areaWord = city.area ? fold(city.area).split(" ").pop()! : "";
    areaOf.push(areaWord ? { word: areaWord, stem: areaStem(areaWord) } : undefined);
  });
  const names = new TermIndex(nameEntries);
  const nameWords = new TermIndex(nameWordEntries);

  /** Cities a phrase (folded words joined by spaces) names: index → score. */
  function citiesByName(phrase: string, into: Map<number, number>): void {
    const add = (index: number, score: number) => {
      if (score > (into.get(index) ?? 0)) into.set(index, score);
    };
    const exact = names.lookup(phrase);
    if (exact !== undefined) for (const index of names.postingsOf(exact)) add(index, QUALITY.exact);
    if (phrase.length >= MIN_PREFIX) {
      // A start of a name, for type-ahead: equal starts rank by size ("Ки" → Київ first).
      for (const id of names.prefixed(phrase)) {
        for (const index of names.postingsOf(id)) add(index, 0.7 + 0.15 * sizeFactor[index]!);
      }
      const word = nameWords.lookup(phrase);
      if (word !== undefined) for (const index of nameWords.postingsOf(word)) add(index, QUALITY.cityWord);
      for (const id of nameWords.prefixed(phrase)) {
        for (const index of nameWords.postingsOf(id)) add(index, 0.6 + 0.1 * sizeFactor[index]!);
      }
    }
    if (exact === undefined) {
      for (const { id, distance } of names.near(phrase, typoAllowance(phrase.length))) {
        for (const index of names.postingsOf(id)) {
          add(index, QUALITY.exact - 0.15 * distance - 0.05 * (1 - sizeFactor[index]!));
        }
      }
    }
    // Nothing starts so: perhaps a start typed with a typo ("Хврк" for Харків).
    if (!into.size && phrase.length >= 4 && phrase.length < 200) {
      for (const id of names.nearPrefix(phrase, 1)) {
        for (const index of names.postingsOf(id)) add(index, 0.55 + 0.1 * sizeFactor[index]!);
      }
    }
  }

  /**
   * Whether a folded query word names the city's oblast, in any case and language: "Київська",
   * "Київської", "Kyivska", "Киевская" all have the stem "kiv"/"kev" before "sk", a letter from the
   * oblast's; the oblast named after its centre ("Kyiv oblast", "Cherkasy oblast", "Odesa region") starts
   * with the stem or is a letter from the adjective. A surname or a street that merely starts alike
   * ("Іваненко" and Івано-Франківська) has no such stem.
   */
  function isAreaWord(index: number, word: string): boolean {
    const area = areaOf[index];
    if (!area || word.length < 3) return false;
    const stem = areaStem(word);
    const allowance = area.stem.length >= 7 ? 2 : 1;
    if (stem.length >= 3 && editDistance(stem, area.stem, allowance) <= allowance) return true;
    if (area.stem.length >= 5 && word.startsWith(area.stem)) return true;
    return editDistance(word, area.word, 1) <= 1;
  }

  function searchCities(text: string, limit = DEFAULT_CITY_LIMIT): CityHit[] {
    const { words, regions } = queryTerms(text);
    if (!words.length || limit <= 0) return [];
    const scores = new Map<number, number>();
    citiesByName(words.join(" "), scores);
    // More words than the name: "Петрівка Київська", "Біла Церква Київська": the name is a part of them,
    // and the rest may name the oblast.
    if (words.length > 1) {
      for (let length = words.length - 1; length >= 1; length--) {
        for (let start = 0; start + length <= words.length; start++) {
          const found = new Map<number, number>();
          citiesByName(words.slice(start, start + length).join(" "), found);
          const rest = [...words.slice(0, start), ...words.slice(start + length)];
          for (const [index, score] of found) {
            const areaNamed = rest.some((word) => isAreaWord(index, word));
            // Words beyond the name that name nothing make the name less sure, never below 0.7 of it.
            const scaled = areaNamed ? score : score * (0.7 + 0.25 * (length / words.length));
            if (scaled > (scores.get(index) ?? 0)) scores.set(index, Math.min(1, scaled));
          }
        }
      }
    }
    // An oblast the text marks ("Калинове, Полтавська обл."): the cities of other oblasts drop behind.
    if (regions.length) {
      for (const [index, score] of scores) {
        if (!regions.some((region) => isAreaWord(index, region)))
          scores.set(index, score * QUALITY.otherArea);
      }
    }
    return [...scores]
      .sort(([a, scoreA], [b, scoreB]) => scoreB - scoreA || sizeFactor[b]! - sizeFactor[a]! || a - b)
      .slice(0, limit)
      .map(([index, score]) => ({ city: cities[index]!, score: round(score) }));
  }

  /**
   * The city the words of a branch query name ("Київ 12", "Біла Церква 5", "Odesa вул. Канатна"): the
   * longest run of words that is a whole city name; failing that, a word within a typo of one. Of
   * several cities with the name, those of the oblast the text names.
   */
  function cityInWords(words: readonly string[], regions: readonly string[]): CityScope | undefined {
    for (let length = Math.min(3, words.length); length >= 1; length--) {
      for (let start = 0; start + length <= words.length; start++) {
        const id = names.lookup(words.slice(start, start + length).join(" "));
        if (id === undefined) continue;
        const used = new Set<number>();
        for (let i = start; i < start + length; i++) used.add(i);
        const cities = new Map<number, number>();
        for (const index of names.postingsOf(id)) cities.set(index, QUALITY.exact);
        return narrowByArea({ cities, used, exact: true }, words, regions);
      }
    }
    for (let start = 0; start < words.length; start++) {
      const word = words[start]!;
      if (word.length < 5) continue;
      const near = names.near(word, 1);
      if (!near.length) continue;
      const cities = new Map<number, number>();
      for (const { id } of near)
        for (const index of names.postingsOf(id)) cities.set(index, QUALITY.fuzzyCity);
      return narrowByArea({ cities, used: new Set([start]), exact: false }, words, regions);
    }
    return undefined;
  }

  /**
   * Several cities share the name: an oblast the text marks keeps that oblast's ones, or else a word that
   * names one (and is then spent: "Петрівка Полтавська 3").
   */
  function narrowByArea(scope: CityScope, words: readonly string[], regions: readonly string[]): CityScope {
    if (scope.cities.size < 2) return scope;
    const keep = (inArea: number[]) =>
      new Map(inArea.map((index) => [index, scope.cities.get(index)!] as const));
    for (const region of regions) {
      const inArea = [...scope.cities.keys()].filter((index) => isAreaWord(index, region));
      if (inArea.length) return { ...scope, cities: keep(inArea) };
    }
    for (let i = 0; i < words.length; i++) {
      if (scope.used.has(i)) continue;
      const inArea = [...scope.cities.keys()].filter((index) => isAreaWord(index, words[i]!));
      if (!inArea.length || inArea.length === scope.cities.size) continue;
      return { cities: keep(inArea), used: new Set([...scope.used, i]), exact: scope.exact };
    }
    return scope;
  }

  return { searchCities, cityInWords };
}
