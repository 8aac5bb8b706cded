// An inbound delivery end to end over real HTTP: a product webhook puts the SKU's card at the warehouse (the
// worker's AddProduct), the merchant's form (the route's action, with the admin's session token) makes the
// delivery request once however often it is posted, the warehouse's staff receive part of it (the
// simulator's control API, `deliveries/receive`), and the request's page (its loader) shows planned against
// received and "partly received", then "received" once the rest arrives.
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { INBOUND_DELIVERY_METHOD, OPERATIONS } from "../../app/warehouse/wire";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { serveOnLoopback, type RouteServer } from "../support/route-server";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim/server";
import { eventually, SHOP, startOrderFlow, type OrderFlow } from "./harness";

const SHOP_NAME = SHOP.replace(".myshopify.com", "");
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

type RouteArgs = { request: Request; params: Record<string, string>; context: object };
type RouteModule = {
  loader?: (args: RouteArgs) => Promise<unknown>;
  action?: (args: RouteArgs) => Promise<unknown>;
};

// The pages reach the warehouse at the configured address (read once per process): one simulator for the
// file, emptied before each flow, which must not close it.
const sim = await startWarehouseSimulator();
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
const sharedSim = () => {
  sim.reset();
  return Object.create(sim, { close: { value: async () => {} } }) as WarehouseSimulator;
};

let fake: ShopifyFake;
let admin: RouteServer;
let flow: OrderFlow | undefined;

/** The deliveries pages' loaders and actions behind loopback HTTP, as the admin's browser reaches them. */
async function startAdminRoutes(): Promise<RouteServer> {
  const form = (await import("../../app/routes/app.deliveries.new")) as RouteModule;
  const detail = (await import("../../app/routes/app.deliveries.$id")) as RouteModule;
  return serveOnLoopback(async (request) => {
    const path = new URL(request.url).pathname;
    const match = /^\/app\/deliveries\/([^/]+)$/.exec(path);
    if (!match) return new Response("not found", { status: 404 });
    const module = match[1] === "new" ? form : detail;
    const run = request.method === "GET" ? module.loader : module.action;
    try {
      const answer = await run!({ request, params: { id: match[1]! }, context: {} });
      return answer instanceof Response ? answer : Response.json(answer);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  });
}

beforeAll(async () => {
  fake = await startShopifyFake({
    app: { apiKey: API_KEY, apiSecretKey: API_SECRET_KEY, scopes: "read_orders" },
  });
  routeShopifyTo(fake.url);
  fake.state.addShop({
    domain: SHOP,
    accessToken: "shpat_deliveries",
    name: "Київські товари",
    currencyCode: "UAH",
    ianaTimezone: "Europe/Kyiv",
    locales: [{ locale: "uk", primary: true }],
  });
  admin = await startAdminRoutes();
});
afterAll(async () => {
  await admin.close();
  routeShopifyTo(undefined);
  await fake.close();
  await sim.close();
});
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/** A request from the admin's page: its session token, as App Bridge's fetch sends it. */
async function adminFetch(path: string, init: { method?: string; body?: unknown } = {}) {
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
  return fetch(new URL(path, admin.url), {
    method: init.method ?? "GET",
    redirect: "manual",
    headers: {
      Authorization: `Bearer ${token}`,
      "User-Agent": BROWSER,
      ...(init.body !== undefined && { "Content-Type": "application/json" }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
}

interface DetailAnswer {
  delivery: {
    status: string;
    warehouseId: string | null;
    lines: { sku: string; count: number; received: number }[];
    totals: { planned: number; received: number };
  } | null;
}

async function detail(id: string): Promise<NonNullable<DetailAnswer["delivery"]>> {
  const response = await adminFetch(`/app/deliveries/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as DetailAnswer).delivery!;
}

function inDays(days: number): string {
  const date = new Date(Date.now() + 2 * 3_600_000);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe("an inbound delivery", { timeout: 60_000 }, () => {
  it("made in the app is received at the warehouse, part then all, and its page follows", async () => {
    flow = await startOrderFlow({ warehouse: sharedSim() });
    const { db } = appContext();
    // The product's card reaches the warehouse through the app's own catalogue flow.
    await flow.post({
      topic: "products/create",
      payload: {
        id: 7401,
        admin_graphql_api_id: "gid://shopify/Product/7401",
        title: "Рушник вишитий",
        status: "active",
        updated_at: new Date().toISOString(),
        variants: [
          {
            id: 8401,
            admin_graphql_api_id: "gid://shopify/ProductVariant/8401",
            title: "Default Title",
            sku: "TOWEL-1",
            barcode: null,
            inventory_item_id: 9401,
            price: "450.00",
          },
        ],
      },
    });
    await eventually(
      () => db.catalogueItem.findFirst({ where: { shop: SHOP, sku: "TOWEL-1", sentAt: { not: null } } }),
      "the card at the warehouse",
    );

    const blank = (await (await adminFetch("/app/deliveries/new")).json()) as { idRequest: string };
    const body = {
      idRequest: blank.idRequest,
      deliveryDate: inDays(2),
      method: "novaPoshta",
      seats: "3",
      ttn: "20450000000777",
      comment: "Три коробки",
      lines: [{ sku: "TOWEL-1", count: "50" }],
    };
    const first = await adminFetch("/app/deliveries/new", { method: "POST", body });
    expect(first.status).toBe(302);
    const location = first.headers.get("location")!;
    expect(location).toMatch(/^\/app\/deliveries\/[^/]+$/);
    // The same form posted again lands on the same request and sends nothing.
    const again = await adminFetch("/app/deliveries/new", { method: "POST", body });
    expect(again.headers.get("location")).toBe(location);
    expect(flow.sim.stats().requests[OPERATIONS.addDeliveryRequest]).toBe(1);
    const id = location.split("/").at(-1)!;

    const made = await detail(id);
    expect(made.status).toBe("new");
    const atWarehouse = flow.sim.store().deliveries.get(made.warehouseId!);
    expect(atWarehouse).toMatchObject({
      idRequest: blank.idRequest,
      deliveryMethod: INBOUND_DELIVERY_METHOD.novaPoshta,
      seatsAmount: "3",
      ttn: "20450000000777",
      comment: "Три коробки",
    });

    const receive = async (input: object) => {
      const response = await fetch(`${flow!.sim.controlUrl}/deliveries/receive`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: made.warehouseId, ...input }),
      });
      expect(response.status).toBe(200);
    };
    await receive({ products: [{ sku: "TOWEL-1", count: 35 }] });
    const partly = await detail(id);
    expect(partly.status).toBe("partlyReceived");
    expect(partly.lines).toEqual([expect.objectContaining({ sku: "TOWEL-1", count: 50, received: 35 })]);
    expect(partly.totals).toEqual(expect.objectContaining({ planned: 50, received: 35 }));

    await receive({});
    const received = await detail(id);
    expect(received.status).toBe("received");
    expect(received.lines).toEqual([expect.objectContaining({ sku: "TOWEL-1", count: 50, received: 50 })]);
  });

  it("refused beside its fields sends nothing", async () => {
    flow = await startOrderFlow({ warehouse: sharedSim() });
    const blank = (await (await adminFetch("/app/deliveries/new")).json()) as { idRequest: string };
    const response = await adminFetch("/app/deliveries/new", {
      method: "POST",
      body: {
        idRequest: blank.idRequest,
        deliveryDate: inDays(-3),
        method: "novaPoshta",
        seats: "1",
        ttn: "",
        comment: "",
        lines: [{ sku: "NOT-IN-CATALOGUE", count: "1" }],
      },
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { errors: Record<string, { key: string }> };
    expect(Object.keys(answer.errors).sort()).toEqual(["deliveryDate", "lines.0.sku", "ttn"]);
    expect(flow.sim.stats().requests[OPERATIONS.addDeliveryRequest] ?? 0).toBe(0);
    // Not JSON at all: refused as unreadable, nothing written.
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
    const garbled = await fetch(new URL("/app/deliveries/new", admin.url), {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "User-Agent": BROWSER,
        "Content-Type": "application/json",
      },
      body: "{not json",
    });
    expect(((await garbled.json()) as { errors: Record<string, { key: string }> }).errors.form?.key).toBe(
      "deliveries:form.error.unreadable",
    );
    expect(await appContext().db.inboundDelivery.count()).toBe(0);
  });
});
