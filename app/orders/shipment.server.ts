// Where an order is after the warehouse has it, for the orders pages: its stage, waybill and tracking link,
// the statuses last reported, and the Shopify fulfillment made for it. The list and the order page
// (queries.server.ts) read the same columns and show them the same way.
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { carrierOfDeliveryMethod, trackingFor } from "../fulfillment/carriers";
import { parseStatusSettings, type StatusSettings } from "../statuses/settings";
import { orderSettingsSchema, type OrderSettings } from "./settings";
import { STAGES, type Stage } from "./states";
import {
  parseFulfillmentProblem,
  parseJson,
  parseObject,
  parseReportedStatus,
  parseUnshipped,
  type FulfillmentProblem,
  type ReportedStatus,
  type UnshippedItem,
} from "./stored-columns";

/** Where an order is once the warehouse has it: its stage, waybill and the statuses last reported. */
export interface ShipmentView {
  /** null: the warehouse has not picked it yet (or does not have it). */
  stage: Stage | null;
  stageAt: Date | null;
  ttn: string | null;
  /** The carrier's tracking page of the waybill; null without a waybill or a page for its carrier. */
  trackingUrl: string | null;
  warehouseStatus: ReportedStatus | null;
  carrierStatus: ReportedStatus | null;
  /** When the warehouse last answered a status look-up for it. */
  statusCheckedAt: Date | null;
}

/** The Shopify side: the fulfillment made for the order, and whether Shopify is still to be told something. */
export interface FulfillmentView {
  made: boolean;
  /** The Shopify Fulfillment gid. */
  id: string | null;
  /** The waybill Shopify has. */
  ttn: string | null;
  /** The last event Shopify was told (e.g. "DELIVERED"). */
  event: string | null;
  /** Shopify is to be told of a change (made, a new waybill, an event); dueAt says from when. */
  due: boolean;
  dueAt: Date | null;
  /** Due, but no location stands for the warehouse yet (Settings): nothing can be fulfilled until then. */
  waitingForLocation: boolean;
  problem: FulfillmentProblem | null;
  /** Left unfulfilled in Shopify: the warehouse did not ship it (an edit it refused, held or not yet taken). */
  unshipped: UnshippedItem[];
}

export const shipmentColumns = {
  stage: true,
  stageAt: true,
  ttn: true,
  warehouseStatus: true,
  carrierStatus: true,
  statusCheckedAt: true,
  sentOrder: true,
  fulfillmentId: true,
  fulfilledTtn: true,
  fulfillmentEvent: true,
  fulfillmentDueAt: true,
  fulfillmentProblem: true,
  unshipped: true,
} as const satisfies Prisma.WarehouseOrderSelect;

type ShipmentColumns = Prisma.WarehouseOrderGetPayload<{ select: typeof shipmentColumns }>;

/** What a shop's tracking links are made of: its pages, and the delivery literals it sends. */
interface TrackingContext {
  patterns: StatusSettings["trackingUrls"];
  literals: OrderSettings["deliveryLiterals"] | undefined;
  /** Whether the shop has said which location stands for the warehouse. */
  locationChosen: boolean;
}

export async function trackingContext(db: Db, shop: string): Promise<TrackingContext> {
  const row = await db.shopSettings.findUnique({
    where: { shop },
    select: { statusSettings: true, mapping: true, locationId: true },
  });
  // Settings that no longer validate give the default pages and the provider's literals: a link is a
  // convenience, and Settings shows the problem where it can be fixed.
  const mapping = orderSettingsSchema.safeParse(parseJson(row?.mapping) ?? {});
  return {
    patterns: parseStatusSettings(row?.statusSettings).settings.trackingUrls,
    literals: mapping.success ? mapping.data.deliveryLiterals : undefined,
    locationChosen: Boolean(row?.locationId),
  };
}

/** The tracking page of the order's waybill by the carrier it was sent with; null without either. */
function trackingUrlOf(
  row: Pick<ShipmentColumns, "ttn" | "sentOrder">,
  tracking: TrackingContext,
): string | null {
  const method = parseObject(row.sentOrder)?.delivery_method;
  const carrier = typeof method === "string" ? carrierOfDeliveryMethod(method, tracking.literals) : null;
  return carrier && row.ttn ? trackingFor(carrier, row.ttn, { trackingUrls: tracking.patterns }).url : null;
}

export const isStage = (value: string | null): value is Stage =>
  (STAGES as readonly string[]).includes(value ?? "");

export function shipmentOf(row: ShipmentColumns, tracking: TrackingContext): ShipmentView {
  return {
    stage: isStage(row.stage) ? row.stage : null,
    stageAt: row.stageAt,
    ttn: row.ttn,
    trackingUrl: trackingUrlOf(row, tracking),
    warehouseStatus: parseReportedStatus(row.warehouseStatus),
    carrierStatus: parseReportedStatus(row.carrierStatus),
    statusCheckedAt: row.statusCheckedAt,
  };
}

export function fulfillmentOf(row: ShipmentColumns, tracking: TrackingContext): FulfillmentView {
  return {
    waitingForLocation: row.fulfillmentDueAt !== null && !tracking.locationChosen,
    made: row.fulfillmentId !== null,
    id: row.fulfillmentId,
    ttn: row.fulfilledTtn,
    event: row.fulfillmentEvent,
    due: row.fulfillmentDueAt !== null,
    dueAt: row.fulfillmentDueAt,
    problem: parseFulfillmentProblem(row.fulfillmentProblem),
    unshipped: parseUnshipped(row.unshipped),
  };
}
