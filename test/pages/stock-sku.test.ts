// A SKU's page in a real browser, against the warehouse simulator: opened from the Stock page's drift list
// and by name; the movements as a table with the balance after each and a chart with a point per movement;
// the period as CSV; a period without movements; a bad period refused beside its field; a failing
// warehouse said with the card still shown.
import { readFile } from "node:fs/promises";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { bookWarehouseDay } from "../support/warehouse-day";
import { startWarehouseSimulator } from "../warehouse-sim";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

// The app reads the warehouse's address from its environment on its first request: the simulator's.
const sim = await startWarehouseSimulator({ clockFrozenAt: "2026-03-14T08:15:00Z" });
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();
const db = () => appContext().db;
const TEA = "ЧАЙ/зелений 100 г";
const teaPage = (from = "2026-03-14", to = "2026-03-14") =>
  `/app/stock/sku?${new URLSearchParams({ sku: TEA, from, to })}`;

beforeEach(async () => {
  sim.reset();
  sim.clock.set("2026-03-14T08:15:00Z");
  const saved = await saveSettings(appContext(), SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  await db().catalogueItem.create({
    data: {
      shop: SHOP,
      variantId: "gid://shopify/ProductVariant/8101",
      productId: "gid://shopify/Product/7101",
      sku: TEA,
      name: "Чай зелений - 100 г",
      warehouseQuantity: 8,
      warehouseAvailable: 6,
      reportedAt: new Date("2026-03-14T11:00:00Z"),
    },
  });
});

describe("a SKU's page", () => {
  it("is opened from the Stock page's drift and shows the movements, the balance chart and the CSV", async () => {
    const shipped = await bookWarehouseDay(sim, TEA);
    await db().stockSync.create({
      data: {
        shop: SHOP,
        trigger: "schedule",
        quantityName: "available",
        startedAt: new Date("2026-03-14T10:00:00Z"),
        finishedAt: new Date("2026-03-14T10:00:05Z"),
        skus: 1,
        changed: 1,
        report: JSON.stringify({ written: [{ sku: TEA, from: 9, to: 8, inventoryItemId: "gid://1" }] }),
      },
    });
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open("/app/stock");
    await page.getByRole("link", { name: `${TEA}: 9 → 8` }).click();
    // The default period (the last 30 days in Kyiv) is today's; the warehouse's day is in March.
    await expect.poll(body).toContain(`SKU ${TEA}`);
    expect(new URL(page.url()).searchParams.get("sku")).toBe(TEA);
    expect(await body()).toContain("At the warehouse: 8 on hand, 6 free, as its stock report of 14 Mar 2026");
    expect(await page.getByRole("link", { name: "Чай зелений - 100 г" }).getAttribute("href")).toBe(
      "shopify://admin/products/7101/variants/8101",
    );

    await page.getByLabel("From (Kyiv date)").fill("2026-03-14");
    await page.getByLabel("To (Kyiv date)").fill("2026-03-14");
    await page.getByRole("button", { name: "Show movements" }).click();
    await expect
      .poll(body)
      .toContain("3 movements: balance 0 at the start of the period, 8 after the last; 11 in, 3 out.");
    expect(await body()).toContain("The balance at the start is the first movement's balance after it");
    const rows = page.locator("table tbody tr");
    expect(await rows.count()).toBe(3);
    const cells = await rows.nth(1).locator("th, td").allTextContents();
    expect(cells.map((cell) => cell.trim())).toEqual([
      "14.03.2026 11:00",
      `Реализация товаров ${shipped.id_order_FF} от 14.03.2026`,
      "",
      "3",
      "7",
    ]);
    const points = await page.locator('[data-testid="balance-chart"] polyline').getAttribute("points");
    expect(points!.trim().split(/\s+/)).toHaveLength(3);
    expect(await page.locator("#balance-chart-desc").textContent()).toBe(
      "3 movements; the balance went from 10 to 8, lowest 7, highest 10.",
    );

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("movements-2026-03-14-2026-03-14.csv");
    const csv = (await readFile((await download.path())!, "utf8")).split("\r\n");
    expect(csv[0]).toBe('"sku","date","document","quantity","balance"');
    expect(csv[2]).toBe(
      `"${TEA}","2026-03-14 11:00:00","Реализация товаров ${shipped.id_order_FF} от 14.03.2026","-3","7"`,
    );
    expect(csv).toHaveLength(5);
  });

  it("opens any SKU by name, says when a period has no movements, and refuses a period that runs backwards", async () => {
    await bookWarehouseDay(sim, TEA);
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open("/app/stock");
    await page.getByLabel("Open a SKU").fill(TEA);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect.poll(body).toContain(`SKU ${TEA}`);

    await page.getByLabel("From (Kyiv date)").fill("2026-03-01");
    await page.getByLabel("To (Kyiv date)").fill("2026-03-13");
    await page.getByRole("button", { name: "Show movements" }).click();
    await expect.poll(body).toContain("No movements from 1 Mar 2026 to 13 Mar 2026.");
    expect(await page.locator('[data-testid="balance-chart"]').count()).toBe(0);
    expect(await page.getByRole("button", { name: "Export CSV" }).count()).toBe(0);

    const requests = sim.stats().requests[OPERATIONS.reportMoveProduct] ?? 0;
    await page.getByLabel("From (Kyiv date)").fill("2026-03-14");
    await page.getByLabel("To (Kyiv date)").fill("2026-03-01");
    await page.getByRole("button", { name: "Show movements" }).click();
    await expect.poll(body).toContain("The end comes before the start: give a later date.");
    const to = page.getByLabel("To (Kyiv date)");
    expect(await to.getAttribute("aria-invalid")).toBe("true");
    expect(sim.stats().requests[OPERATIONS.reportMoveProduct] ?? 0).toBe(requests);
  });

  it("speaks Ukrainian to an admin in Ukrainian", async () => {
    await bookWarehouseDay(sim, TEA);
    const admin = await pages.adminIn("uk");
    await admin.open(teaPage());
    const body = () => textOf(admin.page.locator("body"));
    await expect.poll(body).toContain(`Артикул ${TEA}`);
    expect(await body()).toContain(
      "3 рухи: залишок 0 на початок періоду, 8 після останнього; надійшло 11, вибуло 3.",
    );
    expect(await body()).toContain(
      "Залишок на початок — це залишок після першого руху мінус його кількість.",
    );
    expect(await admin.page.getByRole("columnheader", { name: "Дата й час (Київ)" }).count()).toBe(1);
  });

  it("says when the warehouse cannot give the movements, and still shows the card", async () => {
    sim.faults.failNext({ count: 5, status: 500, operations: [OPERATIONS.reportMoveProduct] });
    const { page } = pages.admin;
    await pages.admin.open(teaPage());
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("The warehouse did not give the movements");
    expect(await body()).toContain("The warehouse's server failed (HTTP 500).");
    expect(await body()).toContain("At the warehouse: 8 on hand, 6 free");
    expect(await page.locator("table").count()).toBe(0);
  });
});
