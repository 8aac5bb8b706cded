// A short label over its value, as the order page's cards list their facts.
import { BlockStack, Text } from "@shopify/polaris";
import { type ReactNode } from "react";

/** A short label over its value. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {term}
      </Text>
      {typeof children === "string" ? (
        <Text as="span" breakWord>
          {children}
        </Text>
      ) : (
        children
      )}
    </BlockStack>
  );
}
