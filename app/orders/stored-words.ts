// Texts the order rows keep as English sentences (a timeline event's, an attention's), brought back to the
// admin's language. The rows keep what they always kept, so older rows read the same way: a sentence is
// matched against the English texts of orders:timeline, each `{{value}}` standing for any words, and
// becomes that key with the values read out of it. A sentence no text matches (an older wording, a
// newer one) is shown as it is. The state machine writes these sentences from the same texts.
import { resources } from "../i18n/resources";
import { message, type Message } from "../i18n/message";
import { storedText } from "./words";

type Sentence = { key: string; pattern: RegExp };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function patternOf(text: string): RegExp {
  const parts = text.split(/\{\{\s*(\w+)\s*\}\}/);
  // split keeps the placeholders' names at odd places.
  const source = parts.map((part, index) => (index % 2 ? `(?<${part}>[\\s\\S]+?)` : escape(part))).join("");
  return new RegExp(`^${source}$`);
}

const literalLength = (text: string) => text.replace(/\{\{\s*\w+\s*\}\}/g, "").length;

// The text with the most words of its own first: "Not sent: {{reason}}." would also read a sentence of
// "Not sent: {{reason}}. Trying again at {{at}} (attempt {{attempt}})." with all of it as the reason.
const SENTENCES: Sentence[] = Object.entries(resources.en.orders.timeline)
  .sort(([, a], [, b]) => literalLength(b) - literalLength(a))
  .map(([key, text]) => ({ key: `orders:timeline.${key}`, pattern: patternOf(text) }));

/** A stored English sentence as a key and its values; as it is when no text of orders:timeline says it. */
export function fromEnglish(stored: string): Message {
  for (const { key, pattern } of SENTENCES) {
    const found = pattern.exec(stored);
    if (found) return message(key, found.groups ? { ...found.groups } : undefined);
  }
  return storedText(stored);
}

const holdTextSchema = (value: unknown): Message[] | null => {
  if (!Array.isArray(value) || value.length === 0) return null;
  const texts: Message[] = [];
  for (const reason of value) {
    const text = (reason as { text?: unknown } | null)?.text as Message | undefined;
    if (!text || typeof text.key !== "string") return null;
    texts.push(text);
  }
  return texts;
};

/**
 * A timeline event's sentences. A held event keeps its hold reasons as its data: their keys say it in the
 * admin's language (the stored sentence is their English, one after another).
 */
export function eventTexts(kind: string, stored: string, data: unknown): Message[] {
  if (kind === "held") {
    const reasons = holdTextSchema(data);
    if (reasons) return reasons;
  }
  return [fromEnglish(stored)];
}

/** What an order needing the merchant says about it. */
export function attentionText(stored: string): Message {
  return fromEnglish(stored);
}
