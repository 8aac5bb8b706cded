// The status table: which of the warehouse's statuses (`status_mtp_id`, `status_mtp` in ReportStatusOrder)
// means which of our stages. Nobody documents the wire values (warehouse-api-notes.md: only the prose
// "new → picked → shipped → delivered"), so the built-in table matches names only, in the spellings a 1C
// catalogue is likely to use (Russian and Ukrainian), and a merchant's rules, by id or name, come first.
// A status neither knows is reported as unknown: recorded and shown, never a guess.
import type { Stage } from "../orders/states";
import type { StatusRule } from "./settings";

export interface ReportedStatus {
  id: string;
  name: string;
}

/** `stage` null: a known status that is no stage of ours yet (the order is new at the warehouse). */
export type StatusReading = { known: true; stage: Stage | null } | { known: false; stage: null };

export const BUILT_IN_STATUSES: { stage: Stage | null; names: string[] }[] = [
  { stage: null, names: ["новый", "новий", "new", "принят", "прийнято", "в обработке", "в обробці"] },
  { stage: "picked", names: ["собран", "собрано", "зібрано", "зібраний", "укомплектован", "picked"] },
  {
    stage: "shipped",
    names: ["отгружен", "отгружено", "відвантажено", "отправлен", "відправлено", "shipped"],
  },
  { stage: "delivered", names: ["доставлен", "доставлено", "вручен", "вручено", "delivered"] },
  {
    stage: "cancelled_at_warehouse",
    names: ["отменен", "отменён", "скасовано", "анулировано", "cancelled", "canceled"],
  },
  { stage: "returned", names: ["возврат", "возвращен", "повернення", "повернуто", "returned"] },
];

/** A name as compared: case, spacing and the Russian ё do not matter. */
export function normalStatusName(name: string): string {
  return name.trim().toLowerCase().replace(/ё/g, "е").replace(/\s+/g, " ");
}

const BUILT_IN_BY_NAME = new Map(
  BUILT_IN_STATUSES.flatMap(({ stage, names }) =>
    names.map((name) => [normalStatusName(name), stage] as const),
  ),
);

export function readStatus(status: ReportedStatus, rules: readonly StatusRule[]): StatusReading {
  const id = status.id.trim();
  const name = normalStatusName(status.name);
  if (!id && !name) return { known: false, stage: null };
  const rule =
    rules.find((candidate) => candidate.id !== "" && candidate.id === id) ??
    rules.find((candidate) => candidate.name !== "" && normalStatusName(candidate.name) === name);
  if (rule) return { known: true, stage: rule.stage === "none" ? null : rule.stage };
  if (name && BUILT_IN_BY_NAME.has(name)) return { known: true, stage: BUILT_IN_BY_NAME.get(name)! };
  return { known: false, stage: null };
}
