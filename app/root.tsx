import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "@remix-run/react";
import { DEFAULT_LOCALE, supportedLocale, type Locale } from "./i18n/locales";

/**
 * The document's language: the one the deepest route that chose one gave (the admin's layout, from the
 * admin's locale or the shop's; the landing page, from Accept-Language), else English.
 */
export function documentLocale(matches: readonly { data?: unknown }[]): Locale {
  for (const match of [...matches].reverse()) {
    const locale = (match.data as { locale?: unknown } | null | undefined)?.locale;
    if (typeof locale === "string" && supportedLocale(locale)) return supportedLocale(locale)!;
  }
  return DEFAULT_LOCALE;
}

export default function App() {
  const lang = documentLocale(useMatches());
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {/* No icon of its own (the admin shows the app's): without this a page opened alone asks for
            /favicon.ico, which no route answers, and the server logs a 404 as an error. */}
        <link rel="icon" href="data:," />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
