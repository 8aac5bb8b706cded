// How a delivery request's status, date and method read on the deliveries pages.
import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { methodOf, type DeliveryStatus } from "../deliveries/lines";
import { useFormat } from "../i18n/react";

const STATUS_TONE: Record<
  DeliveryStatus,
  "info" | "success" | "attention" | "warning" | "critical" | undefined
> = {
  new: "info",
  partlyReceived: "attention",
  received: "success",
  sending: undefined,
  inDoubt: "warning",
  failed: "critical",
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation("deliveries");
  return <Badge tone={STATUS_TONE[status]}>{t(`status.${status}`)}</Badge>;
}

/** A stored YYYY-MM-DD in the admin's words; anything else (a request made elsewhere) as it came. */
export function useDeliveryDate(): (date: string) => string {
  const format = useFormat();
  return (date) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? format.date(`${date}T12:00:00Z`) : date || "—");
}

export function useMethodName(): (literal: string) => string {
  const { t } = useTranslation("deliveries");
  return (literal) => {
    const method = methodOf(literal);
    return method ? t(`method.${method}`) : literal || "—";
  };
}
