// Carrier reference data as our database keeps it, and the in-memory search each process builds from it:
// what callers use, from its parts under app/reference/store/. The set, one for the deployment, saved whole
// and read back (sets.server.ts, which says how a replaced set never shows a reader half of one); the
// Settings page's card (card.server.ts); the per-process search and its one builder (searches.server.ts);
// the streets a courier order asks for, kept a week (streets.server.ts). This file stays where callers
// import it, under a name that keeps the whole of it out of the browser's bundle.
export {
  describeCities,
  loadReferenceData,
  recordReferenceProblem,
  referenceSetStatus,
  saveReferenceSet,
  type ReferenceData,
  type SavedReferenceSet,
} from "./store/sets.server";
export { referenceCard, type ReferenceCard } from "./store/card.server";
export {
  forgetReferenceSearches,
  referenceSearchFor,
  referenceSearchForSource,
  referenceSearchStateFor,
  referenceSearchStateForSource,
  referenceSearchStats,
  setReferenceSearchBudget,
  type SearchOptions,
  type SearchState,
} from "./store/searches.server";
export { STREETS_KEPT_MS, streetsFor, type StreetLookup } from "./store/streets.server";
