// The simulator's carrier directory: big enough, realistic in shape, searchable, and the same for a seed
// whatever order it is asked in.
import { describe, it, expect } from "vitest";
import {
  branchRecordSchema,
  cityRecordSchema,
  streetRecordSchema,
  type CityRecord,
} from "../../app/warehouse/schemas";
import { CARRIER_REF_PATTERN } from "./spec-literals";
import {
  buildReferenceData,
  defaultReferenceData,
  KYIV_CITY_REF,
  type ReferenceData,
} from "./reference-data";

const data = defaultReferenceData();

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function city(name: string, area?: string): CityRecord {
  const found = data.cities.find((c) => c.Description === name && (!area || c.AreaDescription === area));
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

/** Everything a build produces once fully read, streets included, for comparing builds. */
function snapshot(reference: ReferenceData, cityRefs: readonly string[]) {
  return {
    cities: reference.cities,
    branches: reference.branches.filter((_, i) => i % 97 === 0),
    total: reference.branches.length,
    streets: cityRefs.map((ref) => reference.streets(ref)),
  };
}

describe("size and shape", () => {
  it("has at least 500 cities and 20,000 branches and lockers, in every category", () => {
    expect(data.cities.length).toBeGreaterThanOrEqual(500);
    expect(data.branches.length).toBeGreaterThanOrEqual(20_000);
    const categories = new Map<string, number>();
    for (const branch of data.branches) {
      categories.set(
        branch.CategoryOfWarehouse ?? "",
        (categories.get(branch.CategoryOfWarehouse ?? "") ?? 0) + 1,
      );
    }
    expect([...categories.keys()].sort()).toEqual(["Branch", "Postomat", "Store"]);
    expect(categories.get("Postomat")).toBeGreaterThan(5_000);
    expect(categories.get("Branch")).toBeGreaterThan(5_000);
  });

  it("spreads cities over the 24 oblasts, real cities in their real oblasts first", () => {
    const oblasts = new Set(data.cities.map((c) => c.AreaDescription));
    expect(oblasts.size).toBe(24);
    const real: [string, string, string][] = [
      ["Київ", "Киев", "Київська"],
      ["Харків", "Харьков", "Харківська"],
      ["Одеса", "Одесса", "Одеська"],
      ["Дніпро", "Днепр", "Дніпропетровська"],
      ["Львів", "Львов", "Львівська"],
      ["Біла Церква", "Белая Церковь", "Київська"],
      ["Кривий Ріг", "Кривой Рог", "Дніпропетровська"],
      ["Кам'янець-Подільський", "Каменец-Подольский", "Хмельницька"],
      ["Мукачево", "Мукачево", "Закарпатська"],
      ["Рівне", "Ровно", "Рівненська"],
    ];
    for (const [uk, ru, area] of real) {
      expect(city(uk)).toMatchObject({
        DescriptionRu: ru,
        AreaDescription: area,
        SettlementTypeDescription: "місто",
      });
    }
    expect(data.cities[0]?.Ref).toBe(KYIV_CITY_REF);
  });

  it("keeps names unique within an oblast, while a name may recur in another oblast", () => {
    const keys = data.cities.map((c) => `${c.Description}|${c.AreaDescription}`);
    expect(new Set(keys).size).toBe(keys.length);
    const byName = groupBy(data.cities, (c) => c.Description);
    expect([...byName.values()].some((group) => group.length > 1)).toBe(true);
  });

  it("passes the app's own schemas for carrier records", () => {
    for (const c of data.cities) expect(cityRecordSchema.parse(c)).toEqual(c);
    for (const b of data.branches.filter((_, i) => i % 41 === 0))
      expect(branchRecordSchema.parse(b)).toEqual(b);
    for (const s of data.streets(KYIV_CITY_REF)) expect(streetRecordSchema.parse(s)).toEqual(s);
  });

  it("gives every city a Russian name, an oblast, a settlement type and a numeric CityID", () => {
    const ids = new Set<string>();
    for (const c of data.cities) {
      expect(c.DescriptionRu).toMatch(/^[А-ЯЁа-яё' -]+$/);
      expect(c.SettlementTypeDescription).toMatch(/^(місто|село|селище міського типу)$/);
      expect(c.CityID).toMatch(/^\d+$/);
      ids.add(c.CityID ?? "");
    }
    expect(ids.size).toBe(data.cities.length);
  });
});

describe("Refs", () => {
  it("are lowercase 36-character uuids and never repeat", () => {
    const streetCities = data.cities.slice(0, 60).map((c) => c.Ref);
    const refs = [
      ...data.cities.map((c) => c.Ref),
      ...data.branches.map((b) => b.Ref),
      ...streetCities.flatMap((ref) => data.streets(ref).map((s) => s.Ref)),
    ];
    expect(refs.filter((ref) => !CARRIER_REF_PATTERN.test(ref))).toEqual([]);
    expect(new Set(refs).size).toBe(refs.length);
    const typeRefs = [
      ...data.cities.flatMap((c) => [c.Area, c.SettlementType]),
      ...data.branches.map((b) => b.TypeOfWarehouse),
    ];
    for (const ref of new Set(typeRefs)) expect(ref).toMatch(CARRIER_REF_PATTERN);
    expect(new Set(data.cities.map((c) => c.Area)).size).toBe(24);
  });

  it("round-trip through cityByRef and branchByRef", () => {
    for (const c of data.cities) expect(data.cityByRef(c.Ref)).toBe(c);
    data.branches.forEach((branch, i) => {
      if (i % 101 === 0) expect(data.branchByRef(branch.Ref)).toBe(branch);
    });
    const last = data.branchesInCity(KYIV_CITY_REF).at(-1);
    expect(last && data.branchByRef(last.Ref)).toBe(last);
  });

  it("find nothing for unknown, altered or misplaced Refs", () => {
    const branch = data.branchesInCity(city("Львів").Ref)[7];
    if (!branch) throw new Error("Lviv has too few branches");
    const altered = branch.Ref.slice(0, -1) + (branch.Ref.endsWith("0") ? "1" : "0");
    expect(data.branchByRef(altered)).toBeUndefined();
    expect(data.branchByRef(KYIV_CITY_REF)).toBeUndefined();
    expect(data.branchByRef("00000000-0000-0000-0000-000000000000")).toBeUndefined();
    expect(data.branchByRef("not a ref")).toBeUndefined();
    expect(data.cityByRef(branch.Ref)).toBeUndefined();
    expect(data.branchesInCity(branch.Ref)).toEqual([]);
  });
});

describe("determinism", () => {
  it("gives the same data for the same seed, whatever is asked for first", () => {
    const lviv = city("Львів").Ref;
    const village = data.cities.find((c) => c.IsBranch === "0")?.Ref ?? "";
    const first = buildReferenceData({ seed: 7 });
    const second = buildReferenceData({ seed: 7 });
    // One build materializes a city's streets and branches before the rest; the other reads everything first.
    const early = { streets: first.streets(lviv), branches: first.branchesInCity(lviv) };
    const late = snapshot(second, [KYIV_CITY_REF, lviv, village]);
    expect(snapshot(first, [KYIV_CITY_REF, lviv, village])).toEqual(late);
    expect(early).toEqual({ streets: second.streets(lviv), branches: second.branchesInCity(lviv) });
    expect(first.findCities("нов", 30)).toEqual(second.findCities("нов", 30));
  });

  it("gives different data for another seed, with Kyiv's Ref fixed", () => {
    const one = buildReferenceData({ seed: 1 });
    const two = buildReferenceData({ seed: 2 });
    expect(two.cities[0]?.Ref).toBe(KYIV_CITY_REF);
    expect(one.cities[1]?.Ref).not.toBe(two.cities[1]?.Ref);
    expect(one.branchesInCity(KYIV_CITY_REF)[0]?.Ref).not.toBe(two.branchesInCity(KYIV_CITY_REF)[0]?.Ref);
    expect(one.cities.map((c) => c.Description)).not.toEqual(two.cities.map((c) => c.Description));
  });

  it("caches the default build", () => {
    expect(defaultReferenceData()).toBe(data);
    expect(Object.isFrozen(data.cities)).toBe(true);
    expect(Object.isFrozen(data.branches[0])).toBe(true);
  });
});

describe("Kyiv", () => {
  it("has its real Ref and names", () => {
    expect(data.cityByRef(KYIV_CITY_REF)).toMatchObject({
      Description: "Київ",
      DescriptionRu: "Киев",
      AreaDescription: "Київська",
      IsBranch: "1",
    });
  });

  it("has hundreds of branches and lockers numbered 1..n without gaps", () => {
    const branches = data.branchesInCity(KYIV_CITY_REF);
    expect(branches.length).toBeGreaterThan(500);
    expect(branches.map((b) => b.Number)).toEqual(branches.map((_, i) => String(i + 1)));
    expect(branches.filter((b) => b.CategoryOfWarehouse === "Branch").length).toBeGreaterThan(300);
    expect(branches.filter((b) => b.CategoryOfWarehouse === "Postomat").length).toBeGreaterThan(300);
    expect(branches.every((b) => b.CityRef === KYIV_CITY_REF && b.CityDescription === "Київ")).toBe(true);
    expect(branches.every((b) => /^0[1-4]\d{3}$/.test(b.PostalCodeUA ?? ""))).toBe(true);
  });

  it("returns a copy, so callers cannot reorder the city's list", () => {
    const branches = data.branchesInCity(KYIV_CITY_REF);
    branches.reverse();
    expect(data.branchesInCity(KYIV_CITY_REF)[0]?.Number).toBe("1");
  });
});

describe("findCities", () => {
  const isPrefix = (c: CityRecord, query: string) =>
    c.Description.toLowerCase().startsWith(query) || (c.DescriptionRu ?? "").toLowerCase().startsWith(query);

  it("finds Kyiv first by its Ukrainian name, its Russian name, any case, and a two-letter prefix", () => {
    for (const query of ["київ", "Киев", "КИЇВ", "ки", "Ки"]) {
      expect(data.findCities(query)[0]?.Ref, query).toBe(KYIV_CITY_REF);
    }
    expect(data.findCities("ки").length).toBeGreaterThan(5);
  });

  it("ranks prefix matches before substring matches, bigger cities first within each", () => {
    for (const query of ["ів", "ка", "город", "нов"]) {
      const found = data.findCities(query);
      const prefixes = found.filter((c) => isPrefix(c, query));
      const inside = found.filter((c) => !isPrefix(c, query));
      expect(prefixes.length, query).toBeGreaterThan(0);
      expect(inside.length, query).toBeGreaterThan(0);
      expect(found).toEqual([...prefixes, ...inside]);
      for (const group of [prefixes, inside]) {
        const sizes = group.map((c) => data.branchesInCity(c.Ref).length);
        expect(sizes).toEqual(sizes.toSorted((a, b) => b - a));
      }
    }
    // Ужгород is far bigger than any village called Городок or Городище, yet only contains "город".
    const gorod = data.findCities("город").map((c) => c.Description);
    expect(gorod.indexOf("Ужгород")).toBeGreaterThan(0);
    expect(isPrefix(data.findCities("город")[0] as CityRecord, "город")).toBe(true);
  });

  it("matches Russian names inside too, tolerates typographic apostrophes, and honours the limit", () => {
    expect(data.findCities("церковь").map((c) => c.Description)).toContain("Біла Церква");
    // Вільнянськ starts with "вол" only in Russian (Вольнянск); Нововолинськ is bigger but only contains it.
    const vol = data.findCities("вол").map((c) => c.Description);
    expect(vol.indexOf("Вільнянськ")).toBeGreaterThanOrEqual(0);
    expect(vol.indexOf("Вільнянськ")).toBeLessThan(vol.indexOf("Нововолинськ"));
    expect(data.findCities("Кам’янець")[0]?.Description).toBe("Кам'янець-Подільський");
    expect(data.findCities("ки", 3)).toHaveLength(3);
    expect(data.findCities("ки", 0)).toEqual([]);
    expect(data.findCities("щщщ")).toEqual([]);
  });

  it("returns every city of a shared name, each with its own oblast", () => {
    const name = [...groupBy(data.cities, (c) => c.Description)].find(([, group]) => group.length > 1)?.[0];
    if (!name) throw new Error("no shared names");
    const found = data.findCities(name).filter((c) => c.Description === name);
    expect(found.length).toBeGreaterThan(1);
    expect(new Set(found.map((c) => c.AreaDescription)).size).toBe(found.length);
  });
});

describe("branches", () => {
  const byCity = groupBy(data.branches, (b) => b.CityRef);

  it("belong to known cities, numbered 1..n in each, and IsBranch says whether a city has any", () => {
    const wrong = data.cities.filter((c) => {
      const own = byCity.get(c.Ref) ?? [];
      const inCity = data.branchesInCity(c.Ref);
      return (
        c.IsBranch !== (own.length > 0 ? "1" : "0") ||
        own.some((b, i) => b.Number !== String(i + 1)) ||
        inCity.length !== own.length ||
        inCity.some((b, i) => b !== own[i])
      );
    });
    expect(wrong).toEqual([]);
    expect([...byCity.keys()].filter((ref) => !data.cityByRef(ref))).toEqual([]);
    expect(data.cities.some((c) => c.IsBranch === "0")).toBe(true);
  });

  it("name their number and kind in both languages, with an address on one of the city's streets", () => {
    const titles = {
      Branch: [
        /^(?:Відділення №(\d+) \(до (?:30|1000) кг\)|Вантажне відділення №(\d+) \(до 1100 кг\)): /,
        /^(?:Отделение №(\d+) \(до (?:30|1000) кг\)|Грузовое отделение №(\d+) \(до 1100 кг\)): /,
      ],
      Postomat: [/^Поштомат "Нова Пошта" №(\d+): /, /^Почтомат "Новая Почта" №(\d+): /],
      Store: [/^Пункт приймання-видачі №(\d+) \(до 30 кг\): /, /^Пункт приема-выдачи №(\d+) \(до 30 кг\): /],
    } as const;
    const misnamed = data.branches.filter((branch) => {
      const [uk, ru] = titles[branch.CategoryOfWarehouse as keyof typeof titles];
      const number = (match: RegExpExecArray | null) => match?.[1] ?? match?.[2];
      return (
        number(uk.exec(branch.Description)) !== branch.Number ||
        number(ru.exec(branch.DescriptionRu ?? "")) !== branch.Number
      );
    });
    expect(misnamed).toEqual([]);
    const sample = data.branches.filter((_, i) => i % 53 === 0);
    const elsewhere = sample.filter((branch) => {
      const cityName = data.cityByRef(branch.CityRef)?.Description;
      const streets = data.streets(branch.CityRef);
      return (
        branch.CityDescription !== cityName ||
        !streets.some((street) => branch.ShortAddress?.startsWith(`${cityName}, ${street.Description}, `)) ||
        !streets.some((street) => branch.Description.includes(` ${street.Description}, `))
      );
    });
    expect(elsewhere).toEqual([]);
  });

  it("carry plausible weights, coordinates, postcodes and indexes", () => {
    const cityIndex = new Map(data.cities.map((c, i) => [c.Ref, i + 1]));
    const implausible = data.branches.filter((branch) => {
      const weight = branch.PlaceMaxWeightAllowed;
      const lat = Number(branch.Latitude);
      const lon = Number(branch.Longitude);
      return (
        (branch.CategoryOfWarehouse === "Postomat"
          ? weight !== "0"
          : !["30", "1000", "1100"].includes(weight ?? "")) ||
        branch.WarehouseStatus !== "Working" ||
        !/^\d{2}\.\d{6}$/.test(branch.Latitude ?? "") ||
        !/^\d{2}\.\d{6}$/.test(branch.Longitude ?? "") ||
        !(lat >= 44.3 && lat <= 52.4 && lon >= 22.1 && lon <= 40.2) ||
        !/^\d{5}$/.test(branch.PostalCodeUA ?? "") ||
        branch.WarehouseIndex !== `${cityIndex.get(branch.CityRef)}/${branch.Number}`
      );
    });
    expect(implausible).toEqual([]);
    const weights = new Set(data.branches.map((b) => b.PlaceMaxWeightAllowed));
    expect([...weights].sort()).toEqual(["0", "1000", "1100", "30"]);
  });
});

describe("streets", () => {
  it("lists a city's streets with their types, Хрещатик among Kyiv's", () => {
    const streets = data.streets(KYIV_CITY_REF);
    expect(streets.length).toBeGreaterThan(100);
    expect(streets).toContainEqual(
      expect.objectContaining({ Description: "Хрещатик", StreetsType: "вул.", StreetsTypeRef: "Street" }),
    );
    const types = new Set(streets.map((s) => `${s.StreetsType} ${s.StreetsTypeRef}`));
    expect(types).toContain("просп. Avenue");
    expect(types).toContain("пров. Lane");
    expect(types).toContain("бульв. Boulevard");
    const keys = streets.map((s) => `${s.StreetsType} ${s.Description}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("filters by a case-insensitive substring and honours the limit", () => {
    const found = data.streets(KYIV_CITY_REF, "ХРЕЩ");
    expect(found.map((s) => s.Description)).toEqual(["Хрещатик"]);
    const shevchenka = data.streets(KYIV_CITY_REF, "шевч");
    expect(shevchenka.length).toBeGreaterThan(1);
    expect(shevchenka.every((s) => s.Description.toLowerCase().includes("шевч"))).toBe(true);
    // A substring, not only a prefix: the boulevard is "Тараса Шевченка".
    expect(shevchenka).toContainEqual(
      expect.objectContaining({ Description: "Тараса Шевченка", StreetsType: "бульв." }),
    );
    expect(data.streets(KYIV_CITY_REF, "шевч", 1)).toEqual(shevchenka.slice(0, 1));
    expect(data.streets(KYIV_CITY_REF, "zzz")).toEqual([]);
    expect(data.streets(data.branches[0]?.Ref ?? "")).toEqual([]);
  });

  it("gives even a village without branches a few streets", () => {
    const village = data.cities.find((c) => c.IsBranch === "0" && c.SettlementTypeDescription === "село");
    const streets = data.streets(village?.Ref ?? "");
    expect(streets.length).toBeGreaterThanOrEqual(5);
    expect(streets.length).toBeLessThan(30);
  });
});
