// The one set of rules for how an order moves: given the row as read and what happened (a Shopify
// webhook, a merchant's action, the warehouse's answer), the columns to change and the timeline events.
// Pure: callers read the row, apply the patch conditionally on the version they read, and re-read on a clash.
// Cut along its seams (intake, submission, in doubt, after the warehouse, routing), entered by transition.ts;
// callers import this folder, never its parts.
export {
  MAX_ATTEMPTS,
  isRefusal,
  type BookedReturn,
  type Failure,
  type OrderFacts,
  type OrderInput,
  type OrderPatch,
  type Refusal,
  type ShopifyTold,
  type StatusReport,
  type TimelineEntry,
  type Transition,
} from "./shared";
export { transition } from "./transition";
export { created, holdTextsOf, mappingColumnsOf } from "./intake";
export { foundAtWarehouse, lookUpFailed, notFoundAtWarehouse } from "./in-doubt";
export { unshippedList } from "./after-warehouse";
