// Outside the Shopify admin there is nothing to show: a visit with a shop goes to the app, others get a note
// in the visitor's language (from the browser's Accept-Language).
import { redirect, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { localeFromAcceptLanguage } from "../i18n/accept-language";
import { LocaleProvider } from "../i18n/react";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return { locale: localeFromAcceptLanguage(request.headers.get("accept-language")) };
};

// The page differs by the visitor's language: a cache must not give one visitor's to another.
export const headers: HeadersFunction = () => ({ Vary: "Accept-Language" });

function Note() {
  const { t } = useTranslation("landing");
  return (
    <main style={{ fontFamily: "Inter, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>{t("title")}</h1>
      <p>{t("body")}</p>
    </main>
  );
}

export default function Landing() {
  const { locale } = useLoaderData<typeof loader>();
  return (
    // No shop, so no shop's time zone; the page shows no times.
    <LocaleProvider locale={locale} timeZone="Europe/Kyiv">
      <Note />
    </LocaleProvider>
  );
}
