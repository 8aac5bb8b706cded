// Home: what the app knows about the store, so the merchant can see the install went through.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, InlineGrid, Layout, Page, Text } from "@shopify/polaris";
import { appContext } from "../context.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await appContext().db.shop.findUnique({ where: { shop: session.shop } });
  return {
    shop: shop && {
      name: shop.name,
      currencyCode: shop.currencyCode,
      ianaTimezone: shop.ianaTimezone,
      primaryLocale: shop.primaryLocale,
      installedAt: shop.installedAt.toISOString(),
    },
  };
};

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="100">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="bodyMd">
        {value}
      </Text>
    </BlockStack>
  );
}

export default function Home() {
  const { shop } = useLoaderData<typeof loader>();
  return (
    <Page title="Sklad Sync">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Your store
              </Text>
              {shop ? (
                <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
                  <Fact label="Store" value={shop.name} />
                  <Fact label="Currency" value={shop.currencyCode} />
                  <Fact label="Time zone" value={shop.ianaTimezone} />
                  <Fact label="Language" value={shop.primaryLocale} />
                </InlineGrid>
              ) : (
                <Text as="p">
                  The store&apos;s details have not been read yet. Reload this page; if this message stays,
                  reinstall the app from the Shopify admin.
                </Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
