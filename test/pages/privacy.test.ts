// The privacy requests page in a real browser, in English and in Ukrainian: the requests Shopify sent, in
// words and in the shop's time, with a data request's report; and the public landing page, in the
// visitor's language from the browser's Accept-Language, with the document's language to match.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { waitForHydration } from "../support/browser";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const pages = useAdminPages();

async function someRequests() {
  const { db } = appContext();
  await db.complianceRequest.create({
    data: {
      shop: SHOP,
      topic: "customers/data_request",
      webhookId: "hook-1",
      customerId: "7301",
      receivedAt: new Date("2026-03-14T08:15:00Z"),
      completedAt: new Date("2026-03-14T08:15:05Z"),
      report: JSON.stringify({ customer: { id: "7301", email: "olena@example.com" }, records: [] }),
    },
  });
  await db.complianceRequest.create({
    data: {
      shop: SHOP,
      topic: "customers/redact",
      webhookId: "hook-2",
      customerId: "7302",
      receivedAt: new Date("2026-03-15T21:30:00Z"),
    },
  });
}

describe("privacy requests", () => {
  it("lists the requests in English, in the shop's time, with a data request's report", async () => {
    await someRequests();
    const { page } = pages.admin;
    await pages.admin.open("/app/privacy");
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("Privacy requests");
    expect(await body()).toContain("Customer's data request");
    expect(await body()).toContain("Erasure of a customer's data");
    // Kyiv is UTC+2 in March: the redaction arrived on the 15th at 23:30 there.
    expect(await body()).toContain("14 Mar 2026, 10:15");
    expect(await body()).toContain("15 Mar 2026, 23:30");
    expect(await body()).toContain("Done");
    expect(await body()).toContain("In progress");
    expect(await body()).toContain("Data report for customer 7301");
    expect(await body()).toContain("olena@example.com");
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
  });

  it("lists them in Ukrainian for an admin in Ukrainian", async () => {
    await someRequests();
    const admin = await pages.adminIn("uk");
    await admin.open("/app/privacy");
    const body = await textOf(admin.page.locator("body"));
    expect(await admin.page.locator("html").getAttribute("lang")).toBe("uk");
    expect(body).toContain("Запити щодо даних");
    expect(body).toContain("Запит покупця на його дані");
    expect(body).toContain("Видалення даних покупця");
    expect(body).toContain("Виконано");
    expect(body).toContain("Виконується");
    expect(body).toContain("Звіт про дані покупця 7301");
    expect(body).toMatch(/14 бер\. 2026( р\.)?,? 10:15/);
    for (const english of ["Privacy requests", "Done", "In progress", "Received", "Data report"]) {
      expect(body).not.toContain(english);
    }
  });

  it("says there are none yet, in either language", async () => {
    await pages.admin.open("/app/privacy");
    expect(await textOf(pages.admin.page.locator("body"))).toContain("No privacy requests yet");
    const admin = await pages.adminIn("uk");
    await admin.open("/app/privacy");
    expect(await textOf(admin.page.locator("body"))).toContain("Запитів щодо даних ще немає");
  });
});

describe("how long customer details are kept", () => {
  it("says it, 90 days unless changed, saves another number of days, and never over another admin's save", async () => {
    const { page } = pages.admin;
    await pages.admin.open("/app/privacy");
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("keeps its customer's name, phone and address for 90 days");
    const field = page.getByLabel("Days to keep a finished order's customer details");
    // Another admin saves 45 while this page still shows 90: this save must not overwrite theirs.
    const { db } = appContext();
    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, personalDataDays: 45 },
      update: { personalDataDays: 45 },
    });
    await field.fill("60");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(body).toContain("Someone else changed this setting meanwhile.");
    expect((await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).personalDataDays).toBe(45);
    await pages.admin.open("/app/privacy");
    expect(await body()).toContain("keeps its customer's name, phone and address for 45 days");
    await field.fill("30");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(body).toContain("Saved: customer details of finished orders are kept 30 days.");
    expect((await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).personalDataDays).toBe(30);
    expect(await db.shopSchedule.count({ where: { shop: SHOP, kind: "personal_data" } })).toBe(1);

    const admin = await pages.adminIn("uk");
    await admin.open("/app/privacy");
    const ukrainian = await textOf(admin.page.locator("body"));
    expect(ukrainian).toContain("зберігає ім'я, телефон і адресу покупця 30 днів");
    expect(ukrainian).toContain("Скільки зберігаються дані покупців");
  });
});

describe("the landing page", () => {
  const open = async (acceptLanguage: string) => {
    const { page } = pages.admin;
    await page.setExtraHTTPHeaders({ "Accept-Language": acceptLanguage });
    const response = await page.goto(new URL("/", pages.server.url).href);
    await waitForHydration(page);
    return { page, response };
  };

  it("speaks Ukrainian to a browser that prefers it", async () => {
    const { page, response } = await open("uk-UA,uk;q=0.9,en;q=0.8");
    expect(await page.locator("html").getAttribute("lang")).toBe("uk");
    expect(await textOf(page.locator("main"))).toContain("Передає замовлення з вашого магазину Shopify");
    expect(response?.headers().vary).toMatch(/Accept-Language/i);
  });

  it("speaks English to one that prefers a language we do not speak, or English", async () => {
    for (const header of ["de-DE,de;q=0.9", "en-GB,en;q=0.9,uk;q=0.8"]) {
      const { page } = await open(header);
      expect(await page.locator("html").getAttribute("lang")).toBe("en");
      expect(await textOf(page.locator("main"))).toContain("Sends your Shopify orders");
    }
  });
});
