// The short label of each kind of timeline event, shown beside the event's own sentence: orders:event.*,
// one for every kind (test/i18n checks both languages have them all).
import type { TFunction } from "i18next";
import { EVENT, type EventKind } from "../orders/states";

const KINDS = new Set<string>(Object.values(EVENT));

/** The label of a stored kind; a kind written by a newer version reads as itself. */
export function eventLabel(t: TFunction<"orders">, kind: string): string {
  return KINDS.has(kind) ? t(`event.${kind as EventKind}`) : kind;
}
