// How an order's stage at the warehouse reads in the admin: a short label (orders:stage.*), a badge tone and
// a sentence on what it means (orders:stageDescription.*), shared by the list and the order page.
import { Badge } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { Stage } from "../orders/states";

type Tone = "info" | "success" | "warning" | "critical" | "attention" | undefined;

// Red where the merchant must act in Shopify, green once delivered.
const TONE: Record<Stage, Tone> = {
  picked: "info",
  shipped: "info",
  delivered: "success",
  cancelled_at_warehouse: "critical",
  returned: "critical",
};

export function StageBadge({ stage }: { stage: Stage }) {
  const { t } = useTranslation("orders");
  return <Badge tone={TONE[stage]}>{t(`stage.${stage}`)}</Badge>;
}
