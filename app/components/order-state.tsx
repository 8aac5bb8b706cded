// How an order's state reads in the admin: a short label (orders:state.*) and a badge tone the list and the
// order page share.
import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { OrderState } from "../orders/states";

type Tone = "info" | "success" | "warning" | "critical" | "attention" | undefined;

// Orange where the merchant must act, red where the warehouse said no, green once it has the order.
const TONE: Record<OrderState, Tone> = {
  waiting: "info",
  elsewhere: undefined,
  held: "attention",
  ready: "info",
  submitting: "info",
  in_doubt: "warning",
  accepted: "success",
  rejected: "critical",
  cancelled: undefined,
};

export function OrderStateBadge({ state }: { state: OrderState }) {
  const { t } = useTranslation("orders");
  return <Badge tone={TONE[state]}>{t(`state.${state}`)}</Badge>;
}
