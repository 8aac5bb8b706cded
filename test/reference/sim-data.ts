// The simulator's carrier directory as the app keeps it (CarrierCity, CarrierBranch), read through the app's
// own converter (app/reference/records.ts), for the search's and the matcher's tests.
import { fromWarehouseRecords } from "../../app/reference/records";
import type { CarrierBranch, CarrierCity } from "../../app/reference/types";
import { buildReferenceData, defaultReferenceData } from "../warehouse-sim/reference-data";

export interface SimulatorReference {
  cities: CarrierCity[];
  branches: CarrierBranch[];
}

/** The default directory (795 cities, 22,314 branches), or the one built for `seed`. */
export function simulatorReferenceData(seed?: number): SimulatorReference {
  const data = seed === undefined ? defaultReferenceData() : buildReferenceData({ seed });
  const { cities, branches, skipped } = fromWarehouseRecords(data.cities, data.branches);
  if (skipped.cities || skipped.branches) throw new Error(`the simulator's directory has unreadable records`);
  return { cities, branches };
}
