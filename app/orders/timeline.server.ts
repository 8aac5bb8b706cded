// An order's timeline: each change of its state as an event row, shown on the order page and kept as
// the audit trail of what was sent to the warehouse and what it answered.
import { randomBytes } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { insertRows, type Db } from "../db.server";
import type { Message } from "../i18n/message";
import type { EventKind } from "./states";
import { storedTexts } from "./timeline";

export { EVENT, type EventKind } from "./states";
export { timelineText } from "./timeline";

export interface OrderEventInput {
  shop: string;
  orderId: string;
  at: Date;
  kind: EventKind;
  /**
   * What the merchant reads, as keys and values (see timeline.ts): `timelineText("picked")`, or a list
   * when the event says several things (a held order's reasons). Never an English sentence: the page
   * says the keys in the admin's language.
   */
  text: Message | readonly Message[];
  /** The request sent and the answer read (the ApiKey already masked), or the facts behind the event. */
  data?: unknown;
}

let sequence = 0;

/**
 * An event id that sorts as the events were written: time, then a counter of this process, then chance,
 * in the shape of the cuids Prisma gave earlier rows. Events of one moment are shown in this order.
 */
export function newEventId(now = Date.now()): string {
  sequence = (sequence + 1) % 36 ** 4;
  const time = now.toString(36).padStart(8, "0");
  return `c${time}${sequence.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

/** The event as its row keeps it. */
export function eventRow(event: OrderEventInput) {
  return {
    id: newEventId(),
    shop: event.shop,
    orderId: event.orderId,
    at: event.at,
    kind: event.kind,
    message: storedTexts(event.text),
    data: event.data === undefined ? null : JSON.stringify(event.data),
  };
}

/**
 * One INSERT of the events, for a batch transaction or on its own. Written as SQL because Prisma's
 * createMany took twice as long for a batch of a hundred events with their requests and answers.
 */
export function insertEvents(db: Db | Prisma.TransactionClient, events: OrderEventInput[]) {
  return insertRows(db, "OrderEvent", events.map(eventRow));
}

export async function recordEvents(
  db: Db | Prisma.TransactionClient,
  events: OrderEventInput[],
): Promise<void> {
  if (events.length) await insertEvents(db, events);
}
