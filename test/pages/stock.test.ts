// The Stock page in a real browser: it says when no location is chosen; it shows the last sync, the drift
// and the catalogue's problems with their fix links; "Sync now" asks the worker for a sync; the drift comes
// out as CSV; the stock settings are saved, or refused beside their field.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { writeTexts } from "../../app/i18n/texts";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const pages = useAdminPages();
const db = () => appContext().db;

async function chooseLocation() {
  await db().shopSettings.upsert({
    where: { shop: SHOP },
    create: { shop: SHOP, locationId: "gid://shopify/Location/9", locationName: "Склад у Броварах" },
    update: { locationId: "gid://shopify/Location/9", locationName: "Склад у Броварах" },
  });
}

async function seedSync() {
  const startedAt = new Date("2026-03-14T08:15:00Z");
  await db().stockSync.create({
    data: {
      shop: SHOP,
      trigger: "schedule",
      quantityName: "available",
      startedAt,
      finishedAt: new Date(startedAt.getTime() + 12_000),
      skus: 120,
      changed: 3,
      mutations: 1,
      report: JSON.stringify({
        missingInShopify: ["ONLY-WH-1"],
        missingAtWarehouse: [
          { sku: "=ONLY-SHOP", quantity: 4, inventoryItemId: "gid://shopify/InventoryItem/1" },
        ],
        sharedSkus: [],
        untracked: [],
        written: [{ sku: "VSH-S", from: 2, to: 7, inventoryItemId: "gid://shopify/InventoryItem/2" }],
        failures: [],
        promised: [{ sku: "VSH-M", units: 2 }],
      }),
    },
  });
}

describe("the Stock page", () => {
  it("says that nothing is synced until a location is chosen, and offers no sync", async () => {
    const { page } = pages.admin;
    await pages.admin.open("/app/stock");
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("Choose the location that stands for the warehouse");
    expect(await page.getByRole("button", { name: "Sync now" }).isDisabled()).toBe(true);
  });

  it("shows the last sync, what does not match and the catalogue's problems, and syncs when asked", async () => {
    await chooseLocation();
    await seedSync();
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8101",
        productId: "gid://shopify/Product/7101",
        sku: null,
        name: "Вишиванка - S",
        problem: "sku_missing",
        problemMessage: "This variant has no SKU, so the warehouse cannot list it.",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/stock");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("Finished 14 Mar 2026, 10:15 in 12 s: 3 of 120 SKUs changed.");
    expect(await body()).toContain("At the warehouse, not in Shopify (1)");
    expect(await body()).toContain("VSH-S: 2 → 7");
    expect(await body()).toContain("Kept off sale for orders the warehouse does not have yet (1)");
    expect(await body()).toContain("VSH-M: 2 promised");
    expect(await body()).toContain("This variant has no SKU");
    expect(await page.getByRole("link", { name: "Fix in Shopify" }).getAttribute("href")).toBe(
      "shopify://admin/products/7101/variants/8101",
    );

    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(body).toContain("A stock sync was asked for");
    const schedule = await db().shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "stock" } },
    });
    expect(schedule).toMatchObject({ cursor: "manual" });
    expect(schedule.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());

    // The drift as CSV, with a SKU that a spreadsheet would take for a formula kept as text.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.split("\r\n")).toEqual([
      '"sku","difference","shopify_quantity","warehouse_quantity"',
      '"ONLY-WH-1","not_in_shopify","",""',
      `"'=ONLY-SHOP","not_at_warehouse","4",""`,
      '"VSH-S","quantity_differed","2","7"',
      "",
    ]);

    // The app does not answer for the file: the page says so rather than nothing happening.
    await page.route("**/app/stock/drift.csv*", (route) => route.fulfill({ status: 503, body: "" }));
    await page.getByRole("button", { name: "Export CSV" }).click();
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("The CSV could not be made: the app did not answer.");
    // The browser's own line for the refused request, expected here: nothing else went wrong.
    expect(pages.admin.takeProblems()).toEqual([expect.stringMatching(/status of 503/)]);
  });

  it("saves the quantity the warehouse's stock becomes, and holds back an interval too short", async () => {
    await chooseLocation();
    const { page } = pages.admin;
    await pages.admin.open("/app/stock");
    await page.getByText("Physical stock as on hand").click();
    expect(await page.getByLabel("Physical stock as on hand").isChecked()).toBe(true);
    await page.getByLabel("Minutes between syncs").fill("2");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // The browser holds the form back and says why beside the field; nothing reaches the server.
    const field = page.getByLabel("Minutes between syncs");
    expect(await field.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    expect((await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).stockSettings).toBe("{}");

    await page.getByLabel("Minutes between syncs").fill("30");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => textOf(page.locator("body"))).toContain("Stock settings saved.");
    const saved = await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(JSON.parse(saved.stockSettings)).toEqual({
      quantityName: "on_hand",
      intervalMinutes: 30,
      restockReturns: false,
    });
  });

  it("speaks Ukrainian to an admin in Ukrainian: the sync, its error with the warehouse's own words, the drift", async () => {
    await chooseLocation();
    await seedSync();
    const startedAt = new Date("2026-03-14T09:00:00Z");
    await db().stockSync.create({
      data: {
        shop: SHOP,
        trigger: "manual",
        quantityName: "available",
        startedAt,
        finishedAt: new Date(startedAt.getTime() + 2_000),
        error: writeTexts([
          message("stock:sync.error.report"),
          message("warehouse:error.refused", undefined, "Неверный формат запроса"),
        ]),
      },
    });
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8101",
        productId: "gid://shopify/Product/7101",
        sku: null,
        name: "Вишиванка - S",
        problem: "sku_missing",
        problemMessage: "This variant has no SKU, so the warehouse cannot list it.",
      },
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/stock");
    const body = () => textOf(admin.page.locator("body"));
    await expect.poll(body).toContain("Остання синхронізація");
    const text = await body();
    expect(text).toContain("Записуються в локацію «Склад у Броварах»");
    expect(text).toContain(
      "Склад не надав звіт про залишки. Склад відхилив запит. Відповідь складу: Неверный формат запроса",
    );
    expect(text).toContain("Завершено 14 бер. 2026 р., 11:00 за 2 с: змінено 0 з 0 артикулів.");
    expect(text).toContain("Є на складі, немає в Shopify (1)");
    expect(text).toContain("=ONLY-SHOP (4 у Shopify)");
    expect(text).toContain("У цього варіанта немає артикула");
    expect(text).toContain("14 бер. 2026 р., 10:15");
    expect(text).toContain("За розкладом");
    expect(text).not.toMatch(/Last sync|What does not match|History|Sync now/);
    expect(await admin.page.getByRole("button", { name: "Синхронізувати зараз" }).isDisabled()).toBe(false);
    expect(await admin.page.getByRole("link", { name: "Виправити в Shopify" }).count()).toBe(1);
    expect(await admin.page.getByLabel("Хвилин між синхронізаціями").inputValue()).toBe("10");
  });

  it("tells an admin in Ukrainian to choose a location first", async () => {
    const admin = await pages.adminIn("uk");
    await admin.open("/app/stock");
    await expect
      .poll(() => textOf(admin.page.locator("body")))
      .toContain("Виберіть локацію, яка відповідає складу");
    expect(await admin.page.getByRole("button", { name: "Синхронізувати зараз" }).isDisabled()).toBe(true);
  });
});
