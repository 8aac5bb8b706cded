// An inbound delivery request's lines and where it stands, as the pages show them: the lines kept as JSON in
// InboundDelivery.lines ({sku, name, count, received}), merged with the warehouse's report, and one status
// that joins our side (sending, in doubt, failed) with the warehouse's (new, partly received, received).
import { z } from "zod";
import type { DeliveryRequestReport } from "../warehouse/schemas";
import { INBOUND_DELIVERY_METHOD, INBOUND_DELIVERY_STATUS } from "../warehouse/wire";

/** Where our request to make it stands; `found`: made elsewhere, read from the warehouse's list. */
export const DELIVERY_STATE = {
  sending: "sending",
  inDoubt: "in_doubt",
  sent: "sent",
  failed: "failed",
  found: "found",
} as const;
export type DeliveryState = (typeof DELIVERY_STATE)[keyof typeof DELIVERY_STATE];

/** What the list shows and filters by: the warehouse's status once it has the request, ours before. */
export const DELIVERY_STATUSES = [
  "new",
  "partlyReceived",
  "received",
  "sending",
  "inDoubt",
  "failed",
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function deliveryStatus(row: { state: string; status: number | null }): DeliveryStatus {
  if (row.state === DELIVERY_STATE.sending) return "sending";
  if (row.state === DELIVERY_STATE.inDoubt) return "inDoubt";
  if (row.state === DELIVERY_STATE.failed) return "failed";
  if (row.status === INBOUND_DELIVERY_STATUS.received) return "received";
  if (row.status === INBOUND_DELIVERY_STATUS.arrivedNotFullyReceived) return "partlyReceived";
  return "new";
}

/** The form's names of the two delivery methods, and the literal each sends. */
export const METHOD_LITERAL = {
  novaPoshta: INBOUND_DELIVERY_METHOD.novaPoshta,
  ownTransport: INBOUND_DELIVERY_METHOD.ownTransport,
} as const;
export type DeliveryMethod = keyof typeof METHOD_LITERAL;

/** The form's name of a stored literal; a literal nobody knows (a request made elsewhere) is shown as it is. */
export function methodOf(literal: string): DeliveryMethod | null {
  if (literal === INBOUND_DELIVERY_METHOD.novaPoshta) return "novaPoshta";
  if (literal === INBOUND_DELIVERY_METHOD.ownTransport) return "ownTransport";
  return null;
}

export interface DeliveryLine {
  sku: string;
  name: string;
  /** Planned: what the request announced. */
  count: number;
  /** What the warehouse has received so far (0 until it reports). */
  received: number;
}

const storedLineSchema = z.object({
  sku: z.string(),
  name: z.string().catch(""),
  count: z.number().catch(0),
  received: z.number().catch(0),
});

/** The stored lines; a row whose JSON cannot be read shows none rather than failing its page. */
export function readLines(json: string): DeliveryLine[] {
  try {
    const parsed = z.array(storedLineSchema).safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * The lines after a report: each SKU's planned count as the warehouse has it when it says (else ours), and
 * its received count when it says (else what we knew). A line the warehouse reports that we did not plan
 * (goods nobody announced) is added; a planned line it does not mention keeps what we had.
 */
export function mergeReport(lines: readonly DeliveryLine[], report: DeliveryRequestReport): DeliveryLine[] {
  const merged = lines.map((line) => ({ ...line }));
  for (const reported of report.products) {
    let line = merged.find((each) => each.sku === reported.sku);
    if (!line) {
      line = { sku: reported.sku, name: reported.name ?? "", count: 0, received: 0 };
      merged.push(line);
    }
    if (reported.count !== undefined) line.count = reported.count;
    if (reported.countReceived !== undefined) line.received = reported.countReceived;
    if (!line.name && reported.name) line.name = reported.name;
  }
  return merged;
}

export function totals(lines: readonly DeliveryLine[]) {
  return {
    lines: lines.length,
    planned: lines.reduce((sum, line) => sum + line.count, 0),
    received: lines.reduce((sum, line) => sum + line.received, 0),
  };
}
