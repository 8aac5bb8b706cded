// Sign-in for a merchant who opens the app outside the Shopify admin: asks for the store's domain.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  AppProvider as PolarisAppProvider,
  Button,
  Card,
  FormLayout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { useState } from "react";
import { login } from "../../shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

const messages: Partial<Record<LoginErrorType, string>> = {
  [LoginErrorType.MissingShop]: "Enter your store's domain to sign in.",
  [LoginErrorType.InvalidShop]: "Enter a valid store domain, such as my-store.myshopify.com.",
};

async function loginErrors(request: Request) {
  const errors = await login(request);
  return { shop: errors.shop ? messages[errors.shop] : undefined };
}

export const loader = async ({ request }: LoaderFunctionArgs) => ({
  errors: await loginErrors(request),
  polarisTranslations,
});

export const action = async ({ request }: ActionFunctionArgs) => ({ errors: await loginErrors(request) });

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const errors = actionData?.errors ?? loaderData.errors;
  return (
    <PolarisAppProvider i18n={loaderData.polarisTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Sign in to Sklad Sync
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Store domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Sign in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
