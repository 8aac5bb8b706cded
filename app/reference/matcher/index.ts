// The address matcher: which Nova Poshta branch (or parcel locker) an order without a chosen one goes to,
// and how sure that is. Pure and synchronous: the order and an in-memory ReferenceSearch in, a BranchMatch
// out; odd input gives a match with nothing in it, never an exception. What callers use, from its parts:
// match-branch.ts and match-city.ts (courier orders), which read the order's fields (reading.ts) and its
// settlements (cities.ts), the branches they name (branches.ts, branch-address.ts), and score them with the
// fits and caps of confidence.ts.
//
// In order of trust:
// 1. Structured data another checkout app left in the note or note attributes (app/reference/structured.ts):
//    a branch Ref the reference data has is certain (1); a city (by Ref, or by name) and a number next.
// 2. The shipping address: the city (with the region, when given, to tell apart villages sharing a name),
//    then the branch from address1, address2, company and note: a number after a marker ("НП 12",
//    "відділення 12", "поштомат 3456", "#12"), or a street and house the city has a branch at.
//
// The confidence is the product of how sure the city is and how well the branch fits it. A branch is
// used only when the address cannot mean another, so some things cap it below any threshold a shop may set
// (0.5 at the lowest), whatever else fits: two branch numbers ("5 або 12", or one per field), a number the
// settlement does not have, another carrier named, several branches fitting a shop or freight branch
// asked for (NO_CHOICE_CAP); an oblast, district or postcode that contradicts the city
// (CONTRADICTION_CAP). A city name several settlements share, with nothing to choose between them, caps it
// below the default threshold whatever the number: the number may exist in more than one of them, and
// the buyer may live in any, even one without a branch (naming the branch of a town nearby).
// What buyers type is made readable first (app/reference/writing.ts): look-alike Latin letters, glued and
// misspelt carrier words, weight notes, alternatives.
export { matchBranch } from "./match-branch";
export { cityLabel, matchCity, streetOf } from "./match-city";
export { foldHouse } from "./reading";
/** The shop's threshold by default; why 0.8: see app/orders/settings.ts. */
export { DEFAULT_BRANCH_MATCH_THRESHOLD } from "../../orders/settings";
