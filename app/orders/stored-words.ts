// Texts the order rows keep as English sentences (a timeline event's, an attention's, a last error's),
// brought back to the admin's language where they are known sentences, and shown as they are otherwise.
import type { Message } from "../i18n/message";
import { storedText } from "./words";

/** A timeline event's sentence. */
export function eventText(_kind: string, stored: string): Message {
  return storedText(stored);
}

/** What an order needing the merchant says about it. */
export function attentionText(stored: string): Message {
  return storedText(stored);
}
