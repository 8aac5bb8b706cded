// Saving settings against the real database: prefixes that would let two orders share an id_order are
// refused (in one shop over time, and between shops on one ApiKey); a changed mapping is re-mapped by the
// worker's step, not inside the save; a saved mapping that no longer validates holds orders and says why.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { appContext, type ServiceDeps } from "../../app/context.server";
import { createLogger } from "../../app/logger.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { remapOpenOrders } from "../../app/orders/remap.server";
import { REMAP_KIND } from "../../app/orders/states";
import { parseMapping } from "../../app/orders/settings";
import { i18nFor } from "../../app/i18n/i18n";
import { message, translate, type Message } from "../../app/i18n/message";
import { loadSettings, saveSettings, sharedKeyConflict } from "../../app/settings/settings.server";
import { rateLimitKey } from "../../app/warehouse/limiter.server";
import { DELIVERY_METHOD } from "../../app/warehouse/wire";
import { FIXTURE_ORDER } from "../support/orders";

const SHOP = "kyiv-goods.myshopify.com";
const OTHER = "lviv-goods.myshopify.com";
const API_KEY = "sk-live-5f1c2e9a44d08b70";

/** Services' dependencies with the log lines kept, and the shops they were asked to wake. */
function deps() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const woken: string[] = [];
  const services: ServiceDeps = {
    ...appContext(),
    log: createLogger({ level: "info", destination }),
    wake: (shop) => woken.push(shop),
  };
  return { services, lines, woken };
}

const form = (mapping: Record<string, unknown>, apiKey?: string) => ({
  ...(apiKey && { apiKey }),
  environment: "production",
  mapping,
});

/** An order webhook taken in through the real intake path. */
async function takeIn(services: ServiceDeps, number: number, shop = SHOP) {
  const id = 6123456780000 + number;
  const order = shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${number}`,
    order_number: number,
  });
  await takeInOrderWebhook(services, { shop, topic: "orders/create", order, eventId: `event-${id}` });
  return appContext().db.warehouseOrder.findUniqueOrThrow({
    where: { shop_shopifyOrderId: { shop, shopifyOrderId: String(id) } },
  });
}

/** An error as the page says it in English and in Ukrainian. */
const inWords = (text: Message | undefined, locale: "en" | "uk" = "en") =>
  text ? translate(i18nFor(locale).t, text) : "";
/** The errors of a refused save. */
const errorsOf = (saved: Awaited<ReturnType<typeof saveSettings>>) => {
  if (saved.ok) throw new Error("the save was not refused");
  return saved.errors;
};

const settingsRow = (shop = SHOP) => appContext().db.shopSettings.findUniqueOrThrow({ where: { shop } });
/** The shop's request for a re-mapping run, if a save made one. */
const remapRequest = (shop = SHOP) =>
  appContext().db.shopSchedule.findUnique({ where: { shop_kind: { shop, kind: REMAP_KIND } } });

describe("the branch matching threshold", () => {
  it("is refused below a coin toss, beside its field, and a sure one is kept and maps the open orders again", async () => {
    const { services } = deps();
    const low = await saveSettings(services, SHOP, form({ branchMatchThreshold: 0.3 }));
    expect(errorsOf(low)).toEqual({
      "mapping.branchMatchThreshold": message("settings:errors.branchThreshold"),
    });
    expect(inWords(errorsOf(low)["mapping.branchMatchThreshold"], "uk")).toBe(
      "Введіть цілий відсоток від 50 до 100.",
    );
    expect(await appContext().db.shopSettings.count()).toBe(0);

    expect((await saveSettings(services, SHOP, form({}))).ok).toBe(true);
    await appContext().db.shopSchedule.deleteMany({ where: { shop: SHOP, kind: REMAP_KIND } });
    expect((await saveSettings(services, SHOP, form({ branchMatchThreshold: 0.95 }))).ok).toBe(true);
    expect(JSON.parse((await settingsRow()).mapping)).toMatchObject({ branchMatchThreshold: 0.95 });
    // Held orders may now be sure enough, or no longer: they are mapped again.
    expect(await remapRequest()).not.toBeNull();
  });
});

describe("the order number prefix", () => {
  it("is refused when it ends in a digit, with the rule and the reason beside the field", async () => {
    const { services } = deps();
    const saved = await saveSettings(services, SHOP, form({ idOrderPrefix: "UA1" }));
    expect(saved).toEqual({
      ok: false,
      errors: { "mapping.idOrderPrefix": message("settings:errors.prefix.endsInDigit") },
    });
    expect(inWords(errorsOf(saved)["mapping.idOrderPrefix"])).toMatch(/must not end in a digit/);
    expect(inWords(errorsOf(saved)["mapping.idOrderPrefix"], "uk")).toMatch(/не може закінчуватися цифрою/);
    expect(await appContext().db.shopSettings.count()).toBe(0);
  });

  it("cannot change to one that meets the prefix saved before the digit rule", async () => {
    const { services } = deps();
    const { db } = appContext();
    await db.shopSettings.create({ data: { shop: SHOP, mapping: JSON.stringify({ idOrderPrefix: "UA1" }) } });
    const before = await settingsRow();

    // "UA1" + 23 was sent already; "UA" + 123 would be the same id_order.
    const saved = await saveSettings(services, SHOP, form({ idOrderPrefix: "UA" }));
    expect(saved).toEqual({
      ok: false,
      errors: {
        "mapping.idOrderPrefix": message("settings:errors.prefix.meetsPrevious", {
          previous: "UA1",
          prefix: "UA",
        }),
      },
    });
    expect(inWords(errorsOf(saved)["mapping.idOrderPrefix"])).toContain("“UA1” does not begin with");
    expect(await settingsRow()).toEqual(before);
    expect((await saveSettings(services, SHOP, form({ idOrderPrefix: "UA-" }))).ok).toBe(true);
  });

  it("keeps the id_order of orders already taken in when it changes", async () => {
    const { services } = deps();
    await saveSettings(services, SHOP, form({ idOrderPrefix: "A-" }));
    const first = await takeIn(services, 1001);
    expect(first.idOrder).toBe("A-1001");

    await saveSettings(services, SHOP, form({ idOrderPrefix: "B-" }));
    await remapOpenOrders(services, SHOP);
    const after = await appContext().db.warehouseOrder.findUniqueOrThrow({ where: { id: first.id } });
    expect(after.idOrder).toBe("A-1001");
    expect(JSON.parse(after.mapped!).id_order).toBe("A-1001");
    expect((await takeIn(services, 1002)).idOrder).toBe("B-1002");
  });
});

describe("an ApiKey shared by two shops", () => {
  it("is refused until the two shops' prefixes cannot give the same id_order", async () => {
    const { services } = deps();
    expect((await saveSettings(services, OTHER, form({}, API_KEY))).ok).toBe(true);

    const refused = await saveSettings(services, SHOP, form({}, API_KEY));
    expect(refused).toEqual({
      ok: false,
      errors: {
        apiKey: message("settings:errors.apiKey.shared", { shop: OTHER }),
        "mapping.idOrderPrefix": message("settings:errors.prefix.sharedKeyNoPrefix", { shop: OTHER }),
      },
    });
    expect(inWords(errorsOf(refused).apiKey)).toBe(
      `This ApiKey is already used by the store ${OTHER}. Two stores can share a key only when each has its own order number prefix: set one for this store below.`,
    );
    expect(inWords(errorsOf(refused)["mapping.idOrderPrefix"])).toContain(
      `${OTHER} sends orders with the same warehouse ApiKey`,
    );
    expect(await appContext().db.shopSettings.count()).toBe(1);

    const saved = await saveSettings(services, SHOP, form({ idOrderPrefix: "B-" }, API_KEY));
    expect(saved.ok).toBe(true);
    expect((await settingsRow()).apiKeyDigest).toBe(rateLimitKey(API_KEY));
    expect(await sharedKeyConflict(appContext().db, SHOP)).toBeNull();
    expect(await sharedKeyConflict(appContext().db, OTHER)).toBeNull();
  });

  it("refuses a prefix change that would meet the other shop's prefix, keeping the key", async () => {
    const { services } = deps();
    await saveSettings(services, OTHER, form({ idOrderPrefix: "A-" }, API_KEY));
    await saveSettings(services, SHOP, form({ idOrderPrefix: "B-" }, API_KEY));
    const before = await settingsRow();

    const refused = await saveSettings(services, SHOP, form({ idOrderPrefix: "a-" }));
    expect(refused).toEqual({
      ok: false,
      errors: {
        "mapping.idOrderPrefix": message("settings:errors.prefix.sharedKey", { shop: OTHER, prefix: "A-" }),
      },
    });
    expect(inWords(errorsOf(refused)["mapping.idOrderPrefix"])).toBe(
      `The store ${OTHER} sends orders with the same warehouse ApiKey and the order number prefix “A-”, so orders of the two stores could get the same id_order. Give this store a prefix of its own.`,
    );
    expect(await settingsRow()).toEqual(before);
  });

  it("stops both shops' sending when rows saved before the check share a key and a prefix", async () => {
    const { db } = appContext();
    const digest = rateLimitKey(API_KEY);
    await db.shopSettings.createMany({
      data: [
        { shop: SHOP, apiKeyDigest: digest, mapping: JSON.stringify({ idOrderPrefix: "UA1" }) },
        { shop: OTHER, apiKeyDigest: digest, mapping: JSON.stringify({ idOrderPrefix: "UA" }) },
        { shop: "third.myshopify.com", apiKeyDigest: rateLimitKey("another-key"), mapping: "{}" },
      ],
    });
    expect(await sharedKeyConflict(db, SHOP)).toEqual({
      otherShop: OTHER,
      message: expect.stringContaining("no orders are sent until each store has its own prefix"),
      text: message("settings:keyConflict.body", { shop: OTHER }),
    });
    expect((await sharedKeyConflict(db, OTHER))?.otherShop).toBe(SHOP);
    expect(await sharedKeyConflict(db, "third.myshopify.com")).toBeNull();
    expect(await sharedKeyConflict(db, "unknown.myshopify.com")).toBeNull();
  });
});

describe("re-mapping open orders after a save", () => {
  const NEW_LITERAL = "Нова Пошта (відділення)";

  it("is asked of the worker only when the mapping changed, and never done inside the save", async () => {
    const { services, woken } = deps();
    const { db } = appContext();
    await saveSettings(services, SHOP, form({}, API_KEY));
    const order = await takeIn(services, 1001);
    expect(JSON.parse(order.mapped!).delivery_method).toBe(DELIVERY_METHOD.novaPoshta);
    expect(await remapRequest()).toBeNull();
    woken.length = 0;

    // The same mapping again: nothing to re-map, nothing to wake.
    await saveSettings(services, SHOP, form({}));
    expect(await remapRequest()).toBeNull();
    expect(woken).toEqual([]);

    // A changed mapping: the save only asks for a run and wakes the worker.
    await saveSettings(services, SHOP, form({ deliveryLiterals: { novaPoshta: NEW_LITERAL } }));
    expect(await remapRequest()).not.toBeNull();
    expect(woken).toEqual([SHOP]);
    const unchanged = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(unchanged.mapped).toBe(order.mapped);

    expect(await remapOpenOrders(services, SHOP)).toEqual({ changed: 1, complete: true });
    const remapped = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(JSON.parse(remapped.mapped!).delivery_method).toBe(NEW_LITERAL);
  });

  it("goes through every chunk, says when it was stopped, and maps with what was saved last", async () => {
    const { services } = deps();
    const { db } = appContext();
    await saveSettings(services, SHOP, form({}, API_KEY));
    for (const number of [1001, 1002, 1003]) await takeIn(services, number);
    await saveSettings(services, SHOP, form({ deliveryLiterals: { novaPoshta: NEW_LITERAL } }));

    // Told to stop before the second chunk: not complete, and the first chunk is done.
    let asked = 0;
    const stopped = await remapOpenOrders(services, SHOP, { chunkSize: 2, keepGoing: () => ++asked < 2 });
    expect(stopped).toEqual({ changed: 2, complete: false });

    await saveSettings(services, SHOP, form({ deliveryLiterals: { novaPoshta: "Друга" } }));
    expect(await remapOpenOrders(services, SHOP, { chunkSize: 2 })).toEqual({ changed: 3, complete: true });
    const literals = (await db.warehouseOrder.findMany({ where: { shop: SHOP } })).map(
      (row) => JSON.parse(row.mapped!).delivery_method,
    );
    expect(literals).toEqual(["Друга", "Друга", "Друга"]);
  });
});

describe("the mapping an order is taken in with", () => {
  it("is the one stored when it arrives, even when another process saved it a moment before", async () => {
    const { services } = deps();
    const { db } = appContext();
    await db.shopSettings.create({ data: { shop: SHOP, mapping: JSON.stringify({ idOrderPrefix: "KX" }) } });
    expect((await takeIn(services, 2001)).idOrder).toBe("KX2001");
    // Written past this process's save path, as another instance of the app would.
    await db.shopSettings.update({
      where: { shop: SHOP },
      data: { mapping: JSON.stringify({ idOrderPrefix: "LV" }) },
    });
    expect((await takeIn(services, 2002)).idOrder).toBe("LV2002");
    await db.shopSettings.update({
      where: { shop: SHOP },
      data: { mapping: JSON.stringify({ idOrderPrefix: "KX" }) },
    });
    expect((await takeIn(services, 2003)).idOrder).toBe("KX2003");
  });
});

describe("a saved mapping that no longer validates", () => {
  // Saved by an earlier release: a prefix ending in a digit, and a delivery text since made required.
  const STORED = JSON.stringify({
    idOrderPrefix: "UA1",
    deliveryLiterals: { pickup: "" },
    sendNoteAsComment: false,
  });

  it("is parsed with its problem and what still validates, never replaced by defaults", () => {
    const { mapping, problem } = parseMapping(STORED);
    expect(problem).toMatch(/must not end in a digit[\s\S]*idOrderPrefix/);
    expect(problem).toMatch(/deliveryLiterals\.pickup/);
    expect(mapping).toMatchObject({ idOrderPrefix: "UA1", sendNoteAsComment: false });
    expect(parseMapping("{not json").problem).toBe("The saved order settings are not valid JSON.");
    expect(parseMapping(undefined)).toEqual({
      mapping: expect.objectContaining({ idOrderPrefix: "" }),
      problem: null,
    });
  });

  it("holds new orders with the reason, logs it with the shop, shows it, and keeps it until a valid save", async () => {
    const { services, lines } = deps();
    const { db } = appContext();
    await db.shopSettings.create({ data: { shop: SHOP, mapping: STORED } });

    const order = await takeIn(services, 1001);
    expect(order.state).toBe("held");
    // The shop's id_orders go on as before, so the prefix change it must make cannot meet them unseen.
    expect(order.idOrder).toBe("UA11001");
    expect(JSON.parse(order.holdReasons!)).toEqual([
      {
        code: "mapping_invalid",
        message: expect.stringMatching(
          /^The store's saved order settings are no longer valid.*must not end in a digit/s,
        ),
        fix: expect.stringContaining("Open Settings"),
        action: "settings",
        // What the merchant reads, in their language: the problem as zod put it, inside a sentence of ours.
        text: message("holds:settingsInvalid", { problem: expect.stringContaining("idOrderPrefix") }),
        fixText: message("holds:fix.settingsInvalid"),
      },
    ]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "warn", shop: SHOP, event: "settings.mapping_invalid" }),
    );

    const view = await loadSettings(db, SHOP);
    expect(view.mappingProblem).toMatch(/deliveryLiterals\.pickup/);
    // The page says the same by field, in the admin's language.
    expect(view.mappingIssues).toEqual({
      "mapping.idOrderPrefix": message("settings:errors.prefix.endsInDigit"),
      "mapping.deliveryLiterals.pickup": message("settings:errors.deliveryTextEmpty"),
    });
    expect(inWords(view.mappingIssues!["mapping.deliveryLiterals.pickup"], "uk")).toBe(
      "Текст доставки не може бути порожнім.",
    );
    expect(view.mapping.sendNoteAsComment).toBe(false);
    expect((await settingsRow()).mapping).toBe(STORED);

    // A valid save (the mapping counts as changed) maps the held order again.
    const saved = await saveSettings(
      services,
      SHOP,
      form({ idOrderPrefix: "UA-", sendNoteAsComment: false }),
    );
    expect(saved.ok).toBe(true);
    expect(await remapOpenOrders(services, SHOP)).toEqual({ changed: 1, complete: true });
    const ready = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(ready.state).toBe("ready");
    expect(ready.idOrder).toBe("UA11001");
    expect((await loadSettings(db, SHOP)).mappingProblem).toBeNull();
    expect((await loadSettings(db, SHOP)).mappingIssues).toBeNull();
  });
});
