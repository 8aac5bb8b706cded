// Text folding for carrier names and addresses: one comparable skeleton for the Ukrainian, Russian and
// Latin writings of the same place, shared by the reference search and the address matcher. What callers
// use, from its parts: the letters and words (skeleton.ts, where the choices of letters are explained), the
// noise and kind words (noise.ts), a query taken apart (query.ts), and the bounded edit distance
// (distance.ts).
export { fold, tokens } from "./skeleton";
export { kindFromText, NOISE_WORDS, NUMBER_MARKER_WORDS } from "./noise";
export { leadingNumber, queryTerms, type QueryNumber, type QueryTerms } from "./query";
export { editDistance, typoAllowance } from "./distance";
