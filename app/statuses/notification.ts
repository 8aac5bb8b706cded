// What a warehouse notification says: only which orders to look at. Its shape is undocumented (see
// ../shared/spec/warehouse-api-notes.md), so the order ids are taken from the keys id_order, key_order and
// id_order_FF wherever they stand (the body itself, an object in it, an array of them), and nothing else in
// the body is read or believed. Pure.
import { z } from "zod";

/** The warehouse's names for an order's ids, as its answers spell them. */
export const NOTIFIED_ID_KEYS: ReadonlySet<string> = new Set(["id_order", "key_order", "id_order_FF"]);

/**
 * More distinct ids than this in one notification is refused: a real one names a few orders, and each id
 * is a parameter of the statement that marks them.
 */
export const MAX_NOTIFIED_IDS = 1_000;

const idValue = z.union([
  z.string().trim().min(1),
  z
    .number()
    .refine(Number.isFinite)
    .transform((id) => String(id)),
]);

export type NotifiedIds =
  { ok: true; ids: string[] } | { ok: false; reason: "no_ids" | "too_many_ids"; message: string };

/** The distinct order ids a parsed JSON body names, at any depth. */
export function notifiedIds(body: unknown): NotifiedIds {
  const ids = new Set<string>();
  // Walked with a stack of its own, not by recursion: 64 KB of nested brackets is 32,000 levels.
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        const id = NOTIFIED_ID_KEYS.has(key) ? idValue.safeParse(inner) : undefined;
        if (id?.success) ids.add(id.data);
        // An id key holding a list of ids is read too: the list's strings and numbers are ids.
        else if (NOTIFIED_ID_KEYS.has(key) && Array.isArray(inner)) {
          for (const item of inner) {
            const listed = idValue.safeParse(item);
            if (listed.success) ids.add(listed.data);
            else pending.push(item);
          }
        } else pending.push(inner);
      }
    }
    if (ids.size > MAX_NOTIFIED_IDS) {
      return {
        ok: false,
        reason: "too_many_ids",
        message: `The notification names more than ${MAX_NOTIFIED_IDS} orders; send at most ${MAX_NOTIFIED_IDS} a notification.`,
      };
    }
  }
  if (ids.size === 0) {
    return {
      ok: false,
      reason: "no_ids",
      message:
        "The notification names no order: give at least one id_order, key_order or id_order_FF, as a string or a number.",
    };
  }
  return { ok: true, ids: [...ids] };
}
