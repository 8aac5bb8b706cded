// The order and the action's answer as the page receives them from ./route.tsx, for the cards beside it.
import type { SerializeFrom } from "@remix-run/node";
import type { action, loader } from "./route";

export type OrderView = NonNullable<SerializeFrom<typeof loader>["order"]>;
export type DeliveryMethods = SerializeFrom<typeof loader>["deliveryMethods"];
export type ActionAnswer = SerializeFrom<typeof action>;
