// The simulator's status table. The provider documents only the prose "new → picked → shipped → delivered",
// so these wire values are our choice ([guess] in the notes): one table, served as the getStatusOrder dictionary.

export const ORDER_STAGES = ["new", "picked", "shipped", "delivered", "cancelled"] as const;
export type OrderStage = (typeof ORDER_STAGES)[number];

/** The stages an order passes in order; cancelled is a side exit from new or picked. */
export const STAGE_SEQUENCE = [
  "new",
  "picked",
  "shipped",
  "delivered",
] as const satisfies readonly OrderStage[];
export type ProgressStage = (typeof STAGE_SEQUENCE)[number];

/** `status_mtp_id` and `status_mtp` per stage, as a 1C catalogue would number and name them (Russian). */
export const ORDER_STATUS_TABLE = {
  new: { id: "1", name: "Новый" },
  picked: { id: "2", name: "Собран" },
  shipped: { id: "3", name: "Отгружен" },
  delivered: { id: "4", name: "Доставлен" },
  cancelled: { id: "5", name: "Отменен" },
} as const satisfies Record<OrderStage, { id: string; name: string }>;

/** The getStatusOrder GET dictionary: `Data: [{id, name}]`. */
export const STATUS_DICTIONARY = ORDER_STAGES.map((stage) => ({ ...ORDER_STATUS_TABLE[stage] }));

/** Nova Poshta's own tracking statuses (`status_TTN_id` / `status_TTN`) for the stages that have a waybill. */
export const CARRIER_STATUS = {
  shipped: { id: "5", name: "Відправлення прямує до міста одержувача" },
  delivered: { id: "9", name: "Відправлення отримано" },
} as const;

export function nextStage(stage: OrderStage): ProgressStage | undefined {
  const index = STAGE_SEQUENCE.indexOf(stage as ProgressStage);
  return index >= 0 ? STAGE_SEQUENCE[index + 1] : undefined;
}
