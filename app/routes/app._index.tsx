// Home: the setup checklist until the merchant marks it done (or puts it off), then the dashboard. Each
// checklist step saves on its own through the settings' own save functions; `?step=` opens a step again,
// and `?setup=1` brings the checklist back from the dashboard.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { catalogueSyncOverview } from "../catalogue/full-sync.server";
import { appContext } from "../context.server";
import { Dashboard } from "../dashboard/dashboard";
import { dashboard } from "../dashboard/queries.server";
import { env } from "../env.server";
import { listLocations } from "../fulfillment/locations.server";
import { message } from "../i18n/message";
import { readTexts } from "../i18n/texts";
import { Checklist } from "../onboarding/checklist";
import { connectionFormSchema, testConnection } from "../onboarding/connection.server";
import { previewRules, recentOrders, usedNames, PREVIEW_ORDERS } from "../onboarding/rules.server";
import { ONBOARDING_STEPS, nextStep, showsDashboard, type OnboardingStep } from "../onboarding/state";
import {
  finishOnboarding,
  loadOnboarding,
  postponeOnboarding,
  reopenOnboarding,
} from "../onboarding/state.server";
import {
  confirmNotifications,
  rulesOfForm,
  saveConnection,
  saveLocation,
  saveServiceLocation,
  saveRules,
  startFirstSync,
  type StepAnswer,
} from "../onboarding/steps.server";
import type { ChecklistView, HomeAnswer } from "../onboarding/view";
import { shopTimeZone } from "../orders/queries.server";
import { accountSenders, chooseSender } from "../settings/senders.server";
import { loadSettings } from "../settings/settings.server";
import { createShopAdmin, type ShopAdmin } from "../shopify/admin-graphql.server";
import { loadStatusSettings } from "../statuses/settings.server";
import { notifyAddress } from "../statuses/notify-token.server";
import { authenticate } from "../shopify.server";
import { shopChanged, wakeWorker } from "../work/worker.server";

const stepParam = z.enum(ONBOARDING_STEPS).optional().catch(undefined);

async function locationChoices(admin: ShopAdmin) {
  try {
    return await listLocations(admin);
  } catch {
    return null;
  }
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const { db, log, clock, encryptionKey } = appContext();
  const shop = session.shop;
  const url = new URL(request.url);
  const state = await loadOnboarding(db, shop);
  if (showsDashboard(state) && !url.searchParams.has("setup") && !url.searchParams.has("step")) {
    const timeZone = await shopTimeZone(db, shop);
    const data = await dashboard(db, shop, {
      now: clock(),
      timeZone,
      windowMs: env().WAREHOUSE_RATE_WINDOW_MS,
    });
    return { mode: "dashboard" as const, dashboard: data, finished: Boolean(state.finishedAt) };
  }
  const open = stepParam.parse(url.searchParams.get("step") ?? undefined) ?? nextStep(state);
  const settings = await loadSettings(db, shop, log);
  const view: ChecklistView = {
    state,
    open,
    connection: {
      hasApiKey: settings.hasApiKey,
      apiKeyHint: settings.apiKeyHint,
      environment: settings.environment,
    },
    location: { mode: "location", current: null, currentName: null, choices: null },
    rules: null,
    sender: null,
    notifications: null,
    catalogue: null,
  };
  const statuses = await loadStatusSettings(db, shop);
  view.location.current = statuses.locationId;
  view.location.currentName = statuses.locationName;
  const fulfillmentMode = await db.shopSettings.findUnique({
    where: { shop },
    select: { fulfillmentMode: true },
  });
  view.location.mode = fulfillmentMode?.fulfillmentMode === "service" ? "service" : "location";
  if (open === "location") view.location.choices = await locationChoices(createShopAdmin(admin.graphql));
  if (open === "rules") {
    const orders = await recentOrders(db, shop);
    view.rules = {
      paymentRules: settings.mapping.paymentRules,
      deliveryRules: settings.mapping.deliveryRules,
      ...usedNames(orders),
      preview: previewRules(orders.slice(0, PREVIEW_ORDERS), settings.mapping),
    };
  }
  if (open === "sender") {
    const check = await accountSenders(appContext(), shop);
    view.sender = {
      current: settings.mapping.deliverySenderId ?? null,
      senders: check?.ok ? check.senders : null,
      problem: check === null ? message("onboarding:sender.needsKey") : check.ok ? null : check.problem,
    };
  }
  if (open === "notifications") {
    const address = await notifyAddress(db, shop, { encryptionKey });
    view.notifications = { url: address.ok ? address.url : null };
  }
  if (open === "catalogue") {
    const overview = await catalogueSyncOverview(db, shop);
    const sync = overview.running ?? overview.syncs[0];
    view.catalogue = sync
      ? {
          phase: sync.phase,
          read: sync.variantsRead,
          toSend: sync.toSend,
          sent: sync.sent,
          finishedAt: sync.finishedAt?.toISOString() ?? null,
          errors: readTexts(sync.error),
        }
      : null;
  }
  return { mode: "checklist" as const, checklist: view };
};

const intentSchema = z.object({
  intent: z.enum([
    "testConnection",
    "saveConnection",
    "saveLocation",
    "saveServiceLocation",
    "previewRules",
    "saveRules",
    "saveSender",
    "confirmNotifications",
    "startSync",
    "finish",
    "postpone",
    "reopen",
  ]),
});

const answerOf = (intent: string, answer: StepAnswer): HomeAnswer =>
  answer.ok
    ? { ok: true, intent, done: answer.done, ...(answer.notice && { notice: answer.notice }) }
    : { ok: false, intent, problems: answer.problems };

export const action = async ({ request }: ActionFunctionArgs): Promise<HomeAnswer | Response> => {
  const { session, admin } = await authenticate.admin(request);
  const shop = session.shop;
  const context = appContext();
  const deps = { ...context, wake: wakeWorker, shopChanged };
  const input: unknown = await request.json().catch(() => undefined);
  const parsed = intentSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, intent: "", problems: [message("onboarding:problem.form")] };
  }
  const { intent } = parsed.data;
  switch (intent) {
    case "testConnection": {
      const form = connectionFormSchema.safeParse(input);
      if (!form.success) return { ok: false, intent, problems: [message("onboarding:problem.form")] };
      const check = await testConnection(context, shop, form.data);
      return check.ok
        ? {
            ok: true,
            intent,
            done: message("onboarding:connection.worksSenders", { count: check.senders.length }),
          }
        : { ok: false, intent, problems: [check.problem] };
    }
    case "saveConnection":
      return answerOf(intent, await saveConnection(deps, shop, input));
    case "saveLocation": {
      const locations = await locationChoices(createShopAdmin(admin.graphql));
      if (locations === null) {
        return { ok: false, intent, problems: [message("onboarding:location.unavailable")] };
      }
      return answerOf(intent, await saveLocation(deps, shop, input, locations));
    }
    case "saveServiceLocation":
      return answerOf(
        intent,
        await saveServiceLocation(deps, shop, input, createShopAdmin(admin.graphql), env().SHOPIFY_APP_URL),
      );
    case "previewRules": {
      const rules = await rulesOfForm(deps, shop, input);
      if (!rules.ok) return { ok: false, intent, problems: rules.problems };
      const orders = await recentOrders(context.db, shop, PREVIEW_ORDERS);
      return {
        ok: true,
        intent,
        done: message("onboarding:rules.previewTitle"),
        preview: previewRules(orders, rules.mapping),
      };
    }
    case "saveRules":
      return answerOf(intent, await saveRules(deps, shop, input));
    case "saveSender":
      return answerOf(intent, await chooseSender(deps, shop, input, message("onboarding:sender.needsKey")));
    case "confirmNotifications":
      return answerOf(intent, await confirmNotifications(deps, shop));
    case "startSync":
      return answerOf(intent, await startFirstSync(deps, shop));
    // Plain redirects within the app: the page's next request carries its session token (App Bridge).
    case "finish":
      await finishOnboarding(context.db, shop, context.clock());
      return redirect("/app");
    case "postpone":
      await postponeOnboarding(context.db, shop, context.clock());
      return redirect("/app");
    case "reopen":
      await reopenOnboarding(context.db, shop);
      return redirect("/app");
  }
};

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as HomeAnswer | undefined;
  if (data.mode === "dashboard") return <Dashboard data={data.dashboard} finished={data.finished} />;
  return <Checklist view={data.checklist as ChecklistView} answer={answer} />;
}

export type { OnboardingStep };
