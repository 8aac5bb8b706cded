// The warehouse's carrier records (getWarehouses, getCities) as the app's CarrierBranch and CarrierCity, for
// `cli match-branch --warehouse-url`. A small stand-in: app/reference/records.ts (fromWarehouseRecords, on
// the reference store's branch) is the app's converter, and this one follows the same mapping, so the CLI
// can move to it once both are on main.
import type { BranchRecord, CityRecord } from "../warehouse/schemas";
import type { BranchKind, CarrierBranch, CarrierCity } from "./types";

/** "Postomat" is a parcel locker; "Branch" and the cargo categories a staffed branch; the rest a partner point. */
export function branchKindOf(category: string | undefined): BranchKind {
  if (category === "Postomat") return "postomat";
  if (category === "Branch" || (category !== undefined && /cargo/i.test(category))) return "branch";
  return "store";
}

export function cityFromWire(record: CityRecord): CarrierCity {
  return {
    ref: record.Ref,
    name: record.Description,
    nameRu: record.DescriptionRu || undefined,
    area: record.AreaDescription || undefined,
    kind: record.SettlementTypeDescription || undefined,
  };
}

export function branchFromWire(record: BranchRecord): CarrierBranch {
  const weight = Number(record.PlaceMaxWeightAllowed);
  return {
    ref: record.Ref,
    cityRef: record.CityRef,
    number: record.Number,
    kind: branchKindOf(record.CategoryOfWarehouse),
    description: record.Description,
    descriptionRu: record.DescriptionRu || undefined,
    shortAddress: record.ShortAddress || undefined,
    postcode: record.PostalCodeUA || undefined,
    maxWeightKg: Number.isFinite(weight) && weight > 0 ? weight : undefined,
    working: (record.WarehouseStatus ?? "Working") === "Working",
  };
}

/**
 * Cities and branches from the full branch list and the cities getCities described. A city only the
 * branches name (CityRef, CityDescription) is kept with its Ukrainian name alone; a described one wins.
 */
export function fromWire(
  cityRecords: readonly CityRecord[],
  branchRecords: readonly BranchRecord[],
): { cities: CarrierCity[]; branches: CarrierBranch[] } {
  const cities = new Map<string, CarrierCity>();
  for (const record of cityRecords) cities.set(record.Ref, cityFromWire(record));
  const branches = new Map<string, CarrierBranch>();
  for (const record of branchRecords) {
    if (branches.has(record.Ref)) continue;
    branches.set(record.Ref, branchFromWire(record));
    const name = record.CityDescription?.trim();
    if (name && !cities.has(record.CityRef)) cities.set(record.CityRef, { ref: record.CityRef, name });
  }
  return { cities: [...cities.values()], branches: [...branches.values()] };
}
