// Texts kept in a column (a sync's problems, an error to show later) are stored as a JSON list of
// Messages, so the page can say them in the reader's language. A row written before that kept English
// words: it is read back as one message that shows those words as they are.
import { z } from "zod";
import type { Message } from "./message";

export const StoredMessage = z.object({
  key: z.string().min(1),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  said: z.string().optional(),
});
const StoredTexts = z.array(StoredMessage);

export function writeTexts(texts: readonly Message[]): string | null {
  return texts.length ? JSON.stringify(texts) : null;
}

export function readTexts(stored: string | null | undefined): Message[] {
  if (!stored) return [];
  try {
    const parsed = StoredTexts.safeParse(JSON.parse(stored));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: an older row's words.
  }
  return [{ key: "common:text.stored", values: { text: stored } }];
}
