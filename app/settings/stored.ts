// Settings kept as JSON text on ShopSettings and read back tolerantly: what no longer validates (a
// schema that changed, a hand-edited row) is reported, with the defaults in its place, so a bad row never
// stops the work that reads it. Not for the order mapping, whose defaults could send an order wrongly.
import { z } from "zod";

export function parseStoredSettings<Schema extends z.ZodType>(
  schema: Schema,
  stored: string | null | undefined,
  what: string,
): { settings: z.output<Schema>; problem: string | null } {
  const defaults = schema.parse({}) as z.output<Schema>;
  let raw: unknown;
  try {
    raw = stored ? JSON.parse(stored) : {};
  } catch {
    return { settings: defaults, problem: `The saved ${what} are not valid JSON.` };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { settings: parsed.data, problem: null }
    : { settings: defaults, problem: z.prettifyError(parsed.error) };
}
