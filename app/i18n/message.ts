// A text decided on the server (a hold reason, an action's answer, a step's problem) travels as a key and
// its values, and is put into words by the page in the admin's language. What the warehouse or Shopify
// said in their own words travels as `said`, shown as it is, marked as theirs.
import type { TFunction } from "i18next";

export type MessageValues = Record<string, string | number>;

export interface Message {
  /** A key with its namespace: "holds:phone.foreign". */
  key: string;
  values?: MessageValues;
  /** The other side's own words, untranslated (the warehouse writes Russian or Ukrainian). */
  said?: string;
}

export const message = (key: string, values?: MessageValues, said?: string): Message => ({
  key,
  ...(values ? { values } : {}),
  ...(said === undefined ? {} : { said }),
});

/**
 * The message in the page's language. The key is checked at run time, not by the compiler (it came as
 * data): an unknown key falls back to `fallback` (an older row's stored English text), or the key itself.
 */
// Any namespace's t will do: the key carries its own namespace.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function translate(t: TFunction<any, any>, text: Message, fallback?: string): string {
  const options = { ...text.values, defaultValue: fallback ?? text.key };
  return (t as unknown as (key: string, options: object) => string)(text.key, options);
}
