// How the order page says moments: instants travel from the loader as ISO strings and are said here in the
// admin's language and the shop's time zone, including those stored inside an event's or a banner's words.
import { type Message } from "../../i18n/message";
import { useFormat } from "../../i18n/react";

/** An instant the loader sent (or none) said in the admin's words; none stays null. */
export function useWhen() {
  const format = useFormat();
  return (instant: string | null) => (instant ? format.dateTime(instant) : null);
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A stored sentence's moments ("Trying again at 2026-03-01T10:00:00.000Z") in the admin's words. */
export function withMoments(text: Message, dateTime: (value: string) => string): Message {
  if (!text.values) return text;
  const values = Object.fromEntries(
    Object.entries(text.values).map(([name, value]) => [
      name,
      typeof value === "string" && ISO_MOMENT.test(value) ? dateTime(value) : value,
    ]),
  );
  return { ...text, values };
}
