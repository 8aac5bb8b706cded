// The form for one kind of fix of a held order (phone, delivery method, branch, courier address, postcode,
// what a split order's parcel collects); it posts intent "correct" with the fix's fields (./fixes.ts).
import { Form } from "@remix-run/react";
import { BlockStack, Button, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { DeliveryMethodKey } from "../../orders/settings";
import type { BranchCandidate } from "../../reference/types";
import { FIXES } from "./fixes";
import { BranchChoice, StreetField } from "./search-fields";

export function FixForm({
  action,
  candidates,
  cityRef,
  overrides,
  deliveryMethods,
  error,
  busy,
}: {
  action: string;
  candidates: BranchCandidate[];
  /** A courier address held for: its city, whose streets are offered. */
  cityRef: string | undefined;
  overrides: Record<string, unknown>;
  deliveryMethods: readonly DeliveryMethodKey[];
  error: string | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("orders");
  const initial = (name: string) => (typeof overrides[name] === "string" ? (overrides[name] as string) : "");
  const courier = (overrides.courier ?? {}) as Record<string, string | undefined>;
  const [values, setValues] = useState<Record<string, string>>({
    phone: initial("phone"),
    deliveryMethod: initial("deliveryMethod") || deliveryMethods[0] || "",
    warehouseRef: initial("warehouseRef"),
    postcode: initial("postcode"),
    street: courier.street ?? "",
    house: courier.house ?? "",
    flat: courier.flat ?? "",
  });
  const field = (name: string) => ({
    name,
    value: values[name] ?? "",
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
    autoComplete: "off",
  });

  if (action === "settings") {
    return (
      <InlineStack>
        <Button url="/app/settings">{t("detail.openSettings")}</Button>
      </InlineStack>
    );
  }
  if (!(FIXES as readonly string[]).includes(action)) return null;
  if (action === "splitCod") {
    // Three choices, one click each: what the warehouse's parcel of a split order collects.
    return (
      <BlockStack gap="200">
        <Text as="p" fontWeight="semibold">
          {t("detail.splitCodTitle")}
        </Text>
        <InlineStack gap="200">
          {(
            [
              ["whole_order", "detail.splitCodWhole"],
              ["parcel_share", "detail.splitCodShare"],
              ["no_cash", "detail.splitCodNone"],
            ] as const
          ).map(([choice, label]) => (
            <Form method="post" key={choice}>
              <input type="hidden" name="intent" value="correct" />
              <input type="hidden" name="fix" value="splitCod" />
              <input type="hidden" name="splitCod" value={choice} />
              <Button submit disabled={busy}>
                {t(label)}
              </Button>
            </Form>
          ))}
        </InlineStack>
        {error && (
          <Text as="p" tone="critical">
            {error}
          </Text>
        )}
      </BlockStack>
    );
  }

  return (
    <Form method="post">
      <input type="hidden" name="intent" value="correct" />
      <input type="hidden" name="fix" value={action} />
      <FormLayout>
        {action === "phone" && (
          <TextField
            label={t("detail.phoneLabel")}
            type="tel"
            placeholder="+380 67 123 45 67"
            helpText={t("detail.phoneHelp")}
            error={error}
            {...field("phone")}
          />
        )}
        {action === "deliveryMethod" && (
          <Select
            label={t("detail.deliveryMethodLabel")}
            options={deliveryMethods.map((method) => ({
              value: method,
              label: t(`deliveryMethod.${method}`),
            }))}
            error={error}
            name="deliveryMethod"
            value={values.deliveryMethod}
            onChange={(value) => setValues((current) => ({ ...current, deliveryMethod: value }))}
          />
        )}
        {action === "warehouseRef" && (
          <BranchChoice
            candidates={candidates}
            initialRef={values.warehouseRef ?? ""}
            error={error}
            busy={busy}
          />
        )}
        {action === "postcode" && (
          <TextField
            label={t("detail.postcodeLabel")}
            placeholder="01001"
            maxLength={5}
            error={error}
            {...field("postcode")}
          />
        )}
        {action === "courierAddress" && (
          <FormLayout.Group>
            {cityRef ? (
              <>
                <input type="hidden" name="cityRef" value={cityRef} />
                <StreetField
                  cityRef={cityRef}
                  value={values.street ?? ""}
                  onChange={(value) => setValues((current) => ({ ...current, street: value }))}
                  error={error}
                />
              </>
            ) : (
              <TextField label={t("detail.street")} error={error} {...field("street")} />
            )}
            <TextField label={t("detail.house")} {...field("house")} />
            <TextField label={t("detail.flat")} {...field("flat")} />
          </FormLayout.Group>
        )}
        <InlineStack>
          <Button submit variant="primary" loading={busy}>
            {t("detail.saveAndCheck")}
          </Button>
        </InlineStack>
      </FormLayout>
    </Form>
  );
}
