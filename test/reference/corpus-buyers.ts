// The address matcher's corpus, part two (issue 23): writings the first part lacked, as buyers type them
// into a checkout that has no branch picker: Latin transliterations, typos in the carrier's words and in the
// city, words glued together, Latin letters that look Cyrillic, freight branches, parcel lockers known by
// the shop that hosts them, the oblast in brackets, the district or postcode beside the city. More than
// half are ambiguous or wrong on purpose, as real orders are: two branch numbers, a number the settlement
// lacks, an oblast, district or postcode that contradicts the city, a name several settlements share,
// another carrier's branch, no branch at all. For those the matcher must choose nothing; where the writing
// still points at branches ("5 або 12"), `offer` names what the three candidates must include.
import type { CorpusCase, ExpectedBranch } from "./corpus-case";

const at = (city: string, area: string, number: string): ExpectedBranch => ({ city, area, number });

const KYIV = (number: string) => at("Київ", "Київська", number);
const KHARKIV = (number: string) => at("Харків", "Харківська", number);
const ODESA = (number: string) => at("Одеса", "Одеська", number);
const DNIPRO = (number: string) => at("Дніпро", "Дніпропетровська", number);
const LVIV = (number: string) => at("Львів", "Львівська", number);
const POLTAVA = (number: string) => at("Полтава", "Полтавська", number);
const VYSHHOROD = (number: string) => at("Вишгород", "Київська", number);

/** The branch is clear, however it is written. */
const CLEAR: CorpusCase[] = [
  // Latin transliterations.
  {
    what: "latin: Nova Poshta #N",
    address: { city: "Kyiv", address1: "Nova Poshta #300" },
    expect: KYIV("300"),
  },
  { what: "latin: NP office N", address: { city: "Kiev", address1: "NP office 15" }, expect: KYIV("15") },
  {
    what: "latin: glued NovaPoshta",
    address: { city: "Kharkiv", address1: "NovaPoshta 3" },
    expect: KHARKIV("3"),
  },
  {
    what: "latin: Russian-style otdelenie",
    address: { city: "Kiev", address1: "Nova Poshta otdelenie 42" },
    expect: KYIV("42"),
  },
  {
    what: "latin: lower case, hash",
    address: { city: "Odessa", address1: "novaposhta #77" },
    expect: ODESA("77"),
  },
  { what: "latin: Lvov", address: { city: "Lvov", address1: "NP 120" }, expect: LVIV("120") },
  {
    what: "latin: Dnepr, branch",
    address: { city: "Dnepr", address1: "Nova Poshta branch 12" },
    expect: DNIPRO("12"),
  },
  {
    what: "latin: Zaporozhye, warehouse",
    address: { city: "Zaporozhye", address1: "NP warehouse 40" },
    expect: at("Запоріжжя", "Запорізька", "40"),
  },
  {
    what: "latin: viddilennia",
    address: { city: "Vinnitsa", address1: "nova poshta viddilennia 8" },
    expect: at("Вінниця", "Вінницька", "8"),
  },
  {
    what: "latin: No N",
    address: { city: "Ternopil", address1: "Nova Poshta No 27" },
    expect: at("Тернопіль", "Тернопільська", "27"),
  },
  {
    what: "latin: NP#N in address2",
    address: { city: "Chernivtsi", address1: "", address2: "NP#14" },
    expect: at("Чернівці", "Чернівецька", "14"),
  },
  {
    what: "latin: city repeated before NP office",
    address: { city: "Poltava", address1: "Poltava, NP office 33" },
    expect: POLTAVA("33"),
  },
  {
    what: "latin: Kiev with Ukrainian words",
    address: { city: "Kiev", address1: "відділення 64" },
    expect: KYIV("64"),
  },
  {
    what: "latin: Kyiv, Nova Poshta N in company",
    address: { city: "Kyiv", company: "Nova Poshta 18" },
    expect: KYIV("18"),
  },
  { what: "latin: Kharkov, np N", address: { city: "Kharkov", address1: "np 91" }, expect: KHARKIV("91") },

  // Typos in the carrier's words and in the city.
  { what: "typo: пштомат", address: { city: "Харків", address1: "пштомат 250" }, expect: KHARKIV("250") },
  { what: "typo: нова пошат", address: { city: "Київ", address1: "нова пошат 55" }, expect: KYIV("55") },
  { what: "typo: Харкв", address: { city: "Харкв", address1: "НП 12" }, expect: KHARKIV("12") },
  { what: "typo: отдлеление", address: { city: "Одеса", address1: "отдлеление 31" }, expect: ODESA("31") },
  {
    what: "typo: отделенние новой почты",
    address: { city: "Киев", address1: "отделенние новой почты 18" },
    expect: KYIV("18"),
  },
  {
    what: "typo: віділення, Днипро",
    address: { city: "Днипро", address1: "віділення 25" },
    expect: DNIPRO("25"),
  },
  {
    what: "typo: новая почат отд",
    address: { city: "Запорожье", address1: "новая почат отд 9" },
    expect: at("Запоріжжя", "Запорізька", "9"),
  },
  { what: "typo: Полтва", address: { city: "Полтва", address1: "Нова Пошта 7" }, expect: POLTAVA("7") },
  {
    what: "typo: почтамат",
    address: { city: "Вінниця", address1: "почтамат 140" },
    expect: at("Вінниця", "Вінницька", "140"),
  },
  {
    what: "typo: віддлення",
    address: { city: "Кременчуг", address1: "нова пошта віддлення 4" },
    expect: at("Кременчук", "Полтавська", "4"),
  },
  { what: "typo: поштомап", address: { city: "Львів", address1: "поштомап 310" }, expect: LVIV("310") },
  {
    what: "typo: Новая Пошта, Чернигов",
    address: { city: "Чернигов", address1: "Новая Пошта 22" },
    expect: at("Чернігів", "Чернігівська", "22"),
  },
  {
    what: "typo: Житомр",
    address: { city: "Житомр", address1: "відділення 6" },
    expect: at("Житомир", "Житомирська", "6"),
  },
  {
    what: "typo: нова пошта, Запоріжя",
    address: { city: "Запоріжя", address1: "нова пошта 16" },
    expect: at("Запоріжжя", "Запорізька", "16"),
  },

  // Glued words.
  { what: "glued: новапошта1", address: { city: "Київ", address1: "новапошта1" }, expect: KYIV("1") },
  { what: "glued: НоваПошта №45", address: { city: "Львів", address1: "НоваПошта №45" }, expect: LVIV("45") },
  { what: "glued: нп№8", address: { city: "Суми", address1: "нп№8" }, expect: at("Суми", "Сумська", "8") },
  {
    what: "glued: відділення№17",
    address: { city: "Рівне", address1: "відділення№17" },
    expect: at("Рівне", "Рівненська", "17"),
  },
  {
    what: "glued: поштомат№102",
    address: { city: "Луцьк", address1: "поштомат№102" },
    expect: at("Луцьк", "Волинська", "102"),
  },
  {
    what: "glued: новаяпочта 30",
    address: { city: "Одесса", address1: "новаяпочта 30" },
    expect: ODESA("30"),
  },

  // Latin letters inside Cyrillic words.
  { what: "mixed: HП with a Latin H", address: { city: "Київ", address1: "HП 41" }, expect: KYIV("41") },
  {
    what: "mixed: Hова Пошта with a Latin H",
    address: { city: "Харків", address1: "Hова Пошта 19" },
    expect: KHARKIV("19"),
  },
  {
    what: "mixed: Пoшта with a Latin o",
    address: { city: "Одеса", address1: "Нова Пoшта №60" },
    expect: ODESA("60"),
  },
  { what: "mixed: Kиїв with a Latin K", address: { city: "Kиїв", address1: "НП 70" }, expect: KYIV("70") },
  {
    what: "mixed: Bідділення with a Latin B",
    address: { city: "Полтава", address1: "Bідділення 12" },
    expect: POLTAVA("12"),
  },
  {
    what: "mixed: HOBA ПOШTA in capitals",
    address: { city: "Дніпро", address1: "HOBA ПOШTA 21" },
    expect: DNIPRO("21"),
  },

  // Hours and floors beside the number.
  { what: "hours: until six", address: { city: "Киев", address1: "НП12 до 18:00" }, expect: KYIV("12") },
  {
    what: "hours: from nine to six",
    address: { city: "Дніпро", address1: "НП №14 з 9 до 18" },
    expect: DNIPRO("14"),
  },
  {
    what: "hours: call after six",
    address: { city: "Київ", address1: "НП 12, дзвоніть після 18" },
    expect: KYIV("12"),
  },
  {
    what: "floor: the branch upstairs",
    address: { city: "Львів", address1: "НП 5 (2 поверх)" },
    expect: LVIV("5"),
  },

  // Freight branches.
  {
    what: "freight: вантажне до 1100 кг",
    address: { city: "Вишгород", address1: "вантажне до 1100 кг" },
    expect: VYSHHOROD("2"),
  },
  {
    what: "freight: вантажне відділення",
    address: { city: "Вишгород", address1: "Нова пошта вантажне відділення" },
    expect: VYSHHOROD("2"),
  },
  {
    what: "freight: грузовое отделение",
    address: { city: "Вышгород", address1: "грузовое отделение новой почты" },
    expect: VYSHHOROD("2"),
  },
  {
    what: "freight: with its number",
    address: { city: "Київ", address1: "вантажне відділення №37 (до 1000 кг)" },
    expect: KYIV("37"),
  },
  {
    what: "freight: number, then the weight",
    address: { city: "Харків", address1: "НП 48 вантажне до 1000кг" },
    expect: KHARKIV("48"),
  },

  // Parcel lockers known by the shop that hosts them.
  {
    what: "shop: поштомат в Сільпо",
    address: { city: "Вишгород", address1: "поштомат в Сільпо" },
    expect: VYSHHOROD("5"),
  },
  {
    what: "shop: почтомат Новус",
    address: { city: "Вишгород", address1: "почтомат Новус" },
    expect: VYSHHOROD("10"),
  },
  {
    what: "shop: the shop and the street",
    address: { city: "Вишгород", address1: "поштомат у Novus на Гончарній" },
    expect: VYSHHOROD("10"),
  },
  {
    what: "shop: АТБ told apart by the street",
    address: { city: "Вишгород", address1: "поштомат АТБ, вул. Соборності" },
    expect: VYSHHOROD("9"),
  },
  {
    what: "shop: біля Фори",
    address: { city: "Велике Озерне", province: "Вінницька", address1: "поштомат біля Фори" },
    expect: at("Велике Озерне", "Вінницька", "7"),
  },
  {
    what: "shop: поштомат в АТБ",
    address: { city: "Берегове", address1: "поштомат в АТБ" },
    expect: at("Берегове", "Закарпатська", "36"),
  },
  {
    what: "shop: поштомат Сільпо",
    address: { city: "Коцюбинське", address1: "поштомат Сільпо" },
    expect: at("Коцюбинське", "Київська", "15"),
  },
  {
    what: "shop: почтомат в Сильпо",
    address: { city: "Сторожинец", address1: "почтомат в Сильпо" },
    expect: at("Сторожинець", "Чернівецька", "24"),
  },
  {
    what: "shop: поштомат Фора",
    address: { city: "Берислав", address1: "НП поштомат Фора" },
    expect: at("Берислав", "Херсонська", "14"),
  },
  {
    what: "shop: пункт видачі в EVA",
    address: { city: "Вишгород", address1: "пункт видачі в EVA" },
    expect: VYSHHOROD("8"),
  },

  // The oblast in brackets after the city.
  {
    what: "brackets: the oblast after a village",
    address: { city: "Миколаївка (Івано-Франківська обл.)", address1: "НП 3" },
    expect: at("Миколаївка", "Івано-Франківська", "3"),
  },
  {
    what: "brackets: without обл.",
    address: { city: "Березівка (Херсонська)", address1: "відділення 5" },
    expect: at("Березівка", "Херсонська", "5"),
  },
  {
    what: "brackets: обл without a dot",
    address: { city: "Петрівка (Львівська обл)", address1: "НП 2" },
    expect: at("Петрівка", "Львівська", "2"),
  },
  {
    what: "brackets: Юріївка (Одеська обл.)",
    address: { city: "Юріївка (Одеська обл.)", address1: "Нова пошта 10" },
    expect: at("Юріївка", "Одеська", "10"),
  },
  {
    what: "brackets: a city namesake told apart",
    address: { city: "Олександрія (Кіровоградська обл.)", address1: "НП 20" },
    expect: at("Олександрія", "Кіровоградська", "20"),
  },
  {
    what: "brackets: Russian oblast in brackets",
    address: { city: "Калиновое (Харьковская обл.)", address1: "отделение 4" },
    expect: at("Калинове", "Харківська", "4"),
  },

  // The district in the address line.
  {
    what: "district: Фастівський р-н",
    address: { city: "Юріївка", address1: "Фастівський р-н, НП 2" },
    expect: at("Юріївка", "Київська", "2"),
  },
  {
    what: "district: Знам'янський район",
    address: { city: "Дмитрівка", address1: "Знам'янський район, відділення 3" },
    expect: at("Дмитрівка", "Кіровоградська", "3"),
  },
  {
    what: "district: Конотопський р-н",
    address: { city: "Млини", address1: "Конотопський р-н, НП 5" },
    expect: at("Млини", "Сумська", "5"),
  },
  {
    what: "district: Уманський р-н",
    address: { city: "Петрівка", address1: "Уманський р-н, відділення 2" },
    expect: at("Петрівка", "Черкаська", "2"),
  },
  {
    what: "district: in the city field",
    address: { city: "Березівка, Харківський р-н", address1: "НП 1" },
    expect: at("Березівка", "Харківська", "1"),
  },
  {
    what: "district: in address2",
    address: { city: "Калинове", address1: "Нова пошта 6", address2: "Лубенський район" },
    expect: at("Калинове", "Полтавська", "6"),
  },
  {
    what: "district: agrees with a city",
    address: { city: "Бровари", address1: "Броварський р-н, НП 12" },
    expect: at("Бровари", "Київська", "12"),
  },

  // The postcode.
  {
    what: "postcode: chooses a namesake",
    address: { city: "Березівка", zip: "74520", address1: "НП 2" },
    expect: at("Березівка", "Херсонська", "2"),
  },
  {
    what: "postcode: chooses a namesake",
    address: { city: "Калинове", zip: "37290", address1: "відділення 3" },
    expect: at("Калинове", "Полтавська", "3"),
  },
  {
    what: "postcode: agrees with Kyiv",
    address: { city: "Київ", zip: "02140", address1: "НП 100" },
    expect: KYIV("100"),
  },
  {
    what: "postcode: agrees with Kharkiv",
    address: { city: "Харків", zip: "61000", address1: "Нова Пошта 44" },
    expect: KHARKIV("44"),
  },

  // Namesakes of a city, with what tells them apart, or a namesake no parcel can reach.
  {
    what: "namesake: the village by its oblast",
    address: { city: "Олександрія", province: "Рівненська область", address1: "НП 1" },
    expect: at("Олександрія", "Рівненська", "1"),
  },
  {
    what: "namesake: the city by its oblast",
    address: { city: "Олександрія", province: "Кіровоградська", address1: "відділення 14" },
    expect: at("Олександрія", "Кіровоградська", "14"),
  },
  {
    what: "oblast in Latin agrees",
    address: { city: "Lviv", province: "Lvivska oblast", address1: "NP 17" },
    expect: LVIV("17"),
  },
  {
    what: "Shopify's province for Kyiv city",
    address: { city: "Kyiv", province: "Kyiv city", address1: "НП 120" },
    expect: KYIV("120"),
  },
];

/** Ambiguous or wrong on purpose: the matcher must choose nothing. */
const NO_CHOICE: CorpusCase[] = [
  // Two branch numbers.
  {
    what: "two numbers: 5 або 12",
    address: { city: "Київ", address1: "НП 5 або 12" },
    expect: "unsure",
    offer: [KYIV("5"), KYIV("12")],
  },
  {
    what: "two numbers: или",
    address: { city: "Харьков", address1: "отделение 5 или 12" },
    expect: "unsure",
    offer: [KHARKIV("5"), KHARKIV("12")],
  },
  {
    what: "two numbers: чи",
    address: { city: "Львів", address1: "поштомат 250 чи 251" },
    expect: "unsure",
    offer: [LVIV("250"), LVIV("251")],
  },
  {
    what: "two numbers: or",
    address: { city: "Kyiv", address1: "NP 5 or 12" },
    expect: "unsure",
    offer: [KYIV("5"), KYIV("12")],
  },
  {
    what: "two numbers: the word after",
    address: { city: "Одеса", address1: "5 або 12 відділення" },
    expect: "unsure",
    offer: [ODESA("5"), ODESA("12")],
  },
  {
    what: "two numbers: a fallback",
    address: { city: "Дніпро", address1: "Нова пошта 3, якщо закрите то 7" },
    expect: "unsure",
    offer: [DNIPRO("3"), DNIPRO("7")],
  },
  {
    what: "two numbers: in brackets",
    address: { city: "Полтава", address1: "НП 10 (або 11)" },
    expect: "unsure",
    offer: [POLTAVA("10"), POLTAVA("11")],
  },
  { what: "two numbers: a comma", address: { city: "Суми", address1: "відділення 1, 2" }, expect: "unsure" },
  { what: "two numbers: a slash", address: { city: "Вінниця", address1: "НП №4/№9" }, expect: "unsure" },
  {
    what: "two numbers: two fields",
    address: { city: "Київ", address1: "НП 5", address2: "НП 12" },
    expect: "unsure",
    offer: [KYIV("5"), KYIV("12")],
  },
  {
    what: "two numbers: address and note",
    address: { city: "Харків", address1: "Нова Пошта 20" },
    note: "Краще на НП 31",
    expect: "unsure",
    offer: [KHARKIV("20"), KHARKIV("31")],
  },
  {
    what: "two numbers: company and address",
    address: { city: "Одеса", address1: "відділення 8", company: "поштомат 400" },
    expect: "unsure",
  },
  {
    what: "two numbers: either",
    address: { city: "Запоріжжя", address1: "НП 2 або НП 6, що ближче" },
    expect: "unsure",
  },
  {
    what: "two numbers: Russian либо",
    address: { city: "Днепр", address1: "НП 14 либо 15" },
    expect: "unsure",
  },
  {
    what: "two numbers: Latin and the note",
    address: { city: "Lviv", address1: "Nova Poshta 11" },
    note: "або 12",
    expect: "unsure",
  },
  {
    what: "two numbers: a locker and a branch",
    address: { city: "Вінниця", address1: "поштомат 150 або відділення 3" },
    expect: "unsure",
  },
  { what: "two numbers: a dash", address: { city: "Полтава", address1: "НП 4 - 5" }, expect: "unsure" },
  {
    what: "two numbers: Ukrainian чи in a village",
    address: { city: "Вишгород", address1: "відділення 1 чи 3" },
    expect: "unsure",
    offer: [VYSHHOROD("1"), VYSHHOROD("3")],
  },
  {
    what: "two numbers: a correction",
    address: { city: "Черкаси", address1: "НП 12 ні 21" },
    expect: "unsure",
  },
  {
    what: "two numbers: two markers",
    address: { city: "Житомир", address1: "відділення 7, поштомат 120" },
    expect: "unsure",
  },

  // A number the settlement does not have.
  { what: "missing number: a town's", address: { city: "Вишгород", address1: "НП 15" }, expect: "unsure" },
  {
    what: "missing number: a village's",
    address: { city: "Миколаївка", province: "Івано-Франківська", address1: "НП 40" },
    expect: "unsure",
  },
  {
    what: "missing number: a city's",
    address: { city: "Полтава", address1: "відділення 400" },
    expect: "unsure",
  },
  { what: "missing number: beyond Kyiv's", address: { city: "Київ", address1: "НП 3000" }, expect: "unsure" },
  {
    what: "missing number: a single-branch village",
    address: { city: "Олександрія", province: "Рівненська", address1: "НП 3" },
    expect: "unsure",
  },
  {
    what: "missing number: a locker",
    address: { city: "Сторожинець", address1: "поштомат 77" },
    expect: "unsure",
  },
  {
    what: "missing number: an order number",
    address: { city: "Харків", address1: "Замовлення №48213, нова пошта" },
    expect: "unsure",
  },
  {
    what: "missing number: a Latin branch",
    address: { city: "Kyiv", address1: "Nova Poshta #9999" },
    expect: "unsure",
  },
  {
    what: "missing number: the street matches another",
    address: { city: "Вишгород", address1: "НП 12, вул. Липова 57" },
    expect: "unsure",
  },
  {
    what: "missing number: a village with lockers",
    address: { city: "Велике Озерне", province: "Вінницька обл.", address1: "відділення 14" },
    expect: "unsure",
  },
  {
    what: "missing number: Первомайськ",
    address: { city: "Первомайськ", address1: "НП 150" },
    expect: "unsure",
  },
  {
    what: "missing number: structured city, number beyond it",
    address: { city: "Вишгород" },
    noteAttributes: [{ name: "np", value: '{"city":"Вишгород","warehouseNumber":"44"}' }],
    expect: "unsure",
  },
  { what: "missing number: in the note", address: { city: "Berehove" }, note: "нп 90", expect: "unsure" },
  {
    what: "missing number: Березівка's",
    address: { city: "Березівка", province: "Київська обл.", address1: "НП 4" },
    expect: "unsure",
  },
  {
    what: "missing number: typo in the carrier",
    address: { city: "Вишгород", address1: "пштомат 11" },
    expect: "unsure",
  },

  // An oblast that contradicts the city.
  {
    what: "oblast contradicts: Полтава, Донецька",
    address: { city: "Полтава", province: "Донецька область", address1: "НП 3" },
    expect: "unsure",
    offer: [POLTAVA("3")],
  },
  {
    what: "oblast contradicts: Харків, Львівська",
    address: { city: "Харків", province: "Львівська обл.", address1: "відділення 12" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: in brackets",
    address: { city: "Одеса (Київська обл.)", address1: "НП 7" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: in the city field",
    address: { city: "Дніпро, Полтавська область", address1: "НП 9" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Суми, Херсонська",
    address: { city: "Суми", province: "Херсонська", address1: "Нова Пошта 4" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Вінниця, Житомирська",
    address: { city: "Вінниця", province: "Житомирська обл.", address1: "НП 30" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Latin",
    address: { city: "Lviv", province: "Odesa Oblast", address1: "NP 8" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Russian",
    address: { city: "Запорожье", province: "Николаевская обл.", address1: "отделение 5" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: in address1",
    address: { city: "Київ", address1: "Черкаська обл., НП 15" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Рівне in Кіровоградська",
    address: { city: "Рівне", province: "Кіровоградська обл.", address1: "НП 2" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Житомир in Рівненська",
    address: { city: "Житомир", province: "Рівненська", address1: "відділення 11" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Черкаси in Полтавська",
    address: { city: "Черкаси", province: "Полтавська область", address1: "НП 2" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Луцьк in Львівська",
    address: { city: "Луцьк", province: "Львівська", address1: "№ 12" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Тернопіль in Хмельницька",
    address: { city: "Тернопіль", province: "Хмельницька обл", address1: "НП 4" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Чернігів in Сумська",
    address: { city: "Чернігів", province: "Сумська", address1: "відділення 6" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: a village in another oblast",
    address: { city: "Вишгород", province: "Волинська", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Бровари in Чернігівська",
    address: { city: "Бровари", province: "Чернігівська обл.", address1: "НП 3" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Мукачево in Львівська",
    address: { city: "Мукачево", province: "Львівська обл.", address1: "НП 9" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Херсон in Миколаївська",
    address: { city: "Херсон", province: "Миколаївська", address1: "відділення 1" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Ужгород in Івано-Франківська",
    address: { city: "Ужгород", province: "Івано-Франківська обл.", address1: "НП 3" },
    expect: "unsure",
  },

  // A district or postcode that contradicts the city.
  {
    what: "district contradicts: Полтава, Броварський",
    address: { city: "Полтава", address1: "Броварський р-н, НП 5" },
    expect: "unsure",
    offer: [POLTAVA("5")],
  },
  {
    what: "district contradicts: Харків, Стрийський",
    address: { city: "Харків", address1: "Стрийський район, відділення 4" },
    expect: "unsure",
  },
  {
    what: "district contradicts: Одеса, Уманський",
    address: { city: "Одеса", address1: "НП 11", address2: "Уманський р-н" },
    expect: "unsure",
  },
  {
    what: "district contradicts: Львів, Конотопський",
    address: { city: "Львів, Конотопський р-н", address1: "НП 8" },
    expect: "unsure",
  },
  {
    what: "district contradicts: Вінниця, Ковельський",
    address: { city: "Вінниця", address1: "Ковельський р-н, нова пошта 2" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: Lviv's postcode",
    address: { city: "Харків", zip: "79000", address1: "НП 12" },
    expect: "unsure",
    offer: [KHARKIV("12")],
  },
  {
    what: "postcode contradicts: Kyiv's postcode",
    address: { city: "Одеса", zip: "01001", address1: "відділення 3" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: Dnipro's postcode",
    address: { city: "Полтава", zip: "49000", address1: "НП 8" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: a village's",
    address: { city: "Березівка", zip: "33000", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: Lutsk's postcode",
    address: { city: "Рівне", zip: "43000", address1: "НП 5" },
    expect: "unsure",
  },

  // Settlements several oblasts share, nothing to choose between them.
  {
    what: "shared: the other Первомайськ has no branch, but its people name a town's nearby",
    address: { city: "Первомайськ", address1: "НП 3" },
    expect: "unsure",
    offer: [at("Первомайськ", "Миколаївська", "3")],
  },
  { what: "shared: Олександрія", address: { city: "Олександрія", address1: "НП 1" }, expect: "unsure" },
  {
    what: "shared: Олександрія, a number only the city has",
    address: { city: "Олександрія", address1: "відділення 20" },
    expect: "unsure",
  },
  { what: "shared: Петрівка", address: { city: "Петрівка", address1: "Нова Пошта 2" }, expect: "unsure" },
  { what: "shared: Петровка", address: { city: "Петровка", address1: "отделение 1" }, expect: "unsure" },
  { what: "shared: Калинове", address: { city: "Калинове", address1: "НП 3" }, expect: "unsure" },
  { what: "shared: Юріївка", address: { city: "Юріївка", address1: "відділення 4" }, expect: "unsure" },
  { what: "shared: Млини", address: { city: "Млини", address1: "НП 2" }, expect: "unsure" },
  { what: "shared: Дмитрівка", address: { city: "Дмитрівка", address1: "відділення 1" }, expect: "unsure" },
  { what: "shared: Гай", address: { city: "Гай", address1: "НП 5" }, expect: "unsure" },
  { what: "shared: Березовка", address: { city: "Березовка", address1: "Новая почта 1" }, expect: "unsure" },
  { what: "shared: Latin Berezivka", address: { city: "Berezivka", address1: "NP 1" }, expect: "unsure" },
  {
    what: "shared: city in address1 only",
    address: { city: "", address1: "с. Калинове, НП 1" },
    expect: "unsure",
  },
  {
    what: "shared: a district the data cannot place",
    address: { city: "Петрівка", address1: "Шевченківський р-н, НП 1" },
    expect: "unsure",
  },
  { what: "shared: Юріївка with a typo", address: { city: "Юрївка", address1: "НП 3" }, expect: "unsure" },
  { what: "shared: Млини, a locker", address: { city: "Млини", address1: "поштомат 12" }, expect: "unsure" },

  // No branch said, or not said clearly enough.
  {
    what: "no branch: the carrier only",
    address: { city: "Київ", address1: "Нова Пошта" },
    expect: "unsure",
  },
  {
    what: "no branch: nearest to home",
    address: { city: "Харків", address1: "НП найближче до дому" },
    expect: "unsure",
  },
  { what: "no branch: a locker in Kyiv", address: { city: "Київ", address1: "поштомат" }, expect: "unsure" },
  {
    what: "no branch: freight in a city with many",
    address: { city: "Київ", address1: "вантажне відділення до 1000 кг" },
    expect: "unsure",
  },
  {
    what: "no branch: two АТБ lockers",
    address: { city: "Вишгород", address1: "поштомат в АТБ" },
    expect: "unsure",
    offer: [VYSHHOROD("6"), VYSHHOROD("9")],
  },
  {
    what: "no branch: two Сільпо lockers",
    address: { city: "Знам'янка", address1: "поштомат Сільпо" },
    expect: "unsure",
  },
  {
    what: "no branch: a shop with no locker",
    address: { city: "Вишгород", address1: "поштомат у Фора" },
    expect: "unsure",
  },
  {
    what: "no branch: a home address in Latin",
    address: { city: "Kyiv", address1: "Khreshchatyk 22, apt 5" },
    expect: "unsure",
  },
  {
    what: "no branch: a home address in Russian",
    address: { city: "Одесса", address1: "ул. Пушкинская 10, кв. 4" },
    expect: "unsure",
  },
  {
    what: "no branch: a street without a house",
    address: { city: "Полтава", address1: "вул. Шевченка" },
    expect: "unsure",
  },
  {
    what: "no branch: courier",
    address: { city: "Дніпро", address1: "кур'єром на адресу: вул. Робоча 15, кв 7" },
    expect: "unsure",
  },
  {
    what: "no branch: a phone number",
    address: { city: "Львів", address1: "НП, тел 0671234567" },
    expect: "unsure",
  },
  {
    what: "no branch: the flat only",
    address: { city: "Київ", address1: "вул. Саксаганського, буд 5, кв 12" },
    expect: "unsure",
  },
  {
    what: "no branch: office as a flat",
    address: { city: "Kyiv", address1: "Velyka Vasylkivska 100, office 15" },
    expect: "unsure",
  },
  {
    what: "no branch: a floor",
    address: { city: "Харків", address1: "вул. Сумська 1, поверх 3" },
    expect: "unsure",
  },
  { what: "no branch: no city", address: { city: "", address1: "НП 12" }, expect: "unsure" },
  {
    what: "no branch: a city not in the directory",
    address: { city: "Москва", address1: "НП 1" },
    expect: "unsure",
  },
  { what: "no branch: dash and nothing", address: { city: "Полтава", address1: "-" }, expect: "unsure" },
  {
    what: "no branch: the buyer will call",
    address: { city: "Вінниця", address1: "уточню по телефону" },
    expect: "unsure",
  },
  {
    what: "no branch: a range",
    address: { city: "Київ", address1: "будь-яке відділення 1-10" },
    expect: "unsure",
  },

  {
    what: "no branch: a branch asked for, only a locker in that shop",
    address: { city: "Вишгород", address1: "відділення біля Сільпо" },
    expect: "unsure",
    offer: [VYSHHOROD("5")],
  },
  {
    what: "no branch: a shop's name alone, a landmark perhaps",
    address: { city: "Вишгород", address1: "Сільпо" },
    expect: "unsure",
    offer: [VYSHHOROD("5")],
  },

  // Another carrier's branch: its number is not Nova Poshta's.
  {
    what: "other carrier: Укрпошта",
    address: { city: "Київ", address1: "Укрпошта відділення 12" },
    expect: "unsure",
  },
  {
    what: "other carrier: Укрпошта index",
    address: { city: "Харків", address1: "Укрпошта 61001" },
    expect: "unsure",
  },
  {
    what: "other carrier: Meest",
    address: { city: "Львів", address1: "Meest Express відділення 5" },
    expect: "unsure",
  },
  { what: "other carrier: Міст", address: { city: "Львів", address1: "Міст експрес 14" }, expect: "unsure" },
  {
    what: "other carrier: Укрпочта",
    address: { city: "Одесса", address1: "Укрпочта отделение 44" },
    expect: "unsure",
  },
  {
    what: "other carrier: Rozetka",
    address: { city: "Дніпро", address1: "Rozetka пункт видачі 3" },
    expect: "unsure",
  },
  {
    what: "other carrier: Ukrposhta in Latin",
    address: { city: "Kyiv", address1: "Ukrposhta branch 25" },
    expect: "unsure",
  },
  {
    what: "other carrier: Justin",
    address: { city: "Полтава", address1: "Justin відділення 2" },
    expect: "unsure",
  },
  // More of what real orders carry: the same traps, written other ways.
  {
    what: "shared: Стара Андріївка",
    address: { city: "Стара Андріївка", address1: "НП 2" },
    expect: "unsure",
  },
  {
    what: "shared: Нова Кирилівка",
    address: { city: "Нова Кирилівка", address1: "відділення 1" },
    expect: "unsure",
  },
  {
    what: "shared: Старомаксимівка",
    address: { city: "Старомаксимівка", address1: "Нова Пошта 1" },
    expect: "unsure",
  },
  {
    what: "shared: Стара Марківка",
    address: { city: "Стара Марківка", address1: "поштомат 6" },
    expect: "unsure",
  },
  { what: "shared: Великоюріївка", address: { city: "Великоюріївка", address1: "НП 1" }, expect: "unsure" },
  { what: "shared: Андріївка", address: { city: "Андріївка", address1: "НП 1" }, expect: "unsure" },
  { what: "shared: Дубровиця", address: { city: "Дубровиця", address1: "відділення №1" }, expect: "unsure" },
  { what: "shared: Михайлівка", address: { city: "Михайлівка", address1: "Нова пошта" }, expect: "unsure" },
  {
    what: "shared: Михайловка in Russian",
    address: { city: "Михайловка", address1: "Новая почта 1" },
    expect: "unsure",
  },
  { what: "shared: Гаврилівка", address: { city: "Гаврилівка", address1: "НП 1" }, expect: "unsure" },
  { what: "shared: Криниця", address: { city: "Криниця", address1: "НП 1" }, expect: "unsure" },
  { what: "shared: Павлівка", address: { city: "Павлівка", address1: "відділення 2" }, expect: "unsure" },
  { what: "shared: Тарасівка", address: { city: "Тарасовка", address1: "НП №1" }, expect: "unsure" },
  {
    what: "shared: Стара Андріївка in Latin",
    address: { city: "Stara Andriivka", address1: "Nova Poshta 1" },
    expect: "unsure",
  },
  { what: "shared: Дубовичі", address: { city: "Дубовичі", address1: "НП 3" }, expect: "unsure" },
  { what: "shared: Старе Зелене", address: { city: "Старе Зелене", address1: "НП 1" }, expect: "unsure" },
  {
    what: "shared: the village word before the name",
    address: { city: "село Юріївка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared: a district the data lacks",
    address: { city: "Калинове", address1: "Новоград-Волинський р-н, НП 1" },
    expect: "unsure",
  },
  {
    what: "shared: a postcode none of them has",
    address: { city: "Петрівка", zip: "65000", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "two numbers: a locker, or else a branch",
    address: { city: "Київ", address1: "поштомат 1200, якщо не влізе то відділення 12" },
    expect: "unsure",
  },
  {
    what: "two numbers: a branch in the note, another in address2",
    address: { city: "Одеса", address1: "", address2: "НП 15" },
    note: "або на 16",
    expect: "unsure",
  },
  {
    what: "two numbers: Russian, either",
    address: { city: "Харьков", address1: "Новая почта 31 или 32" },
    expect: "unsure",
    offer: [KHARKIV("31"), KHARKIV("32")],
  },
  { what: "two numbers: Latin slash", address: { city: "Kyiv", address1: "NP #40/#41" }, expect: "unsure" },
  {
    what: "two numbers: a structured one and the address's",
    address: { city: "Полтава", address1: "НП 8" },
    noteAttributes: [{ name: "np_warehouse_number", value: "9" }],
    expect: "unsure",
  },
  {
    what: "two numbers: the company field",
    address: { city: "Львів", address1: "НП 12", company: "НП 13" },
    expect: "unsure",
  },
  {
    what: "two numbers: not this one, that one",
    address: { city: "Дніпро", address1: "відділення 22 (не 23)" },
    expect: "unsure",
  },
  {
    what: "missing number: a small village",
    address: { city: "Олександрія", province: "Рівненська обл.", address1: "відділення 5" },
    expect: "unsure",
  },
  {
    what: "missing number: glued carrier word",
    address: { city: "Вишгород", address1: "новапошта 30" },
    expect: "unsure",
  },
  {
    what: "missing number: Latin",
    address: { city: "Vyshhorod", address1: "NP office 25" },
    expect: "unsure",
  },
  {
    what: "missing number: in the company",
    address: { city: "Берислав", company: "Нова Пошта 95" },
    expect: "unsure",
  },
  {
    what: "missing number: a postcode-like number after №",
    address: { city: "Суми", address1: "№40007" },
    expect: "unsure",
  },
  {
    what: "missing number: the house beside it is a branch's",
    address: { city: "Вишгород", address1: "поштомат 40, вул. Вокзальна 48" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Kharkiv in Latin",
    address: { city: "Kharkiv", province: "Kyivska oblast", address1: "NP 2" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: a Russian city field",
    address: { city: "г. Днепр, Запорожская обл.", address1: "отделение 4" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: brackets in Latin",
    address: { city: "Odesa (Lviv oblast)", address1: "NP 3" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: Вишгород in Чернігівська",
    address: { city: "Вишгород", province: "Чернігівська", address1: "вантажне до 1100 кг" },
    expect: "unsure",
  },
  {
    what: "oblast contradicts: shop locker",
    address: { city: "Вишгород", province: "Одеська обл.", address1: "поштомат Сільпо" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: Kharkiv's code for Kyiv",
    address: { city: "Київ", zip: "61001", address1: "НП 12" },
    expect: "unsure",
  },
  {
    what: "postcode contradicts: a Latin city",
    address: { city: "Lviv", zip: "65000", address1: "Nova Poshta 5" },
    expect: "unsure",
  },
  {
    what: "district contradicts: Russian",
    address: { city: "Житомир", address1: "Броварский район, отделение 3" },
    expect: "unsure",
  },
  {
    what: "no branch: a locker, no number",
    address: { city: "Одеса", address1: "поштомат Нової Пошти біля дому" },
    expect: "unsure",
  },
  {
    what: "no branch: a shop the town has twice",
    address: { city: "Знам'янка", address1: "поштомат в Фора" },
    expect: "unsure",
  },
  {
    what: "no branch: a petrol station",
    address: { city: "Вишгород", address1: "поштомат на АЗС" },
    expect: "unsure",
  },
  {
    what: "no branch: the buyer's street in Latin",
    address: { city: "Lviv", address1: "vul. Horodotska 120, kv 4" },
    expect: "unsure",
  },
  {
    what: "no branch: the nearest to a street",
    address: { city: "Полтава", address1: "найближче відділення до вул. Соборності" },
    expect: "unsure",
  },
  {
    what: "other carrier: Укрпошта in the note",
    address: { city: "Житомир", address1: "-" },
    note: "Укрпошта, відділення 10014",
    expect: "unsure",
  },
  {
    what: "other carrier: Meest in Latin",
    address: { city: "Kyiv", address1: "Meest 12" },
    expect: "unsure",
  },
  {
    what: "other carrier: Розетка",
    address: { city: "Київ", address1: "Розетка, точка видачі 77" },
    expect: "unsure",
  },
];

export const BUYERS_WRITE: readonly CorpusCase[] = [...CLEAR, ...NO_CHOICE];
