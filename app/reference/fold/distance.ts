// Edit distance for words already folded: how many typos apart two writings are, bounded so that the
// search's thousands of "within 1 or 2?" questions stop after a row or two, and how many a word may carry.

/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
 * swaps of neighbours) between two strings, or `max + 1` as soon as it must exceed `max`: the search asks
 * "within 1 or 2?" of thousands of words, and most answers are known after a row or two.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const bound = Math.min(max, Math.max(a.length, b.length));
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  let before = new Array<number>(width);
  let previous = new Array<number>(width);
  let current = new Array<number>(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ac = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bc = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ac === bc ? 0 : 1));
      if (i > 1 && j > 1 && ac === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bc) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  const distance = previous[b.length]!;
  return distance > bound ? bound + 1 : distance;
}

/** How many typos a word of this length may carry and still match: none under 4 letters, 2 from 8. */
export function typoAllowance(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}
