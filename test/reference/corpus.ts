// The address matcher's corpus: how Ukrainian buyers and other checkout apps really write a delivery to a
// Nova Poshta branch, against the simulator's default reference data (test/warehouse-sim/reference-data.ts).
// Each case names the branch it must give readably (city, region, number); corpus.test.ts resolves that to
// a Ref and fails loudly when the data has no such branch. "unsure" means the order cannot tell (a village
// name several regions share, no region given): the matcher must not be confident of any branch.
//
// In structured data (note, note attributes) "{branchRef}" and "{cityRef}" stand for the expected branch's
// and its city's Refs, "{unknownRef}" for a well-formed Ref the data does not have.

import { BUYERS_WRITE } from "./corpus-buyers";
import type { CorpusCase } from "./corpus-case";

export type { CorpusAddress, CorpusCase, ExpectedBranch } from "./corpus-case";

export const UNKNOWN_REF = "0badc0de-0000-1000-8000-000000000000";

/** Written by hand: structured data other checkout apps leave, and writings the generated rows lack. */
const HAND_WRITTEN: CorpusCase[] = [
  {
    what: "structured: carrier objects in the note",
    address: { city: "Київ", address1: "Нова Пошта" },
    note: '{"np":{"city":{"Ref":"{cityRef}","Description":"Київ"},"warehouse":{"Ref":"{branchRef}","Number":"12"}}}',
    expect: { city: "Київ", area: "Київська", number: "12" },
  },
  {
    what: "structured: settlement Ref and branch number in a note attribute",
    address: { city: "Харків", address1: "" },
    noteAttributes: [{ name: "np_delivery", value: '{"settlementRef":"{cityRef}","warehouseNumber":"5"}' }],
    expect: { city: "Харків", area: "Харківська", number: "5" },
  },
  {
    what: "structured: a branch Ref alone outweighs an address naming another city",
    address: { city: "Київ", address1: "НП 1" },
    noteAttributes: [{ name: "warehouse_ref", value: "{branchRef}" }],
    expect: { city: "Одеса", area: "Одеська", number: "23" },
  },
  {
    what: "structured: JSON embedded in the note's text, city name and branch text",
    address: { city: "", address1: "" },
    note: 'Дані доставки: {"city":"Дніпро","warehouse":"Відділення №37: вул. Українська, 67"} дякую!',
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "37" },
  },
  {
    what: "structured: plain note attributes named in Ukrainian",
    address: { city: "Lviv" },
    noteAttributes: [
      { name: "Місто", value: "Львів" },
      { name: "Відділення", value: 'Поштомат "Нова Пошта" №250: вул. Сихівська, 75' },
    ],
    expect: { city: "Львів", area: "Львівська", number: "250" },
  },
  {
    what: "structured: a branch Ref under a key that says city",
    address: { city: "Запоріжжя" },
    note: '{"delivery":{"city":"{branchRef}"}}',
    expect: { city: "Запоріжжя", area: "Запорізька", number: "150" },
  },
  {
    what: "structured: an unknown Ref is ignored, the address decides",
    address: { city: "Запоріжжя", address1: "НП 48" },
    noteAttributes: [{ name: "np", value: '{"warehouseRef":"{unknownRef}"}' }],
    expect: { city: "Запоріжжя", area: "Запорізька", number: "48" },
  },
  {
    what: "structured: a shared village name told apart by its Ref",
    address: { city: "Березівка" },
    noteAttributes: [{ name: "delivery", value: '{"cityRef":"{cityRef}","warehouse_number":"1"}' }],
    expect: { city: "Березівка", area: "Херсонська", number: "1" },
  },
  {
    what: "structured: a list of typed objects",
    address: { city: "Харків" },
    note: '{"np":[{"type":"city","ref":"{cityRef}"},{"type":"warehouse","number":"48"}]}',
    expect: { city: "Харків", area: "Харківська", number: "48" },
  },
  {
    what: "structured: Russian descriptions only",
    address: {},
    note: '{"city":{"DescriptionRu":"Одесса"},"warehouse":{"DescriptionRu":"Отделение №15 (до 1000 кг): ул. Замковая, 2"}}',
    expect: { city: "Одеса", area: "Одеська", number: "15" },
  },
  {
    what: "structured: JSON after a label in a note attribute, the number a JSON number",
    address: { city: "Poltava" },
    noteAttributes: [{ name: "shipping", value: 'NP: {"CityName":"Полтава","WarehouseNumber":7}' }],
    expect: { city: "Полтава", area: "Полтавська", number: "7" },
  },
  {
    what: "structured: a village's Ref and a parcel locker number",
    address: { city: "Миколаївка" },
    note: '{"recipient":{"settlement":{"ref":"{cityRef}"},"postomat":{"number":"7"}}}',
    expect: { city: "Миколаївка", area: "Івано-Франківська", number: "7" },
  },
  {
    what: "city only in address1",
    address: { city: "", address1: "м. Полтава, Нова Пошта 7" },
    expect: { city: "Полтава", area: "Полтавська", number: "7" },
  },
  {
    what: "a bare number in address2",
    address: { city: "Рівне", address1: "Нова пошта", address2: "12" },
    expect: { city: "Рівне", area: "Рівненська", number: "12" },
  },
  {
    what: "number before the word",
    address: { city: "Суми", address1: "12 відділення нової пошти" },
    expect: { city: "Суми", area: "Сумська", number: "12" },
  },
  {
    what: "parcel locker in a Russian note",
    address: { city: "Миколаївка", province: "Ивано-Франковская обл.", address1: "-" },
    note: "Почтомат 8, позвонить заранее",
    expect: { city: "Миколаївка", area: "Івано-Франківська", number: "8" },
  },
  {
    what: "city with region, the issue's own example",
    address: { city: "с. Миколаївка, Івано-Франківська обл.", address1: "Відділення №3" },
    expect: { city: "Миколаївка", area: "Івано-Франківська", number: "3" },
  },
  {
    what: "house number and flat before the branch number",
    address: { city: "Київ", address1: "вул. Хрещатик 22, кв. 5", address2: "НП 37" },
    expect: { city: "Київ", area: "Київська", number: "37" },
  },
  {
    what: "branch by street address with a typo in the street",
    address: { city: "Київ", address1: "вул. Одесська 48" },
    expect: { city: "Київ", area: "Київська", number: "1" },
  },
  {
    what: "Kyiv's branch words in English",
    address: { city: "Kyiv", address1: "Nova Poshta warehouse No. 101" },
    expect: { city: "Київ", area: "Київська", number: "101" },
  },
  {
    what: "branch by street address in Latin with the street word",
    address: { city: "Kyiv", address1: "vul. Odeska, 48" },
    expect: { city: "Київ", area: "Київська", number: "1" },
  },
  {
    what: "a home address (courier-like), no branch: no confident match",
    address: { city: "Київ", address1: "вул. Хрещатик 22, кв. 5" },
    expect: "unsure",
  },
  {
    what: "nothing but the city: no confident match",
    address: { city: "Харків", address1: "" },
    expect: "unsure",
  },
  {
    what: "a branch number the city does not have: no confident match",
    address: { city: "Полтава", address1: "НП 9999" },
    expect: "unsure",
  },
  {
    what: "a phone number and the branch in the note",
    address: { city: "Вінниця", address1: "" },
    note: "тел. 067 123 45 67, НП 15",
    expect: { city: "Вінниця", area: "Вінницька", number: "15" },
  },
];

/** Generated once from the reference data with varied templates, then kept as written here. */
const GENERATED: CorpusCase[] = [
  {
    what: "city uk, number in address1",
    address: { city: "Київ", address1: "НП 24" },
    expect: { city: "Київ", area: "Київська", number: "24" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Киев", address1: "вул. Гагаріна 4 кв 17", address2: "Нова Пошта №31" },
    expect: { city: "Київ", area: "Київська", number: "31" },
  },
  {
    what: "number in company",
    address: { city: "м. Київ", address1: "", company: "відділення 19" },
    expect: { city: "Київ", area: "Київська", number: "19" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Харьков", address1: "вул. Шевченка, 15, кв. 3", address2: "Відділення №27" },
    expect: { city: "Харків", area: "Харківська", number: "27" },
  },
  {
    what: "number in company",
    address: { city: "м. Харків", address1: "", company: "НП №15" },
    expect: { city: "Харків", area: "Харківська", number: "15" },
  },
  {
    what: "number in the note",
    address: { city: "г. Харьков", address1: "-" },
    note: "Доставка: нова пошта відділення 29, дзвонити перед відправкою",
    expect: { city: "Харків", area: "Харківська", number: "29" },
  },
  {
    what: "number in company",
    address: { city: "м. Одеса", address1: "", company: "НП1" },
    expect: { city: "Одеса", area: "Одеська", number: "1" },
  },
  {
    what: "number in the note",
    address: { city: "г. Одесса", address1: "-" },
    note: "Доставка: №27, дзвонити перед відправкою",
    expect: { city: "Одеса", area: "Одеська", number: "27" },
  },
  {
    what: "city in Latin",
    address: { city: "Odesa", address1: "Nova Poshta 55" },
    expect: { city: "Одеса", area: "Одеська", number: "55" },
  },
  {
    what: "number in the note",
    address: { city: "г. Днепр", address1: "-" },
    note: "Доставка: Новая почта отделение 43, дзвонити перед відправкою",
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "43" },
  },
  {
    what: "city in Latin",
    address: { city: "Dnipro", address1: "NP branch #46" },
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "46" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Дніпро", province: "Дніпропетровська область", address1: "отделение №17" },
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "17" },
  },
  {
    what: "city in Latin",
    address: { city: "Lviv", address1: "Nova Poshta 16" },
    expect: { city: "Львів", area: "Львівська", number: "16" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Львів", province: "Львівська область", address1: "НП відд.41" },
    expect: { city: "Львів", area: "Львівська", number: "41" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Львів", address1: "Склад №15" },
    expect: { city: "Львів", area: "Львівська", number: "15" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Запоріжжя", province: "Запорізька область", address1: "НП 1" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "1" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Запоріжжя", address1: "Нова Пошта №19" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "19" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Запорожье", address1: "пр. Миру 21/3", address2: "відділення 20" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "20" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Кривий Ріг", address1: "Відділення №53" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "53" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Кривой Рог", address1: "вул. Гагаріна 4 кв 17", address2: "НП №22" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "22" },
  },
  {
    what: "number in company",
    address: { city: "м. Кривий Ріг", address1: "", company: "нова пошта відділення 43" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "43" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Николаев", address1: "вул. Шевченка, 15, кв. 3", address2: "НП10" },
    expect: { city: "Миколаїв", area: "Миколаївська", number: "10" },
  },
  {
    what: "number in company",
    address: { city: "м. Миколаїв", address1: "", company: "№48" },
    expect: { city: "Миколаїв", area: "Миколаївська", number: "48" },
  },
  {
    what: "number in the note",
    address: { city: "г. Николаев", address1: "-" },
    note: "Доставка: #39, дзвонити перед відправкою",
    expect: { city: "Миколаїв", area: "Миколаївська", number: "39" },
  },
  {
    what: "number in company",
    address: { city: "м. Вінниця", address1: "", company: "Новая почта отделение 20" },
    expect: { city: "Вінниця", area: "Вінницька", number: "20" },
  },
  {
    what: "number in the note",
    address: { city: "г. Винница", address1: "-" },
    note: "Доставка: отд. 2, дзвонити перед відправкою",
    expect: { city: "Вінниця", area: "Вінницька", number: "2" },
  },
  {
    what: "city in Latin",
    address: { city: "Vinnytsia", address1: "Nova Poshta 51" },
    expect: { city: "Вінниця", area: "Вінницька", number: "51" },
  },
  {
    what: "number in the note",
    address: { city: "г. Чернигов", address1: "-" },
    note: "Доставка: Нова пошта, від. 15, дзвонити перед відправкою",
    expect: { city: "Чернігів", area: "Чернігівська", number: "15" },
  },
  {
    what: "city in Latin",
    address: { city: "Chernihiv", address1: "NP branch #39" },
    expect: { city: "Чернігів", area: "Чернігівська", number: "39" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Чернігів", province: "Чернігівська область", address1: "Склад №17" },
    expect: { city: "Чернігів", area: "Чернігівська", number: "17" },
  },
  {
    what: "city in Latin",
    address: { city: "Poltava", address1: "Nova Poshta 2" },
    expect: { city: "Полтава", area: "Полтавська", number: "2" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Полтава", province: "Полтавська область", address1: "Нова Пошта №58" },
    expect: { city: "Полтава", area: "Полтавська", number: "58" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Полтава", address1: "відділення 10" },
    expect: { city: "Полтава", area: "Полтавська", number: "10" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Хмельницький", province: "Хмельницька область", address1: "Відділення №52" },
    expect: { city: "Хмельницький", area: "Хмельницька", number: "52" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Хмельницький", address1: "НП №39" },
    expect: { city: "Хмельницький", area: "Хмельницька", number: "39" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Хмельницкий", address1: "пр. Миру 21/3", address2: "нова пошта відділення 43" },
    expect: { city: "Хмельницький", area: "Хмельницька", number: "43" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Черкаси", address1: "НП41" },
    expect: { city: "Черкаси", area: "Черкаська", number: "41" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Черкассы", address1: "вул. Гагаріна 4 кв 17", address2: "№2" },
    expect: { city: "Черкаси", area: "Черкаська", number: "2" },
  },
  {
    what: "number in company",
    address: { city: "м. Черкаси", address1: "", company: "#30" },
    expect: { city: "Черкаси", area: "Черкаська", number: "30" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Черновцы", address1: "вул. Шевченка, 15, кв. 3", address2: "Новая почта отделение 30" },
    expect: { city: "Чернівці", area: "Чернівецька", number: "30" },
  },
  {
    what: "number in company",
    address: { city: "м. Чернівці", address1: "", company: "отд. 39" },
    expect: { city: "Чернівці", area: "Чернівецька", number: "39" },
  },
  {
    what: "number in the note",
    address: { city: "г. Черновцы", address1: "-" },
    note: "Доставка: отделение №41, дзвонити перед відправкою",
    expect: { city: "Чернівці", area: "Чернівецька", number: "41" },
  },
  {
    what: "number in company",
    address: { city: "м. Житомир", address1: "", company: "Нова пошта, від. 46" },
    expect: { city: "Житомир", area: "Житомирська", number: "46" },
  },
  {
    what: "number in the note",
    address: { city: "г. Житомир", address1: "-" },
    note: "Доставка: НП відд.19, дзвонити перед відправкою",
    expect: { city: "Житомир", area: "Житомирська", number: "19" },
  },
  {
    what: "city in Latin",
    address: { city: "Zhytomyr", address1: "Nova Poshta 15" },
    expect: { city: "Житомир", area: "Житомирська", number: "15" },
  },
  {
    what: "number in the note",
    address: { city: "г. Сумы", address1: "-" },
    note: "Доставка: НП 51, дзвонити перед відправкою",
    expect: { city: "Суми", area: "Сумська", number: "51" },
  },
  {
    what: "city in Latin",
    address: { city: "Sumy", address1: "NP branch #20" },
    expect: { city: "Суми", area: "Сумська", number: "20" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Суми", province: "Сумська область", address1: "відділення 24" },
    expect: { city: "Суми", area: "Сумська", number: "24" },
  },
  {
    what: "city in Latin",
    address: { city: "Rivne", address1: "Nova Poshta 17" },
    expect: { city: "Рівне", area: "Рівненська", number: "17" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Рівне", province: "Рівненська область", address1: "НП №27" },
    expect: { city: "Рівне", area: "Рівненська", number: "27" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Рівне", address1: "нова пошта відділення 51" },
    expect: { city: "Рівне", area: "Рівненська", number: "51" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Івано-Франківськ", province: "Івано-Франківська область", address1: "НП6" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "6" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Івано-Франківськ", address1: "№23" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "23" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Ивано-Франковск", address1: "пр. Миру 21/3", address2: "#32" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "32" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Тернопіль", address1: "Новая почта отделение 28" },
    expect: { city: "Тернопіль", area: "Тернопільська", number: "28" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Тернополь", address1: "вул. Гагаріна 4 кв 17", address2: "отд. 34" },
    expect: { city: "Тернопіль", area: "Тернопільська", number: "34" },
  },
  {
    what: "number in company",
    address: { city: "м. Тернопіль", address1: "", company: "отделение №42" },
    expect: { city: "Тернопіль", area: "Тернопільська", number: "42" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Кропивницкий", address1: "вул. Шевченка, 15, кв. 3", address2: "Нова пошта, від. 12" },
    expect: { city: "Кропивницький", area: "Кіровоградська", number: "12" },
  },
  {
    what: "number in company",
    address: { city: "м. Кропивницький", address1: "", company: "НП відд.37" },
    expect: { city: "Кропивницький", area: "Кіровоградська", number: "37" },
  },
  {
    what: "number in the note",
    address: { city: "г. Кропивницкий", address1: "-" },
    note: "Доставка: Склад №19, дзвонити перед відправкою",
    expect: { city: "Кропивницький", area: "Кіровоградська", number: "19" },
  },
  {
    what: "number in company",
    address: { city: "м. Луцьк", address1: "", company: "НП 38" },
    expect: { city: "Луцьк", area: "Волинська", number: "38" },
  },
  {
    what: "number in the note",
    address: { city: "г. Луцк", address1: "-" },
    note: "Доставка: Нова Пошта №3, дзвонити перед відправкою",
    expect: { city: "Луцьк", area: "Волинська", number: "3" },
  },
  {
    what: "city in Latin",
    address: { city: "Lutsk", address1: "Nova Poshta 19" },
    expect: { city: "Луцьк", area: "Волинська", number: "19" },
  },
  {
    what: "number in the note",
    address: { city: "г. Кременчуг", address1: "-" },
    note: "Доставка: Відділення №6, дзвонити перед відправкою",
    expect: { city: "Кременчук", area: "Полтавська", number: "6" },
  },
  {
    what: "city in Latin",
    address: { city: "Kremenchuk", address1: "NP branch #54" },
    expect: { city: "Кременчук", area: "Полтавська", number: "54" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Кременчук", province: "Полтавська область", address1: "нова пошта відділення 51" },
    expect: { city: "Кременчук", area: "Полтавська", number: "51" },
  },
  {
    what: "city in Latin",
    address: { city: "Bila Tserkva", address1: "Nova Poshta 1" },
    expect: { city: "Біла Церква", area: "Київська", number: "1" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Біла Церква", province: "Київська область", address1: "№34" },
    expect: { city: "Біла Церква", area: "Київська", number: "34" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Біла Церква", address1: "#24" },
    expect: { city: "Біла Церква", area: "Київська", number: "24" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Херсон", province: "Херсонська область", address1: "Новая почта отделение 16" },
    expect: { city: "Херсон", area: "Херсонська", number: "16" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Херсон", address1: "отд. 32" },
    expect: { city: "Херсон", area: "Херсонська", number: "32" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Херсон", address1: "пр. Миру 21/3", address2: "отделение №10" },
    expect: { city: "Херсон", area: "Херсонська", number: "10" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Ужгород", address1: "Нова пошта, від. 20" },
    expect: { city: "Ужгород", area: "Закарпатська", number: "20" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Ужгород", address1: "вул. Гагаріна 4 кв 17", address2: "НП відд.21" },
    expect: { city: "Ужгород", area: "Закарпатська", number: "21" },
  },
  {
    what: "number in company",
    address: { city: "м. Ужгород", address1: "", company: "Склад №30" },
    expect: { city: "Ужгород", area: "Закарпатська", number: "30" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Ковель", address1: "вул. Шевченка, 15, кв. 3", address2: "НП 30" },
    expect: { city: "Ковель", area: "Волинська", number: "30" },
  },
  {
    what: "number in company",
    address: { city: "м. Ковель", address1: "", company: "Нова Пошта №5" },
    expect: { city: "Ковель", area: "Волинська", number: "5" },
  },
  {
    what: "number in company",
    address: { city: "м. Ніжин", address1: "", company: "відділення 11" },
    expect: { city: "Ніжин", area: "Чернігівська", number: "11" },
  },
  {
    what: "number in the note",
    address: { city: "г. Нежин", address1: "-" },
    note: "Доставка: Відділення №31, дзвонити перед відправкою",
    expect: { city: "Ніжин", area: "Чернігівська", number: "31" },
  },
  {
    what: "number in the note",
    address: { city: "г. Смела", address1: "-" },
    note: "Доставка: НП №1, дзвонити перед відправкою",
    expect: { city: "Сміла", area: "Черкаська", number: "1" },
  },
  {
    what: "city in Latin",
    address: { city: "Smila", address1: "NP branch #29" },
    expect: { city: "Сміла", area: "Черкаська", number: "29" },
  },
  {
    what: "city in Latin",
    address: { city: "Kalush", address1: "Nova Poshta 32" },
    expect: { city: "Калуш", area: "Івано-Франківська", number: "32" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Калуш", province: "Івано-Франківська область", address1: "№1" },
    expect: { city: "Калуш", area: "Івано-Франківська", number: "1" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Ірпінь", province: "Київська область", address1: "#31" },
    expect: { city: "Ірпінь", area: "Київська", number: "31" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Ірпінь", address1: "Новая почта отделение 8" },
    expect: { city: "Ірпінь", area: "Київська", number: "8" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Бориспіль", address1: "отд. 30" },
    expect: { city: "Бориспіль", area: "Київська", number: "30" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Борисполь", address1: "вул. Гагаріна 4 кв 17", address2: "отделение №6" },
    expect: { city: "Бориспіль", area: "Київська", number: "6" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Коростень", address1: "вул. Шевченка, 15, кв. 3", address2: "Нова пошта, від. 32" },
    expect: { city: "Коростень", area: "Житомирська", number: "32" },
  },
  {
    what: "number in company",
    address: { city: "м. Коростень", address1: "", company: "НП відд.2" },
    expect: { city: "Коростень", area: "Житомирська", number: "2" },
  },
  {
    what: "number in company",
    address: { city: "м. Коломия", address1: "", company: "Склад №10" },
    expect: { city: "Коломия", area: "Івано-Франківська", number: "10" },
  },
  {
    what: "number in the note",
    address: { city: "г. Коломыя", address1: "-" },
    note: "Доставка: НП 15, дзвонити перед відправкою",
    expect: { city: "Коломия", area: "Івано-Франківська", number: "15" },
  },
  {
    what: "number in the note",
    address: { city: "г. Стрый", address1: "-" },
    note: "Доставка: Нова Пошта №26, дзвонити перед відправкою",
    expect: { city: "Стрий", area: "Львівська", number: "26" },
  },
  {
    what: "city in Latin",
    address: { city: "Stryi", address1: "NP branch #24" },
    expect: { city: "Стрий", area: "Львівська", number: "24" },
  },
  {
    what: "city in Latin",
    address: { city: "Pryluky", address1: "Nova Poshta 3" },
    expect: { city: "Прилуки", area: "Чернігівська", number: "3" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Прилуки", province: "Чернігівська область", address1: "НП №35" },
    expect: { city: "Прилуки", area: "Чернігівська", number: "35" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Лозова", province: "Харківська область", address1: "нова пошта відділення 2" },
    expect: { city: "Лозова", area: "Харківська", number: "2" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Лозова", address1: "НП22" },
    expect: { city: "Лозова", area: "Харківська", number: "22" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Охтирка", address1: "№21" },
    expect: { city: "Охтирка", area: "Сумська", number: "21" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Ахтырка", address1: "вул. Гагаріна 4 кв 17", address2: "#13" },
    expect: { city: "Охтирка", area: "Сумська", number: "13" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Лубны", address1: "вул. Шевченка, 15, кв. 3", address2: "Новая почта отделение 20" },
    expect: { city: "Лубни", area: "Полтавська", number: "20" },
  },
  {
    what: "number in company",
    address: { city: "м. Лубни", address1: "", company: "отд. 11" },
    expect: { city: "Лубни", area: "Полтавська", number: "11" },
  },
  {
    what: "number in company",
    address: { city: "м. Фастів", address1: "", company: "отделение №16" },
    expect: { city: "Фастів", area: "Київська", number: "16" },
  },
  {
    what: "number in the note",
    address: { city: "г. Фастов", address1: "-" },
    note: "Доставка: Нова пошта, від. 17, дзвонити перед відправкою",
    expect: { city: "Фастів", area: "Київська", number: "17" },
  },
  {
    what: "number in the note",
    address: { city: "г. Изюм", address1: "-" },
    note: "Доставка: НП відд.22, дзвонити перед відправкою",
    expect: { city: "Ізюм", area: "Харківська", number: "22" },
  },
  {
    what: "city in Latin",
    address: { city: "Izium", address1: "NP branch #27" },
    expect: { city: "Ізюм", area: "Харківська", number: "27" },
  },
  {
    what: "city in Latin",
    address: { city: "Myrhorod", address1: "Nova Poshta 26" },
    expect: { city: "Миргород", area: "Полтавська", number: "26" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Миргород", province: "Полтавська область", address1: "Нова Пошта №22" },
    expect: { city: "Миргород", area: "Полтавська", number: "22" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Ромни", province: "Сумська область", address1: "відділення 21" },
    expect: { city: "Ромни", area: "Сумська", number: "21" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Ромни", address1: "Відділення №3" },
    expect: { city: "Ромни", area: "Сумська", number: "3" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Буча", address1: "НП №8" },
    expect: { city: "Буча", area: "Київська", number: "8" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Буча", address1: "вул. Гагаріна 4 кв 17", address2: "нова пошта відділення 11" },
    expect: { city: "Буча", area: "Київська", number: "11" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Дубно", address1: "вул. Шевченка, 15, кв. 3", address2: "НП4" },
    expect: { city: "Дубно", area: "Рівненська", number: "4" },
  },
  {
    what: "number in company",
    address: { city: "м. Дубно", address1: "", company: "№23" },
    expect: { city: "Дубно", area: "Рівненська", number: "23" },
  },
  {
    what: "number in company",
    address: { city: "м. Самбір", address1: "", company: "#3" },
    expect: { city: "Самбір", area: "Львівська", number: "3" },
  },
  {
    what: "number in the note",
    address: { city: "г. Самбор", address1: "-" },
    note: "Доставка: Новая почта отделение 18, дзвонити перед відправкою",
    expect: { city: "Самбір", area: "Львівська", number: "18" },
  },
  {
    what: "number in the note",
    address: { city: "г. Жмеринка", address1: "-" },
    note: "Доставка: отд. 4, дзвонити перед відправкою",
    expect: { city: "Жмеринка", area: "Вінницька", number: "4" },
  },
  {
    what: "city in Latin",
    address: { city: "Zhmerynka", address1: "NP branch #8" },
    expect: { city: "Жмеринка", area: "Вінницька", number: "8" },
  },
  {
    what: "city in Latin",
    address: { city: "Obukhiv", address1: "Nova Poshta 1" },
    expect: { city: "Обухів", area: "Київська", number: "1" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Обухів", province: "Київська область", address1: "НП відд.13" },
    expect: { city: "Обухів", area: "Київська", number: "13" },
  },
  {
    what: "number in address1 with the province",
    address: { city: "Чугуїв", province: "Харківська область", address1: "Склад №2" },
    expect: { city: "Чугуїв", area: "Харківська", number: "2" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Чугуїв", address1: "НП 4" },
    expect: { city: "Чугуїв", area: "Харківська", number: "4" },
  },
  {
    what: "city uk, number in address1",
    address: { city: "Трускавець", address1: "Нова Пошта №2" },
    expect: { city: "Трускавець", area: "Львівська", number: "2" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Трускавец", address1: "вул. Гагаріна 4 кв 17", address2: "відділення 13" },
    expect: { city: "Трускавець", area: "Львівська", number: "13" },
  },
  {
    what: "city ru, number in address2 after a home address",
    address: { city: "Хуст", address1: "вул. Шевченка, 15, кв. 3", address2: "Відділення №5" },
    expect: { city: "Хуст", area: "Закарпатська", number: "5" },
  },
  {
    what: "number in company",
    address: { city: "м. Хуст", address1: "", company: "НП №9" },
    expect: { city: "Хуст", area: "Закарпатська", number: "9" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Київ", address1: "вул. Борщагівська, 17Б" },
    expect: { city: "Київ", area: "Київська", number: "33" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Харьков", address1: "ул. Героев Небесной Сотни 104В" },
    expect: { city: "Харків", area: "Харківська", number: "23" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Odesa", address1: "Pylypa Orlyka 1" },
    expect: { city: "Одеса", area: "Одеська", number: "81" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Дніпро", address1: "" },
    note: "Нова пошта на вул. Торгова 24/3",
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "2" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Львів", address1: "вул. Стрийська, 5" },
    expect: { city: "Львів", area: "Львівська", number: "31" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Запорожье", address1: "ул. Остапа Вишни 11" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "70" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Kryvyi Rih", address1: "Kooperatyvna 54" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "33" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Миколаїв", address1: "" },
    note: "Нова пошта на вул. Володимира Великого 108/4",
    expect: { city: "Миколаїв", area: "Миколаївська", number: "15" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Вінниця", address1: "вул. Чумацька, 118" },
    expect: { city: "Вінниця", area: "Вінницька", number: "14" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Чернигов", address1: "пер. Харьковский 5" },
    expect: { city: "Чернігів", area: "Чернігівська", number: "21" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Poltava", address1: "Lypova 47V" },
    expect: { city: "Полтава", area: "Полтавська", number: "39" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Хмельницький", address1: "" },
    note: "Нова пошта на вул. Лісова 57",
    expect: { city: "Хмельницький", area: "Хмельницька", number: "51" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Черкаси", address1: "вул. Михайла Вербицького, 39" },
    expect: { city: "Черкаси", area: "Черкаська", number: "57" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Черновцы", address1: "пер. Львовский 3" },
    expect: { city: "Чернівці", area: "Чернівецька", number: "6" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Zhytomyr", address1: "Ivana Franka 9/2" },
    expect: { city: "Житомир", area: "Житомирська", number: "53" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Суми", address1: "" },
    note: "Нова пошта на вул. Конституції 92",
    expect: { city: "Суми", area: "Сумська", number: "64" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Рівне", address1: "пров. Захисників України, 106" },
    expect: { city: "Рівне", area: "Рівненська", number: "61" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Ивано-Франковск", address1: "ул. Героев Чернобыля 35" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "60" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Ternopil", address1: "Zatyshna 23" },
    expect: { city: "Тернопіль", area: "Тернопільська", number: "34" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Кропивницький", address1: "" },
    note: "Нова пошта на вул. Робітнича 13",
    expect: { city: "Кропивницький", area: "Кіровоградська", number: "5" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Ковель", address1: "пл. Кирила і Мефодія, 23" },
    expect: { city: "Ковель", area: "Волинська", number: "8" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Нежин", address1: "ул. Звездная 22" },
    expect: { city: "Ніжин", area: "Чернігівська", number: "4" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Smila", address1: "Solomii Krushelnytskoi 33/5" },
    expect: { city: "Сміла", area: "Черкаська", number: "26" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Калуш", address1: "" },
    note: "Нова пошта на вул. Промислова 8",
    expect: { city: "Калуш", area: "Івано-Франківська", number: "55" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Ірпінь", address1: "вул. Слобідська, 2" },
    expect: { city: "Ірпінь", area: "Київська", number: "33" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Борисполь", address1: "ул. Свободы 41Б" },
    expect: { city: "Бориспіль", area: "Київська", number: "65" },
  },
  {
    what: "branch by street address, Latin",
    address: { city: "Korosten", address1: "Konstytutsii 51" },
    expect: { city: "Коростень", area: "Житомирська", number: "52" },
  },
  {
    what: "branch by street address in the note",
    address: { city: "Коломия", address1: "" },
    note: "Нова пошта на вул. Петра Дорошенка 24",
    expect: { city: "Коломия", area: "Івано-Франківська", number: "15" },
  },
  {
    what: "branch by street address, Ukrainian",
    address: { city: "Стрий", address1: "вул. Козацька, 86" },
    expect: { city: "Стрий", area: "Львівська", number: "28" },
  },
  {
    what: "branch by street address, Russian",
    address: { city: "Прилуки", address1: "ул. Солнечная 71" },
    expect: { city: "Прилуки", area: "Чернігівська", number: "15" },
  },
  {
    what: "parcel locker",
    address: { city: "Київ", address1: "поштомат 1407" },
    expect: { city: "Київ", area: "Київська", number: "1407" },
  },
  {
    what: "parcel locker",
    address: { city: "Харьков", address1: "почтомат №975" },
    expect: { city: "Харків", area: "Харківська", number: "975" },
  },
  {
    what: "parcel locker",
    address: { city: "Одеса", address1: "Поштомат НП №350" },
    expect: { city: "Одеса", area: "Одеська", number: "350" },
  },
  {
    what: "parcel locker",
    address: { city: "Днепр", address1: "postomat 560" },
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "560" },
  },
  {
    what: "parcel locker",
    address: { city: "Львів", address1: 'Поштомат "Нова Пошта" №267' },
    expect: { city: "Львів", area: "Львівська", number: "267" },
  },
  {
    what: "parcel locker",
    address: { city: "Запорожье", address1: "пт 420" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "420" },
  },
  {
    what: "parcel locker",
    address: { city: "Кривий Ріг", address1: "поштомат 397" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "397" },
  },
  {
    what: "parcel locker",
    address: { city: "Николаев", address1: "почтомат №197" },
    expect: { city: "Миколаїв", area: "Миколаївська", number: "197" },
  },
  {
    what: "parcel locker",
    address: { city: "Вінниця", address1: "Поштомат НП №339" },
    expect: { city: "Вінниця", area: "Вінницька", number: "339" },
  },
  {
    what: "parcel locker",
    address: { city: "Чернигов", address1: "postomat 192" },
    expect: { city: "Чернігів", area: "Чернігівська", number: "192" },
  },
  {
    what: "parcel locker",
    address: { city: "Полтава", address1: 'Поштомат "Нова Пошта" №159' },
    expect: { city: "Полтава", area: "Полтавська", number: "159" },
  },
  {
    what: "parcel locker",
    address: { city: "Хмельницкий", address1: "пт 107" },
    expect: { city: "Хмельницький", area: "Хмельницька", number: "107" },
  },
  {
    what: "parcel locker",
    address: { city: "Черкаси", address1: "поштомат 133" },
    expect: { city: "Черкаси", area: "Черкаська", number: "133" },
  },
  {
    what: "parcel locker",
    address: { city: "Черновцы", address1: "почтомат №202" },
    expect: { city: "Чернівці", area: "Чернівецька", number: "202" },
  },
  {
    what: "parcel locker",
    address: { city: "Житомир", address1: "Поштомат НП №211" },
    expect: { city: "Житомир", area: "Житомирська", number: "211" },
  },
  {
    what: "parcel locker",
    address: { city: "Сумы", address1: "postomat 223" },
    expect: { city: "Суми", area: "Сумська", number: "223" },
  },
  {
    what: "parcel locker",
    address: { city: "Рівне", address1: 'Поштомат "Нова Пошта" №136' },
    expect: { city: "Рівне", area: "Рівненська", number: "136" },
  },
  {
    what: "parcel locker",
    address: { city: "Ивано-Франковск", address1: "пт 193" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "193" },
  },
  {
    what: "typo in the city",
    address: { city: "Харььков", address1: "Нова Пошта №12" },
    expect: { city: "Харків", area: "Харківська", number: "12" },
  },
  {
    what: "typo in the city",
    address: { city: "Оедса", address1: "відділення 32" },
    expect: { city: "Одеса", area: "Одеська", number: "32" },
  },
  {
    what: "typo in the city",
    address: { city: "Днерп", address1: "Відділення №14" },
    expect: { city: "Дніпро", area: "Дніпропетровська", number: "14" },
  },
  {
    what: "typo in the city",
    address: { city: "Льівв", address1: "НП №2" },
    expect: { city: "Львів", area: "Львівська", number: "2" },
  },
  {
    what: "typo in the city",
    address: { city: "Запрожье", address1: "нова пошта відділення 37" },
    expect: { city: "Запоріжжя", area: "Запорізька", number: "37" },
  },
  {
    what: "typo in the city",
    address: { city: "Кривийй Ріг", address1: "НП 5" },
    expect: { city: "Кривий Ріг", area: "Дніпропетровська", number: "5" },
  },
  {
    what: "typo in the city",
    address: { city: "Никколаев", address1: "Нова Пошта №32" },
    expect: { city: "Миколаїв", area: "Миколаївська", number: "32" },
  },
  {
    what: "typo in the city",
    address: { city: "Віннниця", address1: "відділення 31" },
    expect: { city: "Вінниця", area: "Вінницька", number: "31" },
  },
  {
    what: "typo in the city",
    address: { city: "Черниов", address1: "Відділення №29" },
    expect: { city: "Чернігів", area: "Чернігівська", number: "29" },
  },
  {
    what: "typo in the city",
    address: { city: "Полтаа", address1: "НП №32" },
    expect: { city: "Полтава", area: "Полтавська", number: "32" },
  },
  {
    what: "typo in the city",
    address: { city: "Хмельнцкий", address1: "нова пошта відділення 7" },
    expect: { city: "Хмельницький", area: "Хмельницька", number: "7" },
  },
  {
    what: "typo in the city",
    address: { city: "Чрекаси", address1: "НП 30" },
    expect: { city: "Черкаси", area: "Черкаська", number: "30" },
  },
  {
    what: "typo in the city",
    address: { city: "Черноцвы", address1: "Нова Пошта №4" },
    expect: { city: "Чернівці", area: "Чернівецька", number: "4" },
  },
  {
    what: "typo in the city",
    address: { city: "Жиомир", address1: "відділення 35" },
    expect: { city: "Житомир", area: "Житомирська", number: "35" },
  },
  {
    what: "typo in the city",
    address: { city: "Рінве", address1: "НП №24" },
    expect: { city: "Рівне", area: "Рівненська", number: "24" },
  },
  {
    what: "typo in the city",
    address: { city: "Ивно-Франковск", address1: "нова пошта відділення 26" },
    expect: { city: "Івано-Франківськ", area: "Івано-Франківська", number: "26" },
  },
  {
    what: "typo in the city",
    address: { city: "Тернпіль", address1: "НП 13" },
    expect: { city: "Тернопіль", area: "Тернопільська", number: "13" },
  },
  {
    what: "typo in the city",
    address: { city: "Копивницкий", address1: "Нова Пошта №1" },
    expect: { city: "Кропивницький", area: "Кіровоградська", number: "1" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Кам'янське", address1: "НП 2" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "2" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Камʼянське", address1: "Нова Пошта №5" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "5" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Кам’янське", address1: "відділення 8" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "8" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Камянське", address1: "Відділення №11" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "11" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Каменское", address1: "НП №14" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "14" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Kamianske", address1: "нова пошта відділення 17" },
    expect: { city: "Кам'янське", area: "Дніпропетровська", number: "17" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Слов'янськ", address1: "НП 2" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "2" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Словʼянськ", address1: "Нова Пошта №5" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "5" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Слов’янськ", address1: "відділення 8" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "8" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Словянськ", address1: "Відділення №11" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "11" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Славянск", address1: "НП №14" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "14" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Sloviansk", address1: "нова пошта відділення 17" },
    expect: { city: "Слов'янськ", area: "Донецька", number: "17" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Кам'янець-Подільський", address1: "НП 2" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "2" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Камʼянець-Подільський", address1: "Нова Пошта №5" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "5" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Кам’янець-Подільський", address1: "відділення 8" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "8" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Камянець-Подільський", address1: "Відділення №11" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "11" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Каменец-Подольский", address1: "НП №14" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "14" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Kamianets-Podilskyi", address1: "нова пошта відділення 17" },
    expect: { city: "Кам'янець-Подільський", area: "Хмельницька", number: "17" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Знам'янка", address1: "НП 2" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "2" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Знамʼянка", address1: "Нова Пошта №5" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "5" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Знам’янка", address1: "відділення 8" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "8" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Знамянка", address1: "Відділення №11" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "11" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Знаменка", address1: "НП №14" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "14" },
  },
  {
    what: "apostrophe variant",
    address: { city: "Znamianka", address1: "нова пошта відділення 2" },
    expect: { city: "Знам'янка", area: "Кіровоградська", number: "2" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Верхнє Озерне", province: "Вінницька обл.", address1: "НП 1" },
    expect: { city: "Верхнє Озерне", area: "Вінницька", number: "1" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Березівка, Київська область", address1: "НП №1" },
    expect: { city: "Березівка", area: "Київська", number: "1" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Старая Андреевка", province: "Винницкая область", address1: "почтомат 10" },
    expect: { city: "Стара Андріївка", area: "Вінницька", number: "10" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Borshchovychi", province: "Chernivetska oblast", address1: "Nova Poshta 1" },
    expect: { city: "Борщовичі", area: "Чернівецька", number: "1" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Калинове", address1: "НП 2", address2: "Харківська обл., р-н" },
    expect: { city: "Калинове", area: "Харківська", number: "2" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Нова Василівка", province: "Чернівецька обл.", address1: "поштомат 5" },
    expect: { city: "Нова Василівка", area: "Чернівецька", number: "5" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Нова Кирилівка, Вінницька область", address1: "НП №1" },
    expect: { city: "Нова Кирилівка", area: "Вінницька", number: "1" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Млыны", province: "Черкасская область", address1: "почтомат 13" },
    expect: { city: "Млини", area: "Черкаська", number: "13" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Stare Zelene", province: "Vinnytska oblast", address1: "Nova Poshta 1" },
    expect: { city: "Старе Зелене", area: "Вінницька", number: "1" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Марківка", address1: "НП 10", address2: "Полтавська обл., р-н" },
    expect: { city: "Марківка", area: "Полтавська", number: "10" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Гута", province: "Кіровоградська обл.", address1: "поштомат 43" },
    expect: { city: "Гута", area: "Кіровоградська", number: "43" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Олексіївка, Чернівецька область", address1: "поштомат №9" },
    expect: { city: "Олексіївка", area: "Чернівецька", number: "9" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Криница", province: "Винницкая область", address1: "Новая почта 4" },
    expect: { city: "Криниця", area: "Вінницька", number: "4" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Staromaksymivka", province: "Dnipropetrovska oblast", address1: "Nova Poshta 7" },
    expect: { city: "Старомаксимівка", area: "Дніпропетровська", number: "7" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Стара Марківка", address1: "поштомат 9", address2: "Вінницька обл., р-н" },
    expect: { city: "Стара Марківка", area: "Вінницька", number: "9" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Великоюріївка", province: "Чернігівська обл.", address1: "НП 1" },
    expect: { city: "Великоюріївка", area: "Чернігівська", number: "1" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Рудня, Черкаська область", address1: "поштомат №5" },
    expect: { city: "Рудня", area: "Черкаська", number: "5" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Дмитровка", province: "Полтавская область", address1: "Новая почта 1" },
    expect: { city: "Дмитрівка", area: "Полтавська", number: "1" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Havrylivka", province: "Mykolaivska oblast", address1: "Nova Poshta 1" },
    expect: { city: "Гаврилівка", area: "Миколаївська", number: "1" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Дубовичі", address1: "поштомат 8", address2: "Херсонська обл., р-н" },
    expect: { city: "Дубовичі", area: "Херсонська", number: "8" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Нижнє Підлісся", province: "Вінницька обл.", address1: "НП 1" },
    expect: { city: "Нижнє Підлісся", area: "Вінницька", number: "1" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Гай, Полтавська область", address1: "поштомат №45" },
    expect: { city: "Гай", area: "Полтавська", number: "45" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Малое Городище", province: "Винницкая область", address1: "Новая почта 1" },
    expect: { city: "Мале Городище", area: "Вінницька", number: "1" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Kalynivka", province: "Poltavska oblast", address1: "Nova Poshta 12" },
    expect: { city: "Калинівка", area: "Полтавська", number: "12" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Нижнє Степове", address1: "поштомат 8", address2: "Вінницька обл., р-н" },
    expect: { city: "Нижнє Степове", area: "Вінницька", number: "8" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Липівка", province: "Волинська обл.", address1: "НП 1" },
    expect: { city: "Липівка", area: "Волинська", number: "1" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Лозуватка, Волинська область", address1: "НП №2" },
    expect: { city: "Лозуватка", area: "Волинська", number: "2" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Павловка", province: "Одесская область", address1: "Новая почта 1" },
    expect: { city: "Павлівка", area: "Одеська", number: "1" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Velyke Zaluzhzhia", province: "Zakarpatska oblast", address1: "Nova Poshta 1" },
    expect: { city: "Велике Залужжя", area: "Закарпатська", number: "1" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Зоря", address1: "НП 2", address2: "Харківська обл., р-н" },
    expect: { city: "Зоря", area: "Харківська", number: "2" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Хутір", province: "Волинська обл.", address1: "поштомат 2" },
    expect: { city: "Хутір", area: "Волинська", number: "2" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Дубровиця, Одеська область", address1: "НП №1" },
    expect: { city: "Дубровиця", area: "Одеська", number: "1" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Тарасовка", province: "Запорожская область", address1: "Новая почта 1" },
    expect: { city: "Тарасівка", area: "Запорізька", number: "1" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Dubivka", province: "Poltavska oblast", address1: "Nova Poshta 5" },
    expect: { city: "Дубівка", area: "Полтавська", number: "5" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Запруддя", address1: "НП 1", address2: "Закарпатська обл., р-н" },
    expect: { city: "Запруддя", area: "Закарпатська", number: "1" },
  },
  {
    what: "shared name, region in province",
    address: { city: "с. Юріївка", province: "Полтавська обл.", address1: "НП 6" },
    expect: { city: "Юріївка", area: "Полтавська", number: "6" },
  },
  {
    what: "shared name, region in the city field",
    address: { city: "Андріївка, Волинська область", address1: "НП №1" },
    expect: { city: "Андріївка", area: "Волинська", number: "1" },
  },
  {
    what: "shared name, Russian region",
    address: { city: "Слобода", province: "Одесская область", address1: "Новая почта 4" },
    expect: { city: "Слобода", area: "Одеська", number: "4" },
  },
  {
    what: "shared name, Latin region",
    address: { city: "Vyshnivka", province: "Cherkaska oblast", address1: "Nova Poshta 6" },
    expect: { city: "Вишнівка", area: "Черкаська", number: "6" },
  },
  {
    what: "shared name, region in address2",
    address: { city: "Матвіївка", address1: "НП 1", address2: "Сумська обл., р-н" },
    expect: { city: "Матвіївка", area: "Сумська", number: "1" },
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Стара Андріївка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Нова Василівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Старе Зелене", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Олексіївка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Стара Марківка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Дмитрівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Нижнє Підлісся", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Калинівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Лозуватка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Зоря", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Тарасівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Юріївка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Вишнівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Світле", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Миронівка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Полянка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Новолозуватка", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Великий Гай", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Нове Калинове", address1: "НП 1" },
    expect: "unsure",
  },
  {
    what: "shared name without region: no confident match",
    address: { city: "Розівка", address1: "НП 1" },
    expect: "unsure",
  },
];

export const CORPUS: readonly CorpusCase[] = [...HAND_WRITTEN, ...GENERATED, ...BUYERS_WRITE];
