// The matchers intake gives the mapping (app/reference/order-matcher.server.ts), over the shop's stored
// reference data in the real database: a courier order that gives no city Ref goes to the city its address
// names, said on the timeline; one that chose its city, or a shop without reference data, goes as before.
import { beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { KYIV_CITY_REF } from "../../app/orders/settings";
import { orderMatchersFor } from "../../app/reference/order-matcher.server";
import { fromWarehouseRecords } from "../../app/reference/records";
import { REFERENCE_SOURCE } from "../../app/reference/kinds.server";
import { saveReferenceSet } from "../../app/reference/store.server";
import { FIXTURE_ORDER, inEnglishWords } from "../support/orders";
import { defaultReferenceData } from "../warehouse-sim/reference-data";

const SHOP = "kyiv-goods.myshopify.com";
const BARE_SHOP = "new-goods.myshopify.com";
const sim = defaultReferenceData();
const data = fromWarehouseRecords(sim.cities, sim.branches);
const lviv = sim.cities.filter((city) => city.Description === "Львів");

beforeEach(async () => {
  const { db } = appContext();
  await db.shopSettings.create({ data: { shop: SHOP, apiKeyDigest: "digest-kyiv-goods" } });
  // No key saved yet: no reference data to read (the shared set is read by shops with a key).
  await db.shopSettings.create({ data: { shop: BARE_SHOP, apiKeyDigest: null } });
  await saveReferenceSet(db, REFERENCE_SOURCE, data, new Date());
});

let number = 2000;
function courierOrder(address: Record<string, unknown>, attributes: { name: string; value: string }[] = []) {
  const id = 6123456780000 + ++number;
  return shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${number}`,
    order_number: number,
    note_attributes: attributes,
    shipping_lines: [{ title: "Кур'єр", code: null, source: "shopify" }],
    shipping_address: { ...FIXTURE_ORDER.shipping_address, ...address },
  });
}

async function takeIn(shop: string, order: ReturnType<typeof courierOrder>) {
  const context = appContext();
  await takeInOrderWebhook(context, { shop, topic: "orders/create", eventId: `e-${order.id}`, order });
  const row = await context.db.warehouseOrder.findFirstOrThrow({
    where: { shop, shopifyOrderId: String(order.id) },
    include: { events: { orderBy: { at: "asc" } } },
  });
  return row;
}

const toLviv = {
  city: "Львів",
  province: "Львівська область",
  zip: "79000",
  address1: "вул. Городоцька, 15",
  address2: null,
};

describe("a courier order's city", () => {
  it("is the city its address names, when the shop's reference data knows it surely, and the timeline says so", async () => {
    expect(lviv).toHaveLength(1);
    const row = await takeIn(SHOP, courierOrder(toLviv));
    expect(row.state).toBe("ready");
    expect(JSON.parse(row.mapped!).delivery_address).toEqual({
      DeliveryCity: lviv[0]!.Ref,
      Street: "вул. Городоцька",
      House: "15",
    });
    const found = row.events.find((event) => event.kind === "city_found");
    expect(inEnglishWords(found?.message)).toMatch(
      /^Courier city Львів.* found from the shipping address, \d+ % sure\.$/,
    );
  });

  it("is the buyer's choice from the cart when there is one, with nothing on the timeline", async () => {
    const chosen = [{ name: "_np_city_ref", value: KYIV_CITY_REF }];
    const row = await takeIn(SHOP, courierOrder(toLviv, chosen));
    expect(JSON.parse(row.mapped!).delivery_address.DeliveryCity).toBe(KYIV_CITY_REF);
    expect(row.events.map((event) => event.kind)).not.toContain("city_found");
  });

  it("is Kyiv for a shop without reference data, as before there was a matcher", async () => {
    const row = await takeIn(BARE_SHOP, courierOrder(toLviv));
    expect(JSON.parse(row.mapped!).delivery_address.DeliveryCity).toBe(KYIV_CITY_REF);
  });
});

describe("orderMatchersFor", () => {
  const deps = () => ({ db: appContext().db, log: appContext().log });

  it("reads nothing for an order that chose both its branch and its city", async () => {
    const order = shopifyOrderSchema.parse(FIXTURE_ORDER);
    expect(await orderMatchersFor(deps(), SHOP, order)).toEqual({ branchMatcher: null, cityMatcher: null });
  });

  it("gives only the matcher the order leaves a choice to", async () => {
    const noCity = courierOrder(toLviv, [{ name: "_np_warehouse_ref", value: data.branches[0]!.ref }]);
    const matchers = await orderMatchersFor(deps(), SHOP, noCity);
    expect(matchers.branchMatcher).toBeNull();
    expect(matchers.cityMatcher?.(noCity).cityRef).toBe(lviv[0]!.Ref);
    const corrected = await orderMatchersFor(deps(), SHOP, courierOrder(toLviv), {
      courier: { cityRef: KYIV_CITY_REF, street: "вул. Хрещатик", house: "22" },
    });
    expect(corrected.cityMatcher).toBeNull();
    expect(corrected.branchMatcher).not.toBeNull();
  });
});
