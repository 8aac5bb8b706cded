// The settings page in a real browser: the ApiKey goes in and only its hint ever comes back; bad input
// is refused beside its field with nothing saved; a paused shop is told to enter a new key.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";

const pages = useAdminPages();
const API_KEY = "sk-live-5f1c2e9a44d08b70";

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
    await db.shopSettings.create({
      data: { shop: SHOP, environment: "production", mapping: JSON.stringify({ idOrderPrefix: "UA-" }) },
    });
    const before = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");

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

  it("tells the merchant of a refused key, and a new key lifts the pause", async () => {
    const { db } = appContext();
    await db.shopSettings.create({
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
});
