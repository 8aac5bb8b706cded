import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { shopIsActive } from "../../app/shops/lifecycle.server";
import { sendWebhook } from "../support/webhooks";

const shop = "lifecycle.myshopify.com";

async function seedInstalledShop() {
  const { db } = appContext();
  await db.shop.create({
    data: {
      shop,
      name: "Lifecycle",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date("2026-11-01T00:00:00Z"),
    },
  });
  for (const id of ["offline_" + shop, "online_1"]) {
    await db.session.create({
      data: { id, shop, state: "s", accessToken: "shpat_secret", scope: "read_orders" },
    });
  }
  await db.session.create({
    data: { id: "other", shop: "other.myshopify.com", state: "s", accessToken: "x" },
  });
}

describe("app/uninstalled", () => {
  it("marks the shop uninstalled, deletes its sessions and stops its work, leaving other shops alone", async () => {
    await seedInstalledShop();
    expect(await shopIsActive(appContext().db, shop)).toBe(true);

    const response = await sendWebhook({ topic: "app/uninstalled", shop, payload: { id: 1, domain: shop } });

    expect(response.status).toBe(200);
    const { db } = appContext();
    expect((await db.shop.findUniqueOrThrow({ where: { shop } })).uninstalledAt).toBeInstanceOf(Date);
    expect(await db.session.count({ where: { shop } })).toBe(0);
    expect(await db.session.count({ where: { shop: "other.myshopify.com" } })).toBe(1);
    expect(await shopIsActive(db, shop)).toBe(false);
  });

  it("answers 400 and changes nothing when the body's shop is not the header's", async () => {
    await seedInstalledShop();
    const response = await sendWebhook({
      topic: "app/uninstalled",
      shop,
      payload: { id: 1, myshopify_domain: "other.myshopify.com" },
    });
    expect(response.status).toBe(400);
    const { db } = appContext();
    expect((await db.shop.findUniqueOrThrow({ where: { shop } })).uninstalledAt).toBeNull();
    expect(await db.session.count({ where: { shop } })).toBe(2);
  });

  it("answers 401 and changes nothing when the HMAC is wrong", async () => {
    await seedInstalledShop();
    const response = await sendWebhook({
      topic: "app/uninstalled",
      shop,
      payload: {},
      secret: "not-the-secret",
    });
    expect(response.status).toBe(401);
    expect(await appContext().db.session.count({ where: { shop } })).toBe(2);
  });
});

describe("app/scopes_update", () => {
  it("records the granted scopes on the shop's sessions and shop record", async () => {
    await seedInstalledShop();
    const response = await sendWebhook({
      topic: "app/scopes_update",
      shop,
      payload: {
        id: 1,
        previous: ["read_orders"],
        current: ["read_orders", "write_inventory"],
        updated_at: "x",
      },
    });
    expect(response.status).toBe(200);
    const { db } = appContext();
    expect((await db.shop.findUniqueOrThrow({ where: { shop } })).scopes).toBe("read_orders,write_inventory");
    const scopes = await db.session.findMany({ where: { shop }, select: { scope: true } });
    expect(scopes.map((row) => row.scope)).toEqual([
      "read_orders,write_inventory",
      "read_orders,write_inventory",
    ]);
  });

  it("answers 400 naming the problem when the payload lacks the current scopes", async () => {
    await seedInstalledShop();
    const response = await sendWebhook({ topic: "app/scopes_update", shop, payload: { previous: [] } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/current/);
    expect((await appContext().db.shop.findUniqueOrThrow({ where: { shop } })).scopes).toBe("read_orders");
  });

  it("answers 400 to a correctly signed body that is not JSON", async () => {
    const response = await sendWebhook({ topic: "app/scopes_update", shop, rawBody: "{not json" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/not valid JSON/);
  });
});
