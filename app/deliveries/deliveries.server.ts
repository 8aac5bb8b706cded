// Inbound delivery requests (the warehouse's v2 group) made exactly once. The row is written (`sending`)
// under (shop, idRequest) before the request leaves, so a second submit of the same form finds it and sends
// nothing; a definite answer settles it (`sent` with the warehouse's id, or `failed` with its words), and
// anything else leaves it `in_doubt`, looked up by idRequest with ListDeliveryRequest before anything is
// sent again: found, it is `sent`; not found, the merchant decides to send it again, under the same
// idRequest. Every write after a request is conditional on the version read before it (orders' rule,
// app/orders/in-doubt.server.ts, at the scale of one merchant's click). The list taken in from the warehouse
// is list.server.ts; what both share (the keyed client, the failure's words), access.server.ts.
import type { InboundDelivery } from "@prisma/client";
import { isUniqueViolation } from "../db.server";
import { env } from "../env.server";
import { message, type Message } from "../i18n/message";
import { readTexts, writeTexts } from "../i18n/texts";
import type { WarehouseClient } from "../warehouse/client.server";
import { toCompactDate } from "../warehouse/dates";
import { WarehouseError } from "../warehouse/errors";
import type { DeliveryRequestRecord } from "../warehouse/schemas";
import { kyivDay } from "../warehouse/dates";
import { INBOUND_DELIVERY_STATUS } from "../warehouse/wire";
import {
  ID_REQUEST_PATTERN,
  readDeliveryForm,
  type DeliveryForm,
  type DeliveryFormInput,
  type FieldErrors,
} from "./form";
import { DELIVERY_STATE, mergeReport, readLines, type DeliveryLine } from "./lines";
import {
  asRead,
  failureText,
  keyedClient,
  LIMITER_WAIT_MS,
  NEXT_VERSION,
  type DeliveryDeps,
} from "./access.server";
import { cardAtWarehouse } from "./queries.server";

export type { DeliveryDeps } from "./access.server";

/** The key of the text a look-up that did not find the request leaves: sending again is offered then. */
export const NOT_FOUND_KEY = "deliveries:problem.notFound";
const IN_DOUBT_KEY = "deliveries:problem.inDoubt";
const NOT_FOUND_YET_KEY = "deliveries:problem.notFoundYet";

/** Whether a look-up's answer is a miss (the warehouse was asked and does not list it), not a failure to ask. */
export const isLookUpMiss = (text: Message) => text.key === NOT_FOUND_KEY || text.key === NOT_FOUND_YET_KEY;

/** When the request last left (written as it is claimed to go); its last write for one never sent from here. */
const lastSentAt = (row: InboundDelivery): Date => row.sentAt ?? row.updatedAt;

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
