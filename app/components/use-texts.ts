// Server-decided texts (Messages, or lists of them read back with readTexts) put into the admin's words:
// numbers as the admin reads them (a plural's `count` stays a number, for the form; its text writes it with
// `{{count, number}}`), and the warehouse's own words after the sentence, marked as the warehouse's.
import { useTranslation } from "react-i18next";
import { useFormat } from "../i18n/react";
import { translate, type Message, type MessageValues } from "../i18n/message";

export type Say = (texts: Message | readonly Message[] | null | undefined) => string;

export function useTexts(): Say {
  const { t } = useTranslation("common");
  const format = useFormat();
  const one = (text: Message) => {
    const values: MessageValues = {};
    for (const [name, value] of Object.entries(text.values ?? {})) {
      values[name] = typeof value === "number" && name !== "count" ? format.number(value) : value;
    }
    const sentence = translate(t, { ...text, values });
    return text.said ? `${sentence} ${t("warehouseSays")} ${text.said}` : sentence;
  };
  return (texts) => {
    if (!texts) return "";
    const list: readonly Message[] = Array.isArray(texts) ? texts : [texts as Message];
    return list.map(one).join(" ");
  };
}
