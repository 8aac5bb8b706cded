// The client against the simulator over real HTTP: every operation, every error class, both rate
// limits, batch splitting and in-doubt marking. What the client sends and what the simulator answers
// are both checked against the provider's OpenAPI file wherever it defines a shape.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createWarehouseClient,
  requestApiKey,
  type WarehouseClientOptions,
  type WarehouseExchange,
} from "../../app/warehouse/client.server";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseNetworkError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseServerError,
  WarehouseTimeout,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
} from "../../app/warehouse/errors";
import { MemoryRateLimitStore, WarehouseRateLimiter } from "../../app/warehouse/limiter.server";
import type { WarehouseOrder } from "../../app/warehouse/schemas";
import {
  DELIVERY_METHOD,
  DELIVERY_REQUEST_COMMENT_FIELD,
  INBOUND_DELIVERY_METHOD,
  OPERATIONS,
  PAYMENT_METHOD,
  type OperationName,
} from "../../app/warehouse/wire";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim";
import { KYIV_CITY_REF } from "../warehouse-sim/reference-data";
import { openApiDefines, openApiProblems } from "./openapi";

// 11:00 in Kyiv on a Tuesday.
const T0 = Date.parse("2026-11-17T09:00:00Z");
const MINUTE = 60_000;

let sim: WarehouseSimulator;
let branchRef: string;
let exchanges: WarehouseExchange[];

beforeAll(async () => {
  sim = await startWarehouseSimulator({ clockFrozenAt: T0 });
  branchRef = sim.reference.branchesInCity(KYIV_CITY_REF)[0]!.Ref;
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  sim.clock.set(T0);
  sim.seedProducts([
    { sku: "TEA-001", name: "Чай зелений", quantity: 1000 },
    { sku: "CUP-002", name: "Чашка", quantity: 1000 },
  ]);
  exchanges = [];
});

/** A client on the simulator, limits on the simulator's clock, every exchange recorded. */
function client(options: Partial<WarehouseClientOptions> = {}) {
  return createWarehouseClient({
    apiKey: sim.apiKey,
    endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 30_000 },
    limiter: new WarehouseRateLimiter(new MemoryRateLimitStore(), { now: () => sim.clock.now() }),
    onExchange: (exchange) => exchanges.push(exchange),
    ...options,
  });
}

/** A client whose own limiter lets everything through, to see the simulator enforce the limits. */
function unlimitedClient(options: Partial<WarehouseClientOptions> = {}) {
  const limiter = new WarehouseRateLimiter(new MemoryRateLimitStore(), {
    limits: { requestsPerWindow: Number.MAX_SAFE_INTEGER, reportRequestsPerWindow: 0 },
  });
  return client({ limiter, ...options });
}

function order(id: string, overrides: Partial<WarehouseOrder> = {}): WarehouseOrder {
  return {
    id_order: id,
    external_id: `gid://shopify/Order/${id}`,
    date_order: "17.11.2026",
    recipient: "Шевченко Тарас",
    rec_phone: "380671234567",
    comment: "",
    Cost: 450,
    PayerType: "Recipient",
    payment_method: PAYMENT_METHOD.cashOnDelivery,
    order_payment_sum: "450",
    delivery_method: DELIVERY_METHOD.novaPoshta,
    delivery_address: { WarehouseRef: branchRef },
    products: [
      { sku: "TEA-001", name: "Чай зелений", count: "2", price: "150" },
      { sku: "CUP-002", name: "Чашка", count: "1", price: "150" },
    ],
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<WarehouseError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WarehouseError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** Every request sent and every successful answer fits the provider's file where it defines one. */
function expectExchangesFitTheProviderFile() {
  for (const exchange of exchanges) {
    const method = exchange.method === "GET" ? "get" : "post";
    const operation = exchange.operation;
    if (method === "post") {
      expect(openApiProblems(operation, "request", exchange.request, method), `${operation} request`).toEqual(
        [],
      );
    }
    if (!exchange.error && exchange.answer !== undefined && openApiDefines(operation, "response", method)) {
      const answer = JSON.parse(exchange.answer) as unknown;
      expect(openApiProblems(operation, "response", answer, method), `${operation} answer`).toEqual([]);
    }
  }
}

describe("every operation against the simulator", () => {
  it("GetToken exchanges login and password for the production key", async () => {
    const endpoints = { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 30_000 };
    expect(await requestApiKey({ login: sim.login, password: sim.password }, { endpoints })).toBe(sim.apiKey);
    const refused = await failure(requestApiKey({ login: sim.login, password: "wrong" }, { endpoints }));
    expect(refused).toBeInstanceOf(WarehouseBusinessError);
    expect((refused as WarehouseBusinessError).messages.length).toBeGreaterThan(0);
    const empty = await failure(requestApiKey({ login: "", password: "x" }, { endpoints }));
    expect(empty).toBeInstanceOf(WarehouseRequestInvalid);
    expect(empty.message).toContain("login is empty");
  });

  it("AddOrder, getStatusOrder, ReportStatusOrder, EditOrder, CancelOrder and ListOrder follow one order", async () => {
    const warehouse = client();
    const added = await warehouse.addOrder(order("1001"));
    expect(added.id_order_FF).toMatch(/\S/);
    expect(added.key_order).toMatch(/^[0-9a-f-]{36}$/);

    const status = await warehouse.getStatusOrder("1001");
    expect(status.id_order).toBe("1001");
    expect(status.status_mtp).not.toBe("");

    await warehouse.editOrder({
      ...order("1001", { recipient: "Шевченко Тарас Григорович" }),
      key_order: added.key_order,
    });
    expect(sim.orders().find((record) => record.id_order === "1001")?.submitted.recipient).toBe(
      "Шевченко Тарас Григорович",
    );

    const [reported] = await warehouse.reportStatusOrder(["1001"]);
    expect(reported?.id_order).toBe("1001");

    const listed = await warehouse.listOrder({ datefrom: "20261117", dateto: "20261117", page: 1 });
    expect(listed.map((record) => record.id_order)).toEqual(["1001"]);
    expect(listed[0]?.key_order).toBe(added.key_order);

    await warehouse.cancelOrder("1001");
    const dictionary = await warehouse.getStatusDictionary();
    const cancelled = await warehouse.getStatusOrder("1001");
    expect(dictionary.map((entry) => String(entry.id))).toContain(String(cancelled.status_mtp_id));
    expect(cancelled.status_mtp_id).not.toBe(status.status_mtp_id);
    expectExchangesFitTheProviderFile();
  });

  it("AddProduct, ReportSklad and ReportMoveProduct show the catalogue and its stock moving", async () => {
    const warehouse = client();
    await warehouse.addProduct({ sku: "HAT-003", name: "Капелюх", barcode: "4820000000031" });
    const stock = await warehouse.reportSklad({ ExcludeZero: false });
    const hat = stock.find((row) => row.sku === "HAT-003");
    expect(hat).toMatchObject({ quantity: 0, quantityAvailable: 0, barcode: "4820000000031" });

    await warehouse.addOrder(order("2001"));
    sim.clock.set(T0 + 61 * MINUTE);
    const after = await warehouse.reportSklad();
    expect(after.find((row) => row.sku === "TEA-001")).toMatchObject({
      quantity: 1000,
      quantityAvailable: 998,
    });

    const moves = await warehouse.reportMoveProduct({
      dataStart: "20261117000000",
      dataFinish: "20261118000000",
      productSku: "TEA-001",
    });
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.at(-1)?.EndingBalance).toBe(1000);
    expectExchangesFitTheProviderFile();
  });

  it("the v2 inbound delivery operations, with their two spellings of the key and the Cyrillic сomment", async () => {
    const warehouse = client();
    const { id } = await warehouse.addDeliveryRequest({
      idRequest: "IN-77",
      dateOfDelivery: "2026-11-20",
      deliveryMethod: INBOUND_DELIVERY_METHOD.novaPoshta,
      seatsAmount: 2,
      ttn: "20450000000999",
      comment: "дві коробки",
      products: [{ sku: "TEA-001", name: "Чай зелений", count: 40, price: "150" }],
    });
    const sent = exchanges.find((exchange) => exchange.operation === OPERATIONS.addDeliveryRequest);
    expect(sent?.request).toMatchObject({ apiKey: "[masked]", method: "AddDeliveryRequest" });
    expect(JSON.stringify(sent?.request)).toContain('"\u0441omment":"дві коробки"');

    expect((await warehouse.reportDeliveryRequest(String(id))).status).toBe(1);
    sim.receiveDelivery({ id: String(id), products: [{ sku: "TEA-001", count: 40 }] });
    expect((await warehouse.reportDeliveryRequest(String(id))).status).toBe(3);

    const listed = await warehouse.listDeliveryRequest({ datefrom: "20261117", dateto: "20261117" });
    expect(listed.map((request) => String(request.id))).toEqual([String(id)]);
    const listedRequest = exchanges.find((exchange) => exchange.operation === OPERATIONS.listDeliveryRequest);
    expect(listedRequest?.request).toMatchObject({ ApiKey: "[masked]", method: "ListDeliveryRequest" });
    expectExchangesFitTheProviderFile();
  });

  it("writes the v2 wire's own forms: apiKey or ApiKey per operation, сomment with d1 81, DD.MM.YYYY, strings", async () => {
    const bodies: Buffer[] = [];
    const warehouse = client({
      fetch: (url, init) => {
        bodies.push(Buffer.from(String(init?.body), "utf8"));
        return fetch(url, init);
      },
    });
    await warehouse.addDeliveryRequest({
      idRequest: "IN-78",
      dateOfDelivery: "2026-11-20",
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 3,
      comment: "палета",
      products: [{ sku: "CUP-002", name: "Чашка", count: 12 }],
    });
    await warehouse.listDeliveryRequest({ datefrom: "20261117", dateto: "20261117" });
    await warehouse.reportDeliveryRequest("100001");
    const [added, listed, reported] = bodies;
    expect(reported!.toString("utf8")).toBe(
      `{"apiKey":"${sim.apiKey}","method":"ReportDeliveryRequest","properties":{"id":"100001"}}`,
    );
    const comment = Buffer.from([0xd1, 0x81, ...Buffer.from('omment":"', "latin1")]);
    expect(added!.includes(comment)).toBe(true);
    expect(added!.includes(Buffer.from('"comment"'))).toBe(false);
    expect(added!.includes(Buffer.from('{"apiKey":'))).toBe(true);
    expect(added!.includes(Buffer.from('"ApiKey"'))).toBe(false);
    expect(JSON.parse(added!.toString("utf8")).properties).toEqual({
      idRequest: "IN-78",
      dateOfDelivery: "20.11.2026",
      deliveryMethod: "На склад",
      seatsAmount: "3",
      [DELIVERY_REQUEST_COMMENT_FIELD]: "палета",
      products: [{ sku: "CUP-002", name: "Чашка", count: "12" }],
    });
    expect(listed!.includes(Buffer.from('{"ApiKey":'))).toBe(true);
    expect(listed!.includes(Buffer.from('"apiKey"'))).toBe(false);
  });

  it("refuses an AddDeliveryRequest in the wire's own forms before it leaves: callers give YYYY-MM-DD", async () => {
    const error = await client()
      .addDeliveryRequest({
        idRequest: "IN-79",
        dateOfDelivery: "20.11.2026",
        deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
        seatsAmount: 1,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WarehouseRequestInvalid);
    expect(exchanges).toEqual([]);
  });

  it("reads a delivery report's lines with or without their received counts", async () => {
    const warehouse = client();
    const { id } = await warehouse.addDeliveryRequest({
      idRequest: "IN-80",
      dateOfDelivery: "2026-11-20",
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 1,
      products: [
        { sku: "TEA-001", name: "Чай зелений", count: 10 },
        { sku: "CUP-002", name: "Чашка", count: 4 },
      ],
    });
    sim.receiveDelivery({ id: String(id), products: [{ sku: "TEA-001", count: 6 }] });
    const report = await warehouse.reportDeliveryRequest(String(id));
    expect(report.status).toBe(2);
    expect(report.products).toEqual([
      expect.objectContaining({ sku: "TEA-001", count: 10, countReceived: 6 }),
      expect.objectContaining({ sku: "CUP-002", count: 4, countReceived: 0 }),
    ]);
  });

  it("ListReturnOrder reads the returns register with its defective flag", async () => {
    const warehouse = client();
    await warehouse.addOrder(order("3001"));
    sim.advanceOrder({ id_order: "3001", to: "shipped" });
    sim.addReturn({ id_order: "3001", products: [{ sku: "CUP-002", count: 1, marriage: true }] });
    const returns = await warehouse.listReturnOrder({ datefrom: "20261117", dateto: "20261117" });
    expect(returns).toHaveLength(1);
    // Answered as sent (each record is read on its own, app/returns/read.ts), unknown fields kept.
    expect(returns[0]).toMatchObject({
      id_order: "3001",
      id_return: expect.any(String),
      products: [{ sku: "CUP-002", count: "1", marriage: true }],
    });
    expectExchangesFitTheProviderFile();
  });

  it("the carrier reference operations: cities, branches (by city and all), streets, senders", async () => {
    // Every branch in the country is a 20,000-record answer the simulator builds on first asking: seconds
    // on a loaded machine, past the 2 s the other calls are given.
    const warehouse = client({ endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 30_000 } });
    const cities = await warehouse.getCities("Київ");
    expect(cities[0]?.Ref).toBe(KYIV_CITY_REF);
    const branches = await warehouse.getWarehouses(KYIV_CITY_REF);
    expect(branches.length).toBeGreaterThan(100);
    expect(branches.every((branch) => branch.CityRef === KYIV_CITY_REF)).toBe(true);
    const all = await warehouse.getWarehouses();
    expect(all.length).toBeGreaterThanOrEqual(20_000);
    const streets = await warehouse.getStreet({ CityRef: KYIV_CITY_REF, FindByString: "Хрещ" });
    expect(streets.map((street) => street.Description)).toContain("Хрещатик");
    const senders = await warehouse.senderDetails();
    expect(senders[0]?.id).toBeTruthy();

    // The GET form carries the key in the query string: the recorded address must not.
    const get = exchanges.find((exchange) => exchange.operation === OPERATIONS.getStreet);
    expect(get?.url).not.toContain(sim.apiKey);
    expect(get?.url).toContain("ApiKey=%5Bmasked%5D");
    expectExchangesFitTheProviderFile();
  });

  it("production and staging keys see separate data at the same address", async () => {
    await client().addOrder(order("4001"));
    const staging = client({ apiKey: sim.stagingApiKey });
    expect(await staging.reportStatusOrder(["4001"])).toEqual([]);
  });
});

describe("each failure is its own error class, and says whether it may have taken effect", () => {
  it("401: the key is refused, certainly not applied", async () => {
    const error = await failure(
      client({ apiKey: "00000000-0000-0000-0000-000000000000" }).addOrder(order("5001")),
    );
    expect(error).toBeInstanceOf(WarehouseUnauthorized);
    expect(error).toMatchObject({ effect: "none", inDoubt: false, retryable: false });
    expect(error.message).toMatch(/Check the key in Settings/);
    expect(sim.orders()).toHaveLength(0);
  });

  it("400 and 404 name what is wrong", async () => {
    sim.faults.failNext({ count: 1, status: 400, message: "Ошибка разбора JSON" });
    const bad = await failure(client().senderDetails());
    expect(bad).toBeInstanceOf(WarehouseBadRequest);
    expect((bad as WarehouseBadRequest).messages).toEqual(["Ошибка разбора JSON"]);

    const misaddressed = client({
      endpoints: { baseUrl: `${sim.url}/wrong`, baseUrlV2: sim.urlV2, timeoutMs: 2000 },
    });
    const unknown = await failure(misaddressed.senderDetails());
    expect(unknown).toBeInstanceOf(WarehouseUnknownMethod);
    expect(unknown.message).toContain(`${sim.url}/wrong/senderDetails`);
    expect(unknown.effect).toBe("none");
  });

  it("429 carries the wait the answer gave, and holds the key in the limiter", async () => {
    sim.faults.failNext({ count: 1, status: 429, retryAfterSeconds: 7 });
    const warehouse = client({ limiter: new WarehouseRateLimiter() });
    const error = await failure(warehouse.getCities("Львів"));
    expect(error).toBeInstanceOf(WarehouseRateLimited);
    expect(error).toMatchObject({
      source: "warehouse",
      retryAfterMs: 7_000,
      effect: "none",
      retryable: true,
    });
    const next = await warehouse.nextAllowedAt(OPERATIONS.addOrder);
    expect(next - Date.now()).toBeGreaterThan(6_000);
  });

  it("5xx leaves the outcome in doubt", async () => {
    sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.addOrder] });
    const error = await failure(client().addOrder(order("5101")));
    expect(error).toBeInstanceOf(WarehouseServerError);
    expect(error).toMatchObject({ status: 503, effect: "unknown", inDoubt: true, retryable: true });
  });

  it("a business error carries the warehouse's own messages", async () => {
    const warehouse = client();
    const error = await failure(
      warehouse.addOrder(
        order("5201", { delivery_address: { WarehouseRef: "00000000-0000-0000-0000-000000000001" } }),
      ),
    );
    expect(error).toBeInstanceOf(WarehouseBusinessError);
    expect((error as WarehouseBusinessError).messages.join(" ")).toContain("WarehouseRef");
    expect(error.effect).toBe("none");

    await warehouse.addOrder(order("5202"));
    sim.advanceOrder({ id_order: "5202", to: "picked" });
    const late = await failure(
      warehouse.editOrder({ ...order("5202"), key_order: sim.orders()[0]!.key_order }),
    );
    expect(late).toBeInstanceOf(WarehouseBusinessError);
    sim.advanceOrder({ id_order: "5202", to: "shipped" });
    expect(await failure(warehouse.cancelOrder("5202"))).toBeInstanceOf(WarehouseBusinessError);
  });

  it("a refused connection was certainly not sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const warehouse = client({
      endpoints: { baseUrl: `http://127.0.0.1:${port}/api`, baseUrlV2: sim.urlV2, timeoutMs: 2000 },
    });
    const error = await failure(warehouse.addOrder(order("5301")));
    expect(error).toBeInstanceOf(WarehouseNetworkError);
    expect(error).toMatchObject({ effect: "none", inDoubt: false, retryable: true });
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("an answer dropped after the warehouse committed is in doubt, and the order is there to look up", async () => {
    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addOrder] });
    const warehouse = client();
    const error = await failure(warehouse.addOrder(order("5401")));
    expect(error).toBeInstanceOf(WarehouseNetworkError);
    expect(error.inDoubt).toBe(true);
    expect((await warehouse.getStatusOrder("5401")).id_order).toBe("5401");
  });

  it("a slow answer times out, in doubt", async () => {
    sim.faults.setDelay(400);
    const warehouse = client({ endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 100 } });
    const error = await failure(warehouse.addOrder(order("5501")));
    expect(error).toBeInstanceOf(WarehouseTimeout);
    expect(error).toMatchObject({ timeoutMs: 100, inDoubt: true });
  });

  it("a request that fails its own schema is not sent, and says which field", async () => {
    const error = await failure(client().addOrder(order("5601", { rec_phone: "0671234567", Cost: 12.5 })));
    expect(error).toBeInstanceOf(WarehouseRequestInvalid);
    expect((error as WarehouseRequestInvalid).problems).toEqual([
      "rec_phone: rec_phone must be 380 followed by nine digits",
      "Cost: Cost must be a whole number of UAH",
    ]);
    expect(sim.stats().requests[OPERATIONS.addOrder] ?? 0).toBe(0);
  });
});

describe("answers that do not match their schema", () => {
  let server: Server;
  let url: string;
  let reply: { status: number; body: string };
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const odd = () => client({ endpoints: { baseUrl: url, baseUrlV2: `${url}2v/json`, timeoutMs: 30_000 } });

  it("says which field was wrong, never returns undefined", async () => {
    reply = { status: 200, body: JSON.stringify({ result: "ok", Data: { id_order_FF: 17 } }) };
    const error = await failure(odd().addOrder(order("6001")));
    expect(error).toBeInstanceOf(WarehouseAnswerInvalid);
    expect((error as WarehouseAnswerInvalid).problems).toEqual([
      "Data.id_order_FF: Invalid input: expected string, received number",
      "Data.key_order: Invalid input: expected string, received undefined",
    ]);
    expect(error.inDoubt).toBe(true);
  });

  it("rejects an answer that is not JSON, or an envelope where a bare array belongs", async () => {
    reply = { status: 200, body: "<html>Service Unavailable</html>" };
    const html = await failure(odd().senderDetails());
    expect(html).toBeInstanceOf(WarehouseAnswerInvalid);
    expect((html as WarehouseAnswerInvalid).excerpt).toContain("<html>");

    reply = { status: 200, body: JSON.stringify({ rows: [] }) };
    const shape = await failure(odd().reportSklad());
    expect((shape as WarehouseAnswerInvalid).problems[0]).toBe("expected a JSON array or an error envelope");
  });

  it("reads both the array and the envelope forms of the bare-array operations, and v2's `result` spelling", async () => {
    const row = { sku: "A", quantity: 3, quantityAvailable: 2, stock: 3, barcode: "" };
    reply = { status: 200, body: JSON.stringify([row]) };
    expect(await odd().reportSklad()).toEqual([row]);
    reply = { status: 200, body: JSON.stringify({ result: "ok", Data: [row], errors: [] }) };
    expect(await odd().reportSklad()).toEqual([row]);
    reply = { status: 200, body: JSON.stringify({ result: "error", errors: ["Нет доступа к отчету"] }) };
    expect(((await failure(odd().reportSklad())) as WarehouseBusinessError).messages).toEqual([
      "Нет доступа к отчету",
    ]);
    reply = { status: 200, body: JSON.stringify({ result: "ok", Data: { id: "100001" } }) };
    const added = await odd().addDeliveryRequest({
      idRequest: "IN-1",
      dateOfDelivery: "2026-11-20",
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 1,
    });
    expect(added.id).toBe("100001");
  });

  it("reads a delivery report whose lines lack the received count, or write counts as numbers", async () => {
    reply = {
      status: 200,
      body: JSON.stringify({
        success: true,
        Data: {
          id: 100002,
          status: 1,
          products: [{ sku: "A", count: 5 }, { sku: "B", count: "2", countReceived: "" }, { sku: 7 }],
        },
      }),
    };
    const report = await odd().reportDeliveryRequest("100002");
    expect(report.id).toBe("100002");
    expect(report.products.map(({ sku, count, countReceived }) => ({ sku, count, countReceived }))).toEqual([
      { sku: "A", count: 5, countReceived: undefined },
      { sku: "B", count: 2, countReceived: undefined },
      { sku: "7", count: undefined, countReceived: undefined },
    ]);
  });
});

describe("rate limits", () => {
  const reports: OperationName[] = [
    OPERATIONS.reportSklad,
    OPERATIONS.reportStatusOrder,
    OPERATIONS.listOrder,
    OPERATIONS.listReturnOrder,
  ];
  const callReport = (warehouse: ReturnType<typeof client>, operation: OperationName) =>
    operation === OPERATIONS.reportSklad
      ? warehouse.reportSklad()
      : operation === OPERATIONS.reportStatusOrder
        ? warehouse.reportStatusOrder(["1"])
        : operation === OPERATIONS.listOrder
          ? warehouse.listOrder({ datefrom: "20261117", dateto: "20261117" })
          : warehouse.listReturnOrder({ datefrom: "20261117", dateto: "20261117" });

  it("the client keeps 60 a minute itself: the 61st is refused before sending, with the wait", async () => {
    const warehouse = client();
    for (let i = 0; i < 60; i++) await warehouse.getCities("Київ");
    const error = await failure(warehouse.getCities("Київ"));
    expect(error).toBeInstanceOf(WarehouseRateLimited);
    expect(error).toMatchObject({ source: "local", effect: "none" });
    expect((error as WarehouseRateLimited).retryAfterMs).toBeGreaterThan(59_000);
    expect(sim.stats().requests[OPERATIONS.getCities]).toBe(60);
    expect(sim.stats().rateLimited.overall).toBe(0);

    sim.clock.advance(MINUTE + 1_000);
    await warehouse.getCities("Київ");
  });

  it("the client keeps each report to one a minute, and can say when each may run", async () => {
    const warehouse = client();
    for (const operation of reports) await callReport(warehouse, operation);
    for (const operation of reports) {
      expect(await warehouse.nextAllowedAt(operation)).toBeGreaterThan(sim.clock.now() + 59_000);
      expect(await failure(callReport(warehouse, operation))).toBeInstanceOf(WarehouseRateLimited);
    }
    expect(await warehouse.nextAllowedAt(OPERATIONS.getCities)).toBe(sim.clock.now());
    expect(sim.stats().rateLimited.report).toBe(0);
  });

  it("the simulator enforces both limits too, answering 429 with Retry-After", async () => {
    const warehouse = unlimitedClient();
    await warehouse.reportSklad();
    const report = await failure(warehouse.reportSklad());
    expect(report).toMatchObject({ source: "warehouse" });
    expect((report as WarehouseRateLimited).retryAfterMs).toBeGreaterThan(0);
    expect(sim.stats().rateLimited.report).toBe(1);
    // Only the report waits; everything else goes on.
    expect(await warehouse.nextAllowedAt(OPERATIONS.reportSklad)).toBeGreaterThan(Date.now() + 1_000);
    expect(await warehouse.nextAllowedAt(OPERATIONS.addOrder)).toBeLessThanOrEqual(Date.now());

    for (let i = 0; i < 59; i++) await warehouse.senderDetails();
    const overall = await failure(warehouse.senderDetails());
    expect(overall).toMatchObject({ source: "warehouse" });
    expect(sim.stats().rateLimited.overall).toBe(1);
    // After the overall limit's 429 every operation of the key waits.
    expect(await warehouse.nextAllowedAt(OPERATIONS.addOrder)).toBeGreaterThan(Date.now() + 1_000);
  });

  it("waits for the limiter when allowed to, instead of failing", async () => {
    sim.clock.unfreeze();
    const warehouse = client({
      limiter: new WarehouseRateLimiter(new MemoryRateLimitStore(), {
        limits: { windowMs: 300, requestsPerWindow: 2, marginMs: 0 },
      }),
      maxLimiterWaitMs: 1_000,
    });
    const started = performance.now();
    for (let i = 0; i < 3; i++) await warehouse.senderDetails();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe("submitting many orders", () => {
  const orders = (count: number, from = 1) =>
    Array.from({ length: count }, (_, i) => order(String(10_000 + from + i)));

  it("splits into AddOrder batches of at most 100 and gives an outcome per order", async () => {
    const batch = orders(250);
    batch[17] = order(batch[17]!.id_order, {
      delivery_address: { WarehouseRef: "00000000-0000-0000-0000-00000000dead" },
    });
    batch[120] = order(batch[120]!.id_order, { rec_phone: "067 123 45 67" });

    const outcomes = await client({ batchAddOrder: true }).submitOrders(batch);

    const sent = exchanges.filter((exchange) => exchange.operation === OPERATIONS.addOrder);
    expect(sent.map((exchange) => (exchange.request as { order: unknown[] }).order.length)).toEqual([
      100, 100, 49,
    ]);
    expect(outcomes.map((outcome) => outcome.id_order)).toEqual(batch.map((entry) => entry.id_order));
    expect(outcomes.filter((outcome) => outcome.status === "accepted")).toHaveLength(248);
    expect(outcomes[17]).toMatchObject({ status: "rejected" });
    expect(outcomes[17]?.status === "rejected" && outcomes[17].messages.join()).toContain("WarehouseRef");
    expect(outcomes[120]).toMatchObject({ status: "failed", error: expect.any(WarehouseRequestInvalid) });
    const keys = sim.orders().map((record) => record.key_order);
    for (const outcome of outcomes) {
      if (outcome.status === "accepted") expect(keys).toContain(outcome.key_order);
    }
    expect(sim.orders()).toHaveLength(248);
  });

  it("sends one order a request when the batch switch is off, and stops at the rate limit without sending", async () => {
    const outcomes = await client({ batchAddOrder: false }).submitOrders(orders(65));
    expect(sim.stats().requests[OPERATIONS.addOrder]).toBe(60);
    expect(outcomes.slice(0, 60).every((outcome) => outcome.status === "accepted")).toBe(true);
    for (const outcome of outcomes.slice(60)) {
      expect(outcome).toMatchObject({ status: "failed", error: expect.any(WarehouseRateLimited) });
      expect(outcome.status === "failed" && outcome.error.inDoubt).toBe(false);
    }
  });

  it("marks a whole batch in doubt when its answer is lost after the warehouse committed", async () => {
    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addOrder] });
    const outcomes = await client({ batchAddOrder: true }).submitOrders(orders(150));
    expect(
      outcomes.slice(0, 100).every((outcome) => outcome.status === "failed" && outcome.error.inDoubt),
    ).toBe(true);
    expect(outcomes.slice(100).every((outcome) => outcome.status === "accepted")).toBe(true);
    // In doubt, and in fact there: which is why the caller must look before resending.
    expect(sim.orders()).toHaveLength(150);
  });

  it("refuses an id_order repeated within one submission rather than guess which answer is whose", async () => {
    const outcomes = await client({ batchAddOrder: true }).submitOrders([order("7001"), order("7001")]);
    expect(outcomes[0]).toMatchObject({ status: "accepted" });
    expect(outcomes[1]).toMatchObject({ status: "failed", error: expect.any(WarehouseRequestInvalid) });
    expect(sim.stats().duplicateIdOrders).toBe(0);
  });

  it("a batch over the limit would be refused whole by the warehouse", async () => {
    const warehouse = unlimitedClient({ batchAddOrder: true });
    const tooMany = orders(101);
    // Bypass the splitting to see the warehouse's own answer to 101 orders in one request.
    const response = await fetch(`${sim.url}/AddOrder`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ApiKey: sim.apiKey, order: tooMany }),
    });
    const answer = (await response.json()) as { result: string; errors: string[] };
    expect(answer.result).toBe("error");
    expect(sim.orders()).toHaveLength(0);
    // The client never sends such a request.
    await warehouse.submitOrders(tooMany);
    expect(sim.orders()).toHaveLength(101);
  });
});
