// The full catalogue sync over real HTTP, through the engine: started as the Catalogue page starts it, the
// worker reads the Shopify fake's variants page by page into the SKU map, asks the simulator's ReportSklad
// which SKUs it holds, and the catalogue kind sends AddProduct for the others only. A worker stopped during
// the read or the sending is followed by another that goes on from the sync's row: no page is read again past
// the stored cursor, and no card is sent twice.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALREADY_RUNNING, startCatalogueSync } from "../../app/catalogue/full-sync.server";
import { appContext } from "../../app/context.server";
import { readTexts } from "../../app/i18n/texts";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { wakeWorker } from "../../app/work/worker.server";
import { startShopifyFake, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { eventually, SHOP, startOrderFlow, type OrderFlow } from "./harness";

const db = () => appContext().db;
const deps = () => ({ ...appContext(), wake: wakeWorker });
let fake: ShopifyFake;
let store: ShopStore;
let flow: OrderFlow | undefined;

beforeEach(async () => {
  // A fake of its own per test: each test's catalogue is the whole shop.
  fake = await startShopifyFake();
  routeShopifyTo(fake.url);
  store = fake.state.addShop({ domain: SHOP, accessToken: "shpat_catalogue_sync" });
  await db().session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_catalogue_sync", scope: "" },
  });
});
afterEach(async () => {
  await flow?.close();
  flow = undefined;
  routeShopifyTo(undefined);
  await fake.close();
});

/** `products` products of four sizes each: SKU FS-<product>-<size>, barcode 482 and ten digits. */
function seedShop(products: number) {
  const variants = [];
  for (let product = 1; product <= products; product++) {
    const sizes = ["S", "M", "L", "XL"].map((size, index) => ({
      title: size,
      sku: `FS-${product}-${size}`,
      barcode: `482${String(product * 10 + index).padStart(10, "0")}`,
    }));
    store.addProduct({ title: `Світшот ${product}`, variants: sizes });
    variants.push(...sizes.map((size) => ({ ...size, name: `Світшот ${product} - ${size.title}` })));
  }
  return variants;
}

const addProducts = () => flow!.sim.stats().requests.AddProduct ?? 0;
const theSync = () => db().catalogueSync.findFirstOrThrow({ where: { shop: SHOP } });
const syncDone = async (id: string) => {
  const sync = await db().catalogueSync.findUniqueOrThrow({ where: { id } });
  return sync.phase === "done" || sync.phase === "failed" ? sync : null;
};
/** The page reads Shopify answered (a throttled one has no cost), by the cursor each started after. */
const pagesReadAfter = () =>
  fake.requests
    .filter((request) => request.operationName === "CatalogueVariantsPage" && request.actualCost != null)
    .map((request) => request.variables.after ?? null);
const itemOf = (sku: string) => db().catalogueItem.findFirstOrThrow({ where: { shop: SHOP, sku } });

// A sync sends up to 150 cards one request each: on a machine shared with other work that takes longer than
// the harness's default wait, which is there to catch a hang, not to time the sync.
const SYNC_WAIT_MS = 40_000;

describe("the full catalogue sync", { timeout: 90_000 }, () => {
  it("sends only the cards the warehouse lacks or holds with another barcode, keeps what it reported, and ends done", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const variants = seedShop(75);
    store.addProduct({ title: "Подарункова коробка", variants: [{ title: "Default Title", sku: null }] });
    // The warehouse holds 270 of the 300 SKUs with Shopify's barcode (names it never had from the app), 10
    // with another barcode, and lacks 20.
    const held = variants.slice(0, 280);
    await flow.sim.seedProducts(
      held.map((variant, index) => ({
        sku: variant.sku,
        name: variant.name,
        barcode: index < 270 ? variant.barcode : "4829999999999",
        quantity: index + 1,
      })),
    );
    // A variant deleted from Shopify while the app was away: still a live row of the map.
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/1",
        productId: "gid://shopify/Product/1",
        sku: "GONE-1",
        name: "Видалений товар",
      },
    });

    // Two starts at once (a double click): one starts the sync, the other is refused, as is one made later.
    const starts = await Promise.all([startCatalogueSync(deps(), SHOP), startCatalogueSync(deps(), SHOP)]);
    const refused = { ok: false, message: ALREADY_RUNNING };
    expect(starts.filter((start) => !start.ok)).toEqual([refused]);
    const started = starts.find((start) => start.ok);
    if (!started?.ok) throw new Error("no start went through");
    expect(await startCatalogueSync(deps(), SHOP)).toEqual(refused);
    const sync = await eventually(() => syncDone(started.sync.id), "the sync to end", SYNC_WAIT_MS);

    expect(sync).toMatchObject({
      phase: "done",
      variantsRead: 301,
      alreadyThere: 270,
      toSend: 30,
      sent: 30,
      error: null,
      finishedAt: expect.any(Date),
    });
    expect(addProducts()).toBe(30);
    const products = flow.sim.store().products;
    for (const variant of variants.slice(270)) {
      expect(products.get(variant.sku)).toMatchObject({ name: variant.name, barcode: variant.barcode });
    }
    // What the warehouse reported is kept on each SKU's row: its barcode and stock, or that it had none.
    expect(await itemOf(held[4]!.sku)).toMatchObject({
      warehouseBarcode: held[4]!.barcode,
      warehouseQuantity: 5,
      warehouseAvailable: 5,
      reportedAt: expect.any(Date),
      sentAt: null,
    });
    expect(await itemOf(variants[299]!.sku)).toMatchObject({
      warehouseBarcode: null,
      warehouseQuantity: null,
      reportedAt: expect.any(Date),
      sentAt: expect.any(Date),
    });
    expect(await itemOf("GONE-1")).toMatchObject({ deletedAt: expect.any(Date) });
    expect(await db().catalogueItem.count({ where: { shop: SHOP, problem: "sku_missing" } })).toBe(1);
    // The run that ended it deletes the kind's row once it is back from its last step.
    await eventually(
      async () => (await db().shopSchedule.count({ where: { shop: SHOP, kind: "catalogue_sync" } })) === 0,
      "the sync's schedule row to go",
    );

    // Once it has ended another may start, and with nothing changed it sends nothing.
    const again = await startCatalogueSync(deps(), SHOP);
    if (!again.ok) throw new Error(again.message);
    expect(
      await eventually(() => syncDone(again.sync.id), "the second sync to end", SYNC_WAIT_MS),
    ).toMatchObject({
      phase: "done",
      alreadyThere: 300,
      toSend: 0,
    });
    expect(addProducts()).toBe(30);
  });

  it("ends failed when the warehouse gives no stock report, keeping why as texts the page says in either language", async () => {
    seedShop(2);
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    flow.sim.faults.failNext({ count: 10, status: 400, operations: ["ReportSklad"] });
    const started = await startCatalogueSync(deps(), SHOP);
    expect(started.ok).toBe(true);
    const sync = await eventually(
      () => syncDone((started as { sync: { id: string } }).sync.id),
      "the sync to end",
    );
    expect(sync).toMatchObject({ phase: "failed", variantsRead: 8 });
    expect(readTexts(sync.error)).toEqual([
      { key: "catalogue:error.report" },
      expect.objectContaining({ key: "warehouse:error.badRequest" }),
    ]);
    expect(addProducts()).toBe(0);
  });

  it("goes on from its row after the worker stops during the read and during the sending, reading no page and sending no card twice", async () => {
    flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
    const variants = seedShop(150);
    await flow.sim.seedProducts(
      variants.slice(0, 450).map(({ sku, name, barcode }) => ({ sku, name, barcode, quantity: 1 })),
    );
    // The bucket holds one page (752 points) and fills a point a second: the second page would wait
    // minutes, longer than the Admin client waits, so the run says when it is due again and the loop lets go.
    fake.setThrottle({ shop: SHOP, maximumAvailable: 1_000, currentlyAvailable: 1_000, restoreRate: 1 });

    const started = await startCatalogueSync(deps(), SHOP);
    if (!started.ok) throw new Error(started.message);
    const schedule = () =>
      db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: "catalogue_sync" } } });
    await eventually(
      async () => ((await schedule())?.nextRunAt.getTime() ?? 0) > Date.now() + 60_000,
      "the second page to wait for Shopify's bucket",
    );
    await flow.worker.stop();
    const stopped = await theSync();
    expect(stopped).toMatchObject({ phase: "shopify", variantsRead: 250, cursor: expect.any(String) });
    expect(await db().catalogueItem.count({ where: { shop: SHOP } })).toBe(250);

    // A new process once the bucket has filled (its wait, taken as over).
    fake.setThrottle({ shop: SHOP, maximumAvailable: 2_000, currentlyAvailable: 2_000, restoreRate: 100 });
    await db().shopSchedule.update({
      where: { shop_kind: { shop: SHOP, kind: "catalogue_sync" } },
      data: { nextRunAt: new Date() },
    });
    const second = flow.restartWorker();
    await eventually(
      async () => (await db().catalogueItem.count({ where: { shop: SHOP, sentAt: { not: null } } })) >= 30,
      "the sending to be under way",
    );
    await second.stop();
    const sentWhenStopped = addProducts();
    expect(sentWhenStopped).toBeLessThan(150);

    flow.restartWorker();
    const sync = await eventually(() => syncDone(started.sync.id), "the sync to end", SYNC_WAIT_MS);
    expect(sync).toMatchObject({
      phase: "done",
      variantsRead: 600,
      alreadyThere: 450,
      toSend: 150,
      sent: 150,
    });
    // Each page once, the second from the cursor stored before the stop.
    expect(pagesReadAfter()).toEqual([null, stopped.cursor, expect.any(String)]);
    expect(await db().catalogueItem.count({ where: { shop: SHOP } })).toBe(600);
    expect(addProducts()).toBe(150);
    expect(flow.sim.store().products.size).toBe(600 + 2);
  });
});
