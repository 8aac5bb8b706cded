// How an order's stage at the warehouse reads in the admin: a short label, a badge tone and a sentence on
// what it means, shared by the list and the order page.
import { Badge } from "@shopify/polaris";
import type { Stage } from "../orders/states";

type Tone = "info" | "success" | "warning" | "critical" | "attention" | undefined;

export const STAGE_LABEL: Record<Stage, string> = {
  picked: "Picked",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled_at_warehouse: "Cancelled by the warehouse",
  returned: "Returned",
};

/** What each stage means, and what an accepted order without one means. */
export const STAGE_DESCRIPTION: Record<Stage | "none", string> = {
  none: "The warehouse has the order and has not picked it yet.",
  picked: "The warehouse has picked the order and is packing it for the carrier.",
  shipped: "The warehouse has handed the parcel to the carrier.",
  delivered: "The carrier has delivered the parcel to the buyer.",
  cancelled_at_warehouse: "The warehouse cancelled the order, so it will not ship.",
  returned: "The parcel came back to the warehouse.",
};

// Red where the merchant must act in Shopify, green once delivered.
const TONE: Record<Stage, Tone> = {
  picked: "info",
  shipped: "info",
  delivered: "success",
  cancelled_at_warehouse: "critical",
  returned: "critical",
};

export function StageBadge({ stage }: { stage: Stage }) {
  return <Badge tone={TONE[stage]}>{STAGE_LABEL[stage]}</Badge>;
}
