// The simulator's carrier directory as the app keeps it (CarrierCity, CarrierBranch), for the search's
// tests and benchmark. The app's own converter is app/reference/records.ts; this one follows the same
// mapping: kind from CategoryOfWarehouse, working from WarehouseStatus, no weight limit for 0 or none.
import type { BranchRecord, CityRecord } from "../../app/warehouse/schemas";
import type { BranchKind, CarrierBranch, CarrierCity } from "../../app/reference/types";
import { buildReferenceData, defaultReferenceData } from "../warehouse-sim/reference-data";

export interface SimulatorReference {
  cities: CarrierCity[];
  branches: CarrierBranch[];
}

export function cityFromRecord(record: CityRecord): CarrierCity {
  return {
    ref: record.Ref,
    name: record.Description,
    nameRu: record.DescriptionRu || undefined,
    area: record.AreaDescription || undefined,
    kind: record.SettlementTypeDescription || undefined,
  };
}

/** "Postomat" is a parcel locker; "Branch" and cargo-like categories a staffed branch; anything else a partner point. */
export function branchKind(category: string | undefined): BranchKind {
  if (category === "Postomat") return "postomat";
  if (category === "Branch" || (category !== undefined && /cargo/i.test(category))) return "branch";
  return "store";
}

export function branchFromRecord(record: BranchRecord): CarrierBranch {
  const weight = Number(record.PlaceMaxWeightAllowed);
  return {
    ref: record.Ref,
    cityRef: record.CityRef,
    number: record.Number,
    kind: branchKind(record.CategoryOfWarehouse),
    description: record.Description,
    descriptionRu: record.DescriptionRu || undefined,
    shortAddress: record.ShortAddress || undefined,
    postcode: record.PostalCodeUA || undefined,
    maxWeightKg: Number.isFinite(weight) && weight > 0 ? weight : undefined,
    working: record.WarehouseStatus === "Working",
  };
}

/** The default directory (792 cities, 22,302 branches), or the one built for `seed`. */
export function simulatorReferenceData(seed?: number): SimulatorReference {
  const data = seed === undefined ? defaultReferenceData() : buildReferenceData({ seed });
  return { cities: data.cities.map(cityFromRecord), branches: data.branches.map(branchFromRecord) };
}
