// Folding: the Ukrainian, Russian and Latin writings of real names meet, and queries come apart into
// words, numbers and the kind of branch they ask for.
import { describe, expect, it } from "vitest";
import {
  editDistance,
  fold,
  kindFromText,
  leadingNumber,
  NOISE_WORDS,
  queryTerms,
  tokens,
  typoAllowance,
} from "../../app/reference/fold";

describe("fold", () => {
  it("gives the Ukrainian, Latin (official and Russian-style) and Russian writings of a city one skeleton", () => {
    const same: string[][] = [
      ["Київ", "Kyiv", "КИЇВ", "kyiv"],
      ["Киев", "Kiev"],
      ["Харків", "Kharkiv", "Харкив"],
      ["Харьков", "Kharkov"],
      ["Одеса", "Одесса", "Odesa", "Odessa"],
      ["Львів", "Lviv"],
      ["Львов", "Lvov"],
      ["Запоріжжя", "Zaporizhzhia", "Zaporizhia"],
      ["Запорожье", "Zaporozhye"],
      ["Дніпро", "Dnipro"],
      ["Днепр", "Dnepr"],
      ["Біла Церква", "Bila Tserkva"],
      ["Кам'янець-Подільський", "Кам’янець-Подільський", "Камʼянець-Подільський", "Kamianets-Podilskyi"],
      ["Вінниця", "Vinnytsia"],
      ["Житомир", "Zhytomyr", "Zhitomir"],
      ["Чернігів", "Chernihiv"],
      ["Миколаїв", "Mykolaiv"],
      ["Сєвєродонецьк", "Sievierodonetsk", "Северодонецк"],
      ["Щастя", "Shchastia"],
      ["Європейська", "Yevropeiska"],
    ];
    for (const group of same) {
      const folded = group.map(fold);
      expect(new Set(folded).size, group.join(" / ")).toBe(1);
    }
  });

  it("leaves the two languages' own differences a letter apart, within the typo allowance", () => {
    const pairs: [string, string][] = [
      ["Київ", "Киев"],
      ["Kyiv", "Kiev"],
      ["Харків", "Харьков"],
      ["Kharkiv", "Kharkov"],
      ["Львів", "Львов"],
      ["Чернігів", "Чернигов"],
      ["Вінниця", "Винница"],
    ];
    for (const [a, b] of pairs) {
      const distance = editDistance(fold(a), fold(b));
      expect(distance, `${a} / ${b}`).toBe(1);
    }
  });

  it("drops every apostrophe variant and reads hyphens and punctuation as spaces", () => {
    const variants = ["Кам'янське", "Кам’янське", "Камʼянське", "Кам`янське", "Камʹянське", 'Кам"янське'];
    expect(new Set(variants.map(fold))).toEqual(new Set(["kamianske"]));
    expect(fold("Івано-Франківськ")).toBe("ivano frankivsk");
    expect(fold("  вул.Хрещатик,22 ")).toBe("vul hreshchatik 22");
  });

  it("keeps letter classes apart where names differ: і/и meet, but а and о do not", () => {
    expect(fold("Ґалаґан")).toBe(fold("Галаган"));
    expect(fold("Ёлка")).toBe(fold("Елка"));
    expect(fold("Гай")).not.toBe(fold("Гой"));
  });
});

describe("tokens", () => {
  it("keeps numbers: '№12' → 12, '12а' stays with its letter, 'НП12' splits", () => {
    expect(tokens("№12")).toEqual(["12"]);
    expect(tokens("№ 12")).toEqual(["12"]);
    expect(tokens("12а")).toEqual(["12a"]);
    expect(tokens("НП12")).toEqual(["np", "12"]);
    expect(tokens("вул. Хрещатик, 22/1")).toEqual(["vul", "hreshchatik", "22", "1"]);
    expect(leadingNumber("12a")).toBe("12");
    expect(leadingNumber("hreshchatik")).toBeUndefined();
  });
});

describe("queryTerms", () => {
  it("drops noise words and marks numbers that follow a branch word", () => {
    expect(queryTerms("Відділення Нової Пошти №12, м. Київ")).toEqual({
      words: ["kiv"],
      numbers: [{ value: "12", marked: true }],
      kind: "branch",
      regions: [],
      districts: [],
    });
    expect(queryTerms("НП 12")).toMatchObject({
      words: [],
      numbers: [{ value: "12", marked: true }],
      kind: undefined,
    });
    expect(queryTerms("отд. 7").numbers).toEqual([{ value: "7", marked: true }]);
    expect(queryTerms("branch no. 7").numbers).toEqual([{ value: "7", marked: true }]);
    expect(queryTerms("вул. Хрещатик, буд. 22")).toMatchObject({
      words: ["hreshchatik"],
      numbers: [{ value: "22", marked: false }],
      kind: undefined,
    });
  });

  it("keeps 'Нова' when it is a place's name and not the carrier's", () => {
    expect(queryTerms("Нова Пошта, с. Нова Петрівка").words).toEqual(["nova", "petrivka"]);
    expect(queryTerms("Новая почта Одесса").words).toEqual(["odesa"]);
  });

  it("reads the noise words of all three languages as noise", () => {
    for (const word of [
      "відділення",
      "отделение",
      "branch",
      "вулиця",
      "улица",
      "street",
      "область",
      "район",
    ]) {
      expect(NOISE_WORDS.has(fold(word)), word).toBe(true);
    }
  });

  it("reads the oblast and district an address names apart from its other words", () => {
    expect(queryTerms("Київська обл., Броварський р-н, м. Бровари, вул. Київська 5")).toMatchObject({
      words: ["brovari", "kivska"],
      regions: ["kivska"],
      districts: ["brovarski"],
    });
    expect(queryTerms("область Полтавська, с. Калинове").regions).toEqual(["poltavska"]);
    expect(queryTerms("Kalynove, Kharkivska oblast").regions).toEqual(["harkivska"]);
    // Without a marker, "Київська" is a street.
    expect(queryTerms("Київ, вул. Київська 5").words).toEqual(["kiv", "kivska"]);
  });

  it("leaves out flat, floor and entrance numbers and phone numbers", () => {
    const terms = queryTerms("тел. 0671234567, вул. Хрещатик, буд. 22, кв. 5, під'їзд 3, поверх 4");
    expect(terms.words).toEqual(["hreshchatik"]);
    expect(terms.numbers).toEqual([{ value: "22", marked: false }]);
  });
});

describe("kindFromText", () => {
  it("recognises parcel lockers, branches and partner points in three languages", () => {
    expect(kindFromText("поштомат 3456")).toBe("postomat");
    expect(kindFromText("Почтомат №5")).toBe("postomat");
    expect(kindFromText("parcel locker 12")).toBe("postomat");
    expect(kindFromText("Postomat")).toBe("postomat");
    expect(kindFromText("ПТ 3456")).toBe("postomat");
    expect(kindFromText("відділення 12")).toBe("branch");
    expect(kindFromText("Отделение 3")).toBe("branch");
    expect(kindFromText("branch 3")).toBe("branch");
    expect(kindFromText("пункт видачі 4")).toBe("store");
    expect(kindFromText("Хрещатик 22")).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and neighbour swaps", () => {
    expect(editDistance("harkiv", "harkiv")).toBe(0);
    expect(editDistance("harkiv", "harkv")).toBe(1);
    expect(editDistance("harkiv", "hrakiv")).toBe(1);
    expect(editDistance("harkiv", "harkive")).toBe(1);
    expect(editDistance("harkiv", "hvrkiv")).toBe(1);
    expect(editDistance("odesa", "lviv")).toBe(5);
  });

  it("stops at the bound and answers one more than it", () => {
    expect(editDistance("odesa", "lviv", 1)).toBe(2);
    expect(editDistance("kamianske", "k", 2)).toBe(3);
    expect(editDistance("abcd", "abdc", 1)).toBe(1);
  });

  it("allows no typo in short words, one in middling, two in long", () => {
    expect([3, 4, 7, 8].map(typoAllowance)).toEqual([0, 1, 1, 2]);
  });
});
