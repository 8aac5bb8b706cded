// Server-decided texts (Messages, or lists of them read back with readTexts) put into the admin's words:
// numbers as the admin reads them (a plural's `count` stays a number, for the form; its text writes it with
// `{{count, number}}`), and the warehouse's own words after the sentence, marked as the warehouse's.
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { Formatter } from "../i18n/format";
import { translate, type Message, type MessageValues } from "../i18n/message";
import { useFormat } from "../i18n/react";

export type Texts = Message | readonly Message[] | null | undefined;

/** The texts as one paragraph, each sentence in `t`'s language. Pure: the hook below, and tests, use it. */
// Any namespace's t will do: every key carries its namespace.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function sayTexts(t: TFunction<any, any>, format: Formatter, texts: Texts): string {
  if (!texts) return "";
  const list: readonly Message[] = Array.isArray(texts) ? texts : [texts as Message];
  return list
    .map((text) => {
      const values: MessageValues = {};
      for (const [name, value] of Object.entries(text.values ?? {})) {
        values[name] = typeof value === "number" && name !== "count" ? format.number(value) : value;
      }
      const sentence = translate(t, { ...text, values });
      return text.said
        ? `${sentence} ${translate(t, { key: "common:warehouseSays" })} ${text.said}`
        : sentence;
    })
    .join(" ");
}

/** `say(texts)` in the page's language and formats. */
export function useTexts(): (texts: Texts) => string {
  const { t } = useTranslation("common");
  const format = useFormat();
  return (texts) => sayTexts(t, format, texts);
}
