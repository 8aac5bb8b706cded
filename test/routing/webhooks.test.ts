// The fulfillment order and location webhooks, signed with the app's secret as Shopify signs them, through the
// routes shopify.app.toml names: each asks for a read (the schedule due now) and wakes the worker; a request to
// the fulfillment service asks for the service's read too; a wrong signature or a body that is not an object
// changes nothing. The subscribed topics are topics of the 2026-10 schema.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext, type Clock } from "../../app/context.server";
import {
  FULFILLMENT_ORDERS_KIND,
  FULFILLMENT_REQUESTS_KIND,
  ONLINE_LOCATIONS_KIND,
} from "../../app/routing/kinds.server";
import {
  FULFILLMENT_ORDER_TOPICS,
  FULFILLMENT_REQUEST_TOPICS,
  LOCATION_TOPICS,
} from "../../app/webhooks/routing.server";
import type { Worker } from "../../app/work/worker.server";
import { ADMIN_SCHEMA_PATH } from "../../scripts/admin-schema-path";
import { appToml, sendWebhook } from "../support/webhooks";

const SHOP = "kyiv-goods.myshopify.com";
const NOW = new Date("2026-11-27T10:00:00Z");
const db = () => appContext().db;
let wake: ReturnType<typeof vi.fn>;
let originalClock: Clock;

beforeEach(() => {
  wake = vi.fn();
  globalThis.skladSyncWorker = { wake } as unknown as Worker;
  originalClock = appContext().clock;
  appContext().clock = () => NOW;
});
afterEach(() => {
  globalThis.skladSyncWorker = undefined;
  appContext().clock = originalClock;
});

const due = async (kind: string) =>
  (await db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind } } }))?.nextRunAt ?? null;

const FO_PAYLOAD = {
  fulfillment_order: { id: "gid://shopify/FulfillmentOrder/1", status: "open" },
};

describe("fulfillment_orders/* webhooks", () => {
  it.each(FULFILLMENT_ORDER_TOPICS.map((topic) => [topic]))(
    "%s asks for a read of the shop's fulfillment orders now and wakes the worker",
    async (topic) => {
      const response = await sendWebhook({ topic, shop: SHOP, payload: FO_PAYLOAD });
      expect(response.status).toBe(200);
      expect(await due(FULFILLMENT_ORDERS_KIND)).toEqual(NOW);
      expect(await due(FULFILLMENT_REQUESTS_KIND)).toEqual(
        FULFILLMENT_REQUEST_TOPICS.includes(topic) ? NOW : null,
      );
      expect(wake).toHaveBeenCalledWith(SHOP, "due_now");
    },
  );

  it("notes the fulfillment orders a body names, for the read to read by id (a move names two)", async () => {
    const payload = {
      original_fulfillment_order: { id: "gid://shopify/FulfillmentOrder/7", status: "closed" },
      moved_fulfillment_order: { id: "gid://shopify/FulfillmentOrder/8", status: "open" },
      destination_location_id: "gid://shopify/Location/3",
    };
    expect((await sendWebhook({ topic: "fulfillment_orders/moved", shop: SHOP, payload })).status).toBe(200);
    const hints = await db().routingHint.findMany({
      where: { shop: SHOP },
      orderBy: { fulfillmentOrderId: "asc" },
    });
    expect(hints.map((hint) => [hint.fulfillmentOrderId, hint.at])).toEqual([
      ["gid://shopify/FulfillmentOrder/7", NOW],
      ["gid://shopify/FulfillmentOrder/8", NOW],
    ]);
  });

  it("a redelivery asks for the same read again, and nothing more", async () => {
    const delivery = {
      topic: "fulfillment_orders/moved",
      shop: SHOP,
      payload: FO_PAYLOAD,
      eventId: "event-1",
      webhookId: "webhook-1",
    };
    expect((await sendWebhook(delivery)).status).toBe(200);
    expect((await sendWebhook(delivery)).status).toBe(200);
    expect(await db().shopSchedule.count()).toBe(1);
    expect(await due(FULFILLMENT_ORDERS_KIND)).toEqual(NOW);
  });

  it("refuses a wrong signature (401) and a body that is not an object (400), asking for nothing", async () => {
    const forged = await sendWebhook({
      topic: "fulfillment_orders/moved",
      shop: SHOP,
      payload: FO_PAYLOAD,
      secret: "not the app's secret",
    });
    expect(forged.status).toBe(401);
    const listed = await sendWebhook({ topic: "fulfillment_orders/split", shop: SHOP, rawBody: "[1, 2]" });
    expect(listed.status).toBe(400);
    expect(await db().shopSchedule.count()).toBe(0);
    expect(wake).not.toHaveBeenCalled();
    expect(await db().webhookRefusal.findMany({ select: { topic: true, count: true } })).toEqual([
      { topic: "fulfillment_orders/split", count: 1 },
    ]);
  });
});

describe("locations/* webhooks", () => {
  it.each(LOCATION_TOPICS.map((topic) => [topic]))(
    "%s asks for a read of the shop's online locations now",
    async (topic) => {
      const response = await sendWebhook({ topic, shop: SHOP, payload: { id: 1, name: "Шоурум" } });
      expect(response.status).toBe(200);
      expect(await due(ONLINE_LOCATIONS_KIND)).toEqual(NOW);
      expect(await due(FULFILLMENT_ORDERS_KIND)).toBeNull();
      expect(wake).toHaveBeenCalledWith(SHOP, "due_now");
    },
  );
});

describe("the subscriptions in shopify.app.toml", () => {
  const subscribed = appToml().webhooks.subscriptions.flatMap((subscription) => subscription.topics ?? []);

  it("name only topics the 2026-10 schema has", () => {
    const schema = JSON.parse(readFileSync(ADMIN_SCHEMA_PATH, "utf8")) as {
      data: { __schema: { types: Array<{ name: string; enumValues?: Array<{ name: string }> | null }> } };
    };
    const topics = new Set(
      schema.data.__schema.types
        .find((type) => type.name === "WebhookSubscriptionTopic")!
        .enumValues!.map((value) => value.name),
    );
    for (const topic of subscribed) expect(topics, topic).toContain(topic.toUpperCase().replaceAll("/", "_"));
  });

  it("include every fulfillment order and location topic the routes take", () => {
    for (const topic of [...FULFILLMENT_ORDER_TOPICS, ...LOCATION_TOPICS])
      expect(subscribed).toContain(topic);
  });
});
