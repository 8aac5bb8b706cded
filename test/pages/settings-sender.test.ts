// Settings' Sender card in a real browser, against the warehouse simulator: the account's senders listed
// with the saved one marked, another chosen and saved (the open orders asked to be mapped again, the main
// form then keeping it), the warehouse's default chosen; a saved id the warehouse no longer lists is said;
// a warehouse that cannot answer is said, with the saved id still shown.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { REMAP_KIND } from "../../app/orders/states";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";
import { SENDER_FIRM as FIRM, SENDER_SOLE_TRADER as SOLE_TRADER, TWO_SENDERS } from "../support/senders";

// The app reads the warehouse's address from its environment on its first request: the simulator's.
const sim = await startWarehouseSimulator({
  accounts: [
    {
      ...DEFAULT_ACCOUNT,
      senders: TWO_SENDERS,
    },
  ],
});
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();
const db = () => appContext().db;
const mapping = async () =>
  JSON.parse((await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).mapping) as {
    deliverySenderId?: string;
    idOrderPrefix?: string;
  };

async function saveKey(saved: Record<string, unknown>) {
  const answer = await saveSettings(appContext(), SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: saved,
  });
  if (!answer.ok) throw new Error(JSON.stringify(answer.errors));
  await db().shopSchedule.deleteMany({ where: { shop: SHOP, kind: REMAP_KIND } });
}

beforeEach(() => sim.reset());

describe("the Sender card", () => {
  it("lists the account's senders, marks the saved one, and saves another for the orders not yet sent", async () => {
    await saveKey({ deliverySenderId: FIRM, idOrderPrefix: "UA-" });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const firm = page.getByLabel(`ТОВ "Київські товари" (id ${FIRM})`);
    const soleTrader = page.getByLabel(`ФОП Іваненко І. І. (id ${SOLE_TRADER})`);
    await expect.poll(() => firm.isChecked()).toBe(true);
    expect(await soleTrader.isChecked()).toBe(false);
    expect(await page.getByLabel("The warehouse's default sender").isChecked()).toBe(false);
    expect(await firm.getAttribute("aria-describedby")).toBeTruthy();
    const card = () => textOf(page.locator("body"));
    expect(await card()).toContain("Chosen now");
    const save = page.getByRole("button", { name: "Save sender" });
    expect(await save.isDisabled()).toBe(true);

    await page.getByText(`ФОП Іваненко І. І. (id ${SOLE_TRADER})`).click();
    await save.click();
    await expect.poll(card).toContain("Parcels are sent by ФОП Іваненко І. І.");
    expect(await mapping()).toMatchObject({ deliverySenderId: SOLE_TRADER, idOrderPrefix: "UA-" });
    // The orders not yet sent are mapped again with it.
    expect(
      await db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: REMAP_KIND } } }),
    ).not.toBeNull();
    // The card reads the list again: "Chosen now" moves to the new choice.
    await expect.poll(() => soleTrader.getAttribute("aria-describedby")).toBeTruthy();
    expect(await firm.getAttribute("aria-describedby")).toBeNull();

    // The main form, opened before the choice, saves without putting the old sender back. Its save reads
    // the sender list again; a pick made while that read is out is kept when it answers.
    let reloadArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (reloadArrived = resolve));
    let releaseReload!: () => void;
    const released = new Promise<void>((resolve) => (releaseReload = resolve));
    await page.route("**/app/settings/sender.data*", async (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      reloadArrived();
      await released;
      await route.fallback();
    });
    await page.getByLabel("Order number prefix").fill("KY-");
    await page.getByRole("button", { name: "Save", exact: true }).last().click();
    await arrived;
    await page.getByText("The warehouse's default sender").click();
    const reloaded = page.waitForResponse(
      (response) =>
        response.url().includes("/app/settings/sender.data") && response.request().method() === "GET",
    );
    releaseReload();
    await reloaded;
    await page.unroute("**/app/settings/sender.data*");
    await expect.poll(card).toContain("Settings saved.");
    expect(await mapping()).toMatchObject({ deliverySenderId: SOLE_TRADER, idOrderPrefix: "KY-" });
    expect(await page.getByLabel("The warehouse's default sender").isChecked()).toBe(true);

    await save.click();
    await expect.poll(card).toContain("Parcels are sent by the warehouse's default sender.");
    expect((await mapping()).deliverySenderId).toBeUndefined();
  });

  it("says a saved sender the warehouse no longer lists, and keeps it until another is chosen", async () => {
    await saveKey({ deliverySenderId: "retired-sender-7" });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("The saved sender is no longer listed");
    expect(await body()).toContain(
      "The saved sender id retired-sender-7 is not among the account's senders any more.",
    );
    expect((await mapping()).deliverySenderId).toBe("retired-sender-7");
  });

  it("says when the warehouse cannot list the senders, and still shows the saved id", async () => {
    await saveKey({ deliverySenderId: FIRM });
    sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.senderDetails] });
    const { page } = pages.admin;
    await pages.admin.open("/app/settings");
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("The account's senders could not be read");
    expect(await body()).toContain("The warehouse's server failed (HTTP 503).");
    expect(await body()).toContain(`Saved sender id: ${FIRM}.`);
    // Once the warehouse answers again, the list is there.
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => page.getByLabel(`ТОВ "Київські товари" (id ${FIRM})`).isChecked()).toBe(true);
  });
});
