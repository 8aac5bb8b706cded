// Inbound delivery requests (the warehouse's v2 group) made exactly once. The row is written (`sending`)
// under (shop, idRequest) before the request leaves, so a second submit of the same form finds it and sends
// nothing; a definite answer settles it (`sent` with the warehouse's id, or `failed` with its words), and
// anything else leaves it `in_doubt`, looked up by idRequest with ListDeliveryRequest before anything is
// sent again: found, it is `sent`; not found, the merchant decides to send it again, under the same
// idRequest. Every write after a request is conditional on the version read before it (orders' rule,
// app/orders/in-doubt.server.ts, at the scale of one merchant's click).
import type { InboundDelivery } from "@prisma/client";
import type { AppContext } from "../context.server";
import { isUniqueViolation, type Db } from "../db.server";
import { env } from "../env.server";
import { message, type Message } from "../i18n/message";
import { readTexts, writeTexts } from "../i18n/texts";
import { savedKeyClient } from "../settings/saved-key-client.server";
import type { WarehouseClient, WarehouseEndpoints } from "../warehouse/client.server";
import { toCompactDate } from "../warehouse/dates";
import { WarehouseError } from "../warehouse/errors";
import type { DeliveryRequestRecord } from "../warehouse/schemas";
import { warehouseErrorText } from "../warehouse/texts";
import { kyivDay } from "../warehouse/dates";
import { DATE_FORMAT, INBOUND_DELIVERY_STATUS } from "../warehouse/wire";
import {
  ID_REQUEST_PATTERN,
  readDeliveryForm,
  type DeliveryForm,
  type DeliveryFormInput,
  type FieldErrors,
} from "./form";
import { DELIVERY_STATE, mergeReport, readLines, type DeliveryLine } from "./lines";
import { cardAtWarehouse } from "./queries.server";

export interface DeliveryDeps extends AppContext {
  /** Overrides of the configured warehouse endpoints (tests). */
  endpoints?: Partial<WarehouseEndpoints>;
  /**
   * How long after a request last left the warehouse could still be making it: a look-up that misses
   * before then proves nothing (WAREHOUSE_IN_DOUBT_AFTER_MS, as for orders, unless given).
   */
  missBelievedAfterMs?: number;
}

/** The longest a merchant's click waits for the key's rate limits (shared with the engine) before it says so. */
const LIMITER_WAIT_MS = 3_000;
/** The list asks the warehouse at most this often per shop. */
export const LIST_REFRESH_EVERY_MS = 60_000;
/** How far back the list asks for requests made elsewhere (by their creation day). */
export const LIST_REFRESH_DAYS = 30;
/** The most requests one list refresh takes in (the warehouse gives no paging for this list). */
const LIST_REFRESH_MAX = 500;

/** The key of the text a look-up that did not find the request leaves: sending again is offered then. */
export const NOT_FOUND_KEY = "deliveries:problem.notFound";
const IN_DOUBT_KEY = "deliveries:problem.inDoubt";
const NOT_FOUND_YET_KEY = "deliveries:problem.notFoundYet";

/** Whether a look-up's answer is a miss (the warehouse was asked and does not list it), not a failure to ask. */
export const isLookUpMiss = (text: Message) => text.key === NOT_FOUND_KEY || text.key === NOT_FOUND_YET_KEY;

/** When the request last left (written as it is claimed to go); its last write for one never sent from here. */
const lastSentAt = (row: InboundDelivery): Date => row.sentAt ?? row.updatedAt;

const NEXT_VERSION = { version: { increment: 1 } } as const;
const asRead = (row: InboundDelivery) => ({ id: row.id, version: row.version });

/** A read the merchant waits on (the list, a look-up, a report) gives up sooner than a send: it can be asked again. */
const READ_TIMEOUT_MS = 5_000;

/** The shop's warehouse client for sending, or for a read the merchant can simply ask again (sooner given up). */
const keyedClient = (deps: DeliveryDeps, shop: string, purpose: "send" | "read") =>
  savedKeyClient(deps, shop, {
    maxLimiterWaitMs: LIMITER_WAIT_MS,
    ...(purpose === "read" && { timeoutMs: READ_TIMEOUT_MS }),
  });

/**
 * A failed call the merchant reads, in the warehouse's vocabulary (app/warehouse/texts.ts). A send in doubt
 * says so in its own words (IN_DOUBT_KEY: the request may have been made), not through this.
 */
function failureText(error: unknown): Message {
  return error instanceof WarehouseError ? warehouseErrorText(error) : message("deliveries:problem.notSent");
}

export type CreateOutcome =
  | { ok: false; errors: FieldErrors }
  /** `repeated`: the form had been submitted before; nothing was sent this time. */
  | { ok: true; id: string; repeated: boolean };

/**
 * The new request from the form: checked field by field and against the catalogue, written `sending`, then
 * sent. A form submitted again (same idRequest) finds its row and sends nothing.
 */
export async function createDeliveryRequest(
  deps: DeliveryDeps,
  shop: string,
  input: DeliveryFormInput,
): Promise<CreateOutcome> {
  const { db, clock } = deps;
  const idRequest = input.idRequest.trim();
  const read = readDeliveryForm(input, kyivDay(clock()));
  if (ID_REQUEST_PATTERN.test(idRequest)) {
    const existing = await db.inboundDelivery.findUnique({ where: { shop_idRequest: { shop, idRequest } } });
    // The same form again (a second click, a reload): nothing is sent. The form brought back and changed
    // (the browser's Back) would be taken for it and its changes lost: it is refused, saying why.
    if (existing && read.ok && sameRequest(existing, read.form))
      return { ok: true, id: existing.id, repeated: true };
    if (existing)
      return { ok: false, errors: { form: message("deliveries:form.error.alreadySent", { idRequest }) } };
  }
  const errors: FieldErrors = read.ok ? {} : { ...read.errors };

  // Each SKU must be in the shop's catalogue with its card at the warehouse, which refuses unknown SKUs.
  const skus = input.lines.map((line) => line.sku.trim()).filter(Boolean);
  const items = skus.length
    ? await db.catalogueItem.findMany({
        where: { shop, sku: { in: skus }, deletedAt: null },
        select: {
          sku: true,
          name: true,
          sentSku: true,
          sentName: true,
          sentAt: true,
          warehouseQuantity: true,
        },
      })
    : [];
  const names = new Map<string, string>();
  input.lines.forEach((line, index) => {
    const sku = line.sku.trim();
    if (!sku || errors[`lines.${index}.sku`]) return;
    const found = items.filter((item) => item.sku === sku);
    const sent = found.find(cardAtWarehouse);
    if (found.length === 0)
      errors[`lines.${index}.sku`] = message("deliveries:form.error.skuUnknown", { sku });
    else if (!sent) errors[`lines.${index}.sku`] = message("deliveries:form.error.skuNotSent", { sku });
    else names.set(sku, sent.sentAt ? (sent.sentName ?? sent.name) : sent.name);
  });

  const sender = await keyedClient(deps, shop, "send");
  if (!sender && !errors.form) errors.form = message("deliveries:form.error.noKey");
  if (!read.ok || Object.keys(errors).length > 0 || !sender) return { ok: false, errors };
  const { form } = read;

  const lines: DeliveryLine[] = form.lines.map((line) => ({
    sku: line.sku,
    name: names.get(line.sku) ?? "",
    count: line.count,
    received: 0,
  }));
  let row: InboundDelivery;
  try {
    row = await db.inboundDelivery.create({
      data: {
        shop,
        idRequest: form.idRequest,
        state: DELIVERY_STATE.sending,
        sentAt: clock(),
        deliveryDate: form.deliveryDate,
        method: form.methodLiteral,
        seats: form.seats,
        ttn: form.ttn,
        comment: form.comment,
        lines: JSON.stringify(lines),
      },
    });
  } catch (error) {
    // The same form submitted twice at once: the other submit made the row and sends it.
    if (!isUniqueViolation(error)) throw error;
    const existing = await db.inboundDelivery.findUniqueOrThrow({
      where: { shop_idRequest: { shop, idRequest: form.idRequest } },
    });
    return { ok: true, id: existing.id, repeated: true };
  }
  await sendRow(deps, shop, row, sender.warehouse);
  return { ok: true, id: row.id, repeated: false };
}

/** Whether a stored request is what the form asks for. */
function sameRequest(row: InboundDelivery, form: DeliveryForm): boolean {
  const lines = (items: { sku: string; count: number }[]) =>
    JSON.stringify(items.map((line) => [line.sku, line.count]));
  return (
    row.deliveryDate === form.deliveryDate &&
    row.method === form.methodLiteral &&
    row.seats === form.seats &&
    (row.ttn ?? null) === form.ttn &&
    (row.comment ?? null) === form.comment &&
    lines(readLines(row.lines)) === lines(form.lines)
  );
}

/** AddDeliveryRequest for a row the caller has claimed (`sending` at `row.version`); settles it. */
async function sendRow(
  deps: DeliveryDeps,
  shop: string,
  row: InboundDelivery,
  warehouse: WarehouseClient,
): Promise<void> {
  const { db, log, clock } = deps;
  let data: Parameters<typeof db.inboundDelivery.updateMany>[0]["data"];
  try {
    const added = await warehouse.addDeliveryRequest({
      idRequest: row.idRequest,
      dateOfDelivery: row.deliveryDate,
      deliveryMethod: row.method as Parameters<typeof warehouse.addDeliveryRequest>[0]["deliveryMethod"],
      seatsAmount: row.seats,
      ...(row.ttn && { ttn: row.ttn }),
      ...(row.comment && { comment: row.comment }),
      products: readLines(row.lines).map((line) => ({ sku: line.sku, name: line.name, count: line.count })),
    });
    data = {
      state: DELIVERY_STATE.sent,
      warehouseId: added.id,
      status: INBOUND_DELIVERY_STATUS.new,
      error: null,
      checkedAt: clock(),
    };
    log.info(
      { shop, event: "deliveries.sent", idRequest: row.idRequest, warehouseId: added.id },
      "delivery request sent",
    );
  } catch (error) {
    const inDoubt = !(error instanceof WarehouseError) || error.inDoubt;
    data = {
      state: inDoubt ? DELIVERY_STATE.inDoubt : DELIVERY_STATE.failed,
      error: writeTexts([inDoubt ? message(IN_DOUBT_KEY) : failureText(error)]),
    };
    log.warn(
      {
        shop,
        event: inDoubt ? "deliveries.in_doubt" : "deliveries.failed",
        idRequest: row.idRequest,
        err: error,
      },
      inDoubt
        ? "no definite answer to a delivery request: it will be looked up"
        : "delivery request not made",
    );
  }
  // The warehouse's id is the truth whatever was decided meanwhile: a row judged stale while this request
  // was still out (in doubt) takes it too. Any other answer lands only on the row as claimed.
  const { count } = await db.inboundDelivery.updateMany({
    where:
      data.state === DELIVERY_STATE.sent
        ? { id: row.id, shop, state: { in: [DELIVERY_STATE.sending, DELIVERY_STATE.inDoubt] } }
        : { ...asRead(row), state: DELIVERY_STATE.sending },
    data: { ...data, ...NEXT_VERSION },
  });
  if (count === 0)
    log.warn(
      { shop, event: "deliveries.changed_meanwhile", idRequest: row.idRequest },
      "the request changed while it was out",
    );
}

export type ActionOutcome = { ok: true; message: Message } | { ok: false; message: Message };

/**
 * A request in doubt looked up by its idRequest in the warehouse's list (from the day before it was made
 * to today): found, it is `sent` with the warehouse's id; not found, it stays in doubt, and once the
 * warehouse could no longer be making it (missBelievedAfterMs after it last left) the page offers to send
 * it again.
 */
export async function lookUpDeliveryRequest(
  deps: DeliveryDeps,
  shop: string,
  id: string,
): Promise<ActionOutcome> {
  const { db, clock, log } = deps;
  const row = await db.inboundDelivery.findFirst({ where: { id, shop } });
  if (!row || row.state !== DELIVERY_STATE.inDoubt)
    return { ok: false, message: message("deliveries:action.notInDoubt") };
  const reader = await keyedClient(deps, shop, "read");
  if (!reader) return { ok: false, message: message("deliveries:form.error.noKey") };
  let listed: DeliveryRequestRecord[];
  try {
    const today = toCompactDate(clock());
    const planned = row.deliveryDate.replaceAll("-", "");
    listed = await reader.warehouse.listDeliveryRequest({
      // A day earlier than the row: the warehouse's day may have begun before ours. Up to the planned day,
      // if later: the notes do not say which date the list filters by.
      datefrom: toCompactDate(new Date(row.createdAt.getTime() - 24 * 3_600_000)),
      dateto: planned > today ? planned : today,
    });
  } catch (error) {
    log.warn(
      { shop, event: "deliveries.lookup_failed", idRequest: row.idRequest, err: error },
      "look-up failed",
    );
    return { ok: false, message: failureText(error) };
  }
  const found = listed.find((record) => record.idRequest === row.idRequest);
  const sentAt = lastSentAt(row);
  const believed =
    clock().getTime() - sentAt.getTime() >= (deps.missBelievedAfterMs ?? env().WAREHOUSE_IN_DOUBT_AFTER_MS);
  const miss = message(believed ? NOT_FOUND_KEY : NOT_FOUND_YET_KEY);
  const { count } = await db.inboundDelivery.updateMany({
    where: { ...asRead(row), state: DELIVERY_STATE.inDoubt },
    data: found
      ? {
          state: DELIVERY_STATE.sent,
          warehouseId: found.id,
          status: found.status ?? INBOUND_DELIVERY_STATUS.new,
          error: null,
          checkedAt: clock(),
          ...NEXT_VERSION,
        }
      : { error: writeTexts([miss]), checkedAt: clock(), ...NEXT_VERSION },
  });
  if (count === 0) return { ok: false, message: message("deliveries:action.changedMeanwhile") };
  return found ? { ok: true, message: message("deliveries:action.found") } : { ok: false, message: miss };
}

/** Whether the row may be sent again: it failed, or a look-up found it missing at the warehouse. */
export function maySendAgain(row: Pick<InboundDelivery, "state" | "error">): boolean {
  if (row.state === DELIVERY_STATE.failed) return true;
  return (
    row.state === DELIVERY_STATE.inDoubt && readTexts(row.error).some((text) => text.key === NOT_FOUND_KEY)
  );
}

/** The merchant's "Send again": the same request under the same idRequest, once the row allows it. */
export async function sendDeliveryRequestAgain(
  deps: DeliveryDeps,
  shop: string,
  id: string,
): Promise<ActionOutcome> {
  const { db, clock } = deps;
  let row = await db.inboundDelivery.findFirst({ where: { id, shop } });
  if (!row || !maySendAgain(row)) return { ok: false, message: message("deliveries:action.cannotSendAgain") };
  if (row.state === DELIVERY_STATE.inDoubt) {
    // The miss that offered this may be old, and the request may have reached the warehouse since: looked up
    // again now, it is sent again only on a miss believed now.
    const looked = await lookUpDeliveryRequest(deps, shop, id);
    if (looked.ok || looked.message.key !== NOT_FOUND_KEY) return looked;
    row = await db.inboundDelivery.findFirst({ where: { id, shop } });
    if (!row || !maySendAgain(row))
      return { ok: false, message: message("deliveries:action.cannotSendAgain") };
  }
  const sender = await keyedClient(deps, shop, "send");
  if (!sender) return { ok: false, message: message("deliveries:form.error.noKey") };
  const { count } = await db.inboundDelivery.updateMany({
    where: asRead(row),
    data: { state: DELIVERY_STATE.sending, sentAt: clock(), error: null, ...NEXT_VERSION },
  });
  if (count === 0) return { ok: false, message: message("deliveries:action.changedMeanwhile") };
  await sendRow(
    deps,
    shop,
    { ...row, state: DELIVERY_STATE.sending, version: row.version + 1 },
    sender.warehouse,
  );
  const after = await db.inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
  return after.state === DELIVERY_STATE.sent
    ? { ok: true, message: message("deliveries:action.sent") }
    : { ok: false, message: readTexts(after.error)[0] ?? message("deliveries:problem.notSent") };
}

/**
 * A row left `sending` longer than a request can take (the process stopped mid-request): its request may
 * have arrived, so it is in doubt.
 */
export async function settleStaleSending(
  deps: DeliveryDeps,
  shop: string,
  row: InboundDelivery,
): Promise<boolean> {
  const staleAfterMs = 2 * env().WAREHOUSE_TIMEOUT_MS + LIMITER_WAIT_MS + 5_000;
  if (row.state !== DELIVERY_STATE.sending) return false;
  if (deps.clock().getTime() - row.updatedAt.getTime() < staleAfterMs) return false;
  const { count } = await deps.db.inboundDelivery.updateMany({
    where: { ...asRead(row), shop, state: DELIVERY_STATE.sending },
    data: {
      state: DELIVERY_STATE.inDoubt,
      error: writeTexts([message(IN_DOUBT_KEY)]),
      ...NEXT_VERSION,
    },
  });
  return count === 1;
}

/** The request's status and received counts from ReportDeliveryRequest, when the warehouse has it. */
export async function refreshDeliveryRequest(
  deps: DeliveryDeps,
  shop: string,
  id: string,
): Promise<ActionOutcome> {
  const { db, clock, log } = deps;
  const row = await db.inboundDelivery.findFirst({ where: { id, shop } });
  if (!row?.warehouseId) return { ok: false, message: message("deliveries:action.notAtWarehouse") };
  const reader = await keyedClient(deps, shop, "read");
  if (!reader) return { ok: false, message: message("deliveries:form.error.noKey") };
  let report;
  try {
    report = await reader.warehouse.reportDeliveryRequest(row.warehouseId);
  } catch (error) {
    log.warn(
      { shop, event: "deliveries.report_failed", idRequest: row.idRequest, err: error },
      "report failed",
    );
    return { ok: false, message: message("deliveries:action.refreshFailed") };
  }
  const { count } = await db.inboundDelivery.updateMany({
    where: { ...asRead(row), warehouseId: row.warehouseId },
    data: {
      status: report.status,
      lines: JSON.stringify(mergeReport(readLines(row.lines), report)),
      raw: JSON.stringify(report),
      checkedAt: clock(),
      ...NEXT_VERSION,
    },
  });
  if (count === 0) return { ok: false, message: message("deliveries:action.changedMeanwhile") };
  return { ok: true, message: message("deliveries:action.refreshed") };
}

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
