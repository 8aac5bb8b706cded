// The one entry to the order rules: what happened to an order (an input) to the transition of the part of
// the rules it belongs to, or to a refusal of a merchant's action that does not apply.
import { withWaybills } from "../../fulfillment/need";
import { timelineText as said } from "../timeline";
import { ATTENTION, EVENT, ORDER_STATE } from "../states";
import {
  cancelledColumns,
  noChange,
  refuse,
  type OrderFacts,
  type OrderInput,
  type Refusal,
  type Transition,
} from "./shared";
import { remapped, shopifyCancelled } from "./intake";
import {
  accepted,
  cancelRequested,
  changeFailed,
  editSent,
  rejected,
  submissionFailed,
  submitNow,
} from "./submission";
import { returnBooked, shopifyTold, statusReported } from "./after-warehouse";
import { routed, routingFailed } from "./routing";

export function transition(row: OrderFacts, input: OrderInput, now: Date): Transition | Refusal {
  switch (input.type) {
    case "remapped":
      return remapped(row, input.result, now);
    case "shopify_cancelled":
      return shopifyCancelled(row, input.cancelledAt, now);
    case "submit_now":
      return submitNow(row, now);
    case "cancel_requested":
      return cancelRequested(row, now);
    case "claimed":
      return {
        patch: { state: ORDER_STATE.submitting, sentOrder: row.mapped, submittedAt: now },
        events: [],
      };
    case "accepted":
      return accepted(row, input.idOrderFF, input.keyOrder, now, input.data);
    case "rejected":
      return rejected(row, input.messages, input.data);
    case "submission_failed":
      return submissionFailed(row, input.failure, now, input.data);
    case "edit_sent":
      return editSent(row, input.sent, now, input.data);
    case "cancel_sent":
      return {
        // An edit refused before no longer matters: the order will not ship.
        patch: { ...cancelledColumns(), attempts: 0, lastError: null },
        events: [{ kind: EVENT.cancelled, text: said("cancelledAtWarehouse"), data: input.data }],
      };
    case "change_failed":
      return changeFailed(row, input.change, input.failure, now, input.data);
    case "status_reported":
      return statusReported(row, input.report, now);
    case "return_booked":
      return returnBooked(row, input.booked, now);
    case "shopify_told":
      return shopifyTold(row, input.told, input.eventFor, now);
    case "waybill_used": {
      const waybills = withWaybills(row, [input.ttn]);
      return waybills ? { patch: { waybills }, events: [] } : noChange();
    }
    case "routed": {
      const result = routed(row, input.decision, input.result, now);
      // Applied at last: the routing problem is over (a problem the routing itself raises stands).
      if (row.attention !== ATTENTION.routingFailed || "attention" in result.patch) return result;
      return { ...result, patch: { ...result.patch, attention: null, attentionMessage: null } };
    }
    case "routing_failed":
      return routingFailed(row, input.failure, input.attempts);
    case "shopify_retry":
      if (!row.fulfillmentProblem) return refuse("nothingForShopify");
      return {
        patch: { fulfillmentProblem: null, fulfillmentAttempts: 0, fulfillmentDueAt: now },
        events: [{ kind: EVENT.retryRequested, text: said("shopifyAgain") }],
      };
  }
}
