// The warehouse's carrier records (getWarehouses, getCities: Nova Poshta's, passed through) made ours
// (app/reference/types.ts). Each record is parsed on its own: one malformed record among 50,000 is skipped
// and counted, never the reason the rest go unstored.
import { z } from "zod";
import {
  branchRecordSchema,
  cityRecordSchema,
  type BranchRecord,
  type CityRecord,
} from "../warehouse/schemas";
import type { BranchKind, CarrierBranch, CarrierCity } from "./types";

export interface ReferenceRecords {
  cities: CarrierCity[];
  branches: CarrierBranch[];
  /** Records left out: unreadable, without a Ref, or repeating a Ref already taken. */
  skipped: { cities: number; branches: number };
}

/**
 * The set's cities and branches from the warehouse's records. A city named only by its branches (CityRef and
 * CityDescription) is a city too, with no Russian name, region or kind until getCities describes it; a city
 * record's details win over a branch's bare name. Branches keep their list's order; the first of a repeated
 * Ref stands.
 */
export function fromWarehouseRecords(
  cities: readonly (CityRecord | unknown)[],
  branches: readonly (BranchRecord | unknown)[],
): ReferenceRecords {
  const skipped = { cities: 0, branches: 0 };
  const cityByRef = new Map<string, CarrierCity>();
  for (const raw of cities) {
    const city = cityOf(raw);
    if (!city || cityByRef.has(city.ref)) skipped.cities++;
    else cityByRef.set(city.ref, city);
  }
  const branchByRef = new Map<string, CarrierBranch>();
  for (const raw of branches) {
    const parsed = branchRecordSchema.safeParse(raw);
    const branch = parsed.success ? branchOf(parsed.data) : null;
    if (!branch || branchByRef.has(branch.ref)) {
      skipped.branches++;
      continue;
    }
    branchByRef.set(branch.ref, branch);
    const cityName = parsed.data!.CityDescription?.trim();
    if (cityName && !cityByRef.has(branch.cityRef))
      cityByRef.set(branch.cityRef, { ref: branch.cityRef, name: cityName });
  }
  return { cities: [...cityByRef.values()], branches: [...branchByRef.values()], skipped };
}

/** A getCities record as our city; null when it cannot be read or names no city. */
export function cityOf(raw: unknown): CarrierCity | null {
  const parsed = cityRecordSchema.safeParse(raw);
  if (!parsed.success) return null;
  const record = parsed.data;
  const ref = record.Ref.trim();
  const name = record.Description.trim();
  if (!ref || !name) return null;
  return {
    ref,
    name,
    nameRu: present(record.DescriptionRu),
    area: present(record.AreaDescription),
    kind: present(record.SettlementTypeDescription),
  };
}

function branchOf(record: BranchRecord): CarrierBranch | null {
  const ref = record.Ref.trim();
  const cityRef = record.CityRef.trim();
  const description = record.Description.trim();
  if (!ref || !cityRef || !description) return null;
  return {
    ref,
    cityRef,
    number: record.Number.trim(),
    kind: branchKind(record.CategoryOfWarehouse),
    description,
    descriptionRu: present(record.DescriptionRu),
    shortAddress: present(record.ShortAddress),
    postcode: present(record.PostalCodeUA),
    maxWeightKg: maxWeightKg(record.PlaceMaxWeightAllowed),
    // Absent: the list gives no reason to think it closed.
    working: record.WarehouseStatus === undefined || record.WarehouseStatus.trim() === "Working",
  };
}

/** CategoryOfWarehouse: "Postomat" a parcel locker; "Branch" and the cargo branches staffed; else a store. */
export function branchKind(category: string | undefined): BranchKind {
  const text = (category ?? "").trim().toLowerCase();
  if (text === "postomat") return "postomat";
  if (text === "branch" || text.includes("cargo")) return "branch";
  return "store";
}

const weight = z.coerce.number().finite().positive();

/** PlaceMaxWeightAllowed in whole kilograms; "0" (no limit stated), absent or unreadable: none. */
export function maxWeightKg(text: string | undefined): number | undefined {
  if (text === undefined || !text.trim()) return undefined;
  const parsed = weight.safeParse(text.trim().replace(",", "."));
  if (!parsed.success) return undefined;
  const kg = Math.round(parsed.data);
  return kg > 0 && kg <= 2_147_483_647 ? kg : undefined;
}

function present(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}
