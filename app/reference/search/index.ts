// The in-memory search over one set of carrier reference data (cities, branches, parcel lockers), built once
// per version of the set and answered synchronously from indexes: build.ts says how, and assembles it from
// its parts. Callers build it here and read it through the ReferenceSearch interface (../types.ts).
export { buildReferenceSearch } from "./build";
