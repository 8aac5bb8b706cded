// The way to a SKU's page (app/routes/app.stock_.sku.tsx) from wherever SKUs are listed: its address with
// the SKU encoded (SKUs hold "/", spaces, Cyrillic), a link, and a form that opens any SKU.
import { Link as RemixLink, useNavigate } from "@remix-run/react";
import { Button, Card, FormLayout, InlineStack, TextField } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Period } from "./movements";

/** The SKU page's address, with a period when given. */
export function skuPath(sku: string, period?: Period): string {
  return `/app/stock/sku?${new URLSearchParams({ sku, ...period })}`;
}

/** The period's movements as CSV: the same query under the CSV route. */
export function skuCsvPath(sku: string, period: Period): string {
  return `/app/stock/sku.csv?${new URLSearchParams({ sku, ...period })}`;
}

/** A link to the SKU's page; the text is the SKU unless given. */
export function SkuLink({ sku, children }: { sku: string; children?: ReactNode }) {
  return <RemixLink to={skuPath(sku)}>{children ?? sku}</RemixLink>;
}

/** A form that opens any SKU's page: the Stock page's and the SKU page's way to another SKU. */
export function OpenSku() {
  const { t } = useTranslation("stock");
  const navigate = useNavigate();
  const [sku, setSku] = useState("");
  const [empty, setEmpty] = useState(false);
  return (
    <Card>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const wanted = sku.trim();
          setEmpty(!wanted);
          if (wanted) navigate(skuPath(wanted));
        }}
      >
        <FormLayout>
          <TextField
            label={t("sku.open.label")}
            autoComplete="off"
            value={sku}
            onChange={setSku}
            maxLength={255}
            helpText={t("sku.open.help")}
            error={empty ? t("sku.open.empty") : undefined}
          />
          <InlineStack>
            <Button submit>{t("sku.open.button")}</Button>
          </InlineStack>
        </FormLayout>
      </form>
    </Card>
  );
}
