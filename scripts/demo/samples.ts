// The demo store's catalogue and its sample orders: realistic Ukrainian customers, addresses and +380 phones,
// in hryvnias, paid on delivery or in advance, going by Nova Poshta (branch or parcel locker), Ukrposhta or
// the Kyiv courier, and a few the app must hold (a foreign phone, Nova Poshta without a branch). Pure data and
// the Shopify `orders/create` payload built from it; the unit tests map every sample through the app's own
// mapping, so a sample that stops meaning what it says fails there, not in front of a newcomer.
import type { HoldCode } from "../../app/orders/mapping";
import type { ReferenceData } from "../../test/warehouse-sim/reference-data";
import { KYIV_CITY_REF } from "../../test/warehouse-sim/reference-data";

export const DEMO_SHOP = "demo-magazyn.myshopify.com";
export const DEMO_SHOP_NAME = "Демо-магазин";

export interface DemoVariant {
  title?: string;
  sku: string;
  price: string;
  barcode?: string;
  /** What the warehouse holds (the simulator is seeded with it; the stock sync makes it Shopify's). */
  warehouseQuantity: number;
  /** What Shopify shows at the warehouse location before the first stock sync. */
  shopQuantity: number;
  /** What the Kyiv showroom holds in Shopify; absent: the showroom does not stock it. */
  showroomQuantity?: number;
}

export interface DemoProduct {
  title: string;
  vendor: string;
  variants: DemoVariant[];
  /**
   * Sold from the showroom only: stocked at the showroom in Shopify, never at the warehouse's location, unknown
   * to the warehouse (no card there, not in the simulator). Shopify routes its lines to the showroom.
   */
  showroomOnly?: boolean;
}

/** The demo store's second location: a showroom in Kyiv, where buyers pick up and some items are sold only. */
export const DEMO_SHOWROOM = {
  name: "Шоурум, Київ",
  address1: "вул. Ярославів Вал, 14",
  city: "Київ",
  zip: "01034",
} as const;

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    title: "Чашка керамічна «Карпати»",
    vendor: "Гончарня",
    variants: [
      {
        ...{ title: "Синя", sku: "CUP-KARP-BLUE", price: "350.00" },
        ...{ warehouseQuantity: 120, shopQuantity: 100, showroomQuantity: 6 },
      },
      { title: "Зелена", sku: "CUP-KARP-GREEN", price: "350.00", warehouseQuantity: 80, shopQuantity: 75 },
    ],
  },
  {
    title: "Чай трав'яний «Полонина» 100 г",
    vendor: "Полонина",
    variants: [{ sku: "TEA-POL-100", price: "189.50", warehouseQuantity: 300, shopQuantity: 250 }],
  },
  {
    title: "Вишиванка жіноча льняна",
    vendor: "Майстерня «Мережка»",
    variants: [
      { title: "S", sku: "VSH-W-S", price: "2450.00", warehouseQuantity: 14, shopQuantity: 10 },
      { title: "M", sku: "VSH-W-M", price: "2450.00", warehouseQuantity: 9, shopQuantity: 12 },
    ],
  },
  {
    title: "Мед гречаний 500 г",
    vendor: "Пасіка Бойків",
    variants: [{ sku: "HONEY-BUCK-500", price: "260.00", warehouseQuantity: 60, shopQuantity: 40 }],
  },
  {
    title: "Рушник лляний з орнаментом",
    vendor: "Майстерня «Мережка»",
    variants: [{ sku: "TOWEL-LINEN", price: "540.00", warehouseQuantity: 35, shopQuantity: 30 }],
  },
  {
    title: "Свічка соєва «Львів»",
    vendor: "Світло",
    variants: [
      { sku: "CANDLE-LVIV", price: "310.00", warehouseQuantity: 45, shopQuantity: 50, showroomQuantity: 8 },
    ],
  },
  {
    title: "Ваза керамічна «Опішня»",
    vendor: "Гончарня",
    showroomOnly: true,
    variants: [
      { sku: "VASE-OPISH", price: "1250.00", warehouseQuantity: 0, shopQuantity: 0, showroomQuantity: 5 },
    ],
  },
];

/** The SKUs only the showroom stocks: Shopify routes their lines there, never to the warehouse. */
export const SHOWROOM_ONLY_SKUS: ReadonlySet<string> = new Set(
  DEMO_PRODUCTS.filter((product) => product.showroomOnly).flatMap((product) =>
    product.variants.map((variant) => variant.sku),
  ),
);

export function demoVariant(sku: string): DemoVariant & { productTitle: string } {
  for (const product of DEMO_PRODUCTS) {
    const variant = product.variants.find((candidate) => candidate.sku === sku);
    if (variant) return { ...variant, productTitle: product.title };
  }
  throw new Error(`the demo catalogue has no SKU ${sku}`);
}

export interface SampleAddress {
  address1: string;
  address2?: string;
  city: string;
  province: string;
  zip: string;
  countryCode?: string;
}

export interface SampleOrder {
  /** Tells the samples apart in tests and logs. */
  key: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  address: SampleAddress;
  shipping: { title: string; code: string; price: string };
  gateway: string;
  financialStatus: "pending" | "paid";
  lines: Array<{ sku: string; quantity: number }>;
  noteAttributes: Array<{ name: string; value: string }>;
  note?: string;
  /** The hold reasons the app must give it; absent: it maps and goes to the warehouse. */
  held?: HoldCode[];
  /** What the mapping makes of it when it maps (of the warehouse's lines only, for a split order). */
  expected?: { payment: "cashOnDelivery" | "prepaid"; delivery: "novaPoshta" | "ukrposhta" | "kyivCourier" };
  /**
   * Where Shopify's routing sends it when not all of it is the warehouse's: "elsewhere", wholly to the showroom
   * (the app sends nothing); "split", some lines to the showroom (the app sends the warehouse's lines only).
   */
  routed?: "elsewhere" | "split";
  /**
   * The buyer chose to collect it at the showroom: Shopify assigns the whole order to the pickup location the
   * buyer chose (a PICK_UP fulfillment order there), whatever the routing list says. Absent: shipped, and each
   * line routed by the routing list.
   */
  pickup?: boolean;
}

const NOVA_POSHTA_BRANCH = { title: "Нова Пошта: у відділення", code: "nova-poshta-branch", price: "0.00" };
const NOVA_POSHTA_LOCKER = { title: "Нова Пошта: у поштомат", code: "nova-poshta-locker", price: "0.00" };
const UKRPOSHTA = { title: "Укрпошта: стандарт", code: "ukrposhta-standard", price: "45.00" };
const KYIV_COURIER = { title: "Кур'єр по Києву", code: "kyiv-courier", price: "120.00" };
const SHOWROOM_PICKUP = { title: "Самовивіз: шоурум, Київ", code: "pickup-showroom-kyiv", price: "0.00" };
const COD = "Накладений платіж";
const CARD = "Оплата карткою (LiqPay)";

function cityRef(reference: ReferenceData, name: string): string {
  const city = reference.findCities(name, 1)[0];
  if (!city) throw new Error(`the warehouse's reference data has no city ${name}`);
  return city.Ref;
}

/** A branch (or, with `locker`, a parcel locker) of the city, from the warehouse's own reference data. */
function branchOf(reference: ReferenceData, city: string, locker = false) {
  const branches = reference.branchesInCity(city);
  const branch = branches.find((candidate) => (candidate.CategoryOfWarehouse === "Postomat") === locker);
  if (!branch) throw new Error(`no ${locker ? "parcel locker" : "branch"} in city ${city}`);
  return branch;
}

function npAttributes(reference: ReferenceData, city: string, locker = false) {
  const branch = branchOf(reference, city, locker);
  return [
    { name: "_np_city_ref", value: city },
    { name: "_np_warehouse_ref", value: branch.Ref },
    { name: "_np_warehouse_label", value: branch.Description },
  ];
}

/** The samples, in the order the demo sends them (then round again with new numbers). */
export function sampleOrders(reference: ReferenceData): SampleOrder[] {
  const lviv = cityRef(reference, "Львів");
  const odesa = cityRef(reference, "Одеса");
  const kharkiv = cityRef(reference, "Харків");
  return [
    {
      key: "np-branch-cod",
      ...{ firstName: "Олена", lastName: "Коваленко", phone: "067 123 45 67" },
      email: "olena.kovalenko@example.com",
      address: {
        address1: "вул. Хрещатик, 22",
        address2: "кв. 5",
        city: "Київ",
        province: "Київ",
        zip: "01001",
      },
      shipping: NOVA_POSHTA_BRANCH,
      gateway: COD,
      financialStatus: "pending",
      lines: [
        { sku: "CUP-KARP-BLUE", quantity: 2 },
        { sku: "TEA-POL-100", quantity: 1 },
      ],
      noteAttributes: npAttributes(reference, KYIV_CITY_REF),
      note: "Зателефонуйте, будь ласка, перед відправкою.",
      expected: { payment: "cashOnDelivery", delivery: "novaPoshta" },
    },
    {
      key: "np-locker-prepaid",
      ...{ firstName: "Андрій", lastName: "Шевчук", phone: "+380 50 765 43 21" },
      email: "andrii.shevchuk@example.com",
      address: {
        address1: "вул. Городоцька, 15",
        city: "Львів",
        province: "Львівська область",
        zip: "79007",
      },
      shipping: NOVA_POSHTA_LOCKER,
      gateway: CARD,
      financialStatus: "paid",
      lines: [{ sku: "CANDLE-LVIV", quantity: 3 }],
      noteAttributes: npAttributes(reference, lviv, true),
      expected: { payment: "prepaid", delivery: "novaPoshta" },
    },
    {
      key: "ukrposhta-cod",
      ...{ firstName: "Марія", lastName: "Бондаренко", phone: "+380 93 555 12 34" },
      email: "maria.bondarenko@example.com",
      address: {
        address1: "вул. Дерибасівська, 7",
        city: "Одеса",
        province: "Одеська область",
        zip: "65026",
      },
      shipping: UKRPOSHTA,
      gateway: COD,
      financialStatus: "pending",
      lines: [
        { sku: "HONEY-BUCK-500", quantity: 2 },
        { sku: "TOWEL-LINEN", quantity: 1 },
      ],
      noteAttributes: [],
      expected: { payment: "cashOnDelivery", delivery: "ukrposhta" },
    },
    {
      key: "kyiv-courier-prepaid",
      ...{ firstName: "Тарас", lastName: "Мельник", phone: "+380 97 111 22 33" },
      email: "taras.melnyk@example.com",
      address: {
        address1: "вул. Велика Васильківська, 100",
        address2: "кв. 12",
        city: "Київ",
        province: "Київ",
        zip: "03150",
      },
      shipping: KYIV_COURIER,
      gateway: CARD,
      financialStatus: "paid",
      lines: [{ sku: "VSH-W-M", quantity: 1 }],
      noteAttributes: [],
      note: "Домофон 12, після 18:00.",
      expected: { payment: "prepaid", delivery: "kyivCourier" },
    },
    {
      key: "foreign-phone",
      ...{ firstName: "Ірина", lastName: "Ткаченко", phone: "+48 601 234 567" },
      email: "iryna.tkachenko@example.com",
      address: { address1: "просп. Науки, 30", city: "Харків", province: "Харківська область", zip: "61072" },
      shipping: NOVA_POSHTA_BRANCH,
      gateway: COD,
      financialStatus: "pending",
      lines: [{ sku: "VSH-W-S", quantity: 1 }],
      noteAttributes: npAttributes(reference, kharkiv),
      held: ["phone_invalid"],
    },
    {
      key: "np-branch-prepaid",
      ...{ firstName: "Дмитро", lastName: "Кравченко", phone: "063 987 65 43" },
      email: "dmytro.kravchenko@example.com",
      address: {
        address1: "вул. Пушкінська, 40",
        city: "Харків",
        province: "Харківська область",
        zip: "61057",
      },
      shipping: NOVA_POSHTA_BRANCH,
      gateway: CARD,
      financialStatus: "paid",
      lines: [
        { sku: "CUP-KARP-GREEN", quantity: 4 },
        { sku: "HONEY-BUCK-500", quantity: 1 },
      ],
      noteAttributes: npAttributes(reference, kharkiv),
      expected: { payment: "prepaid", delivery: "novaPoshta" },
    },
    {
      key: "missing-branch",
      ...{ firstName: "Наталія", lastName: "Савченко", phone: "+380 66 404 40 40" },
      email: "natalia.savchenko@example.com",
      address: {
        address1: "вул. Преображенська, 9",
        city: "Одеса",
        province: "Одеська область",
        zip: "65045",
      },
      shipping: NOVA_POSHTA_BRANCH,
      gateway: COD,
      financialStatus: "pending",
      lines: [{ sku: "TEA-POL-100", quantity: 2 }],
      // The cart's branch picker was skipped: the city is known, the branch is not.
      noteAttributes: [{ name: "_np_city_ref", value: odesa }],
      held: ["branch_missing"],
    },
    {
      // Collected at the showroom, which stocks these too: Shopify assigns it there, so the warehouse, which
      // stocks them as well (and would take them), gets nothing of it.
      key: "showroom-pickup",
      ...{ firstName: "Оксана", lastName: "Литвиненко", phone: "+380 68 222 33 44" },
      email: "oksana.lytvynenko@example.com",
      address: { address1: "вул. Ярославів Вал, 14", city: "Київ", province: "Київ", zip: "01034" },
      shipping: SHOWROOM_PICKUP,
      gateway: CARD,
      financialStatus: "paid",
      lines: [
        { sku: "CANDLE-LVIV", quantity: 2 },
        { sku: "CUP-KARP-BLUE", quantity: 1 },
      ],
      noteAttributes: [],
      routed: "elsewhere",
      pickup: true,
    },
    {
      // A vase the showroom alone holds, with a cup from the warehouse: the warehouse sends the cups only.
      key: "split-np-prepaid",
      ...{ firstName: "Богдан", lastName: "Гнатюк", phone: "+380 95 303 30 30" },
      email: "bohdan.hnatiuk@example.com",
      address: {
        address1: "вул. Грушевського, 5",
        city: "Львів",
        province: "Львівська область",
        zip: "79005",
      },
      shipping: NOVA_POSHTA_BRANCH,
      gateway: CARD,
      financialStatus: "paid",
      lines: [
        { sku: "CUP-KARP-GREEN", quantity: 2 },
        { sku: "VASE-OPISH", quantity: 1 },
      ],
      noteAttributes: npAttributes(reference, lviv),
      expected: { payment: "prepaid", delivery: "novaPoshta" },
      routed: "split",
    },
  ];
}

const money = (amount: string) => ({
  shop_money: { amount, currency_code: "UAH" },
  presentment_money: { amount, currency_code: "UAH" },
});

const cents = (amount: string) => Math.round(Number(amount) * 100);
const fromCents = (value: number) => (value / 100).toFixed(2);

/** Shopify's ids of the order as the fake store made it, so that the app's fulfillment finds it there. */
export interface PlacedOrder {
  /** Numeric id, as the webhook's `id`. */
  id: number;
  graphqlId: string;
  number: number;
  lineItemIds: number[];
  createdAt: Date;
}

/** The `orders/create` webhook payload of a sample, as Shopify sends it. */
export function samplePayload(sample: SampleOrder, placed: PlacedOrder): Record<string, unknown> {
  const lines = sample.lines.map((line, index) => {
    const variant = demoVariant(line.sku);
    const lineId = placed.lineItemIds[index] ?? placed.id * 10 + index;
    return {
      id: lineId,
      admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
      current_quantity: line.quantity,
      fulfillable_quantity: line.quantity,
      fulfillment_service: "manual",
      fulfillment_status: null,
      gift_card: false,
      grams: 300,
      name: variant.title ? `${variant.productTitle} - ${variant.title}` : variant.productTitle,
      price: variant.price,
      price_set: money(variant.price),
      product_exists: true,
      properties: [],
      quantity: line.quantity,
      requires_shipping: true,
      sku: line.sku,
      taxable: true,
      title: variant.productTitle,
      total_discount: "0.00",
      variant_title: variant.title ?? null,
      vendor: DEMO_PRODUCTS.find((product) => product.title === variant.productTitle)?.vendor ?? null,
      tax_lines: [],
      discount_allocations: [],
    };
  });
  const subtotal = sample.lines.reduce(
    (sum, line) => sum + cents(demoVariant(line.sku).price) * line.quantity,
    0,
  );
  const total = fromCents(subtotal + cents(sample.shipping.price));
  const at = placed.createdAt.toISOString();
  const name = `${sample.firstName} ${sample.lastName}`;
  const address = {
    first_name: sample.firstName,
    last_name: sample.lastName,
    name,
    company: null,
    address1: sample.address.address1,
    address2: sample.address.address2 ?? null,
    city: sample.address.city,
    province: sample.address.province,
    zip: sample.address.zip,
    country: "Ukraine",
    country_code: sample.address.countryCode ?? "UA",
    phone: sample.phone,
  };
  return {
    id: placed.id,
    admin_graphql_api_id: placed.graphqlId,
    name: `#${placed.number}`,
    order_number: placed.number,
    number: placed.number - 1000,
    confirmed: true,
    created_at: at,
    processed_at: at,
    updated_at: at,
    cancelled_at: null,
    cancel_reason: null,
    currency: "UAH",
    presentment_currency: "UAH",
    customer_locale: "uk",
    email: sample.email,
    contact_email: sample.email,
    phone: null,
    financial_status: sample.financialStatus,
    fulfillment_status: null,
    payment_gateway_names: [sample.gateway],
    note: sample.note ?? null,
    note_attributes: sample.noteAttributes,
    source_name: "web",
    tags: "",
    test: false,
    taxes_included: true,
    subtotal_price: fromCents(subtotal),
    current_subtotal_price: fromCents(subtotal),
    current_subtotal_price_set: money(fromCents(subtotal)),
    total_line_items_price: fromCents(subtotal),
    total_price: total,
    total_price_set: money(total),
    current_total_price: total,
    current_total_price_set: money(total),
    total_outstanding: sample.financialStatus === "paid" ? "0.00" : total,
    total_discounts: "0.00",
    current_total_discounts: "0.00",
    total_tax: "0.00",
    current_total_tax: "0.00",
    total_shipping_price_set: money(sample.shipping.price),
    customer: {
      id: placed.id + 1,
      email: sample.email,
      first_name: sample.firstName,
      last_name: sample.lastName,
      phone: null,
      currency: "UAH",
    },
    billing_address: address,
    shipping_address: address,
    line_items: lines,
    shipping_lines: [
      {
        id: placed.id + 2,
        code: sample.shipping.code,
        title: sample.shipping.title,
        source: "shopify",
        price: sample.shipping.price,
        discounted_price: sample.shipping.price,
        price_set: money(sample.shipping.price),
        is_removed: false,
        carrier_identifier: null,
        tax_lines: [],
        discount_allocations: [],
      },
    ],
    discount_codes: [],
    discount_applications: [],
    fulfillments: [],
    refunds: [],
  };
}

/** The demo shop's order settings (saved as the merchant would on Settings): a rule of each kind. */
export const DEMO_MAPPING = {
  paymentRules: [{ match: "LiqPay", method: "prepaid" as const }],
  deliveryRules: [{ match: "kyiv-courier", method: "kyivCourier" as const }],
  idOrderPrefix: "DEMO-",
  sendNoteAsComment: true,
};
