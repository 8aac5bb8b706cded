// The order rules for an order in doubt: its AddOrder may or may not have reached the warehouse, so it is
// looked up there; found, not found (yet), or the look-up itself failed. Never sent again on a guess.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { Message } from "../../i18n/message";
import { timelineText as said } from "../timeline";
import { ATTENTION, EVENT, ORDER_STATE, PENDING } from "../states";
import { MAX_ATTEMPTS, attentionOf, type Failure, type OrderFacts, type Transition } from "./shared";
import { acceptedColumns, changedSinceSent } from "./submission";

/** What a look-up's report said of an order whose AddOrder may or may not have arrived. */
type LookedUpFacts = OrderFacts & Pick<OrderRow, "idOrder">;

/**
 * An order in doubt, found at the warehouse: it arrived, so it is accepted and never sent again. Without
 * the warehouse's key (or with several of its orders under this number) changes cannot be sent from here:
 * the order is flagged `edit_impossible`; a cancellation goes by id_order and needs no key.
 */
export function foundAtWarehouse(
  row: LookedUpFacts,
  records: Record<string, unknown>[],
  now: Date,
): Transition {
  const only = records.length === 1 ? records[0]! : undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const idOrderFF = text(only?.id_order_FF);
  const keyOrder = text(only?.key_order);
  const wantedEdit = row.pending === PENDING.edit || (row.pending === null && changedSinceSent(row));
  const pending =
    row.pending === PENDING.cancel ? PENDING.cancel : keyOrder && wantedEdit ? PENDING.edit : null;
  let attention: Message | null = null;
  if (pending === PENDING.cancel) {
    // Being cancelled: what edits would need no longer matters.
  } else if (records.length > 1) {
    attention = said("severalAtWarehouse", { count: records.length, idOrder: row.idOrder });
  } else if (!keyOrder) {
    attention = said(wantedEdit ? "noKeyChanged" : "noKey");
  }
  return {
    patch: {
      ...acceptedColumns({ idOrderFF, keyOrder, pending }, now),
      attention: attention ? ATTENTION.editImpossible : null,
      attentionMessage: attention ? attentionOf(attention) : null,
    },
    events: [
      {
        kind: EVENT.foundAtWarehouse,
        text: idOrderFF ? said("foundAs", { idOrderFF }) : said("foundByNumber", { idOrder: row.idOrder }),
        data: { records },
      },
    ],
  };
}

/**
 * An order in doubt, not found at the warehouse. Before the warehouse could have finished with it, a miss
 * proves nothing: it is looked up again. After that, each miss counts; after enough of them a pending
 * cancellation ends it, and otherwise the merchant decides (never a resend on a guess).
 */
export function notFoundAtWarehouse(
  row: LookedUpFacts,
  lookup: {
    missBelievedAfterMs: number;
    missesBeforeAttention: number;
    lookupIntervalMs: number;
    /** When its last AddOrder left. */
    sentAt: Date;
    /** Misses counted so far (past the window). */
    missesSoFar: number;
    /** Orders of the report under this number that are not this one, and why. */
    others: { record: unknown; field: string; theirs: string; mine: string }[];
  },
  now: Date,
): Transition {
  const data = { records: lookup.others.map(({ record }) => record) };
  const sentAt = lookup.sentAt.getTime();
  const believedAt = sentAt + lookup.missBelievedAfterMs;
  if (now.getTime() < believedAt) {
    // It may still be on its way in: look again, with nothing for the timeline until a miss counts.
    return {
      patch: { nextAttemptAt: new Date(Math.min(believedAt, now.getTime() + lookup.lookupIntervalMs)) },
      events: [],
    };
  }
  const misses = lookup.missesSoFar + 1;
  const minutes = Math.max(1, Math.round((now.getTime() - sentAt) / 60_000));
  const other = lookup.others[0];
  const of = lookup.missesBeforeAttention;
  if (misses < of) {
    const next = new Date(now.getTime() + lookup.lookupIntervalMs);
    return {
      patch: { nextAttemptAt: next },
      events: [
        {
          kind: EVENT.notAtWarehouse,
          text: other
            ? said("notFoundOther", {
                misses,
                of,
                idOrder: row.idOrder,
                field: other.field,
                theirs: other.theirs,
                mine: other.mine,
                at: next.toISOString(),
              })
            : said("notFound", { misses, of, at: next.toISOString() }),
          data,
        },
      ],
    };
  }
  if (row.pending === PENDING.cancel) {
    return {
      patch: {
        state: ORDER_STATE.cancelled,
        pending: null,
        nextAttemptAt: null,
        attention: null,
        attentionMessage: null,
      },
      events: [
        {
          kind: EVENT.cancelled,
          text: said("notFoundCancelled", { misses }),
          data,
        },
      ],
    };
  }
  const text = said("notAtWarehouse", { misses, minutes });
  return {
    patch: { nextAttemptAt: null, attention: ATTENTION.notAtWarehouse, attentionMessage: attentionOf(text) },
    events: [{ kind: EVENT.notAtWarehouse, text, data }],
  };
}

/**
 * The look-up of an order in doubt failed: the report could not be had. A failure that will not change on
 * a retry (400, 404, an answer we cannot read), or a transient one retried MAX_ATTEMPTS times, hands the
 * order to the merchant; it stays in doubt, and is never sent again on a guess.
 */
export function lookUpFailed(row: OrderFacts, failure: Failure, now: Date): Transition {
  const attempts = row.attempts + 1;
  if (failure.kind === "transient" && attempts < MAX_ATTEMPTS) {
    return {
      patch: { attempts, lastError: failure.reason, nextAttemptAt: failure.retryAt },
      events: [
        {
          kind: EVENT.retryScheduled,
          text: said("lookUpRetry", { reason: failure.reason, at: failure.retryAt.toISOString() }),
        },
      ],
    };
  }
  const text = said("lookUpGaveUp", { reason: failure.reason });
  return {
    patch: {
      attempts,
      lastError: failure.reason,
      nextAttemptAt: null,
      attention: ATTENTION.retriesExhausted,
      attentionMessage: attentionOf(text),
    },
    events: [{ kind: EVENT.retriesExhausted, text, data: { at: now.toISOString() } }],
  };
}
