// The orders pages in Ukrainian, for an admin whose Shopify speaks Ukrainian: the list's words, a held
// order's reason and what to do about it, an answer to a fix, the warehouse's own words marked as its, and
// dates in Ukrainian, with no English sentence left on the way.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";
import { driveOrder, seedOrder, statusReport } from "../support/orders";
import { fulfillmentProblemOf } from "../../app/fulfillment/work.server";

const pages = useAdminPages();

describe("orders pages in Ukrainian", () => {
  it("the list says every state, a held order's reason and the dates in Ukrainian", async () => {
    const { db } = appContext();
    await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
    await seedOrder(db, { shop: SHOP, number: 1002, state: "ready" });
    await seedOrder(db, {
      shop: SHOP,
      number: 1004,
      state: "rejected",
      lastError: "Товар CUP-KARP-BLUE не найден",
    });
    const admin = await pages.adminIn("uk");
    await admin.open("/app/orders");

    const { page } = admin;
    await page.getByRole("heading", { level: 1, name: "Замовлення" }).waitFor();
    for (const tab of ["Усі", "Потребують уваги", "Затримано", "Готове до надсилання", "Відхилено"]) {
      expect(await page.getByRole("tab", { name: new RegExp(`^${tab}`) }).count(), tab).toBe(1);
    }
    const held = await textOf(page.locator("tbody tr", { hasText: "#1001" }));
    expect(held).toContain("Затримано");
    expect(held).toContain(
      "Номер телефону «+48 601 234 567» (з адреси доставки) не є українським мобільним чи стаціонарним номером.",
    );
    // Placed on 1 March 2026: the month as Ukrainian writes it.
    expect(held).toContain("бер. 2026");
    // The warehouse's own words stay as it wrote them.
    expect(await textOf(page.locator("tbody tr", { hasText: "#1004" }))).toContain(
      "Товар CUP-KARP-BLUE не найден",
    );
    expect(await textOf(page.locator("thead"))).toContain("Що відбувається");
    expect(await textOf(page.locator("body"))).toContain("Сторінка 1 з 1 · 3 замовлення");

    const body = await textOf(page.locator("body"));
    for (const english of ["Needs attention", "Held", "What is going on", "is not a Ukrainian", "Mar 2026"]) {
      expect(body).not.toContain(english);
    }
  });

  it("a held order's page says why it waits and what to do, and answers a fix in Ukrainian", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
    const admin = await pages.adminIn("uk");
    const { page } = admin;
    await admin.open(`/app/orders/${order.id}`);

    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("Чекає на вас: у замовленні треба щось виправити");
    expect(await body()).toContain("Що виправити, щоб його можна було надіслати");
    expect(await body()).toContain(
      "Номер телефону «+48 601 234 567» (з адреси доставки) не є українським мобільним чи стаціонарним номером.",
    );
    expect(await body()).toContain(
      "Введіть український номер телефону одержувача (наприклад, +380 67 123 45 67)",
    );
    expect(await body()).toContain("оформлено 1 бер. 2026 р.");
    // Polaris's own words too: the badge's tone, read to a screen reader, is Ukrainian.
    const standingNow = await textOf(page.getByText("Де воно зараз").locator(".."));
    expect(standingNow).toContain("Увага");
    expect(standingNow).not.toContain("Attention");
    // The reasons' card in Ukrainian only (the event's details below keep the stored English as data).
    const reasons = await textOf(
      page.getByRole("heading", { name: "Що виправити, щоб його можна було надіслати" }).locator(".."),
    );
    expect(reasons).not.toContain("is not a Ukrainian mobile or landline number");
    expect(reasons).not.toContain("Enter the recipient");

    // A phone that is not Ukrainian is refused beside the field, in Ukrainian, and changes nothing.
    await page.getByLabel("Телефон одержувача").fill("+44 20 7946 0958");
    await page.getByRole("button", { name: "Зберегти й перевірити знову" }).click();
    await page
      .locator(".Polaris-Labelled__Error", { hasText: "Телефон має бути українським номером" })
      .waitFor();
    expect((await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } })).state).toBe("held");

    await page.getByLabel("Телефон одержувача").fill("+380 67 123 45 67");
    await page.getByRole("button", { name: "Зберегти й перевірити знову" }).click();
    const standing = page.getByText("Де воно зараз").locator("..");
    await expect.poll(() => textOf(standing)).toContain("Готове до надсилання");
    expect(await body()).toContain("Збережено; замовлення буде надіслано.");
    expect((await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } })).state).toBe("ready");
  });

  it("a shipped order's page names its stage, waybill and timeline in Ukrainian", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" }),
      statusReport("Отгружен", "shipped", "20450000000001"),
    );
    const admin = await pages.adminIn("uk");
    const { page } = admin;
    await admin.open(`/app/orders/${order.id}`);

    const shipment = await textOf(page.getByRole("region", { name: "На складі" }));
    expect(shipment).toContain("Відправлено");
    expect(shipment).toContain("Склад передав посилку перевізнику.");
    expect(shipment).toContain("20450000000001");
    // The warehouse's status as it named it, under a Ukrainian label.
    expect(shipment).toContain("Статус складуОтгружен (7)02.03.2026 10:00:00");
    expect(shipment).toContain("Виберіть локацію складу");
    expect(await textOf(page.getByRole("heading", { name: "Номери" }).locator(".."))).toContain(
      "id_order_FF77001",
    );
    expect(await textOf(page.locator('[data-event-kind="shipped"]'))).toContain("Відправлено");
    expect(await textOf(page.locator('[data-event-kind="received"]'))).toContain("Отримано");
  });

  it("a Shopify problem is said in Ukrainian, on its banner, its timeline and the list", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1005, state: "accepted", idOrderFF: "77005" }),
      statusReport("Отгружен", "shipped", "20450000000005"),
      { type: "shopify_told", told: { problem: fulfillmentProblemOf("on_hold") }, eventFor: () => null },
    );
    const admin = await pages.adminIn("uk");
    const { page } = admin;
    await admin.open(`/app/orders/${order.id}`);
    const ukrainian = "Замовлення в Shopify призупинено на локації складу";
    const english = "The order is on hold in Shopify";
    expect(await textOf(page.locator('[data-event-kind="fulfillment_problem"]'))).toContain(ukrainian);
    const body = await textOf(page.locator("body"));
    expect(body).toContain(ukrainian);
    expect(body).not.toContain(english);

    await admin.open("/app/orders");
    const row = await textOf(page.locator("tbody tr", { hasText: "#1005" }));
    expect(row).toContain(ukrainian);
    expect(row).not.toContain(english);
  });

  it("an order shipped in part lists in Ukrainian what stays unfulfilled in Shopify", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1004, state: "accepted", idOrderFF: "77002" }),
      statusReport("Отгружен", "shipped", "20450000000001"),
      {
        type: "shopify_told",
        eventFor: () => null,
        told: {
          fulfilled: { fulfillmentId: "gid://shopify/Fulfillment/9", found: false, notified: true },
          ttn: "20450000000001",
          unshipped: [
            { sku: "CUP-KARP-BLUE", title: "Чашка «Карпати»", quantity: 1 },
            { sku: null, title: "Листівка", quantity: 2 },
          ],
        },
      },
    );
    const admin = await pages.adminIn("uk");
    const { page } = admin;
    await admin.open(`/app/orders/${order.id}`);

    const shipment = await textOf(page.getByRole("region", { name: "На складі" }));
    expect(shipment).toContain("Відправлено не все, що є в замовленні");
    expect(shipment).toContain("Чашка «Карпати» (артикул CUP-KARP-BLUE) × 1");
    expect(shipment).toContain("Листівка × 2");
    expect(await textOf(page.locator('[data-event-kind="unshipped"]'))).toContain(
      "Відправлено частковоСклад відправив менше, ніж є в замовленні в Shopify",
    );
  });
});
