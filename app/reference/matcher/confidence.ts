// How sure a branch or a city match is: the fits a reading earns and the caps that keep a match below any
// threshold a shop may set (0.5 at the lowest) when the address cannot mean one branch. In one place, as
// every part of the matcher scores with them and they only make sense read against each other.

/** A city name several settlements share and nothing chooses between: never confident. */
export const AMBIGUOUS_CITY_CAP = 0.7;
/** The address names two branches, or one its settlement lacks, or another carrier: no choice at all. */
export const NO_CHOICE_CAP = 0.4;
/** An oblast, district or postcode that contradicts the city: the buyer may live elsewhere. */
export const CONTRADICTION_CAP = 0.45;
/** The one freight branch of the city, asked for without a number ("вантажне до 1100 кг"). */
export const FREIGHT_FIT = 0.9;
/** The one branch (of the kind asked for) inside the shop the text names ("поштомат в Сільпо"). */
export const HOST_FIT = 0.9;
/** A shop's name alone, with no word of the carrier's or of a kind of branch. */
export const SHOP_ALONE_FACTOR = 0.75;
/** A structured branch Ref the reference data has. */
export const STRUCTURED_REF_CONFIDENCE = 1;
/** A number read after a marker ("НП 12") or in a field about the carrier, found in the city. */
export const MARKED_NUMBER_FIT = 1;
/** A field that is nothing but a number ("12" in address2): probably the branch, less surely. */
export const BARE_NUMBER_FIT = 0.88;
/** The number exists, but as another kind than the text asked for ("поштомат 12" is a branch). */
export const KIND_MISMATCH_FACTOR = 0.85;
/** A street and house that exactly one branch of the city is at. */
export const STREET_HOUSE_FIT = 0.95;
/** The street without the house, or the house differs: the merchant should look. */
export const STREET_ONLY_FIT = 0.6;
/** The city has one branch and the order names none. */
export const ONLY_BRANCH_FIT = 0.6;

/** A score clamped to 0..1 and kept to three decimals, as matches show it. */
export function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 1000) / 1000;
}
