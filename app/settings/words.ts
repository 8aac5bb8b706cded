// A server-decided text put into words for the settings pages, with its numbers written the admin's way
// ("1 440" in Ukrainian, "1,440" in English) rather than as bare digits.
import type { TFunction } from "i18next";
import type { Formatter } from "../i18n/format";
import { translate, type Message } from "../i18n/message";

// Any namespace's t will do: the key carries its own namespace.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function inWords(t: TFunction<any, any>, format: Formatter, text: Message): string {
  const values = text.values
    ? Object.fromEntries(
        Object.entries(text.values).map(([name, value]) => [
          name,
          typeof value === "number" ? format.number(value) : value,
        ]),
      )
    : undefined;
  return translate(t, { ...text, ...(values ? { values } : {}) });
}
