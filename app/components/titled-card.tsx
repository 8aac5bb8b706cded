// A card with its title: the one way every admin page opens a card with a heading, so the heading's level
// and style (an h2 in Polaris' headingMd) and the space under it are the same everywhere.
import { BlockStack, Card, Text, type BlockStackProps } from "@shopify/polaris";
import type { ReactNode } from "react";

export function TitledCard({
  title,
  gap = "300",
  children,
}: {
  title: ReactNode;
  /** The space between the title and what follows, and between those (Polaris' scale). */
  gap?: BlockStackProps["gap"];
  children: ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}
