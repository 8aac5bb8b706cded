// The home page in a real browser: the setup checklist against the warehouse simulator (a refused key,
// then a good one), steps opened again, and the dashboard with data in English and Ukrainian.
import { afterAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { writeTexts } from "../../app/i18n/texts";
import { loadOnboarding } from "../../app/onboarding/state.server";
import { EVENT } from "../../app/orders/states";
import { fulfillmentServices } from "../shopify-fake";
import { seedOrder } from "../support/orders";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

// The app reads the warehouse's address from its environment on its first request: the simulator's.
const sim = await startWarehouseSimulator({
  accounts: [
    {
      ...DEFAULT_ACCOUNT,
      senders: [
        {
          id: "1a2b3c4d-0000-4000-8000-000000000001",
          name: 'ТОВ "Київські товари"',
          EDRPOU: "41234567",
          phone: "380671234567",
          CityRef: "8d5a980d-391c-11dd-90d9-001a92567626",
          CityDescription: "Київ",
          ContactPerson: "Іваненко Іван",
        },
        {
          id: "1a2b3c4d-0000-4000-8000-000000000002",
          name: "ФОП Іваненко І. І.",
          EDRPOU: "3123456789",
          phone: "380501234567",
          CityRef: "8d5a980d-391c-11dd-90d9-001a92567626",
          CityDescription: "Київ",
          ContactPerson: "Іваненко Іван",
        },
      ],
    },
  ],
});
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();

describe("the setup checklist", () => {
  // Eleven round trips through the checklist, the first compiling the page: more than the file's 60 s
  // on a loaded machine (seen at 62 s with five suites sharing two cores; 25-30 s alone).
  it(
    "refuses a wrong key in plain words, takes a good one, and goes on step by step",
    { timeout: 150_000 },
    async () => {
      const store = pages.fake.state.shop(SHOP)!;
      const warehouse = store.addLocation({ name: "Склад у Броварах" });
      const { page } = pages.admin;
      const { db } = appContext();
      const body = () => textOf(page.locator("body"));
      await pages.admin.open("/app");
      expect(await body()).toContain("Set up Sklad Sync");
      expect(await body()).toContain("0 of 6 steps done");

      await page.getByLabel("Warehouse ApiKey").fill("0000-not-a-key");
      await page.getByRole("button", { name: "Test connection" }).click();
      await expect.poll(body).toContain("The warehouse refused this ApiKey.");
      // The refusal is on the page already, from the test: the save's own answer is what to wait for.
      const saveAnswered = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: "Save and continue" }).click();
      await (await saveAnswered).finished();
      await expect.poll(() => page.getByText("The warehouse refused this ApiKey.").count()).toBe(1);
      const refused = await db.shopSettings.findUnique({ where: { shop: SHOP } });
      expect(refused?.apiKeyCiphertext ?? null).toBeNull();

      await page.getByLabel("Warehouse ApiKey").fill(sim.apiKey);
      await page.getByRole("button", { name: "Test connection" }).click();
      await expect
        .poll(body)
        .toContain("The warehouse answered: the connection works. The account has 2 senders.");
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect.poll(body).toContain("The key is saved and the warehouse accepts it.");
      // The answer shows before the page has read the saved state again.
      await expect.poll(body).toContain("1 of 6 steps done");
      expect(await page.content()).not.toContain(sim.apiKey);

      // The location step opens next, offering the store's locations.
      await page.getByLabel("The location that stands for the warehouse").selectOption(warehouse.id);
      await page.getByRole("button", { name: "Save location" }).click();
      await expect.poll(body).toContain("The warehouse location is Склад у Броварах.");
      const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
      expect(row).toMatchObject({ apiKeyHint: "••••8b70", locationId: warehouse.id });

      // A done step opens again, showing what was saved.
      await page.getByRole("link", { name: "Change: Connect the warehouse" }).click();
      await expect.poll(body).toContain("A key ending in ••••8b70 is saved.");

      // The sender step offers the account's senders.
      await page.getByRole("link", { name: "Open: The sender" }).click();
      await page.getByLabel("Sender", { exact: true }).selectOption("1a2b3c4d-0000-4000-8000-000000000002");
      await page.getByRole("button", { name: "Save sender" }).click();
      await expect.poll(body).toContain("Parcels are sent by ФОП Іваненко І. І..");
      const mapping = JSON.parse(
        (await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).mapping,
      );
      expect(mapping.deliverySenderId).toBe("1a2b3c4d-0000-4000-8000-000000000002");

      await page.getByRole("button", { name: "Mark setup as done" }).click();
      await expect.poll(body).toContain("Warehouse connection");
      expect(await body()).toContain("Dashboard");
      expect(await body()).not.toContain("Setup is not finished");
    },
  );

  it("registers the app's fulfillment service at the location step, once, with the warehouse's address", async () => {
    const store = pages.fake.state.shop(SHOP)!;
    store.addLocation({ name: "Магазин на Подолі" });
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open("/app?step=location");
    await page.getByText("A fulfillment service that the app registers").click();
    await page.getByLabel("Warehouse street and building").fill("вул. Складська, 1");
    await page.getByLabel("Warehouse city").fill("Бровари");
    await page.getByLabel("Warehouse postal code").fill("07400");
    await page.getByRole("button", { name: "Use the fulfillment service" }).click();
    await expect
      .poll(body)
      .toContain("The warehouse is the fulfillment service “Sklad Sync”, at its location Sklad Sync.");
    const services = fulfillmentServices(store);
    expect(services).toHaveLength(1);
    expect(store.locations.get(services[0]!.locationId)!.address).toMatchObject({
      address1: "вул. Складська, 1",
      city: "Бровари",
      zip: "07400",
    });
    const { db } = appContext();
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      fulfillmentMode: "service",
      locationId: services[0]!.locationId,
    });
    expect((await loadOnboarding(db, SHOP)).steps.location).toBeDefined();

    // Opened again, the step says what is chosen; a second registration makes no second service.
    await pages.admin.open("/app?step=location");
    await expect
      .poll(body)
      .toContain("Now: the fulfillment service “Sklad Sync”, at its location Sklad Sync.");
    await page.getByRole("button", { name: "Use the fulfillment service" }).click();
    await expect
      .poll(body)
      .toContain("The warehouse is the fulfillment service “Sklad Sync”, at its location Sklad Sync.");
    expect(fulfillmentServices(store)).toHaveLength(1);
  });

  it("shows the rules offered by the orders, with a preview that changes with the rules", async () => {
    const { db } = appContext();
    await seedOrder(db, { shop: SHOP, number: 1001, state: "ready" });
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open("/app?step=rules");
    expect(await body()).toContain("Накладений платіж (1 order)");
    const preview = page.getByRole("region", { name: "How your last orders would go to the warehouse" });
    expect(await textOf(preview)).toContain("Cash on delivery");
    expect(await textOf(preview)).toContain("Would be sent");

    await page.getByRole("button", { name: "Add a payment rule for Накладений платіж" }).click();
    await page.getByLabel("Method (rule 1)").first().selectOption("prepaid");
    await page.getByRole("button", { name: "Preview with these rules" }).click();
    await expect.poll(() => textOf(preview)).toContain("Prepaid");
    expect(
      JSON.parse((await db.shopSettings.findUnique({ where: { shop: SHOP } }))?.mapping ?? "{}"),
    ).toEqual({});
  });
});

describe("the dashboard", () => {
  async function seedDashboard() {
    const { db } = appContext();
    await db.shopSettings.create({
      data: {
        shop: SHOP,
        apiKeyCiphertext: "v1:unused",
        apiKeyHint: "••••8b70",
        onboarding: JSON.stringify({ steps: {}, finishedAt: new Date().toISOString() }),
      },
    });
    const held = await seedOrder(db, { shop: SHOP, number: 1001, state: "held" });
    const accepted = await seedOrder(db, { shop: SHOP, number: 1002, state: "accepted", idOrderFF: "FF-1" });
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    await db.orderEvent.createMany({
      data: [
        { shop: SHOP, orderId: accepted.id, kind: EVENT.accepted, at: yesterday, message: "" },
        { shop: SHOP, orderId: accepted.id, kind: EVENT.shipped, at: yesterday, message: "" },
      ],
    });
    await db.stockSync.create({
      data: {
        shop: SHOP,
        trigger: "schedule",
        quantityName: "available",
        startedAt: yesterday,
        finishedAt: yesterday,
        changed: 3,
        error: writeTexts([{ key: "common:text.stored", values: { text: "ReportSklad: HTTP 503" } }]),
      },
    });
    return { held };
  }

  it("shows health, orders with links, what needs attention and the chart, in English", async () => {
    await seedDashboard();
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open("/app");
    expect(await body()).toContain("Dashboard");
    expect(await body()).toContain("Connected");
    expect(await body()).toContain("1 order is held until you fix it");
    expect(
      await page.getByRole("link", { name: "1 order is held until you fix it" }).getAttribute("href"),
    ).toContain("/app/orders?state=held");
    expect(await page.getByRole("link", { name: "Held: 1" }).getAttribute("href")).toContain("state=held");
    expect(await body()).toContain("3 quantities changed");
    expect(await body()).toContain("ReportSklad: HTTP 503");
    const chart = page.getByRole("img", { name: /Orders sent, shipped and delivered per day/ });
    expect(await chart.count()).toBe(1);
    expect(await textOf(page.locator("svg desc"))).toContain(
      "1 sent to the warehouse, 1 shipped, 0 delivered",
    );

    // Opening the checklist again from the dashboard.
    await page.getByRole("button", { name: "Setup checklist" }).click();
    await expect.poll(body).toContain("Set up Sklad Sync");
  });

  it("speaks Ukrainian to a Ukrainian admin", async () => {
    await seedDashboard();
    const admin = await pages.adminIn("uk");
    await admin.open("/app");
    const body = await textOf(admin.page.locator("body"));
    expect(body).toContain("Панель стану");
    expect(body).toContain("З'єднання зі складом");
    expect(body).toContain("1 замовлення затримано, доки ви його не виправите");
    expect(body).toContain("Замовлення за останні 30 днів");
    expect(await textOf(admin.page.locator("svg desc"))).toContain("1 надіслано на склад, 1 відправлено");
  });
});
