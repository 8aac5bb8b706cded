// The Shopify side as a kind of the engine's work: under a shop's lease, each order due for Shopify is told
// what its statuses say (a fulfillment with the waybill and its tracking page, a new waybill, the carrier's
// progress as fulfillment events), one order at a time, until it is up to date, waits for the merchant,
// or must wait for Shopify. Exactly once without Shopify's help: the fulfillment is read before it is made
// (fulfil.server.ts), so a call whose answer was lost finds what it made instead of making it again.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { z } from "zod";
import { message } from "../i18n/message";
import { applyToOrder } from "../orders/commit.server";
import { inEnglish } from "../orders/words";
import type { ShopifyTold } from "../orders/state-machine";
import { ORDER_STATE } from "../orders/states";
import { ShopifyUserErrors, type ShopAdmin } from "../shopify/admin-graphql.server";
import { FULFILLMENT_KIND } from "../statuses/kinds.server";
import type { StatusSettings } from "../statuses/settings";
import { statusSettingsOf } from "../statuses/work.server";
import { checkedMapping } from "../settings/settings.server";
import { backoffMs } from "../work/backoff";
import { scheduledKind, type ScheduledRun } from "../work/schedule.server";
import type { ShopWork, StepResult } from "../work/steps.server";
import { novaPoshtaEventStatus } from "./carrier-events";
import { carrierOfDeliveryMethod, normaliseTtn, trackingFor, type TrackingDetails } from "./carriers";
import { addFulfillmentEventOnce, fulfilOrder, updateTrackingOnce } from "./fulfillment.server";
import { shopifyNeed, waybillsOf } from "./need";

/** The carrier's status read as a fulfillment event status (only Nova Poshta's codes are known). */
const fulfillmentEventFor = (carrierStatusId: string) => novaPoshtaEventStatus(carrierStatusId);

/**
 * The SKUs and counts the warehouse has for the order: the body last sent and taken (an edit it refused, or
 * one held or still out, is not in it). Null when it cannot be read: then all that remains is fulfilled.
 */
function shippedOf(row: OrderRow): Array<{ sku: string; count: number }> | null {
  let sent: unknown;
  try {
    sent = row.sentOrder ? JSON.parse(row.sentOrder) : null;
  } catch {
    return null;
  }
  const parsed = sentProductsSchema.safeParse(sent);
  return parsed.success ? parsed.data.products : null;
}

/** The products of a body sent (counts go as numeric strings on the wire). */
const sentProductsSchema = z.object({
  products: z.array(z.object({ sku: z.string().min(1), count: z.coerce.number().int().nonnegative() })),
});

/** What an order that goes by no carrier we know is flagged with: there is no tracking page to give. */
const NO_CARRIER = fulfillmentProblemOf("no_carrier");

/** A problem as the order keeps it: its code, its sentence of orders:fulfillmentProblem, and that in English. */
export function fulfillmentProblemOf(code: string, values?: Record<string, string>) {
  const text = message(`orders:fulfillmentProblem.${code}`, values);
  return { code, message: inEnglish(text), text };
}

/**
 * Orders told in one run; the run is asked for again at once while more are due. Small enough that the
 * shop's other kinds (the next status report, whose slot comes once a minute) are not held up behind a
 * hundred orders' calls: measured, a run of a hundred delayed the reports by half their pace.
 */
const ORDERS_A_RUN = 24;
/**
 * Orders told at once: each is a few calls in a row (read, make, an event), so one at a time left the
 * shop's Shopify budget mostly unspent while a report's hundred orders waited. Shopify's bucket, not
 * this, is the limit: throttled calls wait inside the Admin client.
 */
const ORDERS_AT_ONCE = 6;
/** Calls for one order in one run: a fulfillment, its tracking, an event, with one to spare. */
const CALLS_AN_ORDER = 4;

export const fulfillmentWork = scheduledKind(FULFILLMENT_KIND, tellShopify);

async function tellShopify(work: ShopWork): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const now = work.clock();
  const shopSettings = await db.shopSettings.findUnique({
    where: { shop },
    select: { locationId: true, mapping: true },
  });
  // Until the merchant says which location stands for the warehouse, nothing can be fulfilled: the orders
  // stay due and the pages say why; saving a location asks for this run again.
  if (!shopSettings?.locationId) return { nextRunAt: null };
  const due = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.accepted, fulfillmentDueAt: { lte: now } },
    orderBy: { fulfillmentDueAt: "asc" },
    take: ORDERS_A_RUN,
  });
  if (due.length) {
    const settings = await statusSettingsOf(work);
    const { mapping } = checkedMapping(shop, shopSettings.mapping, work.log);
    const trackingOf = (row: OrderRow): TrackingDetails | null => {
      const sent = row.sentOrder ? (JSON.parse(row.sentOrder) as { delivery_method?: unknown }) : {};
      const method = typeof sent.delivery_method === "string" ? sent.delivery_method : "";
      const carrier = carrierOfDeliveryMethod(method, mapping.deliveryLiterals);
      return carrier && row.ttn ? trackingFor(carrier, row.ttn, settings) : null;
    };
    const admin = await work.admin();
    const run = { settings, trackingOf, locationId: shopSettings.locationId };
    const queue = [...due];
    const teller = async () => {
      for (let row = queue.shift(); row && !work.signal.aborted; row = queue.shift()) {
        await tellAboutOrder(work, admin, run, row);
      }
    };
    await Promise.all(Array.from({ length: Math.min(ORDERS_AT_ONCE, due.length) }, teller));
  }
  const next = await db.warehouseOrder.findFirst({
    where: { shop, state: ORDER_STATE.accepted, fulfillmentDueAt: { not: null } },
    orderBy: { fulfillmentDueAt: "asc" },
    select: { fulfillmentDueAt: true },
  });
  return { nextRunAt: next?.fulfillmentDueAt ?? null };
}

/** What every order of a run is told with. */
interface RunContext {
  settings: StatusSettings;
  trackingOf: (row: OrderRow) => TrackingDetails | null;
  locationId: string;
}

/** One order told everything it needs, or as far as it can go now; each outcome written by the order rules. */
async function tellAboutOrder(
  work: ShopWork,
  admin: ShopAdmin,
  run: RunContext,
  first: OrderRow,
): Promise<void> {
  let row = first;
  for (let call = 0; call < CALLS_AN_ORDER; call++) {
    const need = shopifyNeed(row, fulfillmentEventFor);
    if (!need || !row.ttn) {
      if (row.fulfillmentDueAt) await record(work, row, {});
      return;
    }
    const told = await callShopify(work, admin, run, row, need);
    row = (await record(work, row, told)) ?? row;
    if (told.problem || told.failure) return;
  }
}

async function callShopify(
  work: ShopWork,
  admin: ShopAdmin,
  run: RunContext,
  row: OrderRow,
  need: NonNullable<ReturnType<typeof shopifyNeed>>,
): Promise<ShopifyTold> {
  const { settings, locationId } = run;
  const tracking = run.trackingOf(row);
  if (!tracking) return { problem: NO_CARRIER };
  const ttn = tracking.number;
  try {
    switch (need.do) {
      case "fulfil": {
        const outcome = await fulfilOrder(admin, {
          orderId: `gid://shopify/Order/${row.shopifyOrderId}`,
          // The location the order was routed to the warehouse under (fixed when it was first sent); the
          // shop's setting for orders sent before routing. Only the fulfillment orders there are fulfilled.
          locationId: row.locationId ?? locationId,
          ttn,
          company: tracking.company,
          url: tracking.url,
          notifyCustomer: settings.notifyBuyer,
          knownFulfillmentId: row.fulfillmentId,
          waybills: waybillsOf(row),
          shipped: shippedOf(row),
          // Kept before the call: if its answer is lost and the warehouse changes the waybill meanwhile, the
          // next attempt still finds this fulfillment by it (and updates its tracking), never a dead one.
          beforeCreate: async (used) =>
            void (await applyToOrder(work, row, { type: "waybill_used", ttn: used })),
        });
        if (outcome.kind === "problem") {
          return { problem: fulfillmentProblemOf(outcome.problem.code), data: outcome.problem };
        }
        const carries = (numbers: string[]) => numbers.some((number) => normaliseTtn(number) === ttn);
        return {
          fulfilled: {
            fulfillmentId: outcome.fulfillmentId,
            found: outcome.kind === "found",
            notified: outcome.kind === "created" && settings.notifyBuyer,
            ...(outcome.kind === "found" &&
              outcome.trackingNumbers[0] && { waybill: normaliseTtn(outcome.trackingNumbers[0]) }),
          },
          // A fulfillment found with another number still needs its tracking brought up to date.
          ...((outcome.kind === "created" || carries(outcome.trackingNumbers)) && { ttn }),
          ...(outcome.unshipped.length > 0 && { unshipped: outcome.unshipped }),
          data: { tracking, outcome },
        };
      }
      case "tracking": {
        // Read first: an update whose answer was lost is not made again (no second e-mail to the buyer).
        const updated = await updateTrackingOnce(admin, row.fulfillmentId!, tracking, settings.notifyBuyer);
        return { ttn, data: { tracking, updated } };
      }
      case "event": {
        // Read first: an event whose answer was lost is not added again to the buyer's status page.
        const added = await addFulfillmentEventOnce(admin, row.fulfillmentId!, {
          status: need.status as Parameters<typeof addFulfillmentEventOnce>[2]["status"],
          happenedAt: work.clock(),
        });
        return { event: need.status, data: { added } };
      }
    }
  } catch (error) {
    if (work.signal.aborted) throw error;
    // Shopify refused the call as it stands: trying again would be refused again.
    if (error instanceof ShopifyUserErrors) {
      // Shopify's own words, as it gave them.
      return {
        problem: fulfillmentProblemOf("shopify_refused", {
          said: error.userErrors.map((e) => e.message).join(" "),
        }),
      };
    }
    const reason = error instanceof Error ? error.message : String(error);
    work.log.warn(
      { event: "fulfillment.call_failed", orderId: row.id, step: need.do, err: error },
      "a call to Shopify failed; it is tried again later",
    );
    const attempts = (row.fulfillmentAttempts ?? 0) + 1;
    return { failure: { reason, retryAt: new Date(work.clock().getTime() + backoffMs(attempts)) } };
  }
}

/** Writes what Shopify was told by the order rules; answers the order as it is now (null if it is gone). */
async function record(work: ShopWork, row: OrderRow, told: ShopifyTold): Promise<OrderRow | null> {
  await applyToOrder(work, row, { type: "shopify_told", told, eventFor: fulfillmentEventFor });
  return work.db.warehouseOrder.findUnique({ where: { id: row.id } });
}
