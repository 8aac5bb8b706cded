// The Catalogue page in a real browser: "Sync the whole catalogue" asks first, saying how long sending the
// shop's variants could take; once started, the page follows the sync's progress by itself (the bar, the
// counts, the time left); it lists the last syncs and the catalogue's problems with their fix links.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { writeTexts } from "../../app/i18n/texts";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const pages = useAdminPages();
const db = () => appContext().db;

/** Shopify's catalogue: 2,500 products of four sizes, once for the file (the fake keeps its shop). */
function stockTheShop() {
  const store = pages.fake.state.shop(SHOP)!;
  if (store.variants.size) return;
  for (let product = 1; product <= 2_500; product++) {
    store.addProduct({
      title: `Світшот ${product}`,
      variants: ["S", "M", "L", "XL"].map((size) => ({ title: size, sku: `FS-${product}-${size}` })),
    });
  }
}

/** `count` rows of the map for variants 1..count, with `fields`. */
async function mapRows(from: number, count: number, fields: { dueAt?: Date; sentAt?: Date }) {
  await db().catalogueItem.createMany({
    data: Array.from({ length: count }, (_, index) => ({
      shop: SHOP,
      variantId: `gid://shopify/ProductVariant/${from + index}`,
      productId: `gid://shopify/Product/${from + index}`,
      sku: `FS-${from + index}`,
      name: `Світшот ${from + index}`,
      ...fields,
    })),
  });
}

describe("the Catalogue page", () => {
  it("asks before a full sync, saying how long it could take, then follows its progress by itself", async () => {
    stockTheShop();
    const { page } = pages.admin;
    await pages.admin.open("/app/catalogue");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("No full sync yet.");

    await page.getByRole("button", { name: "Sync the whole catalogue" }).click();
    await expect.poll(body).toContain("Sync the whole catalogue?");
    expect(await body()).toContain(
      "Your shop has 10,000 variants. If the warehouse had none of them, sending them all would take about " +
        "3 hours 20 minutes. The warehouse takes one product a request, 50 a minute, so that orders are never " +
        "held up.",
    );
    expect(await db().catalogueSync.count()).toBe(0);

    await page.getByRole("button", { name: "Start the sync" }).click();
    await expect.poll(body).toContain("The full sync has started.");
    const sync = await db().catalogueSync.findFirstOrThrow({ where: { shop: SHOP } });
    expect(sync).toMatchObject({ phase: "shopify", variantsRead: 0 });
    const schedule = await db().shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "catalogue_sync" } },
    });
    expect(schedule.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
    await expect.poll(body).toContain("Step 1 of 3: reading your catalogue from Shopify");
    expect(await body()).toContain("0 of 10,000 variants read.");
    expect(await page.getByRole("button", { name: "Sync the whole catalogue" }).isDisabled()).toBe(true);

    // The worker (not running in page tests) reads on: the page shows it without being reloaded.
    await db().catalogueSync.update({ where: { id: sync.id }, data: { variantsRead: 2_500 } });
    await expect.poll(body, { timeout: 10_000 }).toContain("2,500 of 10,000 variants read.");
    expect(await page.locator("progress").getAttribute("value")).toBe("25");

    // Compared with the warehouse: 9,850 were there, 150 to send, of which 50 are sent. The rows first and
    // the step last, as the sync writes them: the page reads again every few seconds, and one reading
    // between the step and its rows would show step 3 with counts the next check does not poll for.
    await mapRows(1, 100, { dueAt: new Date() });
    await mapRows(101, 50, { sentAt: new Date() });
    await db().catalogueSync.update({
      where: { id: sync.id },
      data: { phase: "sending", variantsRead: 10_000, alreadyThere: 9_850, toSend: 150 },
    });
    await expect
      .poll(body, { timeout: 10_000 })
      .toContain("Step 3 of 3: sending the products the warehouse lacks");
    expect(await body()).toContain("50 of 150 sent; 9,850 were at the warehouse already.");
    expect(await body()).toContain(
      "About 2 minutes left. The warehouse takes one product a request, 50 a minute, so that orders are never held up.",
    );
    expect(await page.locator("progress").getAttribute("value")).toBe("33");
  });

  it("lists the last syncs with their outcome, and the catalogue's problems with their fix links", async () => {
    const startedAt = new Date("2026-03-14T08:15:00Z");
    await db().catalogueSync.createMany({
      data: [
        {
          shop: SHOP,
          phase: "done",
          startedAt,
          finishedAt: new Date(startedAt.getTime() + 42 * 60_000),
          variantsRead: 3_000,
          alreadyThere: 2_900,
          toSend: 100,
          sent: 100,
        },
        {
          shop: SHOP,
          phase: "failed",
          startedAt: new Date(startedAt.getTime() + 86_400_000),
          finishedAt: new Date(startedAt.getTime() + 86_400_000 + 60_000),
          variantsRead: 3_000,
          error: "The warehouse did not give its stock report: ReportSklad answered 500",
        },
      ],
    });
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8101",
        productId: "gid://shopify/Product/7101",
        sku: "SHARED-1",
        name: "Вишиванка - S",
        problem: "sku_duplicate",
        problemMessage: "Several variants share this SKU, so the warehouse would take them for one product.",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/catalogue");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("Failed. The warehouse did not give its stock report");
    expect(await body()).toContain("14 Mar 2026, 10:15");
    expect(await body()).toContain("Done in 42 min");
    expect(await body()).toContain("SHARED-1: Several variants share this SKU");
    expect(await page.getByRole("link", { name: "Fix in Shopify" }).getAttribute("href")).toBe(
      "shopify://admin/products/7101/variants/8101",
    );
    expect(await page.locator("progress").count()).toBe(0);
  });

  it("speaks Ukrainian to an admin in Ukrainian: a failed sync, a problem and its fix link", async () => {
    const startedAt = new Date("2026-03-14T08:15:00Z");
    await db().catalogueSync.create({
      data: {
        shop: SHOP,
        phase: "failed",
        startedAt,
        finishedAt: new Date(startedAt.getTime() + 60_000),
        variantsRead: 3_000,
        error: writeTexts([
          message("catalogue:error.report"),
          message("warehouse:error.refused", undefined, "Сервис временно недоступен"),
        ]),
      },
    });
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8101",
        productId: "gid://shopify/Product/7101",
        sku: "SHARED-1",
        name: "Вишиванка - S",
        problem: "sku_duplicate",
        problemMessage: "Several variants share this SKU, so the warehouse would take them for one product.",
      },
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/catalogue");
    const body = () => textOf(admin.page.locator("body"));
    await expect.poll(body).toContain("Проблеми каталогу");
    const text = await body();
    expect(text).toContain(
      "Не вдалася. Склад не надав звіт про залишки. Склад відхилив запит. Відповідь складу: Сервис временно недоступен",
    );
    expect(text).toContain("14 бер. 2026 р., 10:15");
    expect(text).toContain("3 000");
    expect(text).toContain("SHARED-1: Кілька варіантів мають однаковий артикул");
    expect(text).not.toMatch(/Catalogue problems|Full syncs|Failed/);
    expect(await admin.page.getByRole("link", { name: "Виправити в Shopify" }).getAttribute("href")).toBe(
      "shopify://admin/products/7101/variants/8101",
    );
    expect(await admin.page.getByRole("button", { name: "Синхронізувати весь каталог" }).isDisabled()).toBe(
      false,
    );
  });
});
