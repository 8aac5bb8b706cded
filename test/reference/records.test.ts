// The warehouse's carrier records made ours: kinds, closed branches, weights, cities named only by their
// branches, and malformed records skipped and counted rather than thrown.
import { describe, expect, it } from "vitest";
import { branchKind, fromWarehouseRecords, maxWeightKg } from "../../app/reference/records";
import { defaultReferenceData, KYIV_CITY_REF } from "../warehouse-sim/reference-data";

const KYIV = KYIV_CITY_REF;
const branch = (fields: Record<string, unknown>) => ({
  Ref: "b-1",
  Number: "1",
  Description: "Відділення №1: вул. Хрещатик, 22",
  CityRef: KYIV,
  CityDescription: "Київ",
  CategoryOfWarehouse: "Branch",
  ...fields,
});

describe("fromWarehouseRecords", () => {
  it("reads a branch's kind, state, weight limit and addresses", () => {
    const { branches, skipped } = fromWarehouseRecords(
      [],
      [
        branch({
          DescriptionRu: "Отделение №1: ул. Крещатик, 22",
          ShortAddress: "Київ, Хрещатик, 22",
          PostalCodeUA: "01001",
          PlaceMaxWeightAllowed: "30",
          WarehouseStatus: "Working",
        }),
        branch({ Ref: "b-2", Number: "3456", CategoryOfWarehouse: "Postomat", WarehouseStatus: "Closed" }),
        branch({ Ref: "b-3", Number: "7", CategoryOfWarehouse: "Store", PlaceMaxWeightAllowed: "0" }),
      ],
    );
    expect(skipped).toEqual({ cities: 0, branches: 0 });
    expect(branches).toEqual([
      {
        ref: "b-1",
        cityRef: KYIV,
        number: "1",
        kind: "branch",
        description: "Відділення №1: вул. Хрещатик, 22",
        descriptionRu: "Отделение №1: ул. Крещатик, 22",
        shortAddress: "Київ, Хрещатик, 22",
        postcode: "01001",
        maxWeightKg: 30,
        working: true,
      },
      expect.objectContaining({ ref: "b-2", kind: "postomat", working: false, maxWeightKg: undefined }),
      expect.objectContaining({ ref: "b-3", kind: "store", working: true, maxWeightKg: undefined }),
    ]);
  });

  it("takes a city named only by its branches, and a getCities record's details over a branch's bare name", () => {
    const { cities } = fromWarehouseRecords(
      [
        {
          Ref: "c-lviv",
          Description: "Львів",
          DescriptionRu: "Львов",
          AreaDescription: "Львівська",
          SettlementTypeDescription: "місто",
        },
      ],
      [
        branch({}),
        branch({ Ref: "b-2", CityRef: "c-lviv", CityDescription: "Львів (bare)" }),
        branch({ Ref: "b-3", CityRef: "c-nameless", CityDescription: undefined }),
      ],
    );
    expect(cities).toEqual([
      { ref: "c-lviv", name: "Львів", nameRu: "Львов", area: "Львівська", kind: "місто" },
      { ref: KYIV, name: "Київ" },
    ]);
  });

  it("skips and counts malformed records and repeated Refs, keeping the rest", () => {
    const { cities, branches, skipped } = fromWarehouseRecords(
      [
        { Ref: 12 },
        null,
        { Ref: "c-1", Description: " " },
        { Ref: "c-2", Description: "Ірпінь" },
        { Ref: "c-2", Description: "Ірпінь" },
      ],
      [
        branch({}),
        branch({ Number: 5 }),
        "garbage",
        branch({ Ref: "" }),
        branch({}),
        branch({ Ref: "b-9", Description: "" }),
      ],
    );
    expect(skipped).toEqual({ cities: 4, branches: 5 });
    expect(branches.map((b) => b.ref)).toEqual(["b-1"]);
    expect(cities.map((c) => c.ref)).toEqual(["c-2", KYIV]);
  });

  it("reads the simulator's whole list: every branch, every city its branches name", () => {
    const data = defaultReferenceData();
    const { cities, branches, skipped } = fromWarehouseRecords([], data.branches);
    expect(skipped.branches).toBe(0);
    expect(branches).toHaveLength(data.branches.length);
    expect(new Set(cities.map((c) => c.ref))).toEqual(new Set(data.branches.map((b) => b.CityRef)));
    expect(new Set(branches.map((b) => b.kind))).toEqual(new Set(["branch", "postomat", "store"]));
  });
});

describe("branchKind and maxWeightKg", () => {
  it("names cargo branches staffed branches and anything unknown a store", () => {
    expect(branchKind("Postomat")).toBe("postomat");
    expect(branchKind("Branch")).toBe("branch");
    expect(branchKind("CargoBranch")).toBe("branch");
    expect(branchKind("DropOff")).toBe("store");
    expect(branchKind(undefined)).toBe("store");
  });

  it("reads whole kilograms and leaves 0, absent and garbage unknown", () => {
    expect(maxWeightKg("1000")).toBe(1000);
    expect(maxWeightKg(" 30,5 ")).toBe(31);
    expect(maxWeightKg("0")).toBeUndefined();
    expect(maxWeightKg(undefined)).toBeUndefined();
    expect(maxWeightKg("без обмежень")).toBeUndefined();
    expect(maxWeightKg("-5")).toBeUndefined();
  });
});
