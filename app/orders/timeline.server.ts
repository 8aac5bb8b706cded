// An order's timeline: each change of its state as an event row, shown on the order page and kept as
// the audit trail of what was sent to the warehouse and what it answered.
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";

export const EVENT = {
  received: "received",
  updated: "updated",
  held: "held",
  ready: "ready",
  corrected: "corrected",
  sent: "sent",
  accepted: "accepted",
  rejected: "rejected",
  retryScheduled: "retry_scheduled",
  inDoubt: "in_doubt",
  foundAtWarehouse: "found_at_warehouse",
  notAtWarehouse: "not_at_warehouse",
  paused: "paused",
  editQueued: "edit_queued",
  edited: "edited",
  editRefused: "edit_refused",
  cancelQueued: "cancel_queued",
  cancelled: "cancelled",
  cancelRefused: "cancel_refused",
  retryRequested: "retry_requested",
} as const;
export type EventKind = (typeof EVENT)[keyof typeof EVENT];

export interface OrderEventInput {
  shop: string;
  orderId: string;
  at: Date;
  kind: EventKind;
  message: string;
  /** The request sent and the answer read (the ApiKey already masked), or the facts behind the event. */
  data?: unknown;
}

type EventWriter = Pick<Db, "orderEvent"> | Prisma.TransactionClient;

export function eventRow(event: OrderEventInput) {
  return {
    shop: event.shop,
    orderId: event.orderId,
    at: event.at,
    kind: event.kind,
    message: event.message,
    data: event.data === undefined ? null : JSON.stringify(event.data),
  };
}

export async function recordEvents(db: EventWriter, events: OrderEventInput[]): Promise<void> {
  if (events.length) await db.orderEvent.createMany({ data: events.map(eventRow) });
}
