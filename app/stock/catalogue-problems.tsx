// The catalogue's problems as a card: each variant the warehouse cannot be sent, with the sentence that says
// why and a link to fix it in Shopify, its SKU (when it has one) a link to the SKU's page. Shared by the
// Catalogue and Stock pages.
import { Link, List, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { Message } from "../i18n/message";
import { SkuLink } from "./sku-link";
import { useTexts } from "../components/use-texts";
import { TitledCard } from "../components/titled-card";

/** A problem as catalogueProblems (app/catalogue/record.server.ts) gives it. */
export interface CatalogueProblemEntry {
  id: string;
  sku: string | null;
  name: string;
  /** Why, in the admin's language. */
  text: Message;
  /** The variant's page in the Shopify admin, through App Bridge's shopify: protocol. */
  fixUrl: string;
}

export function CatalogueProblems({ problems }: { problems: CatalogueProblemEntry[] }) {
  const { t } = useTranslation("catalogue");
  const say = useTexts();
  return (
    <TitledCard title={t("problems.title")}>
      {problems.length === 0 ? (
        <Text as="p" tone="subdued">
          {t("problems.none")}
        </Text>
      ) : (
        <List>
          {problems.map((problem) => (
            <List.Item key={problem.id}>
              <Text as="span" fontWeight="semibold">
                {problem.sku ? <SkuLink sku={problem.sku} /> : problem.name}
              </Text>
              {t("problems.why", { why: say(problem.text) })}
              <Link url={problem.fixUrl}>{t("problems.fix")}</Link>
            </List.Item>
          ))}
        </List>
      )}
    </TitledCard>
  );
}
