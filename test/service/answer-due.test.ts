// A service-mode order taken, refused or cancelled at the warehouse, or moving on there, makes the shop's
// fulfillment requests due at once (app/orders/commit.server.ts, the one place order transitions are written),
// so Shopify's answer does not wait for the next check; a location-mode shop's orders ask for nothing.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { FULFILLMENT_REQUESTS_KIND } from "../../app/service/kinds.server";
import { commit } from "../../app/orders/commit.server";
import { ORDER_STATE, STAGE } from "../../app/orders/states";
import { driveOrder, seedOrder, statusReport } from "../support/orders";

const { db } = appContext();
const due = (shop: string) => db.shopSchedule.findMany({ where: { shop, kind: FULFILLMENT_REQUESTS_KIND } });

async function shopIn(shop: string, mode: "service" | "location") {
  await db.shopSettings.create({
    data: {
      shop,
      fulfillmentMode: mode,
      locationId: "gid://shopify/Location/7",
      ...(mode === "service" && { fulfillmentServiceId: "gid://shopify/FulfillmentService/1" }),
    },
  });
}

describe("an answer owed to Shopify", () => {
  it("is due as soon as a service-mode order is accepted, moves on or is cancelled at the warehouse", async () => {
    const shop = "answer-due.myshopify.com";
    // Taken in whole before the shop's locations were read, then the shop chose service mode.
    await shopIn(shop, "location");
    const ready = await seedOrder(db, { shop, number: 7101, state: "ready" });
    await db.shopSettings.update({
      where: { shop },
      data: { fulfillmentMode: "service", fulfillmentServiceId: "gid://shopify/FulfillmentService/1" },
    });
    const before = Date.now();
    // Taken by the warehouse: the state written through the one commit path.
    expect(await due(shop)).toEqual([]);
    await commit(
      appContext(),
      [{ row: ready, data: { state: ORDER_STATE.accepted, idOrderFF: "FF-7101", keyOrder: "K" } }],
      [],
    );
    const [schedule] = await due(shop);
    expect(schedule?.nextRunAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(schedule!.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
    // Picked at the warehouse, as the status check reports it.
    await db.shopSchedule.deleteMany({ where: { shop } });
    const accepted = await db.warehouseOrder.findUniqueOrThrow({ where: { id: ready.id } });
    await driveOrder(accepted, statusReport("Зібрано", STAGE.picked));
    expect(await due(shop)).toHaveLength(1);
    // Cancelled by the merchant before it was sent.
    await db.shopSchedule.deleteMany({ where: { shop } });
    await seedOrder(db, { shop, number: 7102, state: "cancelled" });
    expect(await due(shop)).toHaveLength(1);
  });

  it("is never asked for a location-mode shop's orders", async () => {
    const shop = "answer-none.myshopify.com";
    await shopIn(shop, "location");
    await seedOrder(db, { shop, number: 7201, state: "accepted" });
    await seedOrder(db, { shop, number: 7202, state: "rejected" });
    expect(await due(shop)).toEqual([]);
  });
});
