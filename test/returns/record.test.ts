// Keeping a page of the returns register when shops share a warehouse key: each shop keeps the returns of
// its own orders and those that name no order, never the returns of another shop's orders, whose records may
// name that store's buyers. A shop alone on its key keeps every return, ours or made elsewhere.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { readReturnRecord } from "../../app/returns/read";
import { recordReturns } from "../../app/returns/work.server";
import { seedOrder } from "../support/orders";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER = "lviv-goods.myshopify.com";
const KEY = "digest-of-the-shared-key";
const db = () => appContext().db;
const clock = () => new Date("2026-11-18T09:00:00Z");

const record = (id: string, idOrder?: string) => ({
  id_return: id,
  ...(idOrder && { id_order: idOrder }),
  date: "17.11.2026",
  TTN: `2045000000${id.padStart(4, "0")}`,
  products: [{ sku: "CUP-KARP-BLUE", count: "1", marriage: false }],
});

async function page() {
  const ours = await seedOrder(db(), { shop: SHOP, number: 1201, state: "accepted" });
  const theirs = await seedOrder(db(), { shop: OTHER, number: 501, state: "accepted" });
  return [record("1", ours.idOrder), record("2", theirs.idOrder), record("3")].map(readReturnRecord);
}

const kept = async () =>
  (await db().warehouseReturn.findMany({ where: { shop: SHOP }, orderBy: { returnKey: "asc" } })).map(
    (row) => row.returnKey,
  );

describe("a page of returns", () => {
  it("on a key another shop shares keeps this shop's returns and those naming no order, not the other's", async () => {
    await db().shopSettings.create({ data: { shop: SHOP, apiKeyDigest: KEY } });
    await db().shopSettings.create({ data: { shop: OTHER, apiKeyDigest: KEY } });
    const recorded = await recordReturns(
      { ...appContext(), shop: SHOP, keyDigest: KEY, clock },
      await page(),
    );
    expect(await kept()).toEqual(["id:1", "id:3"]);
    expect(recorded).toMatchObject({ fresh: 2, linked: 1, unreadable: 1 });
  });

  it("on a key of its own keeps every return, an order made elsewhere's too", async () => {
    await db().shopSettings.create({ data: { shop: SHOP, apiKeyDigest: KEY } });
    await recordReturns({ ...appContext(), shop: SHOP, keyDigest: KEY, clock }, await page());
    expect(await kept()).toEqual(["id:1", "id:2", "id:3"]);
  });
});
