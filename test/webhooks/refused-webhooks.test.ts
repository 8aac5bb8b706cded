// What the orders page shows of refused order webhooks: recent ones, of order topics, per shop.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  countRefusedWebhook,
  recentOrderRefusals,
  REFUSALS_SHOWN_FOR_MS,
} from "../../app/webhooks/receive.server";

const shop = "kyiv-goods.myshopify.com";
const now = new Date("2026-11-23T10:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

describe("recentOrderRefusals", () => {
  it("adds up the shop's recent order refusals and names the last one", async () => {
    const { db } = appContext();
    await countRefusedWebhook(db, shop, "orders/create", ago(3 * 3600_000));
    await countRefusedWebhook(db, shop, "orders/create", ago(2 * 3600_000));
    await countRefusedWebhook(db, shop, "orders/updated", ago(3600_000));
    // Not order topics, another shop, and a refusal long past: none of them shown.
    await countRefusedWebhook(db, shop, "customers/redact", ago(60_000));
    await countRefusedWebhook(db, "other.myshopify.com", "orders/create", ago(60_000));
    await countRefusedWebhook(db, shop, "orders/cancelled", ago(REFUSALS_SHOWN_FOR_MS + 60_000));

    expect(await recentOrderRefusals(db, shop, now)).toEqual({ count: 3, lastAt: ago(3600_000) });
    expect(await recentOrderRefusals(db, "quiet.myshopify.com", now)).toBeNull();
  });
});
