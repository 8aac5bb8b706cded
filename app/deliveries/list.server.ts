// The warehouse's list of delivery requests taken into ours, at most once a minute per shop (a slot every
// process shares): a request in doubt that the list has is settled as sent, statuses move on, and a request
// made elsewhere is stored as found.
import type { InboundDelivery } from "@prisma/client";
import { isUniqueViolation, type Db } from "../db.server";
import type { Message } from "../i18n/message";
import { toCompactDate } from "../warehouse/dates";
import type { DeliveryRequestRecord } from "../warehouse/schemas";
import { DATE_FORMAT, INBOUND_DELIVERY_STATUS } from "../warehouse/wire";
import { asRead, failureText, keyedClient, NEXT_VERSION, type DeliveryDeps } from "./access.server";
import { ID_REQUEST_PATTERN } from "./form";
import { DELIVERY_STATE } from "./lines";

/** The list asks the warehouse at most this often per shop. */
export const LIST_REFRESH_EVERY_MS = 60_000;
/** How far back the list asks for requests made elsewhere (by their creation day). */
export const LIST_REFRESH_DAYS = 30;
/** The most requests one list refresh takes in (the warehouse gives no paging for this list). */
const LIST_REFRESH_MAX = 500;

/**
 * The list's one-a-minute bound, kept in the database so every web process shares it: a ShopSchedule row of
 * its own kind, whose `nextRunAt` is when the list may ask again. No worker runs this kind (the engine runs
 * only the kinds it registers); the row is only a slot, claimed by a compare-and-set.
 */
export const LIST_REFRESH_KIND = "deliveries.list";

/**
 * Takes the shop's list refresh slot if it is free at `now`, holding it for LIST_REFRESH_EVERY_MS. One
 * conditional statement decides between two requests at once (in any process): the row due is moved by one
 * of them only; a row made at the same moment by another is a unique violation, and that one lost.
 */
export async function claimListRefresh(db: Db, shop: string, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + LIST_REFRESH_EVERY_MS);
  const { count } = await db.shopSchedule.updateMany({
    where: { shop, kind: LIST_REFRESH_KIND, nextRunAt: { lte: now } },
    data: { nextRunAt: until, lastRunAt: now, version: { increment: 1 } },
  });
  if (count === 1) return true;
  try {
    await db.shopSchedule.create({
      data: { shop, kind: LIST_REFRESH_KIND, nextRunAt: until, lastRunAt: now },
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** "20.11.2026" → "2026-11-20"; anything else as it came (shown, never compared). */
function isoOf(dayMonthYear: string | undefined): string {
  const match = dayMonthYear ? DATE_FORMAT.dayMonthYear.exec(dayMonthYear) : null;
  return match ? `${match[3]}-${match[2]}-${match[1]}` : (dayMonthYear ?? "");
}

export type ListRefresh =
  { asked: false } | { asked: true; ok: true; found: number } | { asked: true; ok: false; problem: Message };

/**
 * The warehouse's requests of the last LIST_REFRESH_DAYS days into our table, at most once a minute per
 * shop: a request in doubt that the list has is `sent`; the status of the others follows; a request made
 * elsewhere is stored as `found`. A request with our number pattern that this shop has no row for was made
 * by another shop on the same key, and is left to it.
 */
export async function refreshDeliveryList(deps: DeliveryDeps, shop: string): Promise<ListRefresh> {
  const { db, clock, log } = deps;
  const now = clock();
  const reader = await keyedClient(deps, shop, "read");
  if (!reader) return { asked: false };
  if (!(await claimListRefresh(db, shop, now))) return { asked: false };
  let listed: DeliveryRequestRecord[];
  try {
    listed = await reader.warehouse.listDeliveryRequest({
      datefrom: toCompactDate(new Date(now.getTime() - LIST_REFRESH_DAYS * 24 * 3_600_000)),
      dateto: toCompactDate(now),
    });
  } catch (error) {
    log.warn(
      { shop, event: "deliveries.list_failed", err: error },
      "the warehouse's delivery requests could not be read",
    );
    return { asked: true, ok: false, problem: failureText(error) };
  }
  let found = 0;
  for (const record of listed.slice(0, LIST_REFRESH_MAX)) {
    const idRequest = record.idRequest?.trim() || `WH-${record.id}`;
    const row =
      (await db.inboundDelivery.findUnique({ where: { shop_idRequest: { shop, idRequest } } })) ??
      (await db.inboundDelivery.findFirst({ where: { shop, warehouseId: record.id } }));
    if (row) {
      await takeListed(deps, row, record);
      continue;
    }
    if (ID_REQUEST_PATTERN.test(idRequest)) continue;
    try {
      await db.inboundDelivery.create({
        data: {
          shop,
          idRequest,
          warehouseId: record.id,
          state: DELIVERY_STATE.found,
          status: record.status ?? null,
          deliveryDate: isoOf(record.dateOfDelivery),
          method: record.deliveryMethod ?? "",
          seats: seatsOf(record.seatsAmount),
          ttn: record.ttn?.trim() || null,
          raw: JSON.stringify(record),
          checkedAt: now,
        },
      });
      found++;
    } catch (error) {
      // Taken meanwhile by another refresh; anything else is this record's alone and must not stop the rest.
      if (!isUniqueViolation(error))
        log.warn(
          { shop, event: "deliveries.listed_record_skipped", warehouseId: record.id, err: error },
          "a listed delivery request could not be stored",
        );
    }
  }
  return { asked: true, ok: true, found };
}

/** Seats as the warehouse's list wrote them; a figure no delivery has (or no whole number) reads as unknown, 0. */
function seatsOf(written: number | undefined): number {
  if (written === undefined || !Number.isFinite(written) || written < 0 || written > 100_000) return 0;
  return Math.round(written);
}

/** What the list says of a request we have: in doubt (or left sending) becomes sent; a status moves on. */
async function takeListed(
  deps: DeliveryDeps,
  row: InboundDelivery,
  record: DeliveryRequestRecord,
): Promise<void> {
  const { db, clock } = deps;
  // In doubt, or left sending by a process that stopped: the list having it settles it.
  if (row.state === DELIVERY_STATE.inDoubt || row.state === DELIVERY_STATE.sending) {
    await db.inboundDelivery.updateMany({
      where: asRead(row),
      data: {
        state: DELIVERY_STATE.sent,
        warehouseId: record.id,
        status: record.status ?? INBOUND_DELIVERY_STATUS.new,
        error: null,
        checkedAt: clock(),
        ...NEXT_VERSION,
      },
    });
    return;
  }
  if (row.state !== DELIVERY_STATE.sent && row.state !== DELIVERY_STATE.found) return;
  // A status only moves forward: an older list read after a newer report changes nothing.
  if (record.status === undefined || (row.status ?? 0) >= record.status) return;
  await db.inboundDelivery.updateMany({
    where: asRead(row),
    data: { status: record.status, checkedAt: clock(), ...NEXT_VERSION },
  });
}
