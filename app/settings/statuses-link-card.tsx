// Settings' link to the status settings, a page of their own (app/routes/app.settings_.statuses.tsx).
import { Button, Card, InlineStack, Layout } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

export function StatusesLink() {
  const { t } = useTranslation("settings");
  return (
    <Layout.AnnotatedSection title={t("statusesLink.title")} description={t("statusesLink.description")}>
      <Card>
        <InlineStack>
          <Button url="/app/settings/statuses">{t("statusesLink.open")}</Button>
        </InlineStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
