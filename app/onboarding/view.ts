// What the home page's loader hands the checklist: plain JSON, never the key.
import type { Message } from "../i18n/message";
import type { OrderSettings } from "../orders/settings";
import type { WarehouseSender } from "./connection.server";
import type { PreviewRow, UsedName } from "./rules.server";
import type { OnboardingState, OnboardingStep } from "./state";

export interface ChecklistView {
  state: OnboardingState;
  open: OnboardingStep | null;
  connection: { hasApiKey: boolean; apiKeyHint: string | null; environment: string };
  /** Read only while its step is open: each costs a call to Shopify or the warehouse. */
  location: {
    /** How the warehouse appears in Shopify now: a location of the merchant's, or the app's fulfillment service. */
    mode: "location" | "service";
    current: string | null;
    currentName: string | null;
    choices: { id: string; name: string }[] | null;
  };
  rules: {
    paymentRules: OrderSettings["paymentRules"];
    deliveryRules: OrderSettings["deliveryRules"];
    gateways: UsedName[];
    shippingMethods: UsedName[];
    preview: PreviewRow[];
  } | null;
  sender: {
    current: string | null;
    senders: WarehouseSender[] | null;
    problem: Message | null;
  } | null;
  notifications: { url: string | null } | null;
  catalogue: {
    phase: string;
    read: number;
    toSend: number;
    sent: number;
    finishedAt: string | null;
    errors: Message[];
  } | null;
}

export type HomeAnswer =
  | { ok: true; intent: string; done: Message; notice?: Message; preview?: PreviewRow[] }
  | { ok: false; intent: string; problems: Message[]; preview?: PreviewRow[] };
