// Inbound delivery requests against the warehouse simulator over loopback HTTP, on a real database: made
// once whatever the merchant clicks, an answer lost after the warehouse made the request resolved by the
// look-up without a second one, a request that never arrived sent again under its number, the warehouse's
// refusal kept in its words, every field checked before anything is written or sent, the warehouse's list
// taken in (at most once a minute), and another shop never reaching this shop's requests.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import {
  createDeliveryRequest,
  lookUpDeliveryRequest,
  maySendAgain,
  refreshDeliveryRequest,
  sendDeliveryRequestAgain,
  type DeliveryDeps,
} from "../../app/deliveries/deliveries.server";
import { LIST_REFRESH_KIND, refreshDeliveryList } from "../../app/deliveries/list.server";
import { newIdRequest, type DeliveryFormInput } from "../../app/deliveries/form";
import { kyivDay } from "../../app/warehouse/dates";
import { readLines } from "../../app/deliveries/lines";
import { deliveriesCsv, listDeliveries } from "../../app/deliveries/queries.server";
import { readTexts } from "../../app/i18n/texts";
import { saveSettings } from "../../app/settings/settings.server";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { INBOUND_DELIVERY_METHOD, OPERATIONS } from "../../app/warehouse/wire";
import { startWarehouseSimulator } from "../warehouse-sim/server";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER_SHOP = "lviv-goods.myshopify.com";

const sim = await startWarehouseSimulator();
afterAll(() => sim.close());

const deps = (): DeliveryDeps => ({
  ...appContext(),
  endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 5_000 },
});
const db = () => appContext().db;
const requests = (operation: string) => sim.stats().requests[operation] ?? 0;

function inDays(days: number): string {
  const date = new Date(`${kyivDay(new Date())}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function form(overrides: Partial<DeliveryFormInput> = {}): DeliveryFormInput {
  return {
    idRequest: newIdRequest(),
    deliveryDate: inDays(2),
    method: "novaPoshta",
    seats: "2",
    ttn: "2045 0000 0009 99",
    comment: "Дві коробки, крихке",
    lines: [
      { sku: "TEA-001", count: "40" },
      { sku: "CUP-002", count: "12" },
    ],
    ...overrides,
  };
}

async function catalogueItem(shop: string, sku: string, name: string, sent = true) {
  await db().catalogueItem.create({
    data: {
      shop,
      variantId: `gid://shopify/ProductVariant/${shop}-${sku}`,
      productId: `gid://shopify/Product/${sku}`,
      sku,
      name,
      sentSku: sent ? sku : null,
      sentName: sent ? name : null,
      sentAt: sent ? new Date() : null,
    },
  });
}

async function saveKey(shop: string, apiKey = sim.apiKey) {
  const saved = await saveSettings(appContext(), shop, {
    apiKey,
    environment: apiKey === sim.apiKey ? "production" : "staging",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
}

beforeEach(async () => {
  sim.reset();
  sim.seedProducts([
    { sku: "TEA-001", name: "Чай зелений" },
    { sku: "CUP-002", name: "Чашка" },
  ]);
  await saveKey(SHOP);
  await catalogueItem(SHOP, "TEA-001", "Чай зелений");
  await catalogueItem(SHOP, "CUP-002", "Чашка");
});

async function created(input: DeliveryFormInput) {
  const outcome = await createDeliveryRequest(deps(), SHOP, input);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return { outcome, row: await db().inboundDelivery.findUniqueOrThrow({ where: { id: outcome.id } }) };
}

describe("a new delivery request", () => {
  it("is sent once with the wire's forms and kept with the warehouse's id", async () => {
    const input = form();
    const { outcome, row } = await created(input);
    expect(outcome.repeated).toBe(false);
    expect(row).toMatchObject({
      shop: SHOP,
      idRequest: input.idRequest,
      state: "sent",
      status: 1,
      deliveryDate: input.deliveryDate,
      method: INBOUND_DELIVERY_METHOD.novaPoshta,
      seats: 2,
      ttn: "20450000000999",
      comment: "Дві коробки, крихке",
      error: null,
    });
    expect(readLines(row.lines)).toEqual([
      { sku: "TEA-001", name: "Чай зелений", count: 40, received: 0 },
      { sku: "CUP-002", name: "Чашка", count: 12, received: 0 },
    ]);
    const atWarehouse = sim.store().deliveries.get(row.warehouseId!);
    const [year, month, day] = input.deliveryDate.split("-");
    expect(atWarehouse).toMatchObject({
      idRequest: input.idRequest,
      dateOfDelivery: `${day}.${month}.${year}`,
      deliveryMethod: "Новая почта",
      seatsAmount: "2",
      ttn: "20450000000999",
      comment: "Дві коробки, крихке",
    });
    expect(sim.stats().ignoredFields).toEqual({});
    expect(requests(OPERATIONS.addDeliveryRequest)).toBe(1);
  });

  it("submitted twice, one after the other or both at once, is sent once", async () => {
    const input = form();
    const first = await createDeliveryRequest(deps(), SHOP, input);
    const second = await createDeliveryRequest(deps(), SHOP, input);
    expect(second).toEqual({ ok: true, id: first.ok && first.id, repeated: true });
    // The same form brought back (the browser's Back) and changed: refused, saying so; nothing is sent.
    const changed = await createDeliveryRequest(deps(), SHOP, { ...input, seats: "3" });
    expect(changed).toEqual({
      ok: false,
      errors: { form: expect.objectContaining({ key: "deliveries:form.error.alreadySent" }) },
    });

    const racing = form();
    const both = await Promise.all([
      createDeliveryRequest(deps(), SHOP, racing),
      createDeliveryRequest(deps(), SHOP, racing),
    ]);
    expect(both.map((outcome) => outcome.ok && outcome.repeated).sort()).toEqual([false, true]);
    expect(requests(OPERATIONS.addDeliveryRequest)).toBe(2);
    expect(sim.store().deliveries.size).toBe(2);
    expect(await db().inboundDelivery.count()).toBe(2);
  });

  it("whose answer was lost after the warehouse made it is found by the look-up, never made twice", async () => {
    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addDeliveryRequest] });
    const { row } = await created(form());
    expect(row.state).toBe("in_doubt");
    expect(row.warehouseId).toBeNull();
    expect(readTexts(row.error)[0]?.key).toBe("deliveries:problem.inDoubt");
    expect(maySendAgain(row)).toBe(false);
    expect(await sendDeliveryRequestAgain(deps(), SHOP, row.id)).toMatchObject({ ok: false });

    expect(await lookUpDeliveryRequest(deps(), SHOP, row.id)).toMatchObject({ ok: true });
    const found = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    const [made] = sim.store().deliveries.values();
    expect(found).toMatchObject({ state: "sent", warehouseId: made!.id, status: 1, error: null });
    expect(requests(OPERATIONS.addDeliveryRequest)).toBe(1);
    expect(sim.store().deliveries.size).toBe(1);
  });

  it("that never reached the warehouse is sent again under its number once a late look-up misses", async () => {
    sim.faults.failNext({ count: 1, status: 502, operations: [OPERATIONS.addDeliveryRequest] });
    const { row } = await created(form());
    expect(row.state).toBe("in_doubt");
    // Just after it left, a miss proves nothing: the warehouse may still be making it.
    expect(await lookUpDeliveryRequest(deps(), SHOP, row.id)).toMatchObject({
      ok: false,
      message: { key: "deliveries:problem.notFoundYet" },
    });
    const early = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(early.state).toBe("in_doubt");
    expect(maySendAgain(early)).toBe(false);
    expect(await sendDeliveryRequestAgain(deps(), SHOP, row.id)).toMatchObject({ ok: false });
    // Eleven minutes later (the window is ten), the miss is believed.
    const later = { ...deps(), clock: () => new Date(Date.now() + 11 * 60_000) };
    expect(await lookUpDeliveryRequest(later, SHOP, row.id)).toMatchObject({
      ok: false,
      message: { key: "deliveries:problem.notFound" },
    });
    const missed = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(missed.state).toBe("in_doubt");
    expect(maySendAgain(missed)).toBe(true);

    // Send again looks once more first: now, just after that miss, it is not believed any more...
    expect(await sendDeliveryRequestAgain(deps(), SHOP, row.id)).toMatchObject({
      ok: false,
      message: { key: "deliveries:problem.notFoundYet" },
    });
    expect(sim.store().deliveries.size).toBe(0);
    // ...so the page offers a look-up again, not sending; later the miss is believed again, and it goes.
    expect(maySendAgain(await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } }))).toBe(false);
    await lookUpDeliveryRequest(later, SHOP, row.id);
    expect(await sendDeliveryRequestAgain(later, SHOP, row.id)).toMatchObject({ ok: true });
    const sent = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(sent.state).toBe("sent");
    expect([...sim.store().deliveries.values()].map((request) => request.idRequest)).toEqual([row.idRequest]);
    // Sent now: it cannot be sent again.
    expect(await sendDeliveryRequestAgain(deps(), SHOP, row.id)).toMatchObject({ ok: false });
    expect(sim.store().deliveries.size).toBe(1);
  });

  it("that reached the warehouse after a believed miss is found by Send again, not made twice", async () => {
    sim.faults.failNext({ count: 1, status: 502, operations: [OPERATIONS.addDeliveryRequest] });
    const input = form();
    const { row } = await created(input);
    const later = { ...deps(), clock: () => new Date(Date.now() + 11 * 60_000) };
    expect(await lookUpDeliveryRequest(later, SHOP, row.id)).toMatchObject({
      message: { key: "deliveries:problem.notFound" },
    });
    // The lost request turns up at the warehouse after all (a retry of the network, a slow queue).
    const late = createWarehouseClient({
      apiKey: sim.apiKey,
      endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 },
    });
    const { id: madeLate } = await late.addDeliveryRequest({
      idRequest: row.idRequest,
      dateOfDelivery: input.deliveryDate,
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 2,
    });

    expect(await sendDeliveryRequestAgain(later, SHOP, row.id)).toMatchObject({
      ok: true,
      message: { key: "deliveries:action.found" },
    });
    expect(await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      state: "sent",
      warehouseId: madeLate,
    });
    expect(sim.store().deliveries.size).toBe(1);
  });

  it("refused by the warehouse is failed with the warehouse's words, and may be sent again once fixed", async () => {
    // Our catalogue says the card was sent, but the warehouse has no such SKU.
    await catalogueItem(SHOP, "SOAP-404", "Мило");
    const { row } = await created(form({ lines: [{ sku: "SOAP-404", count: "5" }] }));
    expect(row.state).toBe("failed");
    const [problem] = readTexts(row.error);
    expect(problem).toMatchObject({ key: "warehouse:error.refused" });
    expect(problem?.said).toContain("SOAP-404");
    expect(sim.store().deliveries.size).toBe(0);

    sim.seedProducts([{ sku: "SOAP-404", name: "Мило" }]);
    // Two clicks at once: one claims the row and sends, the other finds it changed.
    const clicks = await Promise.all([
      sendDeliveryRequestAgain(deps(), SHOP, row.id),
      sendDeliveryRequestAgain(deps(), SHOP, row.id),
    ]);
    expect(clicks.map((click) => click.ok).sort()).toEqual([false, true]);
    expect(sim.store().deliveries.size).toBe(1);
    expect((await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } })).state).toBe("sent");
  });

  it("is refused field by field, and nothing is written or sent", async () => {
    await catalogueItem(SHOP, "NEW-1", "Новинка", false);
    // A SKU changed in Shopify after its card was sent: the warehouse has the old one.
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/renamed",
        productId: "gid://shopify/Product/renamed",
        sku: "RENAMED-2",
        name: "Перейменований",
        sentSku: "RENAMED-1",
        sentName: "Перейменований",
        sentAt: new Date(),
      },
    });
    const outcome = await createDeliveryRequest(
      deps(),
      SHOP,
      form({
        deliveryDate: inDays(-1),
        seats: "0",
        ttn: "12345",
        comment: "x".repeat(501),
        lines: [
          { sku: "TEA-001", count: "1.5" },
          { sku: "TEA-001", count: "2" },
          { sku: "NOPE-9", count: "1" },
          { sku: "NEW-1", count: "1" },
          { sku: "RENAMED-2", count: "1" },
        ],
      }),
    );
    expect(outcome.ok).toBe(false);
    const errors = outcome.ok ? {} : outcome.errors;
    expect(Object.fromEntries(Object.entries(errors).map(([field, text]) => [field, text.key]))).toEqual({
      deliveryDate: "deliveries:form.error.datePast",
      seats: "deliveries:form.error.seats",
      ttn: "deliveries:form.error.ttn",
      comment: "deliveries:form.error.comment",
      "lines.0.count": "deliveries:form.error.count",
      "lines.1.sku": "deliveries:form.error.skuTwice",
      "lines.2.sku": "deliveries:form.error.skuUnknown",
      "lines.3.sku": "deliveries:form.error.skuNotSent",
      "lines.4.sku": "deliveries:form.error.skuNotSent",
    });
    const more = await createDeliveryRequest(deps(), SHOP, form({ ttn: "", lines: [], method: "drone" }));
    expect(more.ok ? {} : Object.keys(more.errors).sort()).toEqual(["lines", "method"]);
    const noTtn = await createDeliveryRequest(deps(), SHOP, form({ ttn: " " }));
    expect(noTtn.ok ? null : noTtn.errors.ttn?.key).toBe("deliveries:form.error.ttnRequired");
    const stale = await createDeliveryRequest(deps(), SHOP, form({ idRequest: "anything" }));
    expect(stale.ok ? null : stale.errors.form?.key).toBe("deliveries:form.error.stale");
    expect(await db().inboundDelivery.count()).toBe(0);
    expect(requests(OPERATIONS.addDeliveryRequest)).toBe(0);
  });

  it("by own transport needs no waybill and sends none", async () => {
    const { row } = await created(form({ method: "ownTransport", ttn: "whatever was typed before" }));
    expect(row).toMatchObject({ state: "sent", method: INBOUND_DELIVERY_METHOD.ownTransport, ttn: null });
    expect(sim.store().deliveries.get(row.warehouseId!)?.ttn).toBe("");
  });

  it("takes a SKU the warehouse's stock report lists, though the app never sent its card", async () => {
    sim.seedProducts([{ sku: "MUG-9", name: "Кухоль" }]);
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/mug",
        productId: "gid://shopify/Product/mug",
        sku: "MUG-9",
        name: "Кухоль",
        warehouseQuantity: 0,
      },
    });
    const { row } = await created(form({ lines: [{ sku: "MUG-9", count: "6" }] }));
    expect(row.state).toBe("sent");
  });

  it("is refused without a usable warehouse key", async () => {
    const outcome = await createDeliveryRequest(deps(), OTHER_SHOP, form());
    expect(outcome.ok ? null : outcome.errors.form?.key).toBe("deliveries:form.error.noKey");
  });
});

describe("a request at the warehouse", () => {
  it("shows what was received per line, then everything", async () => {
    const { row } = await created(form());
    sim.receiveDelivery({ id: row.warehouseId!, products: [{ sku: "TEA-001", count: 30 }] });
    expect(await refreshDeliveryRequest(deps(), SHOP, row.id)).toMatchObject({ ok: true });
    let now = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(now.status).toBe(2);
    expect(readLines(now.lines)).toEqual([
      { sku: "TEA-001", name: "Чай зелений", count: 40, received: 30 },
      { sku: "CUP-002", name: "Чашка", count: 12, received: 0 },
    ]);
    sim.receiveDelivery({ id: row.warehouseId! });
    await refreshDeliveryRequest(deps(), SHOP, row.id);
    now = await db().inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(now.status).toBe(3);
    expect(readLines(now.lines).map((line) => line.received)).toEqual([40, 12]);

    expect((await deliveriesCsv(db(), SHOP)).split("\r\n")).toEqual([
      '"request","warehouse_id","date","method","status","sku","planned","received"',
      `"${row.idRequest}","${row.warehouseId}","${row.deliveryDate}","Новая почта","received","TEA-001","40","40"`,
      `"${row.idRequest}","${row.warehouseId}","${row.deliveryDate}","Новая почта","received","CUP-002","12","12"`,
      "",
    ]);
    // With the list's filters: a status it does not have, then a search that finds it.
    expect((await deliveriesCsv(db(), SHOP, { status: "new" })).split("\r\n")).toHaveLength(2);
    expect((await deliveriesCsv(db(), SHOP, { search: "cup-002" })).split("\r\n")).toHaveLength(4);
  });

  it("is out of another shop's reach", async () => {
    await saveKey(OTHER_SHOP, sim.stagingApiKey);
    const { row } = await created(form());
    expect(await refreshDeliveryRequest(deps(), OTHER_SHOP, row.id)).toMatchObject({ ok: false });
    expect(await sendDeliveryRequestAgain(deps(), OTHER_SHOP, row.id)).toMatchObject({ ok: false });
    expect(await lookUpDeliveryRequest(deps(), OTHER_SHOP, row.id)).toMatchObject({ ok: false });
    expect((await listDeliveries(db(), OTHER_SHOP, { page: 1 })).rows).toEqual([]);
    expect(await deliveriesCsv(db(), OTHER_SHOP)).toBe(
      '"request","warehouse_id","date","method","status","sku","planned","received"\r\n',
    );
  });
});

describe("the warehouse's list", () => {
  it("brings requests made elsewhere, settles one in doubt, leaves another shop's, and asks once a minute", async () => {
    const elsewhere = createWarehouseClient({
      apiKey: sim.apiKey,
      endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 },
    });
    const { id: externalId } = await elsewhere.addDeliveryRequest({
      idRequest: "PALLET-7",
      dateOfDelivery: inDays(3),
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 4,
      products: [{ sku: "CUP-002", name: "Чашка", count: 100 }],
    });
    // Another shop of the same key made one with the app: it is that shop's.
    await elsewhere.addDeliveryRequest({
      idRequest: newIdRequest(),
      dateOfDelivery: inDays(3),
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 1,
    });
    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addDeliveryRequest] });
    const { row: doubtful } = await created(form());
    expect(doubtful.state).toBe("in_doubt");

    expect(await refreshDeliveryList(deps(), SHOP)).toEqual({ asked: true, ok: true, found: 1 });
    const found = await db().inboundDelivery.findUniqueOrThrow({
      where: { shop_idRequest: { shop: SHOP, idRequest: "PALLET-7" } },
    });
    expect(found).toMatchObject({
      state: "found",
      warehouseId: String(externalId),
      status: 1,
      method: INBOUND_DELIVERY_METHOD.ownTransport,
      seats: 4,
      deliveryDate: inDays(3),
    });
    expect((await db().inboundDelivery.findUniqueOrThrow({ where: { id: doubtful.id } })).state).toBe("sent");
    expect(await db().inboundDelivery.count()).toBe(2);

    // Its lines come with its report.
    await refreshDeliveryRequest(deps(), SHOP, found.id);
    const reported = await db().inboundDelivery.findUniqueOrThrow({ where: { id: found.id } });
    expect(readLines(reported.lines)).toEqual([{ sku: "CUP-002", name: "Чашка", count: 100, received: 0 }]);

    const asked = requests(OPERATIONS.listDeliveryRequest);
    expect(await refreshDeliveryList(deps(), SHOP)).toEqual({ asked: false });
    expect(requests(OPERATIONS.listDeliveryRequest)).toBe(asked);
  });

  it("settles a request left sending by a stopped process, and an odd record does not stop the rest", async () => {
    const elsewhere = createWarehouseClient({
      apiKey: sim.apiKey,
      endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 },
    });
    // A process claimed this request, sent it, and stopped before it wrote the answer.
    const idRequest = newIdRequest();
    const { id: madeId } = await elsewhere.addDeliveryRequest({
      idRequest,
      dateOfDelivery: inDays(1),
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 1,
    });
    const left = await db().inboundDelivery.create({
      data: { shop: SHOP, idRequest, state: "sending", deliveryDate: inDays(1), method: "x", seats: 1 },
    });
    // Made elsewhere with seats no delivery has (and no 32-bit column holds), listed before a sane one.
    await elsewhere.addDeliveryRequest({
      idRequest: "HUGE-1",
      dateOfDelivery: inDays(2),
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 99_999_999_999,
    });
    await elsewhere.addDeliveryRequest({
      idRequest: "PALLET-8",
      dateOfDelivery: inDays(2),
      deliveryMethod: INBOUND_DELIVERY_METHOD.ownTransport,
      seatsAmount: 3,
    });

    expect(await refreshDeliveryList(deps(), SHOP)).toEqual({ asked: true, ok: true, found: 2 });
    expect(await db().inboundDelivery.findUniqueOrThrow({ where: { id: left.id } })).toMatchObject({
      state: "sent",
      warehouseId: String(madeId),
    });
    const seats = await db().inboundDelivery.findMany({
      where: { shop: SHOP, idRequest: { in: ["HUGE-1", "PALLET-8"] } },
      orderBy: { idRequest: "asc" },
      select: { idRequest: true, seats: true },
    });
    expect(seats).toEqual([
      { idRequest: "HUGE-1", seats: 0 },
      { idRequest: "PALLET-8", seats: 3 },
    ]);
  });

  it("asks the warehouse once a minute per shop, whichever process or request asks", async () => {
    // A second web process: the same module loaded afresh, with nothing in memory from the first.
    vi.resetModules();
    const elsewhere = await import("../../app/deliveries/list.server");
    const before = requests(OPERATIONS.listDeliveryRequest);
    expect(await refreshDeliveryList(deps(), SHOP)).toMatchObject({ asked: true, ok: true });
    expect(await elsewhere.refreshDeliveryList(deps(), SHOP)).toEqual({ asked: false });
    expect(requests(OPERATIONS.listDeliveryRequest)).toBe(before + 1);

    // Two requests at once for a shop whose minute is up: one asks, the other does not.
    await db().shopSchedule.updateMany({
      where: { shop: SHOP, kind: LIST_REFRESH_KIND },
      data: { nextRunAt: new Date(Date.now() - 1_000) },
    });
    const both = await Promise.all([
      refreshDeliveryList(deps(), SHOP),
      elsewhere.refreshDeliveryList(deps(), SHOP),
    ]);
    expect(both.filter((answer) => answer.asked)).toHaveLength(1);
    expect(requests(OPERATIONS.listDeliveryRequest)).toBe(before + 2);
  });

  it("says so when the warehouse cannot be reached", async () => {
    sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.listDeliveryRequest] });
    expect(await refreshDeliveryList(deps(), SHOP)).toMatchObject({ asked: true, ok: false });
  });
});

describe("the list", () => {
  it("filters by status and searches waybills, numbers and SKUs, newest first", async () => {
    const { row: first } = await created(form({ ttn: "20450000000001" }));
    const { row: second } = await created(
      form({ method: "ownTransport", ttn: "", lines: [{ sku: "CUP-002", count: "3" }] }),
    );
    sim.receiveDelivery({ id: first.warehouseId!, products: [{ sku: "TEA-001", count: 1 }] });
    await refreshDeliveryRequest(deps(), SHOP, first.id);

    const ids = async (query: Parameters<typeof listDeliveries>[2]) =>
      (await listDeliveries(db(), SHOP, query)).rows.map((row) => row.idRequest);
    expect(await ids({ page: 1 })).toEqual([second.idRequest, first.idRequest]);
    expect(await ids({ page: 1, status: "partlyReceived" })).toEqual([first.idRequest]);
    expect(await ids({ page: 1, status: "new" })).toEqual([second.idRequest]);
    expect(await ids({ page: 1, status: "failed" })).toEqual([]);
    expect(await ids({ page: 1, search: "0000000001" })).toEqual([first.idRequest]);
    expect(await ids({ page: 1, search: "TEA-001" })).toEqual([first.idRequest]);
    // Whatever the case typed, on either database.
    expect(await ids({ page: 1, search: "tea-001" })).toEqual([first.idRequest]);
    expect(await ids({ page: 1, search: second.idRequest.toLowerCase() })).toEqual([second.idRequest]);
    expect(await ids({ page: 1, search: second.idRequest })).toEqual([second.idRequest]);
    const [listed] = (await listDeliveries(db(), SHOP, { page: 1, search: first.idRequest })).rows;
    expect(listed).toMatchObject({ lines: 2, planned: 52, received: 1, status: "partlyReceived" });
  });
});
