// The orders list in a real browser: counts per state, state tabs, the stage filter, search and paging
// through the URL, and the bulk retry.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";
import { driveOrder, seedOrder, statusReport } from "../support/orders";

const pages = useAdminPages();

async function seedStore() {
  const { db } = appContext();
  await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
  await seedOrder(db, { shop: SHOP, number: 1002, state: "ready" });
  await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "FF-77001" });
  await seedOrder(db, {
    shop: SHOP,
    number: 1004,
    state: "rejected",
    lastError: "Товар CUP-KARP-BLUE не найден",
  });
  await seedOrder(db, { shop: SHOP, number: 1005, state: "in_doubt" });
  await seedOrder(db, { shop: SHOP, number: 1006, state: "cancelled" });
  await seedOrder(db, { shop: SHOP, number: 1007, state: "accepted", idOrderFF: "FF-77002" });
  // Another store's order never shows.
  await seedOrder(db, { shop: "other-store.myshopify.com", number: 1008, state: "held" });
}

/** The count a state's tab shows (its badge, after a visually hidden tone label). */
async function tabCount(label: string): Promise<number> {
  const text = await textOf(pages.admin.page.getByRole("tab", { name: new RegExp(`^${label}`) }));
  return Number(text.match(/(\d+)$/)?.[1]);
}

function orderNames() {
  return pages.admin.page
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => row.querySelector("a")?.textContent ?? row.textContent));
}

describe("orders list", () => {
  it("shows the store's orders, newest first, with a count on each state's tab", async () => {
    await seedStore();
    const { page } = pages.admin;
    await pages.admin.open("/app/orders");

    expect(await orderNames()).toEqual(["#1007", "#1006", "#1005", "#1004", "#1003", "#1002", "#1001"]);
    expect(await tabCount("All")).toBe(7);
    expect(await tabCount("At the warehouse")).toBe(2);
    expect(await tabCount("Held")).toBe(1);
    expect(await tabCount("Rejected")).toBe(1);
    expect(await tabCount("Sending")).toBe(0);
    const held = page.locator("tbody tr", { hasText: "#1001" });
    expect(await textOf(held)).toContain("Held");
    expect(await textOf(held)).toContain("is not a Ukrainian mobile or landline number");
    expect(await textOf(page.locator("tbody tr", { hasText: "#1004" }))).toContain(
      "Товар CUP-KARP-BLUE не найден",
    );

    // An order's name opens its page.
    await page.getByRole("link", { name: "#1003" }).click();
    await page.waitForURL(/\/app\/orders\/[^/?]+/);
    await expect.poll(() => textOf(page.locator("body"))).toContain("id_order_FF");
    expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("#1003");
  });

  it("a state tab and the search narrow the list, and the URL keeps both", async () => {
    await seedStore();
    const { page } = pages.admin;
    await pages.admin.open("/app/orders");

    await page.getByRole("tab", { name: /^At the warehouse/ }).click();
    await page.waitForURL(/state=accepted/);
    await expect.poll(orderNames).toEqual(["#1007", "#1003"]);

    // The warehouse number, typed in lower case.
    await page.getByLabel("Search orders").fill("ff-77002");
    await page.getByLabel("Search orders").press("Enter");
    await page.waitForURL(/search=ff-77002/);
    await expect.poll(orderNames).toEqual(["#1007"]);
    expect(new URL(page.url()).searchParams.get("state")).toBe("accepted");

    // The same view from a link.
    await pages.admin.open("/app/orders?search=100");
    expect(await orderNames()).toHaveLength(7);
    await pages.admin.open("/app/orders?state=held&search=1001");
    expect(await orderNames()).toEqual(["#1001"]);
    await pages.admin.open("/app/orders?state=held&search=1002");
    expect(await orderNames()).toEqual([]);
    expect(await textOf(page.locator("body"))).toContain("No orders match “1002” with the filters chosen.");
    await pages.admin.open("/app/orders?search=9999");
    expect(await orderNames()).toEqual([]);
    expect(await textOf(page.locator("body"))).toContain("No orders match “9999”.");
  });

  it("the stage filter finds a shipped order, and one cancelled at the warehouse needs attention", async () => {
    await seedStore();
    const { db } = appContext();
    const accepted = (name: string) =>
      db.warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, orderName: name } });
    await driveOrder(await accepted("#1003"), statusReport("Отгружен", "shipped", "20450000000001"));
    await driveOrder(await accepted("#1007"), statusReport("Отменен", "cancelled_at_warehouse"));
    const { page } = pages.admin;
    await pages.admin.open("/app/orders");

    const shipped = page.locator("tbody tr", { hasText: "#1003" });
    expect(await textOf(shipped)).toContain("Shipped");
    expect(await textOf(shipped)).toContain("20450000000001");
    expect(await tabCount("Needs attention")).toBe(1);

    await page.getByLabel("Stage").selectOption("shipped");
    await page.waitForURL(/stage=shipped/);
    await expect.poll(orderNames).toEqual(["#1003"]);
    expect(await textOf(page.getByLabel("Stage").locator("option:checked"))).toBe("Shipped (1)");
    // A tab that cannot hold orders at a stage replaces it; the search keeps it.
    await page.getByLabel("Search orders").fill("1003");
    await page.getByLabel("Search orders").press("Enter");
    await page.waitForURL(/search=1003/);
    expect(new URL(page.url()).searchParams.get("stage")).toBe("shipped");
    await page.getByRole("tab", { name: /^Held/ }).click();
    await page.waitForURL(
      (url) => url.searchParams.get("state") === "held" && !url.searchParams.has("stage"),
    );

    await pages.admin.open("/app/orders?state=attention");
    expect(await orderNames()).toEqual(["#1007"]);
    const cancelled = await textOf(page.locator("tbody tr", { hasText: "#1007" }));
    expect(cancelled).toContain("Cancelled by the warehouse");
    expect(cancelled).toContain(
      "The warehouse cancelled this order. Cancel or refund it in Shopify if it will not ship.",
    );
    await pages.admin.open("/app/orders?stage=cancelled_at_warehouse&state=held");
    expect(await orderNames()).toEqual([]);
    expect(await textOf(page.locator("body"))).toContain("No orders match the filters chosen.");
  });

  it("pages through the orders", async () => {
    await seedStore();
    const { page } = pages.admin;
    await pages.admin.open("/app/orders?pageSize=3");
    expect(await orderNames()).toEqual(["#1007", "#1006", "#1005"]);
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(orderNames).toEqual(["#1004", "#1003", "#1002"]);
    expect(await textOf(page.locator("body"))).toContain("Page 2 of 3");
  });

  it("retries the selected orders that can be retried and says which were left", async () => {
    await seedStore();
    const { page } = pages.admin;
    await pages.admin.open("/app/orders");

    for (const name of ["#1004", "#1001"]) {
      await page.locator("tbody tr", { hasText: name }).getByRole("checkbox").check();
    }
    await page.getByRole("button", { name: "Retry" }).click();

    await expect.poll(() => textOf(page.locator("body"))).toContain("1 order will be sent again.");
    expect(await textOf(page.locator("body"))).toContain("1 order was left as it is");
    await expect
      .poll(() => textOf(page.locator("tbody tr", { hasText: "#1004" })))
      .toContain("Ready to send");

    const { db } = appContext();
    const rejected = await db.warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, orderName: "#1004" } });
    expect(rejected.state).toBe("ready");
    expect(rejected.nextAttemptAt).not.toBeNull();
    const held = await db.warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, orderName: "#1001" } });
    expect(held.state).toBe("held");
    expect(await db.orderEvent.count({ where: { orderId: rejected.id, kind: "retry_requested" } })).toBe(1);
  });

  it("an empty store says what will happen", async () => {
    await pages.admin.open("/app/orders");
    expect(await textOf(pages.admin.page.locator("body"))).toContain(
      "Orders appear here as soon as customers place them",
    );
  });
});
