// The Catalogue page: "Sync the whole catalogue" with a confirmation that says how long it may take, the
// running sync's step, progress bar, counts and time left (read again every few seconds while it runs), the
// last syncs, and the catalogue's problems with a link to fix each in Shopify.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { catalogueSyncOverview, startCatalogueSync } from "../catalogue/full-sync.server";
import { fullSyncEstimate, syncProgress } from "../catalogue/progress";
import { catalogueProblems } from "../catalogue/record.server";
import { countShopVariants } from "../catalogue/variants.server";
import { cardPaceMs } from "../catalogue/work.server";
import { CatalogueProblems } from "../stock/catalogue-problems";
import { MessageText } from "../components/message-text";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { env } from "../env.server";
import { message, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { readTexts } from "../i18n/texts";
import { createShopAdmin } from "../shopify/admin-graphql.server";
import { authenticate } from "../shopify.server";
import { REQUESTS_PER_WINDOW } from "../warehouse/wire";
import { wakeWorker } from "../work/worker.server";
import { TitledCard } from "../components/titled-card";

/** While a sync runs, the page reads its progress again this often. */
const POLL_MS = 3_000;

/** How many variants the shop has, for the estimate and the read's progress; null when Shopify cannot say. */
async function variantsInShop(request: Request): Promise<number | null> {
  const { admin } = await authenticate.admin(request);
  try {
    return await countShopVariants(createShopAdmin(admin.graphql));
  } catch (error) {
    const { log } = appContext();
    log.warn(
      { event: "catalogue.variants_uncounted", err: error },
      "Shopify's count of variants could not be read",
    );
    return null;
  }
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const [{ running, syncs }, problems] = await Promise.all([
    catalogueSyncOverview(db, session.shop),
    catalogueProblems(db, session.shop),
  ]);
  // The catalogue kind's pace at the key's limits as this app runs them.
  const paceMs = cardPaceMs({
    windowMs: env().WAREHOUSE_RATE_WINDOW_MS,
    requestsPerWindow: REQUESTS_PER_WINDOW,
  });
  // Asked only where it is used: the confirmation (no sync running) and the read's progress.
  const counted = !running || running.phase === "shopify" ? await variantsInShop(request) : null;
  return {
    running: running && {
      ...syncProgress(running, { variantsInShop: counted, paceMs }),
      startedAt: running.startedAt.toISOString(),
      // The engine's words for the last step's failure, kept in English on the schedule.
      retrying: running.retrying,
    },
    estimate: fullSyncEstimate(counted, paceMs),
    syncs: syncs.map((sync) => ({
      id: sync.id,
      startedAt: sync.startedAt.toISOString(),
      variantsRead: sync.variantsRead,
      alreadyThere: sync.alreadyThere,
      // The running sync's row is brought up to date once a minute; its count now is on the page.
      sent: sync.id === running?.id ? running.sent : sync.sent,
      outcome:
        sync.phase === "done"
          ? message("catalogue:outcome.done", {
              minutes: Math.max(
                1,
                Math.round((sync.finishedAt!.getTime() - sync.startedAt.getTime()) / 60_000),
              ),
            })
          : sync.phase === "failed"
            ? message("catalogue:outcome.failed")
            : message("catalogue:outcome.running"),
      error: readTexts(sync.error),
    })),
    problems,
  };
};

const actionSchema = z.object({ intent: z.literal("sync") });

type ActionAnswer = { ok: boolean; message: Message };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return { ok: false, message: message("catalogue:formUnreadable") };
  const started = await startCatalogueSync({ ...appContext(), wake: wakeWorker }, session.shop);
  return started.ok
    ? { ok: true, message: message("catalogue:started") }
    : { ok: false, message: message("catalogue:alreadyRunning") };
};

export default function Catalogue() {
  const { running, estimate, syncs, problems } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const [confirming, setConfirming] = useState(false);
  const { revalidate, state } = useRevalidator();
  const { t } = useTranslation("catalogue");
  const format = useFormat();
  const say = useTexts();

  useEffect(() => {
    if (!running || state !== "idle") return;
    const timer = setTimeout(revalidate, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, revalidate]);

  return (
    <Page
      title={t("title")}
      primaryAction={{
        content: t("syncAll"),
        disabled: Boolean(running) || busy,
        onAction: () => setConfirming(true),
      }}
    >
      <BlockStack gap="400">
        {answer && (
          <Banner tone={answer.ok ? "success" : "warning"}>
            <MessageText text={answer.message} />
          </Banner>
        )}
        {confirming && !running && (
          <Banner tone="info" title={t("confirm.title")}>
            <BlockStack gap="200">
              <p>{t("confirm.body")}</p>
              <p>
                <MessageText text={estimate} />
              </p>
              <InlineStack gap="200">
                <Button
                  variant="primary"
                  loading={busy}
                  onClick={() => {
                    setConfirming(false);
                    submit({ intent: "sync" }, { method: "post", encType: "application/json" });
                  }}
                >
                  {t("confirm.start")}
                </Button>
                <Button onClick={() => setConfirming(false)}>{t("confirm.notNow")}</Button>
              </InlineStack>
            </BlockStack>
          </Banner>
        )}
        {running && (
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd" id="sync-step">
                <MessageText text={running.title} />
              </Text>
              <ProgressBar progress={running.percent} ariaLabelledBy="sync-step" />
              <Text as="p">
                <MessageText text={running.detail} />
              </Text>
              {running.timeLeft && (
                <Text as="p">
                  <MessageText text={running.timeLeft} />
                </Text>
              )}
              {running.retrying && (
                <Banner tone="warning">{t("running.retrying", { detail: running.retrying })}</Banner>
              )}
              <Text as="p" tone="subdued">
                {t("running.started", { at: format.dateTime(running.startedAt) })}
              </Text>
            </BlockStack>
          </Card>
        )}
        <TitledCard title={t("history.title")}>
          {syncs.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("history.none")}
            </Text>
          ) : (
            <DataTable
              columnContentTypes={["text", "numeric", "numeric", "numeric", "text"]}
              headings={[
                t("history.started"),
                t("history.variantsRead"),
                t("history.alreadyThere"),
                t("history.sent"),
                t("history.outcome"),
              ]}
              rows={syncs.map((sync) => [
                format.dateTime(sync.startedAt),
                format.number(sync.variantsRead),
                format.number(sync.alreadyThere),
                format.number(sync.sent),
                [say(sync.outcome), say(sync.error)].filter(Boolean).join(" "),
              ])}
            />
          )}
        </TitledCard>
        <CatalogueProblems problems={problems} />
      </BlockStack>
    </Page>
  );
}
