// Sample orders: placed in the fake store, then sent to the app as Shopify would, one every --every seconds.
// In service mode the merchant also asks for fulfillment, and for two cancellations (see below).
import {
  deliverServiceCallbacks,
  orderWebhookPayload,
  submitCancellationRequest,
  submitFulfillmentRequest,
} from "../../test/shopify-fake";
import { signedWebhookRequest } from "../../test/support/webhooks";
import type { DemoRun } from "./context";
import { DEMO_API_SECRET } from "./environment";
import { DEMO_SHOP, sampleOrders, samplePayload } from "./samples";

// ---------------------------------------------------------------------------------------------------
// Service mode: the merchant asks for two cancellations, of the first order of two samples, one before the
// warehouse picks it and one after. While each is asked and answered the warehouse holds its own pace (its
// automatic stage changes paused, every order's), so "before" and "after" are what the demo made them, not a
// race against the warehouse's clock.

/** Which sample's first order the merchant asks to cancel, and when. */
const CANCELLATION_SAMPLES: Record<string, "beforePicking" | "afterPicking"> = {
  "np-locker-prepaid": "beforePicking",
  "kyiv-courier-prepaid": "afterPicking",
};
export interface CancellationOutcome {
  /** The fulfillment order's request status once answered (CANCELLATION_ACCEPTED or _REJECTED). */
  answer: string;
  /** The order's stage at the warehouse then, and whether it was ever picked. */
  warehouseStage: string;
  picked: boolean;
}
export type CancellationOutcomes = Partial<Record<"beforePicking" | "afterPicking", CancellationOutcome>>;

export interface SampleOrders {
  /** What each sample order asked for, by its name: a returned order sends some of it back. */
  orderedLines: Map<string, Array<{ sku: string; quantity: number }>>;
  /** The cancellations asked for, and how each ended (service mode). */
  settled: CancellationOutcomes;
  /** No further order is placed. */
  stop(): void;
}

export async function startSampleOrders(run: DemoRun): Promise<SampleOrders> {
  const { db } = run.app;
  const { sim, fake, store, showroom, reference } = run.world;
  const { say, reached, origin } = run;
  const { serviceMode, everyMs, stageDelays } = run.options;

  const samples = sampleOrders(reference);
  // A run on last run's database goes on with its numbers; Shopify's ids come from the fake, new each run, so
  // its counter is moved past the ids the database has seen.
  const previous = await db.warehouseOrder.findMany({
    where: { shop: DEMO_SHOP },
    select: { orderName: true, shopifyOrderId: true },
  });
  // After the highest number taken: the count falls short once a webhook failed, and would repeat a number.
  let nextNumber =
    1 + previous.reduce((max, row) => Math.max(max, Number(row.orderName.slice(1)) || 0), 1000);
  const highestId = previous.reduce((max, row) => Math.max(max, Number(row.shopifyOrderId) || 0), 0);
  while (fake.state.allocateId() <= highestId);
  let sent = 0;
  /** What each sample order asked for, by its name: a returned order sends some of it back. */
  const orderedLines = new Map<string, Array<{ sku: string; quantity: number }>>();
  /** The cancellations asked for (once each), and how each ended. */
  const cancellations = new Set<"beforePicking" | "afterPicking">();
  const settled: CancellationOutcomes = {};

  let paused = 0;
  /** The warehouse's automatic stage changes stop (nested: they resume once every pause has ended). */
  function pauseWarehouse(): () => void {
    if (paused++ === 0) sim.setStageDelays(null);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--paused === 0) sim.setStageDelays(stageDelays);
    };
  }

  async function askCancellation(
    when: "beforePicking" | "afterPicking",
    orderId: string,
  ): Promise<CancellationOutcome> {
    // Paused before the order reaches the warehouse: it stays new there until the demo says otherwise.
    const resume = pauseWarehouse();
    try {
      const shopifyOrderId = orderId.split("/").at(-1)!;
      const fos = () =>
        store.orders
          .get(orderId)!
          .fulfillmentOrderIds.map((id) => store.fulfillmentOrders.get(id)!)
          .filter((fo) => fo.assignedLocationId === run.world.warehouseLocationId);
      const gaveUp = (stage: string) => ({ answer: `gave up: ${stage}`, warehouseStage: "", picked: false });
      if (!(await reached(() => fos().every((fo) => fo.requestStatus === "ACCEPTED"))))
        return gaveUp("its fulfillment request was not accepted");
      const row = await db.warehouseOrder.findFirstOrThrow({
        where: { shop: DEMO_SHOP, shopifyOrderId },
        select: { id: true, idOrder: true, orderName: true },
      });
      const atWarehouse = () => sim.orders().find((order) => order.id_order === row.idOrder);
      if (when === "afterPicking") {
        sim.advanceOrder({ id_order: row.idOrder, to: "picked" });
        const known = await reached(
          async () =>
            (await db.warehouseOrder.findUnique({ where: { id: row.id }, select: { stage: true } }))
              ?.stage === "picked",
        );
        if (!known) return gaveUp("the app did not learn the warehouse picked it");
      }
      for (const fo of fos()) {
        const asked = submitCancellationRequest(store, fo.id, { message: "Покупець передумав" });
        if (asked.userErrors.length)
          throw new Error(
            `the cancellation request of ${fo.id} was refused: ${JSON.stringify(asked.userErrors)}`,
          );
      }
      await deliverServiceCallbacks(fake.state, store);
      say(
        `  ${row.orderName}: the merchant asks the warehouse to cancel it (${when === "beforePicking" ? "before" : "after"} picking)`,
      );
      if (!(await reached(() => fos().every((fo) => fo.requestStatus !== "CANCELLATION_REQUESTED"))))
        return gaveUp("its cancellation request was not answered");
      const warehouse = atWarehouse();
      const outcome = {
        answer: fos()[0]!.requestStatus,
        warehouseStage: warehouse?.stage ?? "none",
        picked: warehouse?.history.some((entry) => entry.stage === "picked") ?? false,
      };
      return outcome;
    } finally {
      resume();
    }
  }

  async function placeOrder(): Promise<void> {
    const sample = samples[sent % samples.length]!;
    const number = nextNumber++;
    sent++;
    orderedLines.set(`#${number}`, sample.lines);
    // Shopify's routing (the fake's) decides where each line goes: the first location on the routing list that
    // stocks it; a pickup order goes whole to the showroom the buyer chose. The orders/create payload is the fake's own order, with the sample's buyer, delivery and payment.
    const { order } = store.addOrder({
      name: `#${number}`,
      email: sample.email,
      lineItems: sample.lines.map((line) => ({ sku: line.sku, quantity: line.quantity })),
      ...(sample.pickup && { locationId: showroom.id, deliveryMethod: "PICK_UP" as const }),
    });
    const numeric = (gid: string) => Number(gid.split("/").at(-1));
    const { line_items: _sampleLines, ...buyer } = samplePayload(sample, {
      id: numeric(order.id),
      graphqlId: order.id,
      number,
      lineItemIds: order.lineItems.map((line) => numeric(line.id)),
      createdAt: new Date(order.createdAt),
    });
    const payload = orderWebhookPayload(store, order.id, buyer);
    if (serviceMode) {
      // The merchant (or Shopify's automation) asks the service to fulfil what is at its location.
      for (const id of order.fulfillmentOrderIds) {
        if (store.fulfillmentOrders.get(id)!.assignedLocationId !== run.world.warehouseLocationId) continue;
        const asked = submitFulfillmentRequest(store, id);
        if (asked.userErrors.length)
          throw new Error(
            `the fulfillment request of ${id} was refused: ${JSON.stringify(asked.userErrors)}`,
          );
      }
      await deliverServiceCallbacks(fake.state, store);
      const cancel = CANCELLATION_SAMPLES[sample.key];
      if (cancel && !cancellations.has(cancel)) {
        cancellations.add(cancel);
        askCancellation(cancel, order.id).then(
          (outcome) => (settled[cancel] = outcome),
          (error: unknown) => {
            console.error(`asking for a cancellation failed: ${(error as Error).message}`);
            settled[cancel] = {
              answer: `failed: ${(error as Error).message}`,
              warehouseStage: "",
              picked: false,
            };
          },
        );
      }
    }
    const request = signedWebhookRequest({
      topic: "orders/create",
      shop: DEMO_SHOP,
      payload,
      secret: DEMO_API_SECRET,
    });
    const response = await fetch(new URL(new URL(request.url).pathname, origin), {
      method: "POST",
      headers: request.headers,
      body: await request.text(),
    });
    if (!response.ok)
      throw new Error(`orders/create #${number} was answered ${response.status}: ${await response.text()}`);
    say(
      `#${number} ${sample.firstName} ${sample.lastName}: ${sample.shipping.title}, ${sample.gateway}${sample.held ? " (will be held)" : ""}${sample.routed === "elsewhere" ? " (the showroom's: nothing goes to the warehouse)" : ""}${sample.routed === "split" ? " (split: the showroom's lines stay there)" : ""}`,
    );
  }

  let orderTimer: NodeJS.Timeout | undefined;
  const scheduleOrders = () => {
    // An order in flight when the demo stops must not start the next one.
    if (run.stopping()) return;
    orderTimer = setTimeout(
      () => {
        placeOrder().then(scheduleOrders, (error: unknown) => {
          console.error(`sending a sample order failed: ${(error as Error).message}`);
          scheduleOrders();
        });
      },
      sent === 0 ? 0 : everyMs,
    );
  };
  scheduleOrders();

  return { orderedLines, settled, stop: () => clearTimeout(orderTimer) };
}
