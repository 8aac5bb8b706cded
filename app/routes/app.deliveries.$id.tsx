// One inbound delivery request: its fields, where it stands, and per line what was planned against what the
// warehouse has received. Viewing it reads the warehouse's report (and "Refresh" again); a request in doubt
// is looked up by its number, and one that failed or that the warehouse does not list can be sent again
// under the same number, or copied into a new request.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, DataTable, InlineGrid, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DeliveryStatusBadge, useDeliveryDate, useMethodName } from "../components/delivery";
import { MessageText } from "../components/message-text";
import { appContext } from "../context.server";
import {
  lookUpDeliveryRequest,
  maySendAgain,
  isLookUpMiss,
  refreshDeliveryRequest,
  sendDeliveryRequestAgain,
  settleStaleSending,
  type ActionOutcome,
} from "../deliveries/deliveries.server";
import { DELIVERY_STATE, deliveryStatus, readLines, totals } from "../deliveries/lines";
import { message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { readTexts } from "../i18n/texts";
import { authenticate } from "../shopify.server";
import { TitledCard } from "../components/titled-card";

const idSchema = z.string().min(1).max(64);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const context = appContext();
  const { db } = context;
  const shop = session.shop;
  const id = idSchema.safeParse(params.id);
  let row = id.success ? await db.inboundDelivery.findFirst({ where: { id: id.data, shop } }) : null;
  if (!row) return { delivery: null };

  // What the warehouse says now: a request in doubt is looked up (until a look-up has missed: then the
  // merchant decides), a request it has is reported on. Neither blocks the page when the warehouse is away.
  let stale = false;
  if (await settleStaleSending(context, shop, row))
    row = await db.inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
  if (row.state === DELIVERY_STATE.inDoubt && !maySendAgain(row)) {
    const looked = await lookUpDeliveryRequest(context, shop, row.id);
    stale = !looked.ok && !isLookUpMiss(looked.message);
  }
  row = await db.inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
  if (row.warehouseId) {
    stale = !(await refreshDeliveryRequest(context, shop, row.id)).ok;
    row = await db.inboundDelivery.findUniqueOrThrow({ where: { id: row.id } });
  }

  const lines = readLines(row.lines);
  return {
    delivery: {
      id: row.id,
      idRequest: row.idRequest,
      warehouseId: row.warehouseId,
      state: row.state,
      status: deliveryStatus(row),
      deliveryDate: row.deliveryDate,
      method: row.method,
      seats: row.seats,
      ttn: row.ttn,
      comment: row.comment,
      checkedAt: row.checkedAt?.toISOString() ?? null,
      problem: readTexts(row.error),
      maySendAgain: maySendAgain(row),
      lines,
      totals: totals(lines),
    },
    stale,
  };
};

const actionSchema = z.object({ intent: z.enum(["refresh", "lookUp", "sendAgain"]) });

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionOutcome> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  const id = idSchema.safeParse(params.id);
  if (!parsed.success || !id.success) return { ok: false, message: message("deliveries:action.unknown") };
  const context = appContext();
  switch (parsed.data.intent) {
    case "refresh":
      return refreshDeliveryRequest(context, session.shop, id.data);
    case "lookUp":
      return lookUpDeliveryRequest(context, session.shop, id.data);
    case "sendAgain":
      return sendDeliveryRequestAgain(context, session.shop, id.data);
  }
};

export default function Delivery() {
  const { delivery, stale } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("deliveries");
  const format = useFormat();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const dateOf = useDeliveryDate();
  const methodName = useMethodName();
  const post = (intent: string) => submit({ intent }, { method: "post", encType: "application/json" });

  if (!delivery) {
    return (
      <Page title={t("list.title")} backAction={{ content: t("detail.back"), url: "/app/deliveries" }}>
        <Banner tone="warning">{t("detail.notFound")}</Banner>
      </Page>
    );
  }
  const missing = delivery.state === DELIVERY_STATE.inDoubt && delivery.maySendAgain;
  const difference = (received: number, planned: number) =>
    received === planned
      ? "0"
      : `${received > planned ? "+" : "−"}${format.number(Math.abs(received - planned))}`;

  return (
    <Page
      title={t("detail.title", { idRequest: delivery.idRequest })}
      titleMetadata={<DeliveryStatusBadge status={delivery.status} />}
      backAction={{ content: t("detail.back"), url: "/app/deliveries" }}
      primaryAction={
        delivery.warehouseId
          ? { content: t("detail.refresh"), onAction: () => post("refresh"), loading: busy, disabled: busy }
          : undefined
      }
    >
      <BlockStack gap="400">
        {answer && (
          <Banner tone={answer.ok ? "success" : "warning"}>
            <MessageText text={answer.message} />
          </Banner>
        )}
        {stale && !answer && <Banner tone="warning">{t("detail.stale")}</Banner>}
        {delivery.state === DELIVERY_STATE.found && <Banner tone="info">{t("detail.found")}</Banner>}
        {delivery.state === DELIVERY_STATE.sending && (
          <Banner tone="info" title={t("detail.sending.title")}>
            <p>{t("detail.sending.body")}</p>
          </Banner>
        )}
        {delivery.state === DELIVERY_STATE.inDoubt && !missing && (
          <Banner
            tone="warning"
            title={t("detail.inDoubt.title")}
            action={{ content: t("detail.inDoubt.lookUp"), onAction: () => post("lookUp"), disabled: busy }}
          >
            <p>{t("detail.inDoubt.body")}</p>
            {delivery.problem.length > 0 && (
              <p>
                <MessageText text={delivery.problem} />
              </p>
            )}
          </Banner>
        )}
        {missing && (
          <Banner
            tone="warning"
            title={t("detail.missing.title")}
            action={{
              content: t("detail.missing.sendAgain"),
              onAction: () => post("sendAgain"),
              disabled: busy,
            }}
            secondaryAction={{ content: t("detail.inDoubt.lookUp"), onAction: () => post("lookUp") }}
          >
            <p>
              {t("detail.missing.body", {
                at: delivery.checkedAt ? format.dateTime(delivery.checkedAt) : t("detail.never"),
              })}
            </p>
          </Banner>
        )}
        {delivery.state === DELIVERY_STATE.failed && (
          <Banner
            tone="critical"
            title={t("detail.failed.title")}
            action={{
              content: t("detail.failed.sendAgain"),
              onAction: () => post("sendAgain"),
              disabled: busy,
            }}
            secondaryAction={{
              content: t("detail.failed.copy"),
              url: `/app/deliveries/new?from=${delivery.id}`,
            }}
          >
            {delivery.problem.length > 0 && (
              <p>
                <MessageText text={delivery.problem} />
              </p>
            )}
            <p>{t("detail.failed.body")}</p>
          </Banner>
        )}
        <TitledCard title={t("detail.facts")}>
          <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="300">
            <Fact label={t("detail.warehouseId")} value={delivery.warehouseId ?? t("detail.none")} />
            <Fact label={t("detail.date")} value={dateOf(delivery.deliveryDate)} />
            <Fact label={t("detail.method")} value={methodName(delivery.method)} />
            <Fact label={t("detail.seats")} value={format.number(delivery.seats)} />
            <Fact label={t("detail.ttn")} value={delivery.ttn ?? t("detail.none")} />
            <Fact
              label={t("detail.checkedAt")}
              value={delivery.checkedAt ? format.dateTime(delivery.checkedAt) : t("detail.never")}
            />
          </InlineGrid>
          {delivery.comment && <Fact label={t("detail.comment")} value={delivery.comment} />}
        </TitledCard>
        <TitledCard title={t("detail.lines")}>
          {delivery.lines.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("detail.noLines")}
            </Text>
          ) : delivery.warehouseId ? (
            <DataTable
              columnContentTypes={["text", "text", "numeric", "numeric", "numeric"]}
              headings={[
                t("detail.sku"),
                t("detail.name"),
                t("detail.planned"),
                t("detail.received"),
                t("detail.difference"),
              ]}
              rows={delivery.lines.map((line) => [
                line.sku,
                line.name,
                format.number(line.count),
                format.number(line.received),
                difference(line.received, line.count),
              ])}
              totals={[
                "",
                "",
                format.number(delivery.totals.planned),
                format.number(delivery.totals.received),
                difference(delivery.totals.received, delivery.totals.planned),
              ]}
              totalsName={{ singular: t("detail.total"), plural: t("detail.total") }}
              showTotalsInFooter
            />
          ) : (
            // Not at the warehouse (yet): nothing can have been received.
            <DataTable
              columnContentTypes={["text", "text", "numeric"]}
              headings={[t("detail.sku"), t("detail.name"), t("detail.planned")]}
              rows={delivery.lines.map((line) => [line.sku, line.name, format.number(line.count)])}
              totals={["", "", format.number(delivery.totals.planned)]}
              totalsName={{ singular: t("detail.total"), plural: t("detail.total") }}
              showTotalsInFooter
            />
          )}
        </TitledCard>
      </BlockStack>
    </Page>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="100">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span">{value}</Text>
    </BlockStack>
  );
}
