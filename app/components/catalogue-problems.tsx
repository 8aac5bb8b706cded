// The catalogue's problems as a card: each variant the warehouse cannot be sent, with the sentence that says
// why and a link to fix it in Shopify. Shared by the Catalogue and Stock pages.
import { BlockStack, Card, Link, List, Text } from "@shopify/polaris";

/** A problem as catalogueProblems (app/catalogue/record.server.ts) gives it. */
export interface CatalogueProblemEntry {
  id: string;
  sku: string | null;
  name: string;
  message: string | null;
  /** The variant's page in the Shopify admin, through App Bridge's shopify: protocol. */
  fixUrl: string;
}

export function CatalogueProblems({ problems }: { problems: CatalogueProblemEntry[] }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Catalogue problems
        </Text>
        {problems.length === 0 ? (
          <Text as="p" tone="subdued">
            Every variant has a card the warehouse can take.
          </Text>
        ) : (
          <List>
            {problems.map((problem) => (
              <List.Item key={problem.id}>
                <Text as="span" fontWeight="semibold">
                  {problem.sku ?? problem.name}
                </Text>
                {`: ${problem.message} `}
                <Link url={problem.fixUrl}>Fix in Shopify</Link>
              </List.Item>
            ))}
          </List>
        )}
      </BlockStack>
    </Card>
  );
}
