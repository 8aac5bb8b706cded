// The warehouse's status notifications over HTTP into the real route: a notification names orders and
// only marks the shop's accepted ones to be looked up; a wrong token, a body too large, not JSON or naming
// no order is refused and changes nothing. Orders are made accepted by the real flow (webhook, worker,
// simulator), for this shop and for another shop whose order has the same id_order.
import { request as httpRequest } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import { decryptSecret, encryptionKey, SecretUnreadable } from "../../app/settings/secret-box.server";
import { saveSettings } from "../../app/settings/settings.server";
import { MAX_NOTIFIED_IDS } from "../../app/statuses/notification";
import { MAX_NOTIFICATION_BYTES } from "../../app/statuses/notify.server";
import { notifyAddress, notifyTokenDigest, rotateNotifyToken } from "../../app/statuses/notify-token.server";
import { recordShopUninstall } from "../../app/shops/lifecycle.server";
import { eventually, FLOW_PRODUCTS, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";

const OTHER_SHOP = "lviv-goods.myshopify.com";
const NOT_FOUND = { error: "Not found." };

let flow: OrderFlow;
beforeEach(async () => {
  flow = await startOrderFlow();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await flow.close();
});

async function tokenOf(shop: string): Promise<string> {
  const address = await notifyAddress(appContext().db, shop);
  if (!address.ok) throw new Error(address.message.key);
  return address.url.split("/").at(-1)!;
}

function notify(token: string, body: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${flow.app.url}/warehouse/notify/${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    ...init,
  });
}

const orders = () =>
  appContext().db.warehouseOrder.findMany({
    orderBy: [{ shop: "asc" }, { orderName: "asc" }],
  });

/** Sends orders `numbers` of the shop through the flow until each is accepted (or held). */
async function takeOrders(shop: string, numbers: number[], changes: Record<string, unknown> = {}) {
  for (const n of numbers)
    await flow.post({ shop, topic: "orders/create", payload: orderPayload(n, changes) });
}

async function acceptedOrders(shop: string, count: number) {
  return eventually(async () => {
    const rows = await appContext().db.warehouseOrder.findMany({ where: { shop, state: "accepted" } });
    return rows.length === count && rows.every((row) => row.keyOrder && row.idOrderFF) ? rows : null;
  }, `${count} orders of ${shop} to be accepted`);
}

/** A second installed shop on the simulator's staging account, so its orders get the same id_order. */
async function installOtherShop() {
  const { db } = appContext();
  flow.sim.seedProducts(FLOW_PRODUCTS, flow.sim.stagingApiKey);
  await db.shop.create({
    data: {
      shop: OTHER_SHOP,
      name: "Львівські товари",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(Date.now() - 3600_000),
    },
  });
  const saved = await saveSettings(appContext(), OTHER_SHOP, {
    apiKey: flow.sim.stagingApiKey,
    environment: "staging",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
}

describe("a notification marks the shop's accepted orders it names", () => {
  it("by id_order, key_order or id_order_FF at any depth; not another shop's, not a held one; version kept", async () => {
    await installOtherShop();
    await takeOrders(SHOP, [1, 2, 3, 4]);
    await takeOrders(OTHER_SHOP, [1]);
    const [a1, a2, a3] = (await acceptedOrders(SHOP, 4)).sort((x, y) =>
      x.orderName.localeCompare(y.orderName),
    );
    const [b1] = await acceptedOrders(OTHER_SHOP, 1);
    expect(b1!.idOrder).toBe(a1!.idOrder);
    await takeOrders(SHOP, [5], { line_items: "everything" });
    const held = await eventually(
      () => appContext().db.warehouseOrder.findFirst({ where: { shop: SHOP, state: "held" } }),
      "the held order",
    );
    const before = await orders();
    expect(before.every((row) => row.statusHintAt === null)).toBe(true);

    const wake = vi.spyOn(flow.worker, "wake");
    const requestsBefore = JSON.stringify(flow.sim.stats().requests);
    const body = {
      event: "status_changed",
      id_order: a1!.idOrder,
      data: [{ key_order: a2!.keyOrder, nested: { id_order_FF: a3!.idOrderFF } }, { id_order: held.idOrder }],
      id_order_FF: 12345,
    };
    const response = await notify(await tokenOf(SHOP), JSON.stringify(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });

    const after = await orders();
    const marked = after.filter((row) => row.statusHintAt !== null).map((row) => row.id);
    expect(marked.sort()).toEqual([a1!.id, a2!.id, a3!.id].sort());
    for (const row of after) {
      const was = before.find((old) => old.id === row.id)!;
      // Nothing but the hint changed: not the version the worker's writes check, not updatedAt.
      expect({ ...row, statusHintAt: null }, row.orderName).toEqual(was);
    }
    expect(wake).toHaveBeenCalledWith(SHOP);
    // Answered without a call to the warehouse.
    expect(JSON.stringify(flow.sim.stats().requests)).toBe(requestsBefore);
  });

  it("answers 200 when no order matches, and wakes no one", async () => {
    const wake = vi.spyOn(flow.worker, "wake");
    const response = await notify(await tokenOf(SHOP), JSON.stringify([{ id_order: "UNKNOWN-1" }]));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(wake).not.toHaveBeenCalled();
  });
});

describe("a notification that opens nothing or says nothing changes nothing", () => {
  async function withOneAcceptedOrder() {
    await takeOrders(SHOP, [7]);
    const [order] = await acceptedOrders(SHOP, 1);
    return order!;
  }

  it("404 with one body for a forged token, a malformed one and an uninstalled shop's", async () => {
    const order = await withOneAcceptedOrder();
    const body = JSON.stringify({ id_order: order.idOrder });
    const token = await tokenOf(SHOP);
    const forged = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const wrong of [forged, "short", `${token}x`, `${token.slice(0, 42)}!`]) {
      const response = await notify(wrong, body);
      expect(response.status, wrong).toBe(404);
      expect(await response.json()).toEqual(NOT_FOUND);
    }
    await recordShopUninstall(appContext(), SHOP);
    const uninstalled = await notify(token, body);
    expect(uninstalled.status).toBe(404);
    expect(await uninstalled.json()).toEqual(NOT_FOUND);
    expect((await orders()).map((row) => row.statusHintAt)).toEqual([null]);
  });

  it("400 for a body that is not JSON, or names no order; 413 for too many orders", async () => {
    await withOneAcceptedOrder();
    const token = await tokenOf(SHOP);
    const notJson = await notify(token, "id_order=UA-7");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "The notification body is not valid JSON." });
    for (const body of ["{}", "[]", '{"status":"shipped","order":{"id":7}}', '{"id_order":null}', '""']) {
      const response = await notify(token, body);
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/names no order/);
    }
    const many = Array.from({ length: MAX_NOTIFIED_IDS + 1 }, (_, i) => ({ id_order: `X${i}` }));
    const tooMany = await notify(token, JSON.stringify(many));
    expect(tooMany.status).toBe(413);
    // Deeply nested brackets are walked, not recursed into.
    const deep = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    expect((await notify(token, deep)).status).toBe(400);
    expect((await orders()).map((row) => row.statusHintAt)).toEqual([null]);
  });

  it("413 for a body over the limit by its declared length, and chunked without one while it streams", async () => {
    const order = await withOneAcceptedOrder();
    const token = await tokenOf(SHOP);
    const padded = JSON.stringify({ id_order: order.idOrder, padding: "x".repeat(MAX_NOTIFICATION_BYTES) });
    const declared = await notify(token, padded);
    expect(declared.status).toBe(413);

    const chunk = Buffer.alloc(16 * 1024, " ");
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${flow.app.url}/warehouse/notify/${token}`, {
        method: "POST",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      });
      let sent = 0;
      let answered = false;
      request.on("response", (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode!);
      });
      // Writes after the answer may meet a closed connection: that is the server hanging up, as meant.
      request.on("error", (error) => (answered ? undefined : reject(error)));
      request.write(`{"id_order":"${order.idOrder}","padding":"`);
      const pump = () => {
        while (!answered && sent <= 64 * MAX_NOTIFICATION_BYTES) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once("drain", pump);
        }
        if (!answered) reject(new Error(`the server read ${sent} bytes without answering`));
      };
      pump();
    });
    expect(status).toBe(413);
    expect((await orders()).map((row) => row.statusHintAt)).toEqual([null]);
  });

  it("405 for anything but POST", async () => {
    const token = await tokenOf(SHOP);
    const response = await fetch(`${flow.app.url}/warehouse/notify/${token}`, { method: "PUT", body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("the notification address", () => {
  it("a new one works at once and the old one stops", async () => {
    await takeOrders(SHOP, [8]);
    const [order] = await acceptedOrders(SHOP, 1);
    const body = JSON.stringify({ key_order: order!.keyOrder });
    const old = await tokenOf(SHOP);
    await rotateNotifyToken(appContext(), SHOP);
    const fresh = await tokenOf(SHOP);
    expect(fresh).not.toBe(old);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect((await notify(old, body)).status).toBe(404);
    expect((await orders())[0]!.statusHintAt).toBeNull();
    expect((await notify(fresh, body)).status).toBe(200);
    expect((await orders())[0]!.statusHintAt).not.toBeNull();
  });

  it("is kept as a digest and a ciphertext bound to the shop, never in plain text", async () => {
    const token = await tokenOf(SHOP);
    const row = await appContext().db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.notifyTokenDigest).toBe(notifyTokenDigest(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const key = encryptionKey(undefined);
    expect(decryptSecret(row.notifyTokenCiphertext!, key, SHOP)).toBe(token);
    expect(() => decryptSecret(row.notifyTokenCiphertext!, key, OTHER_SHOP)).toThrow(SecretUnreadable);
    // The next visit shows the same address.
    expect(await tokenOf(SHOP)).toBe(token);
  });
});
