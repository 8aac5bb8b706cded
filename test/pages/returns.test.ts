// The Returns page in a real browser: the register newest first with each return's order (here and in
// Shopify), waybill, lines and condition; the filters and the search in the URL; a record the warehouse wrote
// in a form we cannot read, shown with why and as raw text; the CSV export; and the order's own page showing
// it returned, with what came back.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { writeTexts } from "../../app/i18n/texts";
import { readReturnRecord } from "../../app/returns/read";
import { recordReturns } from "../../app/returns/work.server";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";
import { seedOrder } from "../support/orders";

const pages = useAdminPages();
const db = () => appContext().db;

/**
 * Holds the register's first load whose URL `matches` (a filter or search just asked for), so that the next
 * change is made while it is out. `replacedBy` makes that change and waits for the page to give the held
 * load up; it is never answered (a load given up while its answer is being read is logged by Remix as an
 * error, which would fail the test).
 */
async function holdFirstLoad(page: Page, matches: (url: URL) => boolean) {
  const load = (url: URL) => url.pathname === "/app/returns.data" && matches(url);
  let arrived!: () => void;
  const out = new Promise<void>((resolve) => (arrived = resolve));
  let seen = 0;
  await page.route(load, async (route) => {
    if (seen++ === 0) arrived();
    else await route.fallback();
  });
  return {
    out,
    async replacedBy(change: () => Promise<unknown>) {
      const givenUp = page.waitForEvent("requestfailed", (request) => load(new URL(request.url())));
      await change();
      await givenUp;
      await page.unroute(load);
    },
  };
}

/** Three returns as the sweep keeps them: one of our order, one of an order made elsewhere, one unreadable. */
async function seedReturns() {
  const order = await seedOrder(db(), { shop: SHOP, number: 1201, state: "accepted" });
  await recordReturns(
    { ...appContext(), shop: SHOP, clock: () => new Date("2026-11-18T09:00:00Z") },
    [
      {
        id_return: "ВП-000001",
        id_order: order.idOrder,
        date: "17.11.2026",
        TTN: "20450000001201",
        products: [
          { sku: "CUP-KARP-BLUE", count: "2", marriage: false },
          { sku: "TEA-POL-100", count: "1", marriage: true },
        ],
      },
      {
        id_return: "ВП-000002",
        id_order: "ELSEWHERE-7",
        date: "16.11.2026",
        TTN: "20450000009999",
        products: [{ sku: "VSH-S", count: "1", marriage: false }],
      },
      {
        id_return: "ВП-000003",
        id_order: "<script>window.hacked=1</script>",
        date: "15.11.2026",
        products: "3 cups",
      },
    ].map(readReturnRecord),
  );
  await db().shopSchedule.create({
    data: {
      shop: SHOP,
      kind: "returns",
      lastRunAt: new Date("2026-11-18T09:00:00Z"),
      nextRunAt: new Date("2026-11-18T09:30:00Z"),
    },
  });
  return order;
}

describe("the Returns page", () => {
  it("lists the register newest first, filters and searches it in the URL, shows an unreadable record raw, and exports CSV", async () => {
    const order = await seedReturns();
    const { page } = pages.admin;
    await pages.admin.open("/app/returns");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body, { timeout: 30_000 }).toContain("Register last read 18 Nov 2026, 11:00");
    const rows = () => page.locator("[data-return-id]").evaluateAll((cells) => cells.length);
    expect(await rows()).toBe(3);
    const text = await body();
    expect(text).toContain("CUP-KARP-BLUE × 2");
    expect(text).toContain("TEA-POL-100 × 1, defective");
    expect(text).toContain("ELSEWHERE-7 (not an order of this store)");
    expect(text).toContain("Not restocked: restocking returns is off");
    // Newest first: the order's return (17 Nov) above the other store's (16 Nov) above the unreadable (15 Nov).
    const tableText = await textOf(page.locator("table"));
    expect(tableText.indexOf("#1201")).toBeLessThan(tableText.indexOf("ELSEWHERE-7"));
    expect(await page.getByRole("link", { name: "#1201" }).getAttribute("href")).toBe(
      `/app/orders/${order.id}`,
    );
    expect(await page.getByRole("link", { name: "In Shopify" }).getAttribute("href")).toBe(
      `shopify://admin/orders/${order.shopifyOrderId}`,
    );
    // The record we cannot read: why, and the record itself as text, never as markup.
    expect(text).toContain("The warehouse's record could not be read whole: It lists no goods.");
    await page.getByText("The record as the warehouse sent it").click();
    expect(await textOf(page.locator("pre"))).toContain('"id_order":"<script>window.hacked=1</script>"');
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

    await page.getByLabel("Defective").selectOption("yes");
    await expect.poll(() => page.url()).toContain("defective=yes");
    await expect.poll(rows).toBe(1);
    expect(await body()).toContain("#1201");

    await page.getByLabel("Defective").selectOption("");
    await expect.poll(() => page.url()).not.toContain("defective=");
    await page.getByLabel("Record").selectOption("no");
    await expect.poll(() => page.url()).toContain("readable=no");
    await expect.poll(rows).toBe(1);
    expect(await body()).toContain("It lists no goods.");

    await page.getByLabel("Record").selectOption("");
    await expect.poll(() => page.url()).not.toContain("readable=");
    // Two filters chosen one right after the other, the first's list still loading: each keeps the other.
    const firstFilter = await holdFirstLoad(page, (url) => url.searchParams.get("defective") === "yes");
    await page.getByLabel("Defective").selectOption("yes");
    await firstFilter.out;
    await firstFilter.replacedBy(() => page.getByLabel("Order", { exact: true }).selectOption("yes"));
    await expect.poll(() => new URL(page.url()).searchParams.get("linked")).toBe("yes");
    expect(new URL(page.url()).searchParams.get("defective")).toBe("yes");
    await expect.poll(rows).toBe(1);
    await page.getByLabel("Defective").selectOption("");
    await expect.poll(() => page.url()).not.toContain("defective=");
    await page.getByLabel("Order", { exact: true }).selectOption("");
    await expect.poll(() => page.url()).not.toContain("linked=");
    // A search, and a filter chosen while the search's list is still loading: each keeps the other.
    const search = await holdFirstLoad(page, (url) => url.searchParams.get("search") === "vsh-s");
    await page.getByLabel("Search returns").fill("vsh-s");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await search.out;
    await search.replacedBy(() => page.getByLabel("Defective").selectOption("no"));
    await expect.poll(() => new URL(page.url()).searchParams.get("defective")).toBe("no");
    expect(new URL(page.url()).searchParams.get("search")).toBe("vsh-s");
    await page.getByLabel("Defective").selectOption("");
    await expect.poll(() => page.url()).not.toContain("defective=");
    expect(page.url()).toContain("search=vsh-s");
    await expect.poll(rows).toBe(1);
    expect(await body()).toContain("ELSEWHERE-7");

    await page.getByLabel("Search returns").fill("#1201");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect
      .poll(async () => (await body()).includes("CUP-KARP-BLUE × 2") && (await rows()) === 1)
      .toBe(true);

    // The CSV has the page's filters: the search for the order, a row per line.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.split("\r\n")).toEqual([
      '"date","order","id_order","ttn","sku","count","defective"',
      `"2026-11-17","#1201","${order.idOrder}","20450000001201","CUP-KARP-BLUE","2","no"`,
      `"2026-11-17","#1201","${order.idOrder}","20450000001201","TEA-POL-100","1","yes"`,
      "",
    ]);

    // The app does not answer for the file: the page says so rather than nothing happening.
    await page.route("**/app/returns.csv*", (route) => route.fulfill({ status: 503, body: "" }));
    await page.getByRole("button", { name: "Export CSV" }).click();
    await expect.poll(body).toContain("The CSV file could not be made");
    // The browser's own line for the refused request, expected here: nothing else went wrong.
    expect(pages.admin.takeProblems()).toEqual([expect.stringMatching(/status of 503/)]);
  });

  it("a filter chosen the moment a list arrives, before the page has drawn it, keeps the next filter's company", async () => {
    await seedReturns();
    const { page } = pages.admin;
    await pages.admin.open("/app/returns?readable=no");
    const rows = () => page.locator("[data-return-id]").evaluateAll((cells) => cells.length);
    await expect.poll(rows).toBe(1);
    // The router moves the URL as soon as the list without the Record filter has loaded and draws it a
    // little later (a transition); the Defective filter is chosen in between, as a quick hand could.
    const defective = await page.getByLabel("Defective").elementHandle();
    await page.evaluate((select) => {
      const push = history.pushState.bind(history);
      history.pushState = (data: unknown, unused: string, url?: string | URL | null) => {
        push(data, unused, url);
        if (url && !String(url).includes("readable=")) {
          history.pushState = push;
          queueMicrotask(() => {
            (select as HTMLSelectElement).value = "yes";
            select!.dispatchEvent(new Event("change", { bubbles: true }));
          });
        }
      };
    }, defective);
    const chosen = await holdFirstLoad(page, (url) => url.searchParams.get("defective") === "yes");
    await page.getByLabel("Record").selectOption("");
    await chosen.out;
    await chosen.replacedBy(() => page.getByLabel("Order", { exact: true }).selectOption("yes"));
    await expect.poll(() => new URL(page.url()).searchParams.get("linked")).toBe("yes");
    expect(new URL(page.url()).searchParams.get("defective")).toBe("yes");
    expect(new URL(page.url()).searchParams.get("readable")).toBeNull();
    await expect.poll(rows).toBe(1);
  });

  it("a bad filter in the URL is read as none, and the empty register says when it was last read", async () => {
    await db().shopSchedule.create({
      data: {
        shop: SHOP,
        kind: "returns",
        nextRunAt: new Date("2026-11-18T09:30:00Z"),
        lastError: "HTTP 503",
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/returns?defective=maybe&page=x&search=" + "x".repeat(500));
    const body = () => textOf(page.locator("body"));
    await expect
      .poll(body, { timeout: 30_000 })
      .toContain("The warehouse's returns register has not been read yet");
    expect(await body()).toContain("The last sweep of the returns register failed");
    expect(await body()).toContain("HTTP 503");
    expect(await body()).toContain("No returns yet.");
  });

  it("shows the pages the warehouse refused: the one still tried with its next try, the one given up", async () => {
    const cursor = {
      sweptTo: "20261120",
      pass: null,
      skipped: [
        {
          from: "20260921",
          to: "20261120",
          page: 2,
          since: "2026-11-20T08:00:00.000Z",
          tries: 2,
          nextTryAt: "2026-11-20T10:00:00.000Z",
          error: "HTTP 400: Неверный период",
        },
        {
          from: "20261110",
          to: "20261113",
          page: 1,
          since: "2026-11-13T08:00:00.000Z",
          tries: 8,
          nextTryAt: null,
          error: "HTTP 400: Ошибка",
        },
      ],
    };
    await db().shopSchedule.create({
      data: {
        shop: SHOP,
        kind: "returns",
        nextRunAt: new Date("2026-11-20T10:00:00Z"),
        cursor: JSON.stringify(cursor),
      },
    });
    const { page } = pages.admin;
    await pages.admin.open("/app/returns");
    const body = () => textOf(page.locator("body"));
    await expect
      .poll(body, { timeout: 30_000 })
      .toContain("The warehouse refused some pages of its returns register");
    expect(await textOf(page.locator("[data-skipped-page='2']"))).toBe(
      "Page 2 of the returns booked 21 Sept 2026 to 20 Nov 2026: refusals so far: 2; next try 20 Nov 2026, 12:00. HTTP 400: Неверный период",
    );
    expect(await textOf(page.locator("[data-skipped-page='1']"))).toContain(
      "Page 1 of the returns booked 10 Nov 2026 to 13 Nov 2026: refused 8 times, no longer tried.",
    );
  });

  it("restocking is turned on in the stock settings, and the page says it waits for a location", async () => {
    const { page } = pages.admin;
    await pages.admin.open("/app/stock");
    const restock = page.getByLabel("Restock returned items");
    await expect.poll(() => restock.isChecked(), { timeout: 30_000 }).toBe(false);
    await restock.check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => textOf(page.locator("body"))).toContain("Stock settings saved.");
    const saved = await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(JSON.parse(saved.stockSettings)).toMatchObject({ restockReturns: true });

    await pages.admin.open("/app/returns");
    await expect
      .poll(() => textOf(page.locator("body")), { timeout: 30_000 })
      .toContain("Restocking returns waits for a location");
    expect(await page.getByRole("link", { name: "Open the status and fulfillment settings" }).count()).toBe(
      1,
    );
  });

  it("the order's page shows it returned, with what came back", async () => {
    const order = await seedReturns();
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);
    const body = () => textOf(page.locator("body"));
    await expect.poll(body, { timeout: 30_000 }).toContain("Booked 17 Nov 2026");
    expect(await body()).toContain("Waybill 20450000001201");
    expect(await body()).toContain("CUP-KARP-BLUE: 2");
    expect(
      await page.getByRole("link", { name: "This order's returns on the Returns page" }).getAttribute("href"),
    ).toBe(`/app/returns?search=${order.idOrder}`);
    expect(await body()).toContain("This order came back to the warehouse");
    expect(await page.locator('[data-event-kind="returned"]').count()).toBe(1);
    expect(await textOf(page.locator('[data-event-kind="returned"]'))).toContain(
      "The warehouse booked a return of this order with waybill 20450000001201: 3 units came back, 1 of them defective.",
    );
  });

  it("says a sweep the warehouse failed, and a page it refused, in the admin's language", async () => {
    await db().shopSchedule.create({
      data: {
        shop: SHOP,
        kind: "returns",
        nextRunAt: new Date("2026-11-18T09:30:00Z"),
        lastError: writeTexts([message("warehouse:error.serverError", { status: 503 })]),
        cursor: JSON.stringify({
          sweptTo: "20261120",
          pass: null,
          skipped: [
            {
              from: "20261110",
              to: "20261113",
              page: 1,
              since: "2026-11-13T08:00:00.000Z",
              tries: 8,
              nextTryAt: null,
              error: writeTexts([message("warehouse:error.badRequest", undefined, "Неверный период")]),
            },
          ],
        }),
      },
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/returns");
    const body = () => textOf(admin.page.locator("body"));
    await expect.poll(body, { timeout: 30_000 }).toContain("Останнє читання реєстру повернень не вдалося");
    expect(await body()).toContain(
      "Збій на сервері складу (HTTP 503). Спробуйте ще раз за кілька хвилин. Його буде повторено автоматично.",
    );
    expect(await textOf(admin.page.locator("[data-skipped-page='1']"))).toContain(
      "Склад не зміг прочитати запит. Відповідь складу: Неверный период",
    );
  });
});
