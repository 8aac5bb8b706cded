// Branch text: the words worth finding a branch by (its address, title and postcode, not its own number or
// its weight limit), and the order branches are kept in within their city.
import { queryTerms } from "../fold";
import type { CarrierBranch } from "../types";

/** "(до 30 кг)", "(до 1000 кг на одне місце)": weight limits, in every description, say nothing of place. */
const WEIGHT_NOTE = /\([^)]*(кг|kg)[^)]*\)/giu;

export type TextTerms = ReturnType<typeof queryTerms>;

/**
 * The folded address and name words of a branch and its postcode; not its own number, noise or weight
 * notes. A description is a title and an address ("Відділення №12 (до 30 кг): вул. Хрещатик, 22"); the
 * titles repeat across cities and are read once each (`titles`), the address every time. The short
 * address repeats the description's and is read only for a description without one.
 */
export function branchTerms(branch: CarrierBranch, titles: Map<string, TextTerms>): Set<string> {
  const terms = new Set<string>();
  const add = ({ words, numbers }: TextTerms) => {
    for (const word of words) terms.add(word);
    for (const number of numbers) {
      // "№12" is the branch's number, indexed apart; other numbers are houses.
      if (number.marked && number.value === branch.number) continue;
      terms.add(number.value);
    }
  };
  let addressed = false;
  for (const text of [branch.description, branch.descriptionRu]) {
    if (!text) continue;
    const colon = text.indexOf(": ");
    const title = colon < 0 ? text : text.slice(0, colon);
    let titleTerms = titles.get(title);
    if (!titleTerms) {
      titleTerms = queryTerms(title.replace(WEIGHT_NOTE, " "));
      titles.set(title, titleTerms);
    }
    add(titleTerms);
    if (colon >= 0) {
      add(queryTerms(text.slice(colon + 2).replace(WEIGHT_NOTE, " ")));
      addressed = true;
    }
  }
  if (!addressed && branch.shortAddress) add(queryTerms(branch.shortAddress));
  // A buyer may know the branch by its postcode ("01001"); five digits, so no house number is taken for it.
  if (branch.postcode) terms.add(branch.postcode);
  return terms;
}
export function numberOrder(a: CarrierBranch, b: CarrierBranch): number {
  const byValue = Number.parseInt(a.number, 10) - Number.parseInt(b.number, 10);
  if (byValue) return byValue;
  return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
}
