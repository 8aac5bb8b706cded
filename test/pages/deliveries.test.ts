// Inbound deliveries in a real browser, against the warehouse simulator: the form refuses what is wrong
// beside each field (in Ukrainian too) and sends nothing, a valid one is made once and lands on its page;
// the list filters and searches; a request's page shows planned against received and settles one in doubt;
// the CSV comes out one row per line.
import { readFile } from "node:fs/promises";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { kyivDay } from "../../app/warehouse/dates";
import { OPERATIONS } from "../../app/warehouse/wire";
import { startWarehouseSimulator } from "../warehouse-sim/server";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const sim = await startWarehouseSimulator();
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();
const db = () => appContext().db;
// A first request of a page may wait for vite to compile its route.
const FIRST = { timeout: 30_000 };

/** The Kyiv day `days` from today's, as the form takes it (Kyiv is UTC+2 in winter, UTC+3 in summer). */
function inDays(days: number): string {
  const date = new Date(`${kyivDay(new Date())}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function catalogueItem(sku: string, name: string, sent = true) {
  await db().catalogueItem.create({
    data: {
      shop: SHOP,
      variantId: `gid://shopify/ProductVariant/${sku}`,
      productId: `gid://shopify/Product/${sku}`,
      sku,
      name,
      sentAt: sent ? new Date() : null,
    },
  });
}

beforeEach(async () => {
  sim.reset();
  sim.seedProducts([
    { sku: "TEA-001", name: "Чай зелений" },
    { sku: "CUP-002", name: "Чашка" },
  ]);
  const saved = await saveSettings(appContext(), SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  await catalogueItem("TEA-001", "Чай зелений");
  await catalogueItem("CUP-002", "Чашка");
  await catalogueItem("TEA-NEW", "Чай новий", false);
});

describe("the new delivery request form", () => {
  it("refuses what is wrong beside each field and sends nothing, then makes a valid one and shows it", async () => {
    const { page } = pages.admin;
    await pages.admin.open("/app/deliveries/new");
    const body = () => textOf(page.locator("body"));
    await page.getByLabel("Delivery date").fill(inDays(-2));
    await page.getByLabel("Seats (boxes or pallets)").fill("0");
    await page.getByLabel("Nova Poshta waybill").fill("12345");
    await page.getByRole("button", { name: "Send to the warehouse" }).last().click();
    await expect.poll(body, FIRST).toContain("Nothing was sent: fix what is marked beside each field.");
    const text = await body();
    expect(text).toContain("The date is in the past: choose today or a later day.");
    expect(text).toContain("Enter the number of seats, a whole number from 1 to 999.");
    expect(text).toContain("A Nova Poshta waybill is 14 digits.");
    expect(text).toContain("Add at least one SKU.");
    // Beside its field: the field's own error, which Polaris ties to the input.
    await expect.poll(() => page.getByLabel("Nova Poshta waybill").getAttribute("aria-invalid")).toBe("true");
    expect(await db().inboundDelivery.count()).toBe(0);
    expect(sim.stats().requests[OPERATIONS.addDeliveryRequest] ?? 0).toBe(0);

    // A SKU whose card the warehouse does not have yet is offered, but cannot be taken.
    await page.getByLabel("Add a SKU").fill("TEA");
    const notYet = page.getByRole("option", { name: /TEA-NEW/ });
    await expect.poll(() => notYet.count(), FIRST).toBe(1);
    expect(await textOf(notYet)).toContain("(not at the warehouse yet)");
    expect(await notYet.getAttribute("aria-disabled")).toBe("true");
    await page.getByRole("option", { name: /TEA-001/ }).click();
    await page.getByLabel("Count of TEA-001").fill("40");

    await page.getByLabel("Delivery date").fill(inDays(3));
    await page.getByLabel("Seats (boxes or pallets)").fill("2");
    await page.getByLabel("Nova Poshta waybill").fill("2045 0000 0009 99");
    await page.getByLabel("Comment for the warehouse").fill("Дві коробки");
    await page.getByRole("button", { name: "Send to the warehouse" }).last().click();
    await page.waitForURL(/\/app\/deliveries\/(?!new)[^/?]+/, FIRST);
    await expect.poll(body, FIRST).toMatch(/Delivery request IN-[0-9A-Z]{10}/);
    const row = await db().inboundDelivery.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ state: "sent", ttn: "20450000000999", comment: "Дві коробки", seats: 2 });
    expect(await body()).toContain("New");
    expect(await textOf(page.locator("table"))).toContain("TEA-001");
    expect(sim.stats().requests[OPERATIONS.addDeliveryRequest]).toBe(1);
    // The list shows it: opening the list asks the warehouse's own list, and holds this shop's minute.
    await pages.admin.open("/app/deliveries");
    await expect.poll(() => textOf(page.locator("tbody")), FIRST).toContain(row.idRequest);
    expect(sim.stats().requests[OPERATIONS.listDeliveryRequest]).toBe(1);
  });

  it("says what is wrong in Ukrainian to an admin in Ukrainian", async () => {
    const admin = await pages.adminIn("uk");
    await admin.open("/app/deliveries/new");
    const body = () => textOf(admin.page.locator("body"));
    await admin.page.getByLabel("Дата поставки").fill(inDays(-1));
    await admin.page.getByLabel("ТТН Нової Пошти").fill("");
    await admin.page.getByRole("button", { name: "Надіслати на склад" }).last().click();
    await expect.poll(body, FIRST).toContain("Нічого не надіслано: виправте позначене біля кожного поля.");
    const text = await body();
    expect(text).toContain("Ця дата вже минула: виберіть сьогоднішній або пізніший день.");
    expect(text).toContain("Вкажіть ТТН Нової Пошти, з якою їде товар.");
    expect(text).toContain("Додайте хоча б один артикул.");
    expect(text).not.toMatch(/Nothing was sent|in the past/);
    expect(await db().inboundDelivery.count()).toBe(0);
  });
});

async function seedRequests() {
  const base = {
    shop: SHOP,
    deliveryDate: inDays(5),
    method: "Новая почта",
    seats: 1,
  };
  const line = (sku: string, count: number, received = 0) => ({ sku, name: sku, count, received });
  await db().inboundDelivery.create({
    data: {
      ...base,
      idRequest: "IN-AAAAAAAAA1",
      state: "sent",
      warehouseId: "900001",
      status: 2,
      ttn: "20450000000111",
      lines: JSON.stringify([line("TEA-001", 10, 4)]),
      createdAt: new Date(Date.now() - 3 * 60_000),
    },
  });
  await db().inboundDelivery.create({
    data: {
      ...base,
      idRequest: "IN-BBBBBBBBB2",
      state: "failed",
      ttn: "20450000000222",
      lines: JSON.stringify([line("CUP-002", 3)]),
      createdAt: new Date(Date.now() - 2 * 60_000),
    },
  });
  await db().inboundDelivery.create({
    data: {
      ...base,
      idRequest: "IN-CCCCCCCCC3",
      state: "sent",
      warehouseId: "900003",
      status: 3,
      method: "На склад",
      lines: JSON.stringify([line("TEA-001", 2, 2), line("CUP-002", 1, 1)]),
      createdAt: new Date(Date.now() - 60_000),
    },
  });
}

describe("the inbound deliveries list", () => {
  it("shows the requests newest first, filters by status, searches, and exports the lines as CSV", async () => {
    await seedRequests();
    // The warehouse's own list cannot be read: what is stored is shown, with a notice.
    sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.listDeliveryRequest] });
    const { page } = pages.admin;
    await pages.admin.open("/app/deliveries");
    await expect
      .poll(() => textOf(page.locator("body")), FIRST)
      .toContain("The warehouse could not be reached just now: the list shows the requests stored here.");
    // The notice is the warehouse's refusal, not a leftover: the list asked once, and the fault was spent.
    expect(sim.stats().requests[OPERATIONS.listDeliveryRequest]).toBe(1);
    const requests = async () =>
      Promise.all(
        (await page.locator("tbody tr").all()).map(async (row) => (await textOf(row)).slice(0, 13)),
      );
    await expect.poll(requests, FIRST).toEqual(["IN-CCCCCCCCC3", "IN-BBBBBBBBB2", "IN-AAAAAAAAA1"]);
    const partly = await textOf(page.locator("tbody tr", { hasText: "IN-AAAAAAAAA1" }));
    expect(partly).toContain("Partly received");
    expect(partly).toContain("4 of 10");
    expect(partly).toContain("20450000000111");
    expect(await textOf(page.locator("tbody tr", { hasText: "IN-CCCCCCCCC3" }))).toContain("Own transport");
    expect(await textOf(page.locator("tbody tr", { hasText: "IN-BBBBBBBBB2" }))).toContain("Not made");

    await page.getByLabel("Status").selectOption("received");
    await page.waitForURL(/status=received/);
    await expect.poll(requests).toEqual(["IN-CCCCCCCCC3"]);
    await page.getByLabel("Status").selectOption("");
    await page.waitForURL((url) => !url.searchParams.has("status"));

    await page.getByLabel("Search").fill("0000000222");
    await page.getByLabel("Search").press("Enter");
    await page.waitForURL(/search=0000000222/);
    await expect.poll(requests).toEqual(["IN-BBBBBBBBB2"]);
    await pages.admin.open("/app/deliveries?search=CUP-002&status=received");
    await expect.poll(requests).toEqual(["IN-CCCCCCCCC3"]);
    await pages.admin.open("/app/deliveries?search=NOTHING-LIKE-IT");
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("No delivery request matches this status or search.");

    const exported = async () => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export CSV" }).click(),
      ]);
      return (await readFile((await download.path())!, "utf8")).split("\r\n");
    };
    const date = inDays(5);
    const header = '"request","warehouse_id","date","method","status","sku","planned","received"';
    await pages.admin.open("/app/deliveries");
    await expect.poll(requests).toHaveLength(3);
    expect(await exported()).toEqual([
      header,
      `"IN-CCCCCCCCC3","900003","${date}","На склад","received","TEA-001","2","2"`,
      `"IN-CCCCCCCCC3","900003","${date}","На склад","received","CUP-002","1","1"`,
      `"IN-BBBBBBBBB2","","${date}","Новая почта","failed","CUP-002","3","0"`,
      `"IN-AAAAAAAAA1","900001","${date}","Новая почта","partlyReceived","TEA-001","10","4"`,
      "",
    ]);
    // The list's filters go with it.
    await pages.admin.open("/app/deliveries?status=failed");
    await expect.poll(requests).toEqual(["IN-BBBBBBBBB2"]);
    expect(await exported()).toEqual([
      header,
      `"IN-BBBBBBBBB2","","${date}","Новая почта","failed","CUP-002","3","0"`,
      "",
    ]);
  });
});

describe("a delivery request's page", () => {
  it("shows planned against received from the warehouse's report, and Refresh reads it again", async () => {
    const { createDeliveryRequest } = await import("../../app/deliveries/deliveries.server");
    const { newIdRequest } = await import("../../app/deliveries/form");
    const made = await createDeliveryRequest(appContext(), SHOP, {
      idRequest: newIdRequest(),
      deliveryDate: inDays(1),
      method: "ownTransport",
      seats: "1",
      ttn: "",
      comment: "",
      lines: [
        { sku: "TEA-001", count: "10" },
        { sku: "CUP-002", count: "4" },
      ],
    });
    if (!made.ok) throw new Error(JSON.stringify(made.errors));
    const row = await db().inboundDelivery.findUniqueOrThrow({ where: { id: made.id } });
    sim.receiveDelivery({ id: row.warehouseId!, products: [{ sku: "TEA-001", count: 7 }] });

    const { page } = pages.admin;
    await pages.admin.open(`/app/deliveries/${row.id}`);
    const table = () => textOf(page.locator("table"));
    await expect.poll(table, FIRST).toContain("TEA-001Чай зелений107−3");
    expect(await table()).toContain("CUP-002Чашка40−4");
    expect(await textOf(page.locator("body"))).toContain("Partly received");

    sim.receiveDelivery({ id: row.warehouseId! });
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(table).toContain("TEA-001Чай зелений10100");
    await expect.poll(() => textOf(page.locator("body"))).toContain("Read from the warehouse just now.");
    expect(await textOf(page.locator("body"))).toContain("Received");
  });

  it("looks up a request in doubt on view, and offers to send a refused one again with the warehouse's words", async () => {
    const { createDeliveryRequest } = await import("../../app/deliveries/deliveries.server");
    const { newIdRequest } = await import("../../app/deliveries/form");
    const input = (sku: string) => ({
      idRequest: newIdRequest(),
      deliveryDate: inDays(1),
      method: "ownTransport",
      seats: "1",
      ttn: "",
      comment: "",
      lines: [{ sku, count: "1" }],
    });
    sim.faults.dropNext({ count: 1, operations: [OPERATIONS.addDeliveryRequest] });
    const doubtful = await createDeliveryRequest(appContext(), SHOP, input("TEA-001"));
    if (!doubtful.ok) throw new Error("not made");
    expect((await db().inboundDelivery.findUniqueOrThrow({ where: { id: doubtful.id } })).state).toBe(
      "in_doubt",
    );

    const { page } = pages.admin;
    await pages.admin.open(`/app/deliveries/${doubtful.id}`);
    await expect.poll(() => textOf(page.locator("body")), FIRST).toContain("New");
    expect(await textOf(page.locator("body"))).not.toContain("Not known whether the warehouse has it");
    expect((await db().inboundDelivery.findUniqueOrThrow({ where: { id: doubtful.id } })).state).toBe("sent");
    expect(sim.store().deliveries.size).toBe(1);

    // A card the warehouse lost: the warehouse refuses the request.
    await catalogueItem("SOAP-404", "Мило");
    const refused = await createDeliveryRequest(appContext(), SHOP, input("SOAP-404"));
    if (!refused.ok) throw new Error("not made");
    await pages.admin.open(`/app/deliveries/${refused.id}`);
    const body = () => textOf(page.locator("body"));
    await expect.poll(body, FIRST).toContain("The warehouse did not make this request");
    expect(await body()).toContain("SOAP-404");
    sim.seedProducts([{ sku: "SOAP-404", name: "Мило" }]);
    await page.getByRole("button", { name: "Send again" }).click();
    await expect.poll(body).toContain("Sent: the warehouse made the request.");
    expect(sim.store().deliveries.size).toBe(2);
  });
});
