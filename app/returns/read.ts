// Reading one ListReturnOrder record. The warehouse documents nothing of these records but a defective-goods
// flag ("marriage"), so each is read on its own and tolerantly: what can be read is, a record that cannot be
// read whole is still kept (its raw JSON, bounded, and why), and no record can throw a page of others away.
// Everything is bounded, whatever the warehouse sends: string lengths, lines, nesting, the raw text kept.
// Pure: the sweep (work.server.ts) stores what this answers.
import { createHash } from "node:crypto";
import { z } from "zod";
import { message, type Message } from "../i18n/message";
import { kyivInstant } from "../warehouse/dates";

/** One line of a return: a SKU, the units that came back, and whether the warehouse marked them defective. */
export interface ReturnLine {
  sku: string;
  count: number;
  defective: boolean;
}

export interface ReadReturn {
  /**
   * The record's identity across sweeps: `id:` and the warehouse's id_return; else `sha:` and a digest of what
   * the return is (returnDigest), or of the whole record when it cannot be read.
   */
  returnKey: string;
  idOrder: string | null;
  returnedAt: Date | null;
  ttn: string | null;
  lines: ReturnLine[];
  units: number;
  defective: boolean;
  /** The record as sent, as JSON, bounded (see boundedJson). */
  raw: string;
  /** Why the record could not be read whole; empty when it was. */
  problems: Message[];
}

/** Bounds on what one record may hold; beyond them the record is kept raw with its problem. */
export const RETURN_BOUNDS = {
  /** An id, a waybill, a SKU: codes, never prose. */
  codeLength: 100,
  lines: 500,
  /** Units of one line: more than any parcel holds. */
  count: 1_000_000,
  /** The raw JSON kept per record. */
  rawChars: 16_000,
  /** Strings inside the raw JSON, arrays' items and objects' keys, and nesting. */
  rawString: 1_000,
  rawItems: 200,
  rawDepth: 8,
} as const;

const ID_FIELDS = ["id_return", "idReturn", "id_return_FF", "number", "Number"];
const ORDER_FIELDS = ["id_order", "idOrder", "IdOrder", "order_id"];
const DATE_FIELDS = ["date", "Date", "date_return", "dateReturn", "return_date", "date_create", "Period"];
const TTN_FIELDS = ["TTN", "ttn", "Ttn", "waybill"];
const LINE_LIST_FIELDS = ["products", "Products", "goods", "items"];
const SKU_FIELDS = ["sku", "SKU", "Sku", "article"];
const COUNT_FIELDS = ["count", "Count", "quantity", "Quantity", "qty"];
const DEFECT_FIELDS = ["marriage", "Marriage", "defective", "brak"];

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A field the record has as its own (never one inherited, whatever its name: `__proto__`, `constructor`). */
function own(record: Plain, names: readonly string[]): unknown {
  for (const name of names) if (Object.hasOwn(record, name)) return record[name];
  return undefined;
}

type Read<T> = { value: T } | { problem: Message } | null;

/** A code (an id, a waybill, a SKU): a string or a whole number, trimmed, non-empty, bounded. */
function code(value: unknown, field: string): Read<string> {
  if (value === undefined || value === null || value === "") return null;
  const text =
    typeof value === "string"
      ? value.trim()
      : typeof value === "number" && Number.isSafeInteger(value)
        ? String(value)
        : null;
  if (text === null) return { problem: message("returns:problem.notText", { field }) };
  if (text === "") return null;
  if (text.length > RETURN_BOUNDS.codeLength)
    return { problem: message("returns:problem.tooLong", { field, max: RETURN_BOUNDS.codeLength }) };
  return { value: text };
}

/** A count: a whole number of units, at least one (a number, or digits as the warehouse writes counts). */
function count(value: unknown): number | null {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*\d{1,9}(\.0+)?\s*$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isInteger(number) && number >= 1 && number <= RETURN_BOUNDS.count ? number : null;
}

const YES = new Set(["true", "1", "yes", "да", "так", "брак"]);
const NO = new Set(["false", "0", "no", "нет", "ні", ""]);

/** The defective flag: a boolean, or the ways 1C writes one; undefined when it cannot be told. */
function flag(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (YES.has(word)) return true;
    if (NO.has(word)) return false;
  }
  return undefined;
}

const DAY_MONTH_YEAR = /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const ISO_ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function validParts(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 2000 &&
    y <= 2100 &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h <= 23 &&
    mi <= 59 &&
    s <= 59
  );
}

/**
 * The record's date. The simulator writes `DD.MM.YYYY` (the warehouse's date_order form); 1C prints moments
 * as `DD.MM.YYYY HH:MM:SS`, the registers' parameters are `YYYYMMDD`: all read as Kyiv time. An ISO moment
 * with its zone is exact. A date alone is the start of that day in Kyiv.
 */
export function readReturnDate(value: unknown): Date | null {
  if (typeof value !== "string" || value.length > 40) return null;
  const text = value.trim();
  if (ISO_ZONED.test(text)) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? new Date(ms) : null;
  }
  let parts: number[] | null = null;
  const dmy = DAY_MONTH_YEAR.exec(text);
  if (dmy) parts = [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6]].map((part) => Number(part ?? 0));
  const compact = COMPACT.exec(text) ?? ISO_LOCAL.exec(text);
  if (compact) parts = compact.slice(1, 7).map((part) => Number(part ?? 0));
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts as [number, number, number, number, number, number];
  return validParts(y, mo, d, h, mi, s) ? kyivInstant(y, mo, d, h, mi, s) : null;
}

/**
 * A JSON text of `value` that can be kept and shown whatever it holds: strings, arrays, keys and nesting
 * cut to RETURN_BOUNDS (each cut marked with "…"), the whole at most `rawChars`. Keys in the order sent, or
 * sorted (for the digest, so the same record always gives the same one).
 */
export function boundedJson(value: unknown, options: { sorted?: boolean; maxChars?: number } = {}): string {
  const { rawString, rawItems, rawDepth } = RETURN_BOUNDS;
  const maxChars = options.maxChars ?? RETURN_BOUNDS.rawChars;
  const cut = (text: string) => (text.length > rawString ? `${text.slice(0, rawString)}…` : text);
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") return cut(item);
    if (item === null || typeof item === "number" || typeof item === "boolean") return item;
    if (depth >= rawDepth) return "…";
    if (Array.isArray(item)) {
      const items = item.slice(0, rawItems).map((each) => walk(each, depth + 1));
      if (item.length > rawItems) items.push(`… ${item.length - rawItems}`);
      return items;
    }
    if (isPlain(item)) {
      let keys = Object.keys(item);
      if (options.sorted) keys = keys.sort();
      // A null-prototype object: a key named __proto__ stays a plain key when written out.
      const out = Object.create(null) as Plain;
      for (const key of keys.slice(0, rawItems)) out[cut(key)] = walk(item[key], depth + 1);
      if (keys.length > rawItems) out["…"] = keys.length - rawItems;
      return out;
    }
    return null;
  };
  const text = JSON.stringify(walk(value, 0)) ?? "null";
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/** The identity of a record without an id_return: a digest of its own fields, the same on every sweep. */
export function recordDigest(record: unknown): string {
  const canonical = boundedJson(record, { sorted: true, maxChars: 1_000_000 });
  return createHash("sha256").update(canonical).digest("hex").slice(0, 32);
}

/** Reads one record of a ListReturnOrder page. Never throws. */
export function readReturnRecord(record: unknown): ReadReturn {
  const raw = boundedJson(record);
  const problems: Message[] = [];
  const result: ReadReturn = {
    returnKey: "",
    idOrder: null,
    returnedAt: null,
    ttn: null,
    lines: [],
    units: 0,
    defective: false,
    raw,
    problems,
  };
  if (!isPlain(record)) {
    result.returnKey = `sha:${recordDigest(record)}`;
    problems.push(message("returns:problem.notObject"));
    return result;
  }
  const take = (read: Read<string>): string | null => {
    if (read && "problem" in read) problems.push(read.problem);
    return read && "value" in read ? read.value : null;
  };
  const id = take(code(own(record, ID_FIELDS), "id_return"));
  result.returnKey = id ? `id:${id}` : `sha:${recordDigest(record)}`;
  result.idOrder = take(code(own(record, ORDER_FIELDS), "id_order"));
  if (!result.idOrder) problems.push(message("returns:problem.noOrder"));
  result.ttn = take(code(own(record, TTN_FIELDS), "TTN"));
  const date = own(record, DATE_FIELDS);
  result.returnedAt = readReturnDate(date);
  if (!result.returnedAt) problems.push(message("returns:problem.date"));

  const list = own(record, LINE_LIST_FIELDS);
  if (!Array.isArray(list)) {
    problems.push(message("returns:problem.noLines"));
    return result;
  }
  if (list.length === 0) problems.push(message("returns:problem.noLines"));
  if (list.length > RETURN_BOUNDS.lines) {
    problems.push(message("returns:problem.tooManyLines", { max: RETURN_BOUNDS.lines }));
    return result;
  }
  list.forEach((item, index) => {
    const line = index + 1;
    if (!isPlain(item)) {
      problems.push(message("returns:problem.lineNotObject", { line }));
      return;
    }
    const sku = take(code(own(item, SKU_FIELDS), "sku"));
    const units = count(own(item, COUNT_FIELDS));
    const defective = flag(own(item, DEFECT_FIELDS));
    if (!sku) problems.push(message("returns:problem.lineSku", { line }));
    if (units === null) problems.push(message("returns:problem.lineCount", { line }));
    if (defective === undefined) problems.push(message("returns:problem.lineDefective", { line }));
    if (sku && units !== null && defective !== undefined) result.lines.push({ sku, count: units, defective });
  });
  result.units = result.lines.reduce((sum, line) => sum + line.count, 0);
  result.defective = result.lines.some((line) => line.defective);
  if (!id && result.idOrder && result.returnedAt && result.lines.length)
    result.returnKey = `sha:${returnDigest(result.idOrder, result.returnedAt, result.ttn, result.lines)}`;
  return result;
}

/**
 * The identity of a readable return without an id_return: what makes it this return (its order, when, its
 * waybill, what came back), not how the record is written. A later sweep may find the record written again
 * (a field added, the date in another form, the defect flag set after inspection): the same return still.
 */
function returnDigest(idOrder: string, at: Date, ttn: string | null, lines: readonly ReturnLine[]): string {
  const goods = lines.map((line) => `${line.sku}\u0000${line.count}`).sort();
  const canonical = JSON.stringify([idOrder, at.toISOString(), ttn ?? "", goods]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 32);
}

/** Units that came back fit for sale (the lines not marked defective). */
export function saleableUnits(lines: readonly ReturnLine[]): number {
  return lines.filter((line) => !line.defective).reduce((sum, line) => sum + line.count, 0);
}

const linesSchema = z
  .array(z.object({ sku: z.string(), count: z.number(), defective: z.boolean() }))
  .catch([]);

/** A return's lines as stored (WarehouseReturn.lines); anything unreadable reads as none. */
export function linesOf(stored: string): ReturnLine[] {
  try {
    return linesSchema.parse(JSON.parse(stored));
  } catch {
    return [];
  }
}
