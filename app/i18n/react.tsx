// The admin's language and the shop's time zone for every page, chosen once by the app's layout.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { createFormatter, type Formatter } from "./format";
import { i18nFor } from "./i18n";
import type { Locale } from "./locales";

const FormatContext = createContext<Formatter | null>(null);

export function LocaleProvider(props: { locale: Locale; timeZone: string; children: ReactNode }) {
  const { locale, timeZone, children } = props;
  const formatter = useMemo(() => createFormatter(locale, timeZone), [locale, timeZone]);
  return (
    <I18nextProvider i18n={i18nFor(locale)}>
      <FormatContext.Provider value={formatter}>{children}</FormatContext.Provider>
    </I18nextProvider>
  );
}

/** Dates, numbers and money in the admin's language and the shop's time zone. */
export function useFormat(): Formatter {
  const formatter = useContext(FormatContext);
  if (!formatter) throw new Error("useFormat needs a LocaleProvider above it (app/routes/app.tsx)");
  return formatter;
}
