// Server-decided texts (Messages, or lists of them read back with readTexts) put into the admin's words:
// numbers as the admin reads them (a plural's `count` stays a number, for the form; its text writes it with
// `{{count, number}}`), and the warehouse's own words after the sentence, marked as the warehouse's. This is
// the string form, for a text inside another sentence or a string-only prop; a page shows a text on its own
// with <MessageText> (./message-text.tsx), which says it the same way.
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { Formatter } from "../i18n/format";
import { translate, type Message, type MessageValues } from "../i18n/message";
import { useFormat } from "../i18n/react";

export type Texts = Message | readonly Message[] | null | undefined;

/** The texts one by one (none for null). */
export function textList(texts: Texts): readonly Message[] {
  if (!texts) return [];
  return Array.isArray(texts) ? texts : [texts as Message];
}

/** One text's sentence in `t`'s language, its numbers formatted, without the warehouse's own words. */
// Any namespace's t will do: every key carries its namespace.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function sentenceOf(t: TFunction<any, any>, format: Formatter, text: Message): string {
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(text.values ?? {})) {
    values[name] = typeof value === "number" && name !== "count" ? format.number(value) : value;
  }
  return translate(t, { ...text, values });
}

/** What comes before the warehouse's own words ("The warehouse says:"). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const warehouseSays = (t: TFunction<any, any>): string =>
  translate(t, { key: "common:warehouseSays" });

/** The texts as one paragraph, each sentence in `t`'s language. Pure: the hook below, and tests, use it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function sayTexts(t: TFunction<any, any>, format: Formatter, texts: Texts): string {
  return textList(texts)
    .map((text) => {
      const sentence = sentenceOf(t, format, text);
      return text.said ? `${sentence} ${warehouseSays(t)} ${text.said}` : sentence;
    })
    .join(" ");
}

/** `say(texts)` in the page's language and formats. */
export function useTexts(): (texts: Texts) => string {
  const { t } = useTranslation("common");
  const format = useFormat();
  return (texts) => sayTexts(t, format, texts);
}
