// Writing order transitions: each row changes only if it is still at the version read before the decision
// (every write raises it), so nothing read before a request or a wait overwrites what changed meanwhile.
// A clash re-reads the orders and decides again from the rules, never from the stale copy.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { insertStatement, sqlTransaction, type SqlArg, type SqlTransaction } from "../db/sql.server";
import { decidesAnswer, requestAnswersFor } from "../service/kinds.server";
import { isRefusal, transition, type OrderInput, type Refusal, type Transition } from "./state-machine";
import { eventRow, type OrderEventInput } from "./timeline.server";

/** A row as read, and the columns to write to it. */
export type Change = { row: Pick<OrderRow, "id" | "version" | "state">; data: Partial<OrderRow> };

/** The warehouse's own ids for an order, which differ from row to row. */
type WarehouseIds = Pick<OrderRow, "idOrderFF" | "keyOrder">;

/** An order was changed by someone else after it was read; nothing of the commit was written. */
export class ChangedMeanwhile extends Error {
  constructor() {
    super("an order changed after it was read; nothing was written");
    this.name = "ChangedMeanwhile";
  }
}

/**
 * Applies changes, each conditional on its row's version, with their events, in one transaction of a few
 * statements however many orders change: orders given the same columns share one update, the
 * warehouse's ids (the one thing that differs per order) in CASEs of it. The cost of a statement, not of
 * a row, is what counts here; a batch of 100 orders row by row was most of a batch's time.
 *
 * Written as SQL given to the driver (app/db/sql.server.ts): every order's every transition comes here.
 *
 * Strict (the default): if any row is no longer at the version read, nothing is written and
 * ChangedMeanwhile is thrown. `strict: false` writes the rows still as read and skips the others.
 */
export async function commit(
  deps: ServiceDeps,
  changes: Change[],
  events: OrderEventInput[],
  options: { strict?: boolean; also?: (tx: SqlTransaction) => Promise<unknown> } = {},
): Promise<void> {
  const { db } = deps;
  const strict = options.strict ?? true;
  type Group = { data: Partial<OrderRow>; rows: Change["row"][]; warehouseIds: WarehouseIds[] };
  const groups = new Map<string, Group>();
  for (const { row, data } of changes) {
    const { idOrderFF, keyOrder, ...rest } = data;
    const perRow = typeof idOrderFF === "string" && typeof keyOrder === "string";
    const shared = perRow ? rest : data;
    // Dates become their ISO strings here, so equal data groups together whatever the Date objects.
    const key = `${perRow}:${JSON.stringify(shared)}`;
    const group: Group = groups.get(key) ?? { data: shared, rows: [], warehouseIds: [] };
    group.rows.push(row);
    if (perRow) group.warehouseIds.push({ idOrderFF, keyOrder });
    groups.set(key, group);
  }
  const now = deps.clock();
  await sqlTransaction(db, async (tx) => {
    for (const { data, rows, warehouseIds } of groups.values()) {
      const columns = Object.entries({ updatedAt: now, ...data }).filter(
        ([column, value]) => value !== undefined && column !== "version",
      ) as [string, SqlArg][];
      const sets = columns.map(([column]) => `"${column}" = ?`);
      const args = columns.map(([, value]) => value);
      // The warehouse's ids differ from order to order: one CASE each, in the same statement.
      for (const column of warehouseIds.length ? (["idOrderFF", "keyOrder"] as const) : []) {
        sets.push(`"${column}" = CASE "id" ${rows.map(() => "WHEN ? THEN ?").join(" ")} END`);
        args.push(...rows.flatMap(({ id }, i) => [id, warehouseIds[i]![column]]));
      }
      const count = await tx.execute(
        `UPDATE "WarehouseOrder" SET ${sets.join(", ")}, "version" = "version" + 1 ` +
          `WHERE ${rows.map(() => `("id" = ? AND "version" = ?)`).join(" OR ")}`,
        [...args, ...rows.flatMap(({ id, version }) => [id, version])],
      );
      if (strict && count !== rows.length) throw new ChangedMeanwhile();
    }
    if (events.length) {
      const { sql, args } = insertStatement("OrderEvent", events.map(eventRow));
      await tx.execute(sql, args);
    }
    await options.also?.(tx);
  });
  // Taken, refused, cancelled or moved on at the warehouse: a fulfillment service's answer may be owed now.
  await requestAnswersFor(
    deps,
    changes.filter(({ data }) => decidesAnswer(data)).map(({ row }) => row.id),
  );
}

/** A transition as a commit takes it: the row's change and its events, dated `at`. */
export function asChange(
  row: Pick<OrderRow, "id" | "version" | "state" | "shop">,
  result: Transition,
  at: Date,
): { change: Change | null; events: OrderEventInput[] } {
  const events = result.events.map((event) => ({ shop: row.shop, orderId: row.id, at, ...event }));
  const empty = Object.keys(result.patch).length === 0 && events.length === 0;
  return { change: empty ? null : { row, data: result.patch }, events };
}

/** How often a decision is taken again after the orders changed under it, before giving up. */
const CLASHES_TOLERATED = 5;

/**
 * Decides and writes the transitions of some orders, reading them again and deciding again whenever one
 * changed between the read and the write.
 */
export async function applyToOrders(
  deps: ServiceDeps,
  ids: string[],
  decide: (rows: OrderRow[], at: Date) => { changes: Change[]; events: OrderEventInput[] },
  options: {
    /** The first read (a claim's own copy, say). */
    rows?: OrderRow[];
    /** More writes of the same transaction (an order's payload, say). */
    also?: (tx: SqlTransaction) => Promise<unknown>;
    /**
     * Reads again what else `decide` decides from, after a clash: whoever changed the orders meanwhile may
     * have decided from a newer copy of it, and deciding again from the old one would undo that.
     */
    readAgain?: () => Promise<void>;
  } = {},
): Promise<void> {
  const { also, readAgain } = options;
  let current = options.rows ?? (await deps.db.warehouseOrder.findMany({ where: { id: { in: ids } } }));
  for (let clash = 0; ; clash++) {
    const { changes, events } = decide(current, deps.clock());
    if (!changes.length && !events.length) return;
    try {
      await commit(deps, changes, events, { ...(also && { also }) });
      return;
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile) || clash >= CLASHES_TOLERATED) throw error;
      [current] = await Promise.all([
        deps.db.warehouseOrder.findMany({ where: { id: { in: ids } } }),
        readAgain?.(),
      ]);
    }
  }
}

/**
 * One order's transition for `input`, written conditionally on the version read; on a clash it is
 * decided again from the order as it is now. Answers the refusal, if the rules refused the input.
 */
export async function applyToOrder(
  deps: ServiceDeps,
  row: OrderRow,
  input: OrderInput | ((row: OrderRow) => OrderInput | null),
): Promise<Refusal | null> {
  let refusal: Refusal | null = null;
  await applyToOrders(
    deps,
    [row.id],
    (rows, at) => {
      refusal = null;
      const current = rows[0];
      const given = current && (typeof input === "function" ? input(current) : input);
      if (!current || !given) return { changes: [], events: [] };
      const result = transition(current, given, at);
      if (isRefusal(result)) {
        refusal = result;
        return { changes: [], events: [] };
      }
      const { change, events } = asChange(current, result, at);
      return { changes: change ? [change] : [], events };
    },
    { rows: [row] },
  );
  return refusal;
}
