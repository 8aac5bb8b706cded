// A new inbound delivery request: the date, how the goods travel (with the Nova Poshta waybill), the seats,
// a comment and the goods, each line a SKU picked from the catalogue with its count. The form's number
// (idRequest) is made when it is shown, so submitting it twice makes one request. Every field is checked on
// the server and its problem shown beside it; nothing is sent while any is left.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Autocomplete,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { createDeliveryRequest } from "../deliveries/deliveries.server";
import {
  DELIVERY_FORM_LIMITS,
  deliveryFormInputSchema,
  newIdRequest,
  type FieldErrors,
} from "../deliveries/form";
import { METHOD_LITERAL, methodOf, readLines, type DeliveryMethod } from "../deliveries/lines";
import { message } from "../i18n/message";
import { kyivDay } from "../warehouse/dates";
import { authenticate } from "../shopify.server";
import type { SkuSearchAnswer } from "./app.deliveries.skus";
import { TitledCard } from "../components/titled-card";

const SEARCH_DEBOUNCE_MS = 250;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db, clock } = appContext();
  // "New request from this one": a request of this shop (a failed one, say) fills the form in.
  const from = new URL(request.url).searchParams.get("from");
  const source =
    from && from.length <= 64
      ? await db.inboundDelivery.findFirst({ where: { id: from, shop: session.shop } })
      : null;
  const today = kyivDay(clock());
  return {
    idRequest: newIdRequest(),
    today,
    copiedFrom: source?.idRequest ?? null,
    initial: {
      deliveryDate: source && source.deliveryDate >= today ? source.deliveryDate : today,
      method: (source && methodOf(source.method)) ?? ("novaPoshta" as DeliveryMethod),
      seats: source ? String(source.seats) : "1",
      ttn: source?.ttn ?? "",
      comment: source?.comment ?? "",
      lines: source
        ? readLines(source.lines).map((line) => ({
            sku: line.sku,
            name: line.name,
            count: String(line.count),
          }))
        : [],
    },
  };
};

type ActionAnswer = { errors: FieldErrors };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer | Response> => {
  const { session } = await authenticate.admin(request);
  const parsed = deliveryFormInputSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return { errors: { form: message("deliveries:form.error.unreadable") } };
  const outcome = await createDeliveryRequest(appContext(), session.shop, parsed.data);
  if (!outcome.ok) return { errors: outcome.errors };
  return redirect(`/app/deliveries/${outcome.id}`);
};

interface Line {
  sku: string;
  name: string;
  count: string;
}

export default function NewDelivery() {
  const { idRequest, today, copiedFrom, initial } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("deliveries");
  const say = useTexts();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const [deliveryDate, setDeliveryDate] = useState(initial.deliveryDate);
  const [method, setMethod] = useState<DeliveryMethod>(initial.method);
  const [seats, setSeats] = useState(initial.seats);
  const [ttn, setTtn] = useState(initial.ttn);
  const [comment, setComment] = useState(initial.comment);
  const [lines, setLines] = useState<Line[]>(initial.lines);
  const errors: FieldErrors = answer?.errors ?? {};
  const error = (field: string) => (errors[field] ? say(errors[field]) : undefined);

  const send = () =>
    submit(
      {
        idRequest,
        deliveryDate,
        method,
        seats,
        ttn: method === "novaPoshta" ? ttn : "",
        comment,
        lines: lines.map(({ sku, count }) => ({ sku, count })),
      },
      { method: "post", encType: "application/json" },
    );
  const setCount = (index: number, count: string) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, count } : line)));
  const remove = (index: number) => setLines((current) => current.filter((_, at) => at !== index));
  const add = (hit: { sku: string; name: string }) =>
    setLines((current) =>
      current.some((line) => line.sku === hit.sku) ? current : [...current, { ...hit, count: "1" }],
    );

  return (
    <Page
      title={t("form.title")}
      backAction={{ content: t("detail.back"), url: "/app/deliveries" }}
      primaryAction={{ content: t("form.submit"), onAction: send, loading: busy, disabled: busy }}
    >
      <BlockStack gap="400">
        {Object.keys(errors).length > 0 && (
          <Banner tone="critical" title={t("form.errorsTitle")}>
            {errors.form && (
              <p>
                <MessageText text={errors.form} />
              </p>
            )}
          </Banner>
        )}
        <Text as="p" tone="subdued">
          {t("form.number", { idRequest })}
        </Text>
        {copiedFrom && <Banner tone="info">{t("form.copied", { idRequest: copiedFrom })}</Banner>}
        <Card>
          <FormLayout>
            <Text as="h2" variant="headingMd">
              {t("form.details")}
            </Text>
            <FormLayout.Group>
              <TextField
                label={t("form.date")}
                type="date"
                min={today}
                value={deliveryDate}
                onChange={setDeliveryDate}
                helpText={t("form.dateHelp")}
                error={error("deliveryDate")}
                autoComplete="off"
              />
              <Select
                label={t("form.method")}
                options={(Object.keys(METHOD_LITERAL) as DeliveryMethod[]).map((key) => ({
                  label: t(`method.${key}`),
                  value: key,
                }))}
                value={method}
                onChange={(value) => setMethod(value as DeliveryMethod)}
                error={error("method")}
              />
            </FormLayout.Group>
            <FormLayout.Group>
              <TextField
                label={t("form.seats")}
                type="number"
                min={1}
                max={DELIVERY_FORM_LIMITS.seats}
                value={seats}
                onChange={setSeats}
                error={error("seats")}
                autoComplete="off"
              />
              {method === "novaPoshta" ? (
                <TextField
                  label={t("form.ttn")}
                  value={ttn}
                  onChange={setTtn}
                  helpText={t("form.ttnHelp")}
                  error={error("ttn")}
                  inputMode="numeric"
                  autoComplete="off"
                />
              ) : (
                <Box />
              )}
            </FormLayout.Group>
            <TextField
              label={t("form.comment")}
              value={comment}
              onChange={setComment}
              multiline={3}
              maxLength={DELIVERY_FORM_LIMITS.comment}
              showCharacterCount
              helpText={t("form.commentHelp", { max: DELIVERY_FORM_LIMITS.comment })}
              error={error("comment")}
              autoComplete="off"
            />
          </FormLayout>
        </Card>
        <TitledCard title={t("form.lines")}>
          <Text as="p" tone="subdued">
            {t("form.linesHelp", { max: DELIVERY_FORM_LIMITS.lines })}
          </Text>
          <SkuPicker onPick={add} error={error("lines")} />
          {lines.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("form.noLinesYet")}
            </Text>
          ) : (
            lines.map((line, index) => (
              <InlineStack key={line.sku} gap="300" blockAlign="start" wrap={false}>
                <Box minWidth="16rem">
                  <BlockStack gap="100">
                    <Text as="span" fontWeight="semibold">
                      {line.sku}
                    </Text>
                    <Text as="span" tone="subdued">
                      {line.name}
                    </Text>
                    {errors[`lines.${index}.sku`] && (
                      <Text as="span" tone="critical">
                        <MessageText text={errors[`lines.${index}.sku`]} />
                      </Text>
                    )}
                  </BlockStack>
                </Box>
                <Box width="12rem">
                  <TextField
                    label={t("form.count", { sku: line.sku })}
                    type="number"
                    min={1}
                    max={DELIVERY_FORM_LIMITS.count}
                    value={line.count}
                    onChange={(count) => setCount(index, count)}
                    error={error(`lines.${index}.count`)}
                    autoComplete="off"
                  />
                </Box>
                <Box paddingBlockStart="600">
                  <Button variant="plain" tone="critical" onClick={() => remove(index)}>
                    {t("form.remove", { sku: line.sku })}
                  </Button>
                </Box>
              </InlineStack>
            ))
          )}
        </TitledCard>
        <InlineStack align="end">
          <Button variant="primary" onClick={send} loading={busy} disabled={busy}>
            {t("form.submit")}
          </Button>
        </InlineStack>
      </BlockStack>
    </Page>
  );
}

/**
 * The catalogue's SKUs as the merchant types (app/routes/app.deliveries.skus.ts, twenty at most): a SKU
 * whose card the warehouse does not have yet is shown, but cannot be picked.
 */
function SkuPicker({
  onPick,
  error,
}: {
  onPick: (hit: { sku: string; name: string }) => void;
  error?: string;
}) {
  const { t } = useTranslation("deliveries");
  const search = useFetcher<SkuSearchAnswer>();
  const [query, setQuery] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const typed = (text: string) => {
    setQuery(text);
    clearTimeout(timer.current);
    const trimmed = text.trim();
    if (!trimmed) return;
    timer.current = setTimeout(
      () => search.load(`/app/deliveries/skus?${new URLSearchParams({ q: trimmed })}`),
      SEARCH_DEBOUNCE_MS,
    );
  };
  const hits = search.data?.hits ?? [];
  return (
    <Autocomplete
      options={hits.map((hit) => ({
        value: hit.sku,
        label: hit.atWarehouse
          ? t("form.skuOption", { sku: hit.sku, name: hit.name })
          : t("form.skuNotAtWarehouse", { sku: hit.sku, name: hit.name }),
        disabled: !hit.atWarehouse,
      }))}
      selected={[]}
      loading={search.state === "loading"}
      onSelect={([sku]) => {
        const hit = hits.find((each) => each.sku === sku);
        if (!hit?.atWarehouse) return;
        onPick({ sku: hit.sku, name: hit.name });
        setQuery("");
      }}
      emptyState={
        query.trim() && search.data && hits.length === 0 ? (
          <Box padding="300">
            <Text as="p">{t("form.skuNothing", { text: query.trim() })}</Text>
          </Box>
        ) : undefined
      }
      textField={
        <Autocomplete.TextField
          label={t("form.skuSearch")}
          placeholder={t("form.skuSearchPlaceholder")}
          value={query}
          onChange={typed}
          error={error}
          autoComplete="off"
        />
      }
    />
  );
}
