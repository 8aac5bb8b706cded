// A text decided on the server keeps its English words beside its key: the English is what logs, the
// timeline's older readers and the tests read, and what a page shows when a row names no key.
import { i18nFor } from "../i18n/i18n";
import { translate, type Message } from "../i18n/message";

/** The message in English, from the same texts the admin shows. */
export function inEnglish(text: Message): string {
  return translate(i18nFor("en").t, text);
}

/** Words stored before they had a key (or from a side that has none): shown as they are. */
export function storedText(text: string): Message {
  return { key: "common:text.stored", values: { text } };
}
