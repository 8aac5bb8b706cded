// The shop as an installed, set-up app has it: its session and settings, its catalogue at the warehouse, the
// onboarding done, the worker started; in service mode the fulfillment service chosen as on Settings; and an
// inbound delivery announced, as the merchant would have done.
import { configureServiceCallbacks } from "../../test/shopify-fake";
import type { DemoRun } from "./context";
import { DEMO_ACCESS_TOKEN, DEMO_API_SECRET } from "./environment";
import { DEMO_PRODUCTS, DEMO_SHOP, DEMO_SHOP_NAME, DEMO_MAPPING, demoVariant } from "./samples";

export type SampleDelivery = Awaited<ReturnType<typeof setUpShop>>;

export async function setUpShop(run: DemoRun, scopes: string) {
  const { db, deps, context, env } = run.app;
  const {
    saveSettings,
    saveStatusSettings,
    saveStockSettings,
    notifyAddress,
    updateOnboarding,
    ONBOARDING_STEPS,
    requestStockSync,
    startProcessWorker,
    createEngine,
    wakeWorker,
    offlineShopAdmin,
    chooseServiceMode,
    createDeliveryRequest,
    newIdRequest,
    kyivDay,
  } = run.app;
  const { sim, fake, store, location, showroom, variantsBySku } = run.world;
  const { origin, say, until } = run;

  // A run stopped hard (kill -9) may have left its worker's lease: nothing else uses this database.
  await db.workLease.deleteMany({ where: { shop: DEMO_SHOP } });
  await db.session.upsert({
    where: { id: `offline_${DEMO_SHOP}` },
    create: {
      id: `offline_${DEMO_SHOP}`,
      shop: DEMO_SHOP,
      state: "",
      accessToken: DEMO_ACCESS_TOKEN,
      scope: scopes,
    },
    update: { accessToken: DEMO_ACCESS_TOKEN, scope: scopes, expires: null, refreshToken: null },
  });
  await db.shop.upsert({
    where: { shop: DEMO_SHOP },
    create: {
      shop: DEMO_SHOP,
      name: DEMO_SHOP_NAME,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes,
      installedAt: new Date(),
    },
    update: { uninstalledAt: null, scopes },
  });
  const saved = await saveSettings(deps, DEMO_SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: DEMO_MAPPING,
  });
  if (!saved.ok) throw new Error(`the demo's settings were refused: ${JSON.stringify(saved.errors)}`);
  const located = await saveStatusSettings(deps, DEMO_SHOP, { locationId: location.id }, [
    { id: location.id, name: location.name },
  ]);
  if (!located.ok) throw new Error(`the demo's location was refused: ${JSON.stringify(located.errors)}`);
  // Returned items fit for sale go back on sale at once (Stock page, "Restock returned items"; off unless chosen).
  const stocked = await saveStockSettings(deps, DEMO_SHOP, { restockReturns: true });
  if (!stocked.ok)
    throw new Error(`the demo's stock settings were refused: ${JSON.stringify(stocked.errors)}`);
  // The catalogue as a first sync leaves it: every variant's card at the warehouse (the simulator has them).
  const now = new Date();
  for (const [sku, variant] of variantsBySku) {
    const card = {
      sku,
      name: variant.name,
      productId: variant.productId,
      inventoryItemId: variant.inventoryItemId,
    };
    const sent = {
      sentSku: sku,
      sentName: variant.name,
      sentAt: now,
      dueAt: null,
      problem: null,
      problemMessage: null,
    };
    // The fake store is new on every run: its ids are too, so last run's rows give way.
    await db.catalogueItem.deleteMany({
      where: { shop: DEMO_SHOP, sku, variantId: { not: variant.variantId } },
    });
    await db.catalogueItem.upsert({
      where: { shop_variantId: { shop: DEMO_SHOP, variantId: variant.variantId } },
      create: { shop: DEMO_SHOP, variantId: variant.variantId, ...card, ...sent },
      update: { ...card, ...sent, deletedAt: null },
    });
  }
  const notifyAt = await notifyAddress(db, DEMO_SHOP);
  if (!notifyAt.ok) throw new Error(`no notification address: ${notifyAt.message}`);
  sim.setNotificationUrl(`${origin}${new URL(notifyAt.url).pathname}`);
  // Every setup step is done above, so the home page opens on the dashboard; its "Setup checklist" button
  // shows the checklist as a merchant would see it.
  await updateOnboarding(db, DEMO_SHOP, (state) => ({
    ...state,
    steps: Object.fromEntries(ONBOARDING_STEPS.map((step) => [step, state.steps[step] ?? now.toISOString()])),
    finishedAt: state.finishedAt ?? now.toISOString(),
  }));
  await requestStockSync(db, DEMO_SHOP, new Date(), true);
  // The work engine, as the web process runs it (entry.server would start the same one on the first page).
  startProcessWorker(() => createEngine(context, env()));
  wakeWorker(DEMO_SHOP);
  // Shopify's webhooks the fake raises (fulfillment orders routed, moved, cancelled...), signed to the app.
  fake.webhooks.deliverTo({ appUrl: origin, secret: DEMO_API_SECRET });

  // fulfillment orders decide what is the warehouse's), an order would be taken in as a one-location shop's.
  await until("the app did not read the shop's two online locations", async () => {
    const settings = await db.shopSettings.findUnique({
      where: { shop: DEMO_SHOP },
      select: { onlineLocations: true },
    });
    const online = settings?.onlineLocations ? (JSON.parse(settings.onlineLocations) as string[]) : [];
    return online.includes(location.id) && online.includes(showroom.id);
  });

  if (run.options.serviceMode) {
    // Shopify's pings to the service's callback URL reach the app here, signed with the app's secret.
    configureServiceCallbacks(fake.state, { callbackOrigin: origin, apiSecretKey: DEMO_API_SECRET });
    // The merchant chooses the fulfillment service on Settings: the app registers it (once) with the warehouse's
    // address on its location, and makes that location the warehouse's.
    const admin = await offlineShopAdmin(DEMO_SHOP, AbortSignal.timeout(30_000));
    const chosen = await chooseServiceMode(deps, DEMO_SHOP, admin, {
      appUrl: origin,
      address: {
        address1: location.address.address1 ?? "",
        city: location.address.city ?? "",
        zip: location.address.zip ?? "",
      },
    });
    if (!chosen.ok) throw new Error(`service mode was refused: ${JSON.stringify(chosen.problem)}`);
    const settings = await db.shopSettings.findUniqueOrThrow({
      where: { shop: DEMO_SHOP },
      select: { locationId: true },
    });
    run.world.warehouseLocationId = settings.locationId!;
    // Then, as Settings' guidance asks, the merchant stocks the warehouse's items at the service's location and
    // puts it first on the routing list in the old location's place (the showroom stays second).
    for (const [sku, variant] of variantsBySku)
      store.stock(variant.inventoryItemId, run.world.warehouseLocationId, {
        available: demoVariant(sku).shopQuantity,
      });
    store.setRouting([run.world.warehouseLocationId, showroom.id]);
    say(`Service mode: the warehouse is the fulfillment service "${chosen.locationName ?? ""}" in Shopify.`);
  }

  // An inbound delivery the merchant announced, as the Inbound deliveries form sends it; the warehouse receives
  // part of it a little later, so its page shows planned against received.
  const deliverySkus = DEMO_PRODUCTS.slice(0, 2).map((product) => product.variants[0]!.sku);
  const delivery = await createDeliveryRequest(context, DEMO_SHOP, {
    idRequest: newIdRequest(),
    deliveryDate: kyivDay(new Date()),
    method: "ownTransport",
    seats: "2",
    ttn: "",
    comment: "Поставка на поповнення залишків",
    lines: deliverySkus.map((sku, index) => ({ sku, count: String(10 * (index + 1)) })),
  });
  if (!delivery.ok) say(`the sample delivery request was not made: ${JSON.stringify(delivery.errors)}`);
  return { delivery, deliverySkus };
}
