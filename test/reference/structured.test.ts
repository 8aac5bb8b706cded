// Reading another checkout app's carrier data from the note and note attributes: what it finds, whatever
// the key names, and that hostile JSON (huge, deep, __proto__, wrong types) neither throws nor pollutes.
import { describe, expect, it } from "vitest";
import { MAX_FIELD_CHARS, jsonIn, readStructuredHints, type RefLookup } from "../../app/reference/structured";
import type { CarrierBranch, CarrierCity } from "../../app/reference/types";

const CITY_REF = "8d5a980d-391c-11dd-90d9-001a92567626";
const BRANCH_REF = "1a6bccd2-ac62-1132-b521-000c2937acb4";
const UNKNOWN_REF = "0badc0de-0000-1000-8000-000000000000";

const kyiv: CarrierCity = { ref: CITY_REF, name: "Київ", nameRu: "Киев", area: "Київська" };
const branchOne: CarrierBranch = {
  ref: BRANCH_REF,
  cityRef: CITY_REF,
  number: "1",
  kind: "branch",
  description: "Відділення №1 (до 1000 кг): вул. Одеська, 48",
  working: true,
};
const lookup: RefLookup = {
  city: (ref) => (ref === CITY_REF ? kyiv : undefined),
  branch: (ref) => (ref === BRANCH_REF ? branchOne : undefined),
};

function read(note: string | null, attributes: { name: string; value: string | null }[] = []) {
  return readStructuredHints({ note, note_attributes: attributes }, lookup);
}

describe("readStructuredHints", () => {
  it("reads the carrier's own objects in the note: the Refs classified by the data, the number", () => {
    const [hints, ...rest] = read(
      JSON.stringify({
        np: { city: { Ref: CITY_REF, Description: "Київ" }, warehouse: { Ref: BRANCH_REF, Number: "12" } },
      }),
    );
    expect(rest).toEqual([]);
    expect(hints).toMatchObject({
      field: "note",
      branchRefs: [BRANCH_REF],
      cityRefs: [CITY_REF],
      cityNames: ["Київ"],
      branchNumbers: ["12"],
    });
  });

  it("classifies a Ref by the reference data, not by its key, and drops Refs the data lacks", () => {
    const [hints] = read(null, [
      {
        name: "np",
        value: JSON.stringify({ cityRef: BRANCH_REF, warehouseRef: CITY_REF, other: UNKNOWN_REF }),
      },
    ]);
    expect(hints!.branchRefs).toEqual([BRANCH_REF]);
    expect(hints!.cityRefs).toEqual([CITY_REF]);
    expect(JSON.stringify(hints)).not.toContain(UNKNOWN_REF);
  });

  it("reads camelCase and snake_case keys, numbers as JSON numbers, and courier addresses", () => {
    const [first, second] = read(null, [
      { name: "delivery", value: JSON.stringify({ settlementRef: CITY_REF, warehouse_number: 12 }) },
      {
        name: "courier",
        value: JSON.stringify({
          delivery: { cityRef: CITY_REF, street: "Хрещатик", house: "22", flat: "5" },
        }),
      },
    ]);
    expect(first).toMatchObject({ field: "delivery", cityRefs: [CITY_REF], branchNumbers: ["12"] });
    expect(second).toMatchObject({
      field: "courier",
      cityRefs: [CITY_REF],
      streets: ["Хрещатик"],
      houses: ["22"],
      flats: ["5"],
      branchNumbers: [],
    });
  });

  it("finds JSON embedded in text, and reads plain attributes under their names", () => {
    const [attribute, note] = read('Дані доставки: {"city":"Дніпро","warehouse":"Відділення №37"} дякую', [
      { name: "Поштомат", value: "3456" },
    ]);
    expect(attribute).toMatchObject({ field: "Поштомат", branchNumbers: ["3456"], kind: "postomat" });
    expect(note).toMatchObject({ field: "note", cityNames: ["Дніпро"], branchTexts: ["Відділення №37"] });
  });

  it("says nothing for text without carrier data, and for values that are not strings", () => {
    expect(read("Подзвоніть, будь ласка, перед доставкою")).toEqual([]);
    expect(
      read(null, [
        { name: "gift", value: null },
        { name: "colour", value: "red" },
      ]),
    ).toEqual([]);
    expect(read("[1, 2, 3]")).toEqual([]);
    expect(
      readStructuredHints({ note: 42, note_attributes: [null, 7, { name: 1, value: 2 }] } as never, lookup),
    ).toEqual([]);
    expect(readStructuredHints({ note: undefined, note_attributes: "x" } as never, lookup)).toEqual([]);
  });

  it("neither pollutes prototypes nor reads the __proto__, constructor or prototype keys", () => {
    const hostile = `{"__proto__":{"polluted":"yes","warehouseRef":"${BRANCH_REF}"},"constructor":{"prototype":{"polluted":"yes"}},"city":"Київ"}`;
    const [hints] = read(hostile, [{ name: "np", value: hostile }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(hints!.branchRefs).toEqual([]);
    expect(hints!.cityNames).toEqual(["Київ"]);
  });

  it("does not read a field over the size bound, and stops walking deep or wide data", () => {
    const huge = JSON.stringify({ warehouse: { Ref: BRANCH_REF }, pad: "x".repeat(MAX_FIELD_CHARS) });
    expect(read(huge)).toEqual([]);

    // Deep nesting within the size bound: parsed, but the walk stops long before the Ref, and nothing throws.
    const deep = `${"[".repeat(4000)}{"warehouseRef":"${BRANCH_REF}"}${"]".repeat(4000)}`;
    expect(deep.length).toBeLessThan(MAX_FIELD_CHARS);
    expect(read(deep)).toEqual([]);
    expect(read(`текст ${deep}`)).toEqual([]);
    const shallow = `${'{"a":'.repeat(3)}"${BRANCH_REF}"${"}".repeat(3)}`;
    expect(read(shallow)[0]!.branchRefs).toEqual([BRANCH_REF]);

    // Wide: a Ref after thousands of values is past the node budget.
    const wide = JSON.stringify([...Array.from({ length: 3000 }, (_, i) => i), { warehouseRef: BRANCH_REF }]);
    expect(wide.length).toBeLessThan(MAX_FIELD_CHARS);
    expect(read(wide)).toEqual([]);
  });

  it("survives broken JSON, unbalanced brackets and brackets inside strings", () => {
    expect(read('{"warehouse": {"Number": "12"')).toEqual([]);
    expect(read("}}}]]] {{{ [[[")).toEqual([]);
    const [hints] = read(`Примітка: {"note":"a } inside", "warehouseNumber":"7"} і ще {"bad": }`);
    expect(hints!.branchNumbers).toEqual(["7"]);
  });
});

describe("jsonIn", () => {
  it("finds several documents in one text, and none in plain text", () => {
    expect(jsonIn('a {"x":1} b [2,3] c {"y":')).toEqual([{ x: 1 }, [2, 3]]);
    expect(jsonIn("відділення 12")).toEqual([]);
    expect(jsonIn("")).toEqual([]);
  });
});
