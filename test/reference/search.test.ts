// The reference search over the simulator's carrier directory (792 cities, 22,302 branches and lockers):
// cities in three scripts, with typos and as type-ahead; branches by number, address words or kind, in a
// city given or named in the text.
import { beforeAll, describe, expect, it } from "vitest";
import { fold } from "../../app/reference/fold";
import { buildReferenceSearch } from "../../app/reference/search";
import type { CarrierBranch, CarrierCity, ReferenceSearch } from "../../app/reference/types";
import { simulatorReferenceData, type SimulatorReference } from "./sim-data";

let data: SimulatorReference;
let search: ReferenceSearch;

beforeAll(() => {
  data = simulatorReferenceData();
  search = buildReferenceSearch(data.cities, data.branches);
});

function cityNamed(name: string, area?: string): CarrierCity {
  const found = data.cities.find((city) => city.name === name && (!area || city.area === area));
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

function branchesIn(city: CarrierCity): CarrierBranch[] {
  return data.branches.filter((branch) => branch.cityRef === city.ref);
}

function firstCity(text: string): CarrierCity | undefined {
  return search.searchCities(text, 1)[0]?.city;
}

describe("the index", () => {
  it("holds every city and branch, found by Ref, a city's branches in number order", () => {
    expect(search.cityCount).toBe(data.cities.length);
    expect(search.branchCount).toBe(data.branches.length);
    const kyiv = cityNamed("Київ");
    const sample = data.branches[1234]!;
    expect(search.branch(sample.ref)).toBe(sample);
    expect(search.city(kyiv.ref)).toBe(kyiv);
    expect(search.branch("no-such-ref")).toBeUndefined();
    const own = search.branchesOf(kyiv.ref);
    expect(own).toHaveLength(branchesIn(kyiv).length);
    expect(own.map((branch) => Number(branch.number))).toEqual(
      own.map((branch) => Number(branch.number)).sort((a, b) => a - b),
    );
    expect(search.branchesOf("no-such-city")).toEqual([]);
  });

  it("leaves out a branch whose city the set lacks", () => {
    const stray: CarrierBranch = { ...data.branches[0]!, ref: "stray-branch", cityRef: "no-such-city" };
    const small = buildReferenceSearch(data.cities.slice(0, 3), [...data.branches.slice(0, 50), stray]);
    expect(small.branch("stray-branch")).toBeUndefined();
    expect(small.branchCount).toBe(data.branches.slice(0, 50).filter((b) => small.city(b.cityRef)).length);
  });
});

describe("searchCities", () => {
  it("finds a city by its Ukrainian, Russian and Latin names, apostrophe variants and typos", () => {
    const spellings: [string, string[]][] = [
      ["Київ", ["Київ", "Киев", "Kyiv", "Kiev", "КИЇВ", "Кииів", "м. Київ"]],
      ["Харків", ["Харків", "Харьков", "Kharkiv", "Kharkov", "Харкив", "Хврків", "город Харьков"]],
      ["Одеса", ["Одеса", "Одесса", "Odesa", "Odessa"]],
      ["Львів", ["Львів", "Львов", "Lviv", "Lvov"]],
      ["Запоріжжя", ["Запоріжжя", "Запорожье", "Zaporizhzhia", "Zaporozhye"]],
      ["Дніпро", ["Дніпро", "Днепр", "Dnipro", "Dnepr"]],
      ["Біла Церква", ["Біла Церква", "Белая Церковь", "Bila Tserkva", "біла церква"]],
      [
        "Кам'янець-Подільський",
        ["Кам'янець-Подільський", "Кам’янець-Подільський", "Камʼянець Подільський", "Kamianets-Podilskyi"],
      ],
      ["Івано-Франківськ", ["Івано-Франківськ", "Ivano-Frankivsk", "Ивано-Франковск"]],
    ];
    for (const [name, texts] of spellings) {
      const expected = cityNamed(name).ref;
      for (const text of texts) expect(firstCity(text)?.ref, text).toBe(expected);
    }
  });

  it("scores an exact name 1, a start of a name or a typo less", () => {
    expect(search.searchCities("Kyiv", 1)[0]?.score).toBe(1);
    const prefix = search.searchCities("Харк", 1)[0]!;
    expect(prefix.city.name).toBe("Харків");
    expect(prefix.score).toBeLessThan(1);
    const typo = search.searchCities("Хврків", 1)[0]!;
    expect(typo.score).toBeLessThan(1);
    expect(typo.score).toBeGreaterThan(0.5);
  });

  it("answers a start of a name (type-ahead) with the biggest city first", () => {
    const hits = search.searchCities("Ки", 10);
    expect(hits[0]?.city.name).toBe("Київ");
    expect(hits.length).toBe(10);
    // Every hit has a word starting so ("Нова Кирилівка" too); "Кі…" and "Кы…" start the same way folded.
    for (const hit of hits) {
      const words = [hit.city.name, hit.city.nameRu ?? ""].flatMap((name) => fold(name).split(" "));
      expect(words.some((word) => word.startsWith("ki"))).toBe(true);
    }
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    expect(firstCity("Льв")?.name).toBe("Львів");
    expect(firstCity("Od")?.name).toBe("Одеса");
    expect(firstCity("Дні")?.name).toBe("Дніпро");
    // A start with a typo, when nothing starts so.
    const typed = search.searchCities("Хврк", 3)[0]!;
    expect(typed.city.name).toBe("Харків");
    expect(typed.score).toBeLessThan(search.searchCities("Харк", 1)[0]!.score);
  });

  it("returns every city of a shared village name, each with its oblast, and the oblast named picks one", () => {
    const shared = data.cities.filter((city) => city.name === "Калинове");
    expect(shared.length).toBeGreaterThan(3);
    const hits = search.searchCities("Калинове", 20);
    const found = hits.filter((hit) => hit.city.name === "Калинове");
    expect(found.map((hit) => hit.city.area).sort()).toEqual(shared.map((city) => city.area).sort());
    for (const hit of found) expect(hit.score).toBe(1);
    for (const [text, area] of [
      ["Калинове, Полтавська обл.", "Полтавська"],
      ["Калинове Сумська область", "Сумська"],
      ["Kalynove Kharkivska oblast", "Харківська"],
    ] as const) {
      expect(firstCity(text), text).toMatchObject({ name: "Калинове", area });
    }
  });

  it("reads an oblast in either language and case, and not in a surname that starts alike", () => {
    const millsIn = (area: string) => cityNamed("Млини", area);
    expect(firstCity("Млини, Івано-Франківська обл.")).toBe(millsIn("Івано-Франківська"));
    expect(firstCity("Млини Ивано-Франковская область")).toBe(millsIn("Івано-Франківська"));
    expect(firstCity("с. Млини Черкаської області")).toBe(millsIn("Черкаська"));
    expect(firstCity("Mlyny, Cherkasy oblast")).toBe(millsIn("Черкаська"));
    // Іваненко is a surname: no oblast is named, so the biggest Млини comes first.
    const biggest = data.cities
      .filter((city) => city.name === "Млини")
      .sort((a, b) => branchesIn(b).length - branchesIn(a).length)[0]!;
    expect(biggest.area).not.toBe("Івано-Франківська");
    expect(firstCity("Млини Іваненко")).toBe(biggest);
  });

  it("finds a city by one word of a longer name, and nothing for noise alone", () => {
    expect(firstCity("Франківськ")?.name).toBe("Івано-Франківськ");
    expect(search.searchCities("м.", 5)).toEqual([]);
    expect(search.searchCities("", 5)).toEqual([]);
    expect(search.searchCities("Київ", 0)).toEqual([]);
  });
});

describe("searchBranches", () => {
  it("finds a branch by its number however it is written, within a city", () => {
    const kyiv = cityNamed("Київ");
    const twelve = branchesIn(kyiv).find((branch) => branch.number === "12")!;
    for (const text of [
      "12",
      "№12",
      "№ 12",
      "НП 12",
      "нп12",
      "відділення 12",
      "Отделение №12",
      "branch 12",
    ]) {
      const hits = search.searchBranches({ cityRef: kyiv.ref, text });
      expect(hits[0]?.branch.ref, text).toBe(twelve.ref);
      expect(hits[0]?.score, text).toBe(1);
      expect(hits[0]?.city).toBe(kyiv);
    }
    // Marked as a branch number, 12 is never a house number.
    const marked = search.searchBranches({ cityRef: kyiv.ref, text: "№12" });
    expect(marked.map((hit) => hit.branch.number)).toEqual(["12"]);
  });

  it("reads the city from the text: 'Київ 12', 'Odesa 5', 'Одесса отделение 5'", () => {
    const cases: [string, string, string][] = [
      ["Київ 12", "Київ", "12"],
      ["Kyiv, НП №12", "Київ", "12"],
      ["Odesa 5", "Одеса", "5"],
      ["Одесса отделение 5", "Одеса", "5"],
      ["Біла Церква 3", "Біла Церква", "3"],
      ["Kharkov branch 7", "Харків", "7"],
    ];
    for (const [text, city, number] of cases) {
      const hit = search.searchBranches({ text })[0];
      expect(hit?.city?.name, text).toBe(city);
      expect(hit?.branch.number, text).toBe(number);
    }
  });

  it("finds a parcel locker by 'поштомат N', and the kinds filter keeps only lockers", () => {
    const kyiv = cityNamed("Київ");
    const locker = branchesIn(kyiv).find((branch) => branch.kind === "postomat")!;
    for (const text of [
      `поштомат ${locker.number}`,
      `Почтомат №${locker.number}`,
      `parcel locker ${locker.number}`,
    ]) {
      expect(search.searchBranches({ cityRef: kyiv.ref, text })[0]?.branch.ref, text).toBe(locker.ref);
    }
    const lockers = search.searchBranches({
      cityRef: kyiv.ref,
      text: "Хрещатик",
      kinds: ["postomat"],
      limit: 50,
    });
    expect(lockers.length).toBeGreaterThan(0);
    for (const hit of lockers) expect(hit.branch.kind).toBe("postomat");
    // "поштомат" names the kind: with no number, the city's lockers come first.
    const byWord = search.searchBranches({ cityRef: kyiv.ref, text: "поштомат", limit: 5 });
    for (const hit of byWord) expect(hit.branch.kind).toBe("postomat");
    // A staffed branch's number asked as a locker still comes, below a locker's score.
    const staffed = branchesIn(kyiv).find((branch) => branch.kind === "branch")!;
    const asLocker = search.searchBranches({ cityRef: kyiv.ref, text: `поштомат ${staffed.number}` })[0]!;
    expect(asLocker.branch.ref).toBe(staffed.ref);
    expect(asLocker.score).toBeLessThan(1);
  });

  it("finds branches by street and house, in Ukrainian and Russian, with or without the city", () => {
    const kyiv = cityNamed("Київ");
    const onKhreshchatyk = branchesIn(kyiv).filter((branch) => branch.description.includes("Хрещатик, "));
    expect(onKhreshchatyk.length).toBeGreaterThan(0);
    const target = onKhreshchatyk[0]!;
    const house = /Хрещатик, (\S+)/.exec(target.description)![1]!;
    for (const text of [`Хрещатик ${house}`, `вул. Хрещатик, буд. ${house}`, `ул. Крещатик ${house}`]) {
      for (const cityRef of [kyiv.ref, undefined]) {
        const hits = search.searchBranches({ cityRef, text });
        const top = hits.filter((hit) => hit.score === hits[0]!.score);
        expect(
          top.map((hit) => hit.branch.ref),
          `${text} in ${cityRef ?? "any city"}`,
        ).toContain(target.ref);
      }
    }
    // The street alone: every branch on it, and none elsewhere scores as high.
    const street = search.searchBranches({ cityRef: kyiv.ref, text: "Хрещатик", limit: 500 });
    const full = street.filter((hit) => hit.score === 1).map((hit) => hit.branch.ref);
    expect(new Set(full)).toEqual(new Set(onKhreshchatyk.map((branch) => branch.ref)));
  });

  it("weighs a marked branch number above the street of a home address beside it", () => {
    const kyiv = cityNamed("Київ");
    const far = branchesIn(kyiv).find((branch) => branch.number === "125")!;
    expect(far.description).not.toContain("Хрещатик");
    const hits = search.searchBranches({ text: "Київ, вул. Хрещатик, 5, Нова пошта відділення 125" });
    expect(hits[0]?.branch).toBe(far);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it("reads a street named like the oblast as a street, and an oblast marked so as the oblast", () => {
    const kyiv = cityNamed("Київ");
    const onKyivska = branchesIn(kyiv).find((branch) => /вул\. Київська, \d+,?/.test(branch.description));
    expect(onKyivska).toBeDefined();
    const house = /Київська, (\S+)/.exec(onKyivska!.description)![1]!;
    for (const cityRef of [kyiv.ref, undefined]) {
      const hits = search.searchBranches({ cityRef, text: `Київ, вул. Київська, ${house}` });
      const top = hits.filter((hit) => hit.score === hits[0]!.score);
      expect(top.map((hit) => hit.branch.ref)).toContain(onKyivska!.ref);
    }
    // Калинове is in seven oblasts; the one named with "обл." decides, its branch 1 first.
    const poltava = cityNamed("Калинове", "Полтавська");
    const hit = search.searchBranches({ text: "Полтавська обл., с. Калинове, НП 1" })[0];
    expect(hit?.city).toBe(poltava);
    expect(hit?.branch.number).toBe("1");
  });

  it("finds a branch by its postcode", () => {
    const lviv = cityNamed("Львів");
    const branch = branchesIn(lviv).find((candidate) => candidate.postcode)!;
    const hits = search.searchBranches({ cityRef: lviv.ref, text: branch.postcode!, limit: 500 });
    expect(hits.map((hit) => hit.branch.ref)).toContain(branch.ref);
    for (const hit of hits) expect(hit.branch.postcode).toBe(branch.postcode);
  });

  it("finds a street from its first letters and through a typo", () => {
    const kyiv = cityNamed("Київ");
    for (const text of ["Хрещ", "Хрешатик", "Khreshchatyk"]) {
      const hit = search.searchBranches({ cityRef: kyiv.ref, text })[0];
      expect(hit?.branch.description, text).toContain("Хрещатик");
      expect(hit?.score, text).toBeLessThanOrEqual(1);
    }
  });

  it("ranks branches 12 of all cities by city size when no city is named", () => {
    const hits = search.searchBranches({ text: "№12", limit: 5 });
    const biggest = data.cities
      .map((city) => ({ city, size: branchesIn(city).length }))
      .filter(({ size }) => size >= 12)
      .sort((a, b) => b.size - a.size)
      .slice(0, 5)
      .map(({ city }) => city.name);
    expect(biggest[0]).toBe("Київ");
    expect(hits.map((hit) => hit.city?.name)).toEqual(biggest);
    for (const hit of hits) expect(hit.branch.number).toBe("12");
  });

  it("answers a city alone with its branches in number order, and respects the limit", () => {
    const lviv = cityNamed("Львів");
    const hits = search.searchBranches({ text: "Львів", limit: 3 });
    expect(hits.map((hit) => hit.branch.number)).toEqual(["1", "2", "3"]);
    for (const hit of hits) expect(hit.city).toBe(lviv);
    expect(search.searchBranches({ cityRef: lviv.ref, text: "" }).length).toBe(20);
    expect(search.searchBranches({ cityRef: lviv.ref, text: "", limit: 0 })).toEqual([]);
    expect(search.searchBranches({ text: "" })).toEqual([]);
    expect(search.searchBranches({ cityRef: "no-such-city", text: "1" })).toEqual([]);
  });

  it("leaves closed branches out unless asked for", () => {
    const kyiv = cityNamed("Київ");
    const closedRef = branchesIn(kyiv).find((branch) => branch.number === "7")!.ref;
    const branches = data.branches.map((branch) =>
      branch.ref === closedRef ? { ...branch, working: false } : branch,
    );
    const withClosed = buildReferenceSearch(data.cities, branches);
    expect(withClosed.searchBranches({ cityRef: kyiv.ref, text: "№7" })).toEqual([]);
    const asked = withClosed.searchBranches({ cityRef: kyiv.ref, text: "№7", includeClosed: true });
    expect(asked.map((hit) => hit.branch.ref)).toEqual([closedRef]);
    expect(withClosed.branchesOf(kyiv.ref).some((branch) => branch.ref === closedRef)).toBe(true);
  });

  it("scores within 0..1, best first", () => {
    for (const text of ["Київ Хрещатик", "Шевченка 10", "Одеська 48", "поштомат 5", "Kharkiv Sumska"]) {
      const hits = search.searchBranches({ text, limit: 50 });
      expect(hits.length, text).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.score).toBeGreaterThan(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    }
  });
});
