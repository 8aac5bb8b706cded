// What an order's timeline events and its attention say, as their rows keep it: a JSON list of Messages
// (app/i18n/texts.ts), like a sync's problems, so the page says them in the admin's language. A text is
// written as a key of orders:timeline and its values, never as an English sentence.
//
// Rows written before kept English sentences. They are shown as they are (readTexts), not guessed back
// into keys: a held event's reasons are the one exception, since its data already holds their keys.
import { message, type Message, type MessageValues } from "../i18n/message";
import { readTexts, StoredMessage, writeTexts } from "../i18n/texts";

/** A sentence of orders:timeline with its values: what an event or an attention says. */
export const timelineText = (key: string, values?: MessageValues): Message =>
  message(`orders:timeline.${key}`, values);

const listOf = (text: Message | readonly Message[]): readonly Message[] => ("key" in text ? [text] : text);

/** The column's value for one text or several (an event or an attention always says something). */
export function storedTexts(text: Message | readonly Message[]): string {
  const texts = listOf(text);
  if (!texts.length) throw new Error("an order's event or attention must say something");
  return writeTexts(texts)!;
}

const heldReasonsOf = (data: unknown): Message[] | null => {
  if (!Array.isArray(data) || data.length === 0) return null;
  const texts: Message[] = [];
  for (const reason of data) {
    const parsed = StoredMessage.safeParse((reason as { text?: unknown } | null)?.text);
    if (!parsed.success) return null;
    texts.push(parsed.data);
  }
  return texts;
};

const isStoredList = (stored: string) => stored.startsWith("[");

/** A timeline event's sentences, from its row. */
export function eventTexts(kind: string, stored: string, data: unknown): Message[] {
  // An older held event's sentence is its reasons' English, one after another; the reasons kept their keys.
  if (kind === "held" && !isStoredList(stored)) {
    const reasons = heldReasonsOf(data);
    if (reasons) return reasons;
  }
  return readTexts(stored);
}

/** What an order needing the merchant says about it (none when the column is empty). */
export function attentionTexts(stored: string | null | undefined): Message[] {
  return readTexts(stored);
}
