// The order rules for submission: the merchant's Send and Cancel, the worker's claim, and the warehouse's
// answers to an AddOrder, an edit or a cancellation (accepted, refused, failed for now, key refused).
import { timelineText as said } from "../timeline";
import { ATTENTION, EVENT, ORDER_STATE, PENDING, UNSENT_STATES } from "../states";
import {
  MAX_ATTEMPTS,
  attentionOf,
  cancelledColumns,
  noChange,
  refuse,
  type Failure,
  type OrderFacts,
  type OrderPatch,
  type Refusal,
  type Transition,
} from "./shared";

export function submitNow(row: OrderFacts, now: Date): Transition | Refusal {
  const due = { nextAttemptAt: now, attempts: 0, attention: null, attentionMessage: null };
  switch (row.state) {
    case ORDER_STATE.waiting:
      return refuse("waitingForShopify");
    case ORDER_STATE.elsewhere:
      return refuse("notTheWarehouses");
    case ORDER_STATE.held:
      return refuse("heldFixFirst");
    case ORDER_STATE.ready:
    case ORDER_STATE.rejected:
      // An order with nothing mapped cannot be claimed: made ready, it would be due and never sent.
      if (row.mapped === null) return refuse("correctFirst");
      return {
        patch: { state: ORDER_STATE.ready, ...due },
        events: [{ kind: EVENT.retryRequested, text: said("sendRequested") }],
      };
    case ORDER_STATE.inDoubt:
      // Not found at the warehouse after it had time enough: only the merchant may have it sent again,
      // since the warehouse may yet hold it. Any other order in doubt is only looked up again.
      if (row.attention === ATTENTION.notAtWarehouse) {
        return {
          patch: { state: ORDER_STATE.ready, ...due },
          events: [
            {
              kind: EVENT.retryRequested,
              text: said("sendAgainRequested"),
            },
          ],
        };
      }
      return {
        patch: due,
        events: [{ kind: EVENT.retryRequested, text: said("lookUpRequested") }],
      };
    case ORDER_STATE.accepted:
      if (row.pending === null) return refuse("nothingToSend");
      return {
        patch: due,
        events: [
          {
            kind: EVENT.retryRequested,
            text: said(
              row.pending === PENDING.cancel ? "cancellationAgainRequested" : "changeAgainRequested",
            ),
          },
        ],
      };
    case ORDER_STATE.submitting:
      return refuse("beingSent");
    default:
      return refuse("cancelledNothingToSend");
  }
}

export function cancelRequested(row: OrderFacts, now: Date): Transition | Refusal {
  if (row.state === ORDER_STATE.cancelled) return refuse("alreadyCancelled");
  if (UNSENT_STATES.includes(row.state)) {
    return {
      patch: cancelledColumns(),
      events: [{ kind: EVENT.cancelled, text: said("cancelledFromAdmin") }],
    };
  }
  return {
    patch: {
      pending: PENDING.cancel,
      nextAttemptAt: now,
      attempts: 0,
      attention: null,
      attentionMessage: null,
    },
    events: [
      {
        kind: EVENT.cancelQueued,
        text: said("cancellationRequested"),
      },
    ],
  };
}

export function accepted(
  row: OrderFacts,
  idOrderFF: string,
  keyOrder: string,
  now: Date,
  data: unknown,
): Transition {
  // An update that came in while the order was out becomes an edit; a cancellation stays due.
  const pending = row.pending ?? (changedSinceSent(row) ? PENDING.edit : null);
  return {
    patch: acceptedColumns({ idOrderFF, keyOrder, pending }, now),
    events: [{ kind: EVENT.accepted, text: said("accepted", { idOrderFF }), data }],
  };
}

/** Whether the order changed in Shopify after the body the warehouse has was sent. */
export function changedSinceSent(row: OrderFacts): boolean {
  return row.mapped !== null && row.mapped !== row.sentOrder;
}

/** The columns of an order the warehouse now has, with the change still to send (if any) due now. */
export function acceptedColumns(
  taken: { idOrderFF: string | null; keyOrder: string | null; pending: OrderFacts["pending"] },
  now: Date,
): OrderPatch {
  return {
    state: ORDER_STATE.accepted,
    ...taken,
    acceptedAt: now,
    // The warehouse just answered for it: polling looks at it again after the shop's interval.
    statusCheckedAt: now,
    attempts: 0,
    lastError: null,
    nextAttemptAt: taken.pending ? now : null,
  };
}

export function rejected(row: OrderFacts, messages: string[], data: unknown): Transition {
  const reason = messages.join(" ");
  if (row.pending === PENDING.cancel) {
    return {
      patch: { ...cancelledColumns(), lastError: reason },
      events: [{ kind: EVENT.cancelled, text: said("cancelledRefusedAnyway"), data }],
    };
  }
  return {
    patch: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: reason },
    events: [{ kind: EVENT.rejected, text: said("refused", { reason }), data }],
  };
}

export function submissionFailed(row: OrderFacts, failure: Failure, now: Date, data: unknown): Transition {
  const attempts = row.attempts + 1;
  if (failure.kind === "in_doubt") {
    // Even when cancelled meanwhile: it may be at the warehouse, so it is looked up, then cancelled there.
    return {
      patch: {
        state: ORDER_STATE.inDoubt,
        attempts,
        lastError: failure.reason,
        nextAttemptAt: failure.lookAt,
      },
      events: [
        {
          kind: EVENT.inDoubt,
          text: said("inDoubt", { reason: failure.reason }),
          data,
        },
      ],
    };
  }
  // Certainly not at the warehouse: an order cancelled meanwhile is simply cancelled.
  if (row.pending === PENDING.cancel) {
    return {
      patch: { ...cancelledColumns(), lastError: failure.reason },
      events: [
        {
          kind: EVENT.cancelled,
          text: said("cancelledWhileSending"),
          data,
        },
      ],
    };
  }
  switch (failure.kind) {
    case "key_refused":
      return {
        patch: { state: ORDER_STATE.ready, nextAttemptAt: now, lastError: failure.reason },
        // The reason is always the same refused key, said whole by the sentence (the row keeps it in English).
        events: [{ kind: EVENT.paused, text: said("keyRefused"), data }],
      };
    case "refused":
      return {
        patch: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: failure.reason },
        events: [{ kind: EVENT.rejected, text: said("notSent", { reason: failure.reason }), data }],
      };
    case "transient": {
      if (attempts >= MAX_ATTEMPTS) {
        return {
          patch: {
            state: ORDER_STATE.ready,
            attempts,
            nextAttemptAt: null,
            lastError: failure.reason,
            ...retriesExhausted(attempts, failure.reason),
          },
          events: [
            {
              kind: EVENT.retriesExhausted,
              text: said("notSentGaveUp", { attempts, reason: failure.reason }),
              data,
            },
          ],
        };
      }
      return {
        patch: {
          state: ORDER_STATE.ready,
          attempts,
          nextAttemptAt: failure.retryAt,
          lastError: failure.reason,
        },
        events: [
          {
            kind: EVENT.retryScheduled,
            text: said("notSentRetry", {
              reason: failure.reason,
              at: failure.retryAt.toISOString(),
              attempt: attempts + 1,
            }),
            data,
          },
        ],
      };
    }
  }
}

function retriesExhausted(attempts: number, reason: string): OrderPatch {
  return {
    attention: ATTENTION.retriesExhausted,
    attentionMessage: attentionOf(said("unreachable", { attempts, reason })),
  };
}

export function editSent(row: OrderFacts, sent: string, now: Date, data: unknown): Transition {
  // Another change may have come in while this one was out: it goes next, a cancellation first of all.
  const next =
    row.pending === PENDING.cancel
      ? PENDING.cancel
      : row.mapped !== null && row.mapped !== sent
        ? PENDING.edit
        : null;
  return {
    patch: { sentOrder: sent, pending: next, nextAttemptAt: next ? now : null, attempts: 0, lastError: null },
    events: [{ kind: EVENT.edited, text: said("edited"), data }],
  };
}

export function changeFailed(
  row: OrderFacts,
  change: "edit" | "cancel",
  failure: Failure,
  now: Date,
  data: unknown,
): Transition {
  const cancel = change === "cancel";
  switch (failure.kind) {
    case "key_refused":
      // Left due as it is: it goes once a valid key is saved.
      return noChange();
    case "refused": {
      // Too late (picked or shipped) or refused: only the merchant can decide what to do now. A cancellation
      // that came in while an edit was out is still sent.
      const stillCancel = !cancel && row.pending === PENDING.cancel;
      return {
        patch: {
          pending: stillCancel ? PENDING.cancel : null,
          nextAttemptAt: stillCancel ? now : null,
          attempts: 0,
          attention: cancel ? ATTENTION.cancelRefused : ATTENTION.editRefused,
          attentionMessage: attentionOf(
            said(cancel ? "cancelRefused" : "editRefused", { reason: failure.reason }),
          ),
        },
        events: [
          {
            kind: cancel ? EVENT.cancelRefused : EVENT.editRefused,
            text: said(cancel ? "cancelRefused" : "editRefused", { reason: failure.reason }),
            data,
          },
        ],
      };
    }
    case "transient":
    case "in_doubt": {
      // Sending an edit or a cancellation again does no harm, so doubt is retried like any failure.
      const attempts = row.attempts + 1;
      const retryAt = failure.kind === "transient" ? failure.retryAt : failure.lookAt;
      if (attempts >= MAX_ATTEMPTS) {
        return {
          patch: {
            attempts,
            nextAttemptAt: null,
            lastError: failure.reason,
            ...retriesExhausted(attempts, failure.reason),
          },
          events: [
            {
              kind: EVENT.retriesExhausted,
              text: said(cancel ? "cancellationGaveUp" : "changeGaveUp", {
                attempts,
                reason: failure.reason,
              }),
              data,
            },
          ],
        };
      }
      return {
        patch: { attempts, nextAttemptAt: retryAt, lastError: failure.reason },
        events: [
          {
            kind: EVENT.retryScheduled,
            text: said(cancel ? "cancellationRetry" : "changeRetry", {
              reason: failure.reason,
              at: retryAt.toISOString(),
            }),
            data,
          },
        ],
      };
    }
  }
}
