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
import { z } from "zod";
import { catalogueSyncOverview, startCatalogueSync } from "../catalogue/full-sync.server";
import { figure, fullSyncEstimate, syncProgress } from "../catalogue/progress";
import { catalogueProblems } from "../catalogue/record.server";
import { countShopVariants } from "../catalogue/variants.server";
import { cardPaceMs } from "../catalogue/work.server";
import { CatalogueProblems } from "../components/catalogue-problems";
import { appContext } from "../context.server";
import { env } from "../env.server";
import { formatShopTime, shopTimeZone } from "../orders/queries.server";
import { createShopAdmin } from "../shopify/admin-graphql.server";
import { authenticate } from "../shopify.server";
import { REQUESTS_PER_WINDOW } from "../warehouse/wire";
import { wakeWorker } from "../work/worker.server";

/** While a sync runs, the page reads its progress again this often. */
const POLL_MS = 3_000;

/** How many variants the shop has, for the estimate and the read's progress; null when Shopify cannot say. */
async function variantsInShop(request: Request): Promise<number | null> {
  const { admin } = await authenticate.admin(request);
  try {
    return await countShopVariants(createShopAdmin(admin.graphql));
  } catch (error) {
    appContext().log.warn(
      { event: "catalogue.variants_uncounted", err: error },
      "Shopify's count of variants could not be read",
    );
    return null;
  }
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const [{ running, syncs }, problems, timeZone] = await Promise.all([
    catalogueSyncOverview(db, session.shop),
    catalogueProblems(db, session.shop),
    shopTimeZone(db, session.shop),
  ]);
  // The catalogue kind's pace at the key's limits as this app runs them.
  const paceMs = cardPaceMs({
    windowMs: env().WAREHOUSE_RATE_WINDOW_MS,
    requestsPerWindow: REQUESTS_PER_WINDOW,
  });
  // Asked only where it is used: the confirmation (no sync running) and the read's progress.
  const counted = !running || running.phase === "shopify" ? await variantsInShop(request) : null;
  const time = (date: Date) => formatShopTime(date, timeZone);
  return {
    running: running && {
      ...syncProgress(running, { variantsInShop: counted, paceMs }),
      startedAt: time(running.startedAt),
      retrying: running.retrying,
    },
    estimate: fullSyncEstimate(counted, paceMs),
    syncs: syncs.map((sync) => ({
      id: sync.id,
      startedAt: time(sync.startedAt),
      variantsRead: figure(sync.variantsRead),
      alreadyThere: figure(sync.alreadyThere),
      // The running sync's row is brought up to date once a minute; its count now is on the page.
      sent: figure(sync.id === running?.id ? running.sent : sync.sent),
      outcome:
        sync.phase === "done"
          ? `Done in ${Math.max(1, Math.round((sync.finishedAt!.getTime() - sync.startedAt.getTime()) / 60_000))} min`
          : sync.phase === "failed"
            ? `Failed: ${sync.error}`
            : "Running",
    })),
    problems,
  };
};

const actionSchema = z.object({ intent: z.literal("sync") });

type ActionAnswer = { ok: boolean; message: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    return { ok: false, message: "The form could not be read; reload the page and try again." };
  }
  const started = await startCatalogueSync({ ...appContext(), wake: wakeWorker }, session.shop);
  return started.ok
    ? {
        ok: true,
        message: "The full sync has started. It goes on by itself, whether or not this page stays open.",
      }
    : started;
};

export default function Catalogue() {
  const { running, estimate, syncs, problems } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const [confirming, setConfirming] = useState(false);
  const { revalidate, state } = useRevalidator();

  useEffect(() => {
    if (!running || state !== "idle") return;
    const timer = setTimeout(revalidate, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, revalidate]);

  return (
    <Page
      title="Catalogue"
      primaryAction={{
        content: "Sync the whole catalogue",
        disabled: Boolean(running) || busy,
        onAction: () => setConfirming(true),
      }}
    >
      <BlockStack gap="400">
        {answer && <Banner tone={answer.ok ? "success" : "warning"}>{answer.message}</Banner>}
        {confirming && !running && (
          <Banner tone="info" title="Sync the whole catalogue?">
            <BlockStack gap="200">
              <p>
                Every variant is read from Shopify and compared with what the warehouse reports; only the
                products it lacks, or holds with another name or barcode, are sent to it. {estimate}
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
                  Start the sync
                </Button>
                <Button onClick={() => setConfirming(false)}>Not now</Button>
              </InlineStack>
            </BlockStack>
          </Banner>
        )}
        {running && (
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd" id="sync-step">
                {running.title}
              </Text>
              <ProgressBar progress={running.percent} ariaLabelledBy="sync-step" />
              <Text as="p">{running.detail}</Text>
              {running.timeLeft && <Text as="p">{running.timeLeft}</Text>}
              {running.retrying && (
                <Banner tone="warning">
                  {`The last step could not be done; it is tried again in a minute. What went wrong: ${running.retrying}`}
                </Banner>
              )}
              <Text as="p" tone="subdued">{`Started ${running.startedAt}.`}</Text>
            </BlockStack>
          </Card>
        )}
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Full syncs
            </Text>
            {syncs.length === 0 ? (
              <Text as="p" tone="subdued">
                No full sync yet. Products reach the warehouse as you create and change them; a full sync also
                sends those the app has not seen change.
              </Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric", "text"]}
                headings={["Started", "Variants read", "Already at the warehouse", "Sent", "Outcome"]}
                rows={syncs.map((sync) => [
                  sync.startedAt,
                  sync.variantsRead,
                  sync.alreadyThere,
                  sync.sent,
                  sync.outcome,
                ])}
              />
            )}
          </BlockStack>
        </Card>
        <CatalogueProblems problems={problems} />
      </BlockStack>
    </Page>
  );
}
