// The warehouse's day beside the sample orders: a stock sync asked for often, returns booked and the sample
// delivery received at the warehouse, and each order's progress told as it happens.
import type { DemoRun } from "./context";
import type { SampleOrders } from "./orders";
import { DEMO_SHOP } from "./samples";
import type { SampleDelivery } from "./shop";

/** Starts the day's timers; the function returned stops them. */
export function startWarehouseDay(
  run: DemoRun,
  { delivery, deliverySkus }: SampleDelivery,
  { orderedLines }: Pick<SampleOrders, "orderedLines">,
): () => void {
  const { db, requestStockSync, requestRun, wakeWorker, RETURNS_KIND } = run.app;
  const { sim } = run.world;
  const { say } = run;
  const { check } = run.options;

  // The stock sync runs on its schedule (ten minutes); the demo asks for one every half minute, as "Sync now"
  // (the check every three seconds, so that a sync runs after its first held order and `oversold` means something).
  const stockTimer = setInterval(
    () => {
      requestStockSync(db, DEMO_SHOP, new Date(), true).then(
        () => wakeWorker(DEMO_SHOP),
        (error: unknown) => console.error(`asking for a stock sync failed: ${(error as Error).message}`),
      );
    },
    check ? 3_000 : 30_000,
  );

  // The warehouse's own day: every fourth delivered order comes back (one unit of its first line; every second
  // such return defective), and the sample delivery arrives in part. The app reads the returns register on its
  // schedule (half an hour); the demo asks for it at once, as it does for stock.
  const deliveredSeen = new Set<string>();
  let returnsBooked = 0;
  let deliveryReceived = false;
  async function warehouseDay(): Promise<void> {
    const delivered = await db.warehouseOrder.findMany({
      where: { shop: DEMO_SHOP, stage: "delivered" },
      select: { id: true, orderName: true, idOrder: true },
      orderBy: { createdAt: "asc" },
    });
    let booked = false;
    for (const row of delivered) {
      if (deliveredSeen.has(row.id)) continue;
      deliveredSeen.add(row.id);
      const first = orderedLines.get(row.orderName)?.[0];
      if (deliveredSeen.size % 4 !== 0 || !first) continue;
      const defective = ++returnsBooked % 2 === 0;
      sim.addReturn({ id_order: row.idOrder, products: [{ sku: first.sku, count: 1, marriage: defective }] });
      say(`  ${row.orderName}: the buyer sent back 1 × ${first.sku}${defective ? " (defective)" : ""}`);
      booked = true;
    }
    if (booked) {
      await requestRun(db, DEMO_SHOP, RETURNS_KIND, new Date());
      wakeWorker(DEMO_SHOP);
    }
    if (!deliveryReceived && delivery.ok && delivered.length > 0) {
      const made = await db.inboundDelivery.findUnique({ where: { id: delivery.id } });
      if (made?.warehouseId) {
        deliveryReceived = true;
        sim.receiveDelivery({ id: made.warehouseId, products: [{ sku: deliverySkus[0]!, count: 6 }] });
        say(`  the warehouse received 6 of 10 × ${deliverySkus[0]} of delivery request ${made.idRequest}`);
      }
    }
  }
  // One at a time: a slow tick (a loaded machine) must not book the same delivery twice.
  let dayRunning = false;
  const warehouseDayTimer = setInterval(() => {
    if (dayRunning) return;
    dayRunning = true;
    warehouseDay()
      .catch((error: unknown) => console.error(`the warehouse's day failed: ${(error as Error).message}`))
      .finally(() => (dayRunning = false));
  }, 2_000);

  // What happens to each order, told as it happens.
  const seen = new Map<string, string>();
  async function follow(): Promise<void> {
    const rows = await db.warehouseOrder.findMany({
      where: { shop: DEMO_SHOP },
      select: { id: true, orderName: true, state: true, stage: true, ttn: true, fulfillmentId: true },
    });
    for (const row of rows) {
      const where = [row.state, row.stage, row.fulfillmentId ? "fulfilled in Shopify" : null]
        .filter(Boolean)
        .join(", ");
      if (seen.get(row.id) !== where) {
        seen.set(row.id, where);
        say(`  ${row.orderName}: ${where}${row.ttn ? ` (TTN ${row.ttn})` : ""}`);
      }
    }
  }
  const followTimer = setInterval(() => void follow().catch(() => {}), 1_000);

  return () => {
    clearInterval(stockTimer);
    clearInterval(followTimer);
    clearInterval(warehouseDayTimer);
  };
}
