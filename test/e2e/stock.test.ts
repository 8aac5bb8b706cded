// Stock over real HTTP, through the engine: once the merchant has chosen the location that stands for the
// warehouse, the worker reads ReportSklad from the simulator and makes the Shopify fake's quantities there
// the warehouse's, keeping each sync as a record; a sync with nothing changed writes nothing.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { readTexts } from "../../app/i18n/texts";
import { correctOrder } from "../../app/orders/actions.server";
import { FIXTURE_ORDER } from "../support/orders";
import { requestStockSync } from "../../app/stock/kinds.server";
import { saveStockSettings } from "../../app/stock/settings.server";
import { saveStatusSettings } from "../../app/statuses/settings.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { wakeWorker } from "../../app/work/worker.server";
import { eventually, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { useShopifyShop } from "./shopify-shop";

const db = () => appContext().db;
const shopify = useShopifyShop("stock");
let flow: OrderFlow | undefined;

afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const setQuantityCalls = () =>
  shopify.fake.requests.filter((request) => request.query.includes("inventorySetQuantities")).length;
const available = (inventoryItemId: string) =>
  shopify.store.level(inventoryItemId, shopify.warehouse.id)?.quantities.available ?? null;

/** Syncs that have finished, newest first. */
const finishedSyncs = () =>
  db().stockSync.findMany({
    where: { shop: SHOP, finishedAt: { not: null } },
    orderBy: { startedAt: "desc" },
  });

describe("the stock sync", { timeout: 60_000 }, () => {
  it("waits for the location, then writes the warehouse's free stock, and a second sync with no change writes nothing", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const suffix = `-${shopify.test}`;
    await flow.sim.seedProducts([
      { sku: `VSH-S${suffix}`, name: "Вишиванка S", quantity: 7 },
      { sku: `VSH-M${suffix}`, name: "Вишиванка M", quantity: 0 },
      { sku: `ONLY-WH${suffix}`, name: "Лише на складі", quantity: 3 },
    ]);
    const { variants } = shopify.store.addProduct({
      title: "Вишиванка",
      variants: [
        {
          title: "S",
          sku: `VSH-S${suffix}`,
          inventory: [{ locationId: shopify.warehouse.id, available: 2 }],
        },
        {
          title: "M",
          sku: `VSH-M${suffix}`,
          inventory: [{ locationId: shopify.warehouse.id, available: 5 }],
        },
        {
          title: "L",
          sku: `ONLY-SHOP${suffix}`,
          inventory: [{ locationId: shopify.warehouse.id, available: 4 }],
        },
      ],
    });
    const [small, medium, large] = variants.map((variant) => variant.inventoryItemId);
    // The SKU map's rows, as product webhooks made them.
    for (const [variant, name] of [
      [variants[0]!, `VSH-S${suffix}`],
      [variants[2]!, `ONLY-SHOP${suffix}`],
    ] as const) {
      await db().catalogueItem.create({
        data: { shop: SHOP, variantId: variant.id, productId: variant.productId, sku: name, name },
      });
    }

    // No location chosen: nothing runs, even when asked.
    await requestStockSync(db(), SHOP, new Date(), true);
    wakeWorker(SHOP);
    await eventually(
      async () => (await db().shopSchedule.count({ where: { shop: SHOP, kind: "stock" } })) === 0,
      "the stock run to end for want of a location",
    );
    expect(await db().stockSync.count()).toBe(0);

    const saved = await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [
      { id: shopify.warehouse.id, name: shopify.warehouse.name },
    ]);
    expect(saved.ok).toBe(true);
    wakeWorker(SHOP);
    const [first] = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length ? syncs : null;
    }, "the first sync");
    expect(available(small!)).toBe(7);
    expect(available(medium!)).toBe(0);
    // Not at the warehouse: left as it is, and listed as drift.
    expect(available(large!)).toBe(4);
    expect(first).toMatchObject({ trigger: "schedule", quantityName: "available", changed: 2, error: null });
    const report = JSON.parse(first!.report!) as {
      missingInShopify: string[];
      missingAtWarehouse: { sku: string }[];
    };
    expect(report.missingAtWarehouse.map((item) => item.sku)).toContain(`ONLY-SHOP${suffix}`);
    expect(report.missingInShopify).toContain(`ONLY-WH${suffix}`);
    const calls = setQuantityCalls();
    expect(calls).toBeGreaterThan(0);
    // What the warehouse reported is kept on the map: figures for the SKU it has, none for the one it lacks.
    const mapped = await db().catalogueItem.findMany({ where: { shop: SHOP }, orderBy: { sku: "asc" } });
    expect(
      mapped.map(({ sku, warehouseQuantity, reportedAt }) => ({ sku, warehouseQuantity, reportedAt })),
    ).toEqual([
      { sku: `ONLY-SHOP${suffix}`, warehouseQuantity: null, reportedAt: expect.any(Date) },
      { sku: `VSH-S${suffix}`, warehouseQuantity: 7, reportedAt: expect.any(Date) },
    ]);

    // "Sync now" with nothing changed at either side.
    await requestStockSync(db(), SHOP, new Date(), true);
    wakeWorker(SHOP);
    const [second] = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length === 2 ? syncs : null;
    }, "the second sync");
    expect(second).toMatchObject({ trigger: "manual", changed: 0, mutations: 0 });
    expect(setQuantityCalls()).toBe(calls);
  });

  it("keeps a held order's units off sale through three syncs, and counts them once after the warehouse accepts it", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const [cup, tea] = [`CUP-HELD-${shopify.test}`, `TEA-HELD-${shopify.test}`];
    await flow.sim.seedProducts([
      { sku: cup, name: "Чашка", quantity: 10 },
      { sku: tea, name: "Чай", quantity: 10 },
    ]);
    const { variants } = shopify.store.addProduct({
      title: "Чашка і чай",
      variants: [cup, tea].map((sku) => ({
        title: sku,
        sku,
        inventory: [{ locationId: shopify.warehouse.id, available: 10 }],
      })),
    });
    const available = () =>
      variants.map(
        (variant) => shopify.store.level(variant.inventoryItemId, shopify.warehouse.id)!.quantities.available,
      );
    // The buyer orders 2 cups and a tea: the store commits them at once, and the order comes to the app held
    // for its Polish phone.
    const { order } = shopify.store.addOrder({
      lineItems: [
        { sku: cup, quantity: 2 },
        { sku: tea, quantity: 1 },
      ],
      locationId: shopify.warehouse.id,
    });
    expect(available()).toEqual([8, 9]);
    const fixtureLines = FIXTURE_ORDER.line_items as Array<Record<string, unknown>>;
    const numericId = Number(order.id.split("/").at(-1));
    await flow.post({
      topic: "orders/create",
      payload: orderPayload(3301, {
        id: numericId,
        admin_graphql_api_id: order.id,
        line_items: fixtureLines.map((line, index) => ({ ...line, sku: [cup, tea][index] })),
        shipping_address: { ...FIXTURE_ORDER.shipping_address, phone: "+48 601 234 567" },
      }),
    });
    const held = await db().warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, orderName: "#3301" } });
    expect(held.state).toBe("held");
    await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [
      { id: shopify.warehouse.id, name: shopify.warehouse.name },
    ]);

    const syncAgain = async (count: number) => {
      await requestStockSync(db(), SHOP, new Date(), true);
      wakeWorker(SHOP);
      return eventually(async () => {
        const syncs = await finishedSyncs();
        return syncs.length >= count ? syncs[0]! : null;
      }, `sync ${count}`);
    };
    // The warehouse has all 10 of each free, but 2 cups and a tea are promised to the held order.
    for (const count of [1, 2, 3]) {
      const sync = await syncAgain(count);
      expect(sync.error).toBeNull();
      expect(available()).toEqual([8, 9]);
      expect((JSON.parse(sync.report!) as { promised: unknown }).promised).toEqual([
        { sku: cup, units: 2 },
        { sku: tea, units: 1 },
      ]);
    }

    // The merchant gives a Ukrainian phone; the order goes, and the warehouse reserves its units.
    const corrected = await correctOrder(appContext(), SHOP, held.id, { phone: "067 123 45 67" });
    expect(corrected.ok).toBe(true);
    wakeWorker(SHOP);
    await eventually(
      () => db().warehouseOrder.findFirst({ where: { id: held.id, state: "accepted" } }),
      "the corrected order to be accepted",
    );
    // Now the warehouse's free figure has them out (8 and 9), and they are not taken out again.
    const after = await syncAgain(4);
    expect(after.error).toBeNull();
    expect(available()).toEqual([8, 9]);
    expect((JSON.parse(after.report!) as { promised: unknown }).promised).toEqual([]);
    await syncAgain(5);
    expect(available()).toEqual([8, 9]);
  });

  it("rests while nothing changed, reading Shopify again for a warehouse change, a sale, and at the latest an hour on", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const [cup, tea, spoon] = [
      `CUP-REST-${shopify.test}`,
      `TEA-REST-${shopify.test}`,
      `SPOON-${shopify.test}`,
    ];
    await flow.sim.seedProducts([
      { sku: cup, name: "Чашка", quantity: 10 },
      { sku: tea, name: "Чай", quantity: 6 },
      { sku: spoon, name: "Ложка", quantity: 4 },
    ]);
    const { variants } = shopify.store.addProduct({
      title: "Чашка і чай",
      variants: [cup, tea].map((sku) => ({
        title: sku,
        sku,
        inventory: [{ locationId: shopify.warehouse.id, available: 0 }],
      })),
    });
    const levels = () => variants.map((variant) => available(variant.inventoryItemId));
    // What the sync asked of Shopify: its reads of the location, and their cost.
    const locationReads = () =>
      shopify.fake.requests.filter((request) => request.query.includes("query StockAtLocation"));
    const scheduledSync = async (count: number) => {
      await requestStockSync(db(), SHOP, new Date());
      wakeWorker(SHOP);
      return eventually(async () => {
        const syncs = await finishedSyncs();
        return syncs.length >= count ? syncs[0]! : null;
      }, `scheduled sync ${count}`);
    };

    await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [shopify.warehouse]);
    wakeWorker(SHOP);
    const first = await eventually(async () => (await finishedSyncs())[0], "the first sync");
    expect(first).toMatchObject({ shopifyRead: true, changed: 2, error: null });
    expect(levels()).toEqual([10, 6]);

    // Nothing changed at the warehouse or in orders: Shopify is not read, and nothing is written.
    const [reads, writes] = [locationReads().length, setQuantityCalls()];
    expect(reads).toBeGreaterThan(0);
    const atRest = await scheduledSync(2);
    expect(atRest).toMatchObject({
      shopifyRead: false,
      skus: first.skus,
      changed: 0,
      mutations: 0,
      error: null,
    });
    expect(locationReads().length).toBe(reads);
    expect(setQuantityCalls()).toBe(writes);

    // The warehouse writes off two cups: the next sync reads Shopify and writes the new figure.
    await flow.sim.seedProducts([{ sku: cup, quantity: 8 }]);
    const changed = await scheduledSync(3);
    expect(changed).toMatchObject({ shopifyRead: true, changed: 1, error: null });
    expect(levels()).toEqual([8, 6]);

    // A sale: Shopify commits a tea, and the order comes to the app held. The next sync reads Shopify and keeps
    // the tea off sale; the one after, with nothing changed again, rests.
    const { order } = shopify.store.addOrder({
      lineItems: [{ sku: tea, quantity: 1 }],
      locationId: shopify.warehouse.id,
    });
    expect(levels()).toEqual([8, 5]);
    // The fixture's second line: one unit, none fulfilled.
    const fixtureLine = (FIXTURE_ORDER.line_items as Array<Record<string, unknown>>)[1]!;
    await flow.post({
      topic: "orders/create",
      payload: orderPayload(3311, {
        id: Number(order.id.split("/").at(-1)),
        admin_graphql_api_id: order.id,
        line_items: [{ ...fixtureLine, sku: tea }],
        shipping_address: { ...FIXTURE_ORDER.shipping_address, phone: "+48 601 234 567" },
      }),
    });
    const afterSale = await scheduledSync(4);
    expect(afterSale).toMatchObject({ shopifyRead: true, changed: 0, error: null });
    expect(levels()).toEqual([8, 5]);
    expect(await scheduledSync(5)).toMatchObject({ shopifyRead: false });

    // The merchant types 50 cups in Shopify. Within the hour the sync rests on what it last confirmed; once
    // the hour since is up, it reads Shopify and puts the warehouse's figure back.
    shopify.store.stock(variants[0]!.inventoryItemId, shopify.warehouse.id, { available: 50 });
    expect(await scheduledSync(6)).toMatchObject({ shopifyRead: false });
    expect(levels()).toEqual([50, 5]);
    const settings = await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    await db().shopSettings.update({
      where: { shop: SHOP },
      data: { stockBaselineAt: new Date(settings.stockBaselineAt!.getTime() - 60 * 60_000) },
    });
    const reconciled = await scheduledSync(7);
    expect(reconciled).toMatchObject({ shopifyRead: true, changed: 1, error: null });
    expect(levels()).toEqual([8, 5]);
    // "Sync now" always reads Shopify.
    const readsBefore = locationReads().length;
    await requestStockSync(db(), SHOP, new Date(), true);
    wakeWorker(SHOP);
    const manual = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length >= 8 ? syncs[0]! : null;
    }, "the manual sync");
    expect(manual).toMatchObject({ trigger: "manual", shopifyRead: true, changed: 0 });
    expect(locationReads().length).toBeGreaterThan(readsBefore);

    // The merchant adds the spoon the warehouse has had all along: its product webhook makes the next run read
    // Shopify, which stocks it with the warehouse's figure, not an hour later.
    expect(await scheduledSync(9)).toMatchObject({ shopifyRead: false });
    const spoonProduct = shopify.store.addProduct({
      title: "Ложка",
      variants: [{ sku: spoon, inventory: [{ locationId: shopify.warehouse.id, available: 0 }] }],
    });
    const spoonVariant = spoonProduct.variants[0]!;
    const legacy = (gid: string) => Number(gid.split("/").at(-1));
    await flow.post({
      topic: "products/create",
      payload: {
        id: legacy(spoonProduct.product.id),
        admin_graphql_api_id: spoonProduct.product.id,
        title: "Ложка",
        status: "active",
        updated_at: new Date().toISOString(),
        variants: [
          {
            id: legacy(spoonVariant.id),
            admin_graphql_api_id: spoonVariant.id,
            title: "Default Title",
            sku: spoon,
            barcode: null,
            inventory_item_id: legacy(spoonVariant.inventoryItemId),
            price: "40.00",
          },
        ],
      },
    });
    expect(await scheduledSync(10)).toMatchObject({ shopifyRead: true, changed: 1 });
    expect(available(spoonVariant.inventoryItemId)).toBe(4);
  });

  it("writes the warehouse's physical stock as on_hand when the merchant chooses it", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const sku = `PHYS-${shopify.test}`;
    await flow.sim.seedProducts([{ sku, name: "Чашка", quantity: 9 }]);
    const { variants } = shopify.store.addProduct({
      title: "Чашка",
      variants: [{ sku, inventory: [{ locationId: shopify.warehouse.id, available: 1, committed: 2 }] }],
    });
    const saved = await saveStockSettings(appContext(), SHOP, {
      quantityName: "on_hand",
      intervalMinutes: 30,
    });
    expect(saved.ok).toBe(true);
    await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [
      { id: shopify.warehouse.id, name: shopify.warehouse.name },
    ]);
    wakeWorker(SHOP);
    const [sync] = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length ? syncs : null;
    }, "the sync");
    expect(sync).toMatchObject({ quantityName: "on_hand", changed: 1 });
    // on_hand 9 with 2 committed to unfulfilled orders leaves 7 available.
    const level = shopify.store.level(variants[0]!.inventoryItemId, shopify.warehouse.id)!;
    expect(level.quantities.committed).toBe(2);
    expect(level.quantities.available).toBe(7);
    // The next sync is due after the merchant's interval (written once the run is over, just after).
    await eventually(async () => {
      const schedule = await db().shopSchedule.findUnique({
        where: { shop_kind: { shop: SHOP, kind: "stock" } },
      });
      return schedule && schedule.nextRunAt.getTime() > Date.now() + 25 * 60_000;
    }, "the next sync to be half an hour away");
  });

  it("closes the sync's record with what went wrong when the chosen location is gone from Shopify", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const calls = setQuantityCalls();
    const gone = { id: "gid://shopify/Location/999999", name: "Старий склад" };
    await saveStatusSettings(appContext(), SHOP, { locationId: gone.id }, [gone]);
    wakeWorker(SHOP);
    const [sync] = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length ? syncs : null;
    }, "the sync to end");
    // Kept as a key, so the page says it in the admin's language (app/i18n/texts.ts).
    expect(readTexts(sync!.error)).toEqual([{ key: "stock:sync.error.locationGone" }]);
    expect(setQuantityCalls()).toBe(calls);
    await eventually(async () => {
      const schedule = await db().shopSchedule.findUnique({
        where: { shop_kind: { shop: SHOP, kind: "stock" } },
      });
      return schedule?.lastError?.includes("no longer exists") ?? false;
    }, "the problem to be kept on the schedule");
  });

  it("closes the sync's record with the warehouse's failure as texts the page can say in either language", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const calls = setQuantityCalls();
    flow.sim.faults.failNext({ count: 10, status: 400, operations: ["ReportSklad"] });
    await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [shopify.warehouse]);
    wakeWorker(SHOP);
    const [sync] = await eventually(async () => {
      const syncs = await finishedSyncs();
      return syncs.length ? syncs : null;
    }, "the sync to end");
    expect(sync).toMatchObject({ changed: 0, report: null });
    expect(JSON.parse(sync!.error!)).toEqual(readTexts(sync!.error));
    expect(readTexts(sync!.error)).toEqual([
      { key: "stock:sync.error.report" },
      expect.objectContaining({ key: "warehouse:error.badRequest" }),
    ]);
    expect(setQuantityCalls()).toBe(calls);
  });

  it("refuses settings it cannot use beside their fields, saving nothing", async () => {
    flow = await startOrderFlow();
    const saved = await saveStockSettings(appContext(), SHOP, {
      quantityName: "committed",
      intervalMinutes: 1,
    });
    expect(saved).toMatchObject({ ok: false });
    if (saved.ok) return;
    expect(Object.keys(saved.errors).sort()).toEqual(["intervalMinutes", "quantityName"]);
    expect(saved.errors.intervalMinutes).toMatch(/at least 5 minutes/);
    const row = await db().shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.stockSettings).toBe("{}");
  });
});
