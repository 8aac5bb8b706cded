// The settings page in a real browser: the ApiKey goes in and only its hint ever comes back; bad input
// is refused beside its field with nothing saved; a paused shop is told to enter a new key; the warehouse
// notification address is shown whole, copied, and replaced after a confirmation.
import type { Prisma } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { env } from "../../app/env.server";
import { REFERENCE_SOURCE } from "../../app/reference/kinds.server";
import { saveSettings } from "../../app/settings/settings.server";
import { notifyTokenDigest } from "../../app/statuses/notify-token.server";
import { fulfillmentServices } from "../shopify-fake";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const API_KEY = "sk-live-5f1c2e9a44d08b70";
// A newly typed key is checked with the warehouse before it is saved, and the Sender card asks it for the
// account's senders once a key is saved: the simulator, on loopback, answers, taking API_KEY as its account's
// key (test/pages/settings-sender.test.ts covers the card).
const sim = await startWarehouseSimulator({ accounts: [{ ...DEFAULT_ACCOUNT, apiKey: API_KEY }] });
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();

/**
 * The shop's settings row as a test sets it up. Upserted: a request of the page the test before left (its
 * answer settled, a revalidation of the next page's first load not yet) may have made the row after the
 * database was wiped, and a create then failed on the shop's key.
 */
function seedSettings({ data }: { data: Prisma.ShopSettingsUncheckedCreateInput }) {
  const { shop, ...rest } = data;
  return appContext().db.shopSettings.upsert({ where: { shop }, create: data, update: rest });
}

/** Every answer the app sends the page, as text, so a test can check what never leaves the server. */
function recordAnswers() {
  const answers: Promise<string>[] = [];
  pages.admin.page.on("response", (response) => {
    if (new URL(response.url()).origin !== pages.server.url) return;
    answers.push(response.text().catch(() => ""));
  });
  return async () => (await Promise.all(answers)).join("\n");
}

describe("settings", () => {
  it("saves the ApiKey and from then on shows only its last four characters", async () => {
    const { page } = pages.admin;
    const answers = recordAnswers();
    await pages.admin.open("/app/settings");

    await page.getByLabel("Warehouse ApiKey").fill(API_KEY);
    await page.getByLabel("Environment").selectOption("staging");
    await page.getByRole("button", { name: "Add delivery rule" }).click();
    await page.getByLabel("Shipping method contains (rule 1)").fill("express");
    await page.getByLabel("Method (rule 1)").selectOption("kyivCourier");
    // Explained beside it; asking is the default.
    const splitCod = page.getByLabel("A split order paid on delivery");
    expect(await splitCod.inputValue()).toBe("ask");
    expect(await textOf(page.locator("body"))).toContain("the warehouse's parcel must collect something");
    await splitCod.selectOption("parcel_share");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();

    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("A key ending in ••••8b70 is saved.");
    expect(await body()).toContain("Settings saved.");
    expect(await page.getByLabel("Warehouse ApiKey").inputValue()).toBe("");
    expect(await page.content()).not.toContain(API_KEY);

    const { db } = appContext();
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ apiKeyHint: "••••8b70", environment: "staging" });
    expect(row.apiKeyCiphertext).not.toContain(API_KEY);
    expect(JSON.parse(row.mapping)).toMatchObject({
      deliveryRules: [{ match: "express", method: "kyivCourier" }],
      splitCashOnDelivery: "parcel_share",
    });

    // A fresh visit: the saved choices are shown, the key is not; a blank key keeps it.
    await pages.admin.open("/app/settings");
    expect(await page.getByLabel("Environment").inputValue()).toBe("staging");
    expect(await page.getByLabel("Shipping method contains (rule 1)").inputValue()).toBe("express");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect.poll(body).toContain("Settings saved.");
    const again = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(again.apiKeyCiphertext).toBe(row.apiKeyCiphertext);
    expect(await answers()).not.toContain(API_KEY);
  });

  it("refuses bad input beside its field and saves nothing", async () => {
    const { db } = appContext();
    await seedSettings({
      data: { shop: SHOP, environment: "production", mapping: JSON.stringify({ idOrderPrefix: "UA-" }) },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    // Read once the page is open: its first visit gives a shop installed before them a notification address.
    const before = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });

    await page.getByLabel("Warehouse ApiKey").fill("not a key!");
    await page.getByRole("button", { name: "Add payment rule" }).click();
    await page.getByLabel("Environment").selectOption("staging");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();

    await expect.poll(() => textOf(page.locator("body"))).toContain("Nothing was saved");
    const errorOf = async (label: string) => {
      const id = await page.getByLabel(label).getAttribute("aria-describedby");
      return textOf(page.locator(`[id="${id?.split(" ").find((part) => part.endsWith("Error"))}"]`));
    };
    expect(await errorOf("Warehouse ApiKey")).toContain("may hold only letters, digits");
    expect(await errorOf("Payment gateway name contains (rule 1)")).toContain("must not be empty");
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toEqual(before);
  });

  it("checks a newly typed key with the warehouse, as onboarding does, and saves none it refuses", async () => {
    const { db } = appContext();
    await seedSettings({ data: { shop: SHOP, environment: "production", apiKeyHint: "••••0000" } });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const before = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });

    await page.getByLabel("Warehouse ApiKey").fill("sk-live-0000000000000bad");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();

    await expect.poll(() => textOf(page.locator("body"))).toContain("Nothing was saved");
    const id = await page.getByLabel("Warehouse ApiKey").getAttribute("aria-describedby");
    const error = page.locator(`[id="${id?.split(" ").find((part) => part.endsWith("Error"))}"]`);
    expect(await textOf(error)).toContain("The warehouse refused this ApiKey");
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toEqual(before);
  });

  it("tells the second of two admins that the settings changed meanwhile, keeps their entries, and saves after a reload", async () => {
    const { page } = pages.admin;
    const { db } = appContext();
    await pages.admin.open("/app/settings");
    await page.getByLabel("Environment").selectOption("staging");
    // Another admin saves while this page is open.
    const other = await saveSettings(appContext(), SHOP, {
      environment: "production",
      batchAddOrder: false,
      mapping: {},
      version: 0,
    });
    expect(other.ok).toBe(true);
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    const body = () => textOf(page.locator("body"));
    await expect
      .poll(body)
      .toContain("These settings were changed meanwhile, by another admin or in another tab");
    // The merchant's entry is still there; the other admin's save stands.
    expect(await page.getByLabel("Environment").inputValue()).toBe("staging");
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      environment: "production",
      batchAddOrder: false,
    });

    // Reloaded, the page shows the settings as saved now, and the change goes through.
    await pages.admin.open("/app/settings");
    expect(await page.getByLabel("Environment").inputValue()).toBe("production");
    await page.getByLabel("Environment").selectOption("staging");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect.poll(body).toContain("Settings saved.");
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      environment: "staging",
      batchAddOrder: false,
    });
    // And a second save from the same page stands on its own first: no clash with itself.
    await page.getByLabel("Environment").selectOption("production");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect
      .poll(async () => (await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).environment)
      .toBe("production");
    expect(await body()).not.toContain("changed meanwhile");
  });

  it("tells the merchant of a refused key, and a new key lifts the pause", async () => {
    const { db } = appContext();
    await seedSettings({
      data: {
        shop: SHOP,
        apiKeyHint: "••••0000",
        pausedAt: new Date("2026-03-02T08:30:00Z"),
        pauseReason: "The warehouse refused the ApiKey (HTTP 401).",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("The warehouse refused the ApiKey: no orders are being sent");
    expect(await body()).toContain("The warehouse refused the ApiKey (HTTP 401).");
    expect(await body()).toContain("Paused since 2 Mar 2026, 10:30");
    expect(await body()).toContain("Enter a new ApiKey below and save");

    await page.getByLabel("Warehouse ApiKey").fill(API_KEY);
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect.poll(body).not.toContain("no orders are being sent");
    expect(await body()).toContain("Settings saved.");
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ pausedAt: null, pauseReason: null, apiKeyHint: "••••8b70" });
  });

  it("shows the warehouse notification address to copy, and makes a new one after a confirmation", async () => {
    const { page } = pages.admin;
    await page
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: pages.server.url });
    await pages.admin.open("/app/settings");
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain(
      "Give this address to your warehouse manager: the warehouse calls it whenever an order's status changes.",
    );
    const field = page.getByLabel("Notification address");
    const first = await field.inputValue();
    const prefix = `${env().SHOPIFY_APP_URL.replace(/\/+$/, "")}/warehouse/notify/`;
    expect(first.startsWith(prefix)).toBe(true);
    const firstToken = first.slice(prefix.length);
    expect(firstToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { db } = appContext();
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.notifyTokenDigest).toBe(notifyTokenDigest(firstToken));

    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await expect.poll(body).toContain("The address is copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    // The first click only asks; keeping the address changes nothing.
    await page.getByRole("button", { name: "Make a new address" }).click();
    expect(await body()).toContain("The current address stops working at once");
    await page.getByRole("button", { name: "Keep the current address" }).click();
    expect(await body()).not.toContain("The current address stops working at once");
    expect(await field.inputValue()).toBe(first);

    await page.getByRole("button", { name: "Make a new address" }).click();
    await page.getByRole("button", { name: "Make the new address" }).click();
    await expect.poll(() => field.inputValue()).not.toBe(first);
    expect(await body()).toContain("A new notification address was made and the old one no longer works.");
    const second = await field.inputValue();
    expect(second.startsWith(prefix)).toBe(true);
    const after = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(after.notifyTokenDigest).toBe(notifyTokenDigest(second.slice(prefix.length)));
    expect(await db.shopSettings.count({ where: { notifyTokenDigest: notifyTokenDigest(firstToken) } })).toBe(
      0,
    );
  });

  it("shows the carrier reference data stored for the key, its last problem, and asks for a refresh", async () => {
    const { db } = appContext();
    await seedSettings({
      data: { shop: SHOP, apiKeyHint: "••••8b70", apiKeyDigest: "key-digest" },
    });
    await db.referenceSet.create({
      data: {
        source: REFERENCE_SOURCE,
        refreshedAt: new Date("2026-03-02T06:15:00Z"),
        cityCount: 792,
        branchCount: 22302,
        version: 1,
        lastError: "getWarehouses: the warehouse answered HTTP 503.",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("792 cities, 22,302 branches and parcel lockers stored.");
    expect(await body()).toContain("Last refreshed 2 Mar 2026, 08:15.");
    expect(await body()).toContain("The last refresh did not finish; it is tried again later");
    expect(await body()).toContain("getWarehouses: the warehouse answered HTTP 503.");

    await page.getByRole("button", { name: "Refresh now" }).click();
    await expect.poll(body).toContain("The carrier reference data will be refreshed within a few minutes");
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "reference" } },
    });
    expect(row.cursor).toBe("manual");
    expect(row.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe("settings in Ukrainian", () => {
  it("speak Ukrainian and refuse a bad prefix in Ukrainian beside its field, saving nothing", async () => {
    const { db } = appContext();
    await seedSettings({
      data: { shop: SHOP, environment: "production", mapping: JSON.stringify({ idOrderPrefix: "UA-" }) },
    });
    const admin = await pages.adminIn("uk");
    const { page } = admin;
    await admin.open("/app/settings");
    const before = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    const body = () => textOf(page.locator("body"));
    expect(await page.locator("html").getAttribute("lang")).toBe("uk");
    expect(await body()).toContain("Підключення до складу");
    expect(await body()).toContain("Передайте цю адресу менеджеру складу");

    await page.getByLabel("Префікс номера замовлення").fill("UA1");
    await page.getByLabel("Середовище").selectOption("staging");
    await page.getByRole("button", { name: "Зберегти", exact: true }).last().click();

    await expect.poll(body).toContain("Нічого не збережено: виправте позначені нижче поля");
    const id = await page.getByLabel("Префікс номера замовлення").getAttribute("aria-describedby");
    const error = await textOf(
      page.locator(`[id="${id?.split(" ").find((part) => part.endsWith("Error"))}"]`),
    );
    expect(error).toContain("Префікс номера замовлення не може закінчуватися цифрою");
    expect(await body()).not.toContain("must not end in a digit");
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toEqual(before);
  });

  it("tell of a refused key in Ukrainian, with the time of the pause in the shop's zone", async () => {
    await seedSettings({
      data: {
        shop: SHOP,
        apiKeyHint: "••••0000",
        pausedAt: new Date("2026-03-02T08:30:00Z"),
        pauseReason: JSON.stringify([{ key: "settings:pause.reason.refused" }]),
      },
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/settings");
    const body = await textOf(admin.page.locator("body"));
    expect(body).toContain("Склад відхилив ApiKey: замовлення не надсилаються");
    expect(body).toContain("Склад відхилив ApiKey (HTTP 401). Нічого не втрачено");
    expect(body).toMatch(/Призупинено з 2 бер\. 2026( р\.)?,? 10:30/);
  });

  it("show the status settings in Ukrainian, with the stages' names and what is wrong with the saved ones", async () => {
    await seedSettings({
      data: { shop: SHOP, statusSettings: JSON.stringify({ pollMinutes: 1 }) },
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/settings/statuses");
    const body = await textOf(admin.page.locator("body"));
    expect(body).toContain("Збережені налаштування статусів більше не дійсні");
    expect(body).toContain("Хвилин між перевірками: Вкажіть ціле число хвилин від 5 до 1 440.");
    expect(body).toContain("Статуси та виконання");
    expect(body).toContain("Таблиця статусів");
    expect(body).toContain("Доставлено:");
    expect(body).not.toContain("Delivered");
  });

  it("say a failed carrier reference refresh and a failed status look-up in Ukrainian", async () => {
    const { db } = appContext();
    await seedSettings({ data: { shop: SHOP, apiKeyHint: "••••8b70", apiKeyDigest: "key-digest" } });
    const failure = JSON.stringify([{ key: "warehouse:error.serverError", values: { status: 503 } }]);
    await db.referenceSet.create({
      data: {
        source: REFERENCE_SOURCE,
        refreshedAt: new Date("2026-03-02T06:15:00Z"),
        cityCount: 792,
        branchCount: 22302,
        version: 1,
        lastError: failure,
      },
    });
    await db.shopSchedule.create({
      data: {
        shop: SHOP,
        kind: "statuses",
        nextRunAt: new Date("2026-03-14T08:16:00Z"),
        lastRunAt: new Date("2026-03-14T08:15:00Z"),
        lastError: failure,
      },
    });
    const said = "Збій на сервері складу (HTTP 503). Спробуйте ще раз за кілька хвилин.";
    const admin = await pages.adminIn("uk");
    await admin.open("/app/settings");
    expect(await textOf(admin.page.locator("body"))).toContain(said);
    await admin.open("/app/settings/statuses");
    await expect.poll(() => textOf(admin.page.locator("body"))).toContain(said);
    expect(await textOf(admin.page.locator("body"))).not.toContain("The warehouse's server failed");
  });
});

describe("status and fulfillment settings", () => {
  it("are reached from Settings, offer the store's locations, and save a location, a rule and the buyer switch", async () => {
    const store = pages.fake.state.shop(SHOP)!;
    const warehouse = store.addLocation({ name: "Склад у Броварах" });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    await page.getByRole("link", { name: "Open the status and fulfillment settings" }).click();
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("The location that stands for the warehouse");

    await page.getByLabel("The location that stands for the warehouse").selectOption(warehouse.id);
    await page
      .getByLabel("Let Shopify email the buyer when an order ships or its tracking changes")
      .uncheck();
    await page.getByRole("button", { name: "Add a status" }).click();
    await page.getByLabel("Status name").fill("Передано перевізнику");
    await page.getByLabel("Stage").selectOption("shipped");
    await page.getByLabel("Orders looked up in one request").fill("50");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => textOf(page.locator("body"))).toContain("Status settings saved.");

    const row = await appContext().db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ locationId: warehouse.id, locationName: "Склад у Броварах" });
    expect(JSON.parse(row.statusSettings)).toMatchObject({
      notifyBuyer: false,
      idsPerReport: 50,
      statusRules: [{ id: "", name: "Передано перевізнику", stage: "shipped" }],
    });
  });

  it("switch to the app's fulfillment service with the warehouse's address, saying what to do in Shopify first", async () => {
    const store = pages.fake.state.shop(SHOP)!;
    const own = store.addLocation({ name: "Склад у Броварах" });
    await seedSettings({
      data: { shop: SHOP, locationId: own.id, locationName: own.name },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings/statuses");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("Now: a location of yours");
    await page.getByText("A fulfillment service that the app registers").click();
    await expect.poll(body).toContain("put that location first in your order routing rules");
    expect(await body()).toContain("Orders the warehouse already has finish as they started");
    await page.getByLabel("Warehouse street and building").fill("вул. Складська, 1");
    await page.getByLabel("Warehouse city").fill("Бровари");
    await page.getByRole("button", { name: "Use the fulfillment service" }).click();
    await expect
      .poll(body)
      .toContain("Saved: the warehouse now appears in Shopify as the fulfillment service “Sklad Sync”");

    const row = await appContext().db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    const services = fulfillmentServices(store);
    expect(services).toHaveLength(1);
    expect(row).toMatchObject({
      fulfillmentMode: "service",
      fulfillmentServiceId: services[0]!.id,
      locationId: services[0]!.locationId,
    });
    expect(store.locations.get(services[0]!.locationId)!.address).toMatchObject({
      address1: "вул. Складська, 1",
      city: "Бровари",
    });
    // The rest of the page still saves, keeping the service's location.
    await pages.admin.open("/app/settings/statuses");
    await expect.poll(body).toContain("Now: the fulfillment service “Sklad Sync”");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(body).toContain("Status settings saved.");
    expect(await appContext().db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      fulfillmentMode: "service",
      locationId: services[0]!.locationId,
    });
  });

  it("refuses a tracking page without the waybill's place beside its field, saving nothing", async () => {
    const { page } = pages.admin;
    await pages.admin.open("/app/settings/statuses");
    await page.getByLabel("Nova Poshta tracking page").fill("https://novaposhta.ua/tracking/");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => textOf(page.locator("body"))).toContain("where the waybill number goes");
    const row = await appContext().db.shopSettings.findUnique({ where: { shop: SHOP } });
    expect(row?.statusSettings ?? "{}").toBe("{}");
  });

  it("say when the last look-up did not work and why, in the shop's time", async () => {
    await appContext().db.shopSchedule.create({
      data: {
        shop: SHOP,
        kind: "statuses",
        nextRunAt: new Date("2026-03-14T08:16:00Z"),
        lastRunAt: new Date("2026-03-14T08:15:00Z"),
        lastError: "ReportStatusOrder: the warehouse answered 503",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings/statuses");
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("The last look-up, on 14 Mar 2026, 10:15, did not work");
    expect(await textOf(page.locator("body"))).toContain("ReportStatusOrder: the warehouse answered 503");
  });
});
