// A Shopify order → the warehouse's AddOrder `order` object. Pure: no I/O, no clock; the same order,
// settings and overrides always give the same result. Anything the merchant must fix becomes a hold
// reason (all of them at once, so one visit fixes the order); merchant data never makes this throw.
// Cut along its seams (recipient, payment, delivery, products), put together by map-order.ts; callers
// import this folder, never its parts.
export {
  type BranchMatcher,
  type CityMatcher,
  type FixAction,
  type FoundBranch,
  type FoundCity,
  type HoldCode,
  type HoldReason,
  type MappingResult,
} from "./shared";
export { idOrderFor, mapOrder, ruleChoices, type MappingInput } from "./map-order";
export { COMMENT_MAX_LENGTH } from "./recipient";
export { SPLIT_COD_CHOICES, type SplitCodChoice } from "./payment";
export { NP_CITY_REF_ATTRIBUTE, NP_WAREHOUSE_LABEL_ATTRIBUTE, NP_WAREHOUSE_REF_ATTRIBUTE } from "./delivery";
export { unitsBySku } from "./products";
