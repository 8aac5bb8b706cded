// The order and the action's answer as the page receives them (./data.server.ts), for the cards beside route.tsx.
import type { SerializeFrom } from "@remix-run/node";
import type { orderPageAnswer, orderPageData } from "./data.server";

export type OrderView = NonNullable<SerializeFrom<typeof orderPageData>["order"]>;
export type DeliveryMethods = SerializeFrom<typeof orderPageData>["deliveryMethods"];
export type ActionAnswer = SerializeFrom<typeof orderPageAnswer>;
