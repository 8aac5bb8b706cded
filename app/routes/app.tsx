// The embedded admin: authenticates every page once, chooses the admin's language, and wraps the pages in
// Polaris, App Bridge and the translations.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { useTranslation } from "react-i18next";
import { appContext } from "../context.server";
import { env } from "../env.server";
import { chooseLocale } from "../i18n/locales";
import { polarisTexts } from "../i18n/polaris";
import { LocaleProvider } from "../i18n/react";
import { authenticate } from "../shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await appContext().db.shop.findUnique({
    where: { shop: session.shop },
    select: { primaryLocale: true, ianaTimezone: true },
  });
  return {
    apiKey: env().SHOPIFY_API_KEY,
    // The admin passes its language on the embedded URL, the document's first load only.
    locale: chooseLocale(new URL(request.url).searchParams.get("locale"), shop?.primaryLocale),
    timeZone: shop?.ianaTimezone || "Europe/Kyiv",
  };
};

// The admin's language comes with the first load only: the pages' own requests do not carry it, so the
// layout keeps what it chose then rather than fall back to the shop's language on the next navigation.
export const shouldRevalidate = () => false;

function Navigation() {
  const { t } = useTranslation();
  return (
    <NavMenu>
      <Link to="/app" rel="home">
        {t("nav.home")}
      </Link>
      <Link to="/app/orders">{t("nav.orders")}</Link>
      <Link to="/app/stock">{t("nav.stock")}</Link>
      <Link to="/app/returns">{t("nav.returns")}</Link>
      <Link to="/app/deliveries">{t("nav.deliveries")}</Link>
      <Link to="/app/catalogue">{t("nav.catalogue")}</Link>
      <Link to="/app/settings">{t("nav.settings")}</Link>
      <Link to="/app/privacy">{t("nav.privacy")}</Link>
    </NavMenu>
  );
}

export default function AdminLayout() {
  const { apiKey, locale, timeZone } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={polarisTexts(locale)}>
      <LocaleProvider locale={locale} timeZone={timeZone}>
        <Navigation />
        <Outlet />
      </LocaleProvider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses so that their headers are included in the response.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
