// The order page's card of what held the order: each reason with its fix, and under the first reason needing
// a kind of fix, that fix's form (a failed fix shows its error there).
import { BlockStack, Divider, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { translate } from "../../i18n/message";
import { FixForm } from "./fix-form";
import type { ActionAnswer, DeliveryMethods, OrderView } from "./view";
import { TitledCard } from "../../components/titled-card";

/** What to fix; shown only when the order has hold reasons. */
export function HoldReasonsCard({
  order,
  deliveryMethods,
  result,
  busy,
}: {
  order: OrderView;
  deliveryMethods: DeliveryMethods;
  /** The action's answer, when the page shows one. */
  result: ActionAnswer | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("orders");
  // One form per kind of fix, shown under the first reason that needs it.
  const fixShown = new Set<string>();
  return (
    <TitledCard title={t("detail.whatToFix")} gap="400">
      {order.holdReasons.map((reason, index) => {
        const first = reason.action !== null && !fixShown.has(reason.action);
        if (reason.action) fixShown.add(reason.action);
        return (
          <BlockStack gap="200" key={`${reason.code}-${index}`}>
            {index > 0 && <Divider />}
            <Text as="p" fontWeight="semibold">
              {reason.text ? translate(t, reason.text, reason.message) : reason.message}
            </Text>
            <Text as="p" tone="subdued">
              {reason.fixText ? translate(t, reason.fixText, reason.fix) : reason.fix}
            </Text>
            {first && reason.action && (
              <FixForm
                action={reason.action}
                candidates={reason.candidates ?? []}
                cityRef={reason.cityRef}
                overrides={order.overrides}
                deliveryMethods={deliveryMethods}
                error={result?.fix === reason.action && !result.ok ? translate(t, result.text) : undefined}
                busy={busy}
              />
            )}
          </BlockStack>
        );
      })}
    </TitledCard>
  );
}
