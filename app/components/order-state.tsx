// How an order's state reads in the admin: a short label and a badge tone the list and the order page share.
import { Badge } from "@shopify/polaris";
import type { OrderState } from "../orders/states";

type Tone = "info" | "success" | "warning" | "critical" | "attention" | undefined;

export const ORDER_STATE_LABEL: Record<OrderState, string> = {
  held: "Held",
  ready: "Ready to send",
  submitting: "Sending",
  in_doubt: "In doubt",
  accepted: "At the warehouse",
  rejected: "Rejected",
  cancelled: "Cancelled",
};

// Orange where the merchant must act, red where the warehouse said no, green once it has the order.
const TONE: Record<OrderState, Tone> = {
  held: "attention",
  ready: "info",
  submitting: "info",
  in_doubt: "warning",
  accepted: "success",
  rejected: "critical",
  cancelled: undefined,
};

export function OrderStateBadge({ state }: { state: OrderState }) {
  return <Badge tone={TONE[state]}>{ORDER_STATE_LABEL[state]}</Badge>;
}
