// Settings for what comes back from the warehouse: the Shopify location that stands for the warehouse
// (orders are fulfilled there), whether Shopify tells the buyer, how often orders in flight are looked up,
// the carriers' tracking pages, and the merchant's additions to the status table. Sent as JSON and
// checked whole by saveStatusSettings; an error is shown beside its field and nothing is saved.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { appContext } from "../context.server";
import { listLocations } from "../fulfillment/locations.server";
import { message, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { readTexts } from "../i18n/texts";
import { STAGES } from "../orders/states";
import { createShopAdmin } from "../shopify/admin-graphql.server";
import { authenticate } from "../shopify.server";
import { MessageText } from "../components/message-text";
import { sayTexts } from "../components/use-texts";
import { loadStatusSettings, saveStatusSettings } from "../statuses/settings.server";
import { BUILT_IN_STATUSES } from "../statuses/status-table";
import { TTN_PLACEHOLDER, type StatusRule } from "../statuses/settings";
import { wakeWorker } from "../work/worker.server";
import { env } from "../env.server";
import { chooseLocationMode, chooseServiceMode } from "../service/register.server";
import { z } from "zod";

/** The shop's locations as Shopify lists them now; null when Shopify could not be asked. */
async function locationsOf(request: Request) {
  const { admin } = await authenticate.admin(request);
  try {
    return await listLocations(createShopAdmin(admin.graphql));
  } catch (error) {
    appContext().log.warn(
      { event: "settings.locations_unreadable", err: error },
      "Shopify's locations could not be read",
    );
    return null;
  }
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const [{ lastCheck, ...view }, locations] = await Promise.all([
    loadStatusSettings(db, session.shop),
    locationsOf(request),
  ]);
  const mode = await db.shopSettings.findUnique({
    where: { shop: session.shop },
    select: { fulfillmentMode: true, locationName: true },
  });
  return {
    view,
    mode: {
      current: mode?.fulfillmentMode === "service" ? ("service" as const) : ("location" as const),
      locationName: mode?.locationName ?? null,
    },
    lastCheck: lastCheck && {
      at: lastCheck.at.toISOString(),
      // What kept the look-up from working, as the run recorded it (words of its own, shown as they are).
      problem: readTexts(lastCheck.problem)[0] ?? null,
    },
    locations: locations?.map(({ id, name }) => ({ id, name })) ?? null,
    builtIn: BUILT_IN_STATUSES.map(({ stage, names }) => ({ stage: stage ?? "none", names })),
  };
};

/** Saved: with the settings' version now, which the page's next save stands on. */
type ActionAnswer =
  | { ok: true; version: number; mode?: "service" | "location" }
  | { ok: false; errors: Record<string, Message> };

/** The mode card's form: which mode, the warehouse's address for a service, the location for a location. */
const modeFormSchema = z.object({
  intent: z.literal("mode"),
  mode: z.enum(["service", "location"]),
  address1: z.string().trim().max(200).default(""),
  city: z.string().trim().max(100).default(""),
  zip: z.string().trim().max(20).default(""),
  locationId: z.string().trim().max(200).default(""),
  version: z.number().int().min(0).optional(),
});

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const input: unknown = await request.json().catch(() => undefined);
  if (typeof input !== "object" || input === null) {
    return { ok: false, errors: { form: message("settings:errors.unreadableForm") } };
  }
  const deps = { ...appContext(), wake: wakeWorker };
  if ((input as { intent?: unknown }).intent === "mode") {
    const form = modeFormSchema.safeParse(input);
    if (!form.success) return { ok: false, errors: { mode: message("settings:errors.unreadableForm") } };
    const { mode, version, address1, city, zip, locationId } = form.data;
    let chosen;
    if (mode === "service") {
      const { admin } = await authenticate.admin(request);
      chosen = await chooseServiceMode(deps, session.shop, createShopAdmin(admin.graphql), {
        appUrl: env().SHOPIFY_APP_URL,
        ...(version === undefined ? {} : { shown: version }),
        address: { address1, city, zip },
      });
    } else {
      const location = (await locationsOf(request))?.find((choice) => choice.id === locationId);
      if (!location) return { ok: false, errors: { mode: message("statuses:errors.location") } };
      chosen = await chooseLocationMode(deps, session.shop, {
        location,
        ...(version === undefined ? {} : { shown: version }),
      });
    }
    return chosen.ok
      ? { ok: true, version: chosen.version, mode: chosen.mode }
      : { ok: false, errors: { mode: chosen.problem } };
  }
  const listed = await locationsOf(request);
  if (listed === null) {
    return {
      ok: false,
      errors: { form: message("statuses:errors.locationsUnreadable") },
    };
  }
  // Shopify does not list a fulfillment service's location among the shop's: in service mode the saved one
  // (the service's) is the choice the form keeps.
  const current = await deps.db.shopSettings.findUnique({
    where: { shop: session.shop },
    select: { fulfillmentMode: true, locationId: true, locationName: true },
  });
  const locations =
    current?.fulfillmentMode === "service" && current.locationId
      ? [...listed, { id: current.locationId, name: current.locationName ?? "" }]
      : listed;
  const saved = await saveStatusSettings(deps, session.shop, input, locations);
  return saved.ok ? { ok: true, version: saved.version } : { ok: false, errors: saved.errors };
};

type Rule = { id: string; name: string; stage: StatusRule["stage"] };

export default function StatusSettings() {
  const { view, mode, lastCheck, locations, builtIn } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const saving = useNavigation().state === "submitting";
  const { t } = useTranslation("statuses");
  const format = useFormat();
  const [locationId, setLocationId] = useState(view.locationId ?? "");
  const [notifyBuyer, setNotifyBuyer] = useState(view.settings.notifyBuyer);
  const [pollMinutes, setPollMinutes] = useState(String(view.settings.pollMinutes));
  const [idsPerReport, setIdsPerReport] = useState(String(view.settings.idsPerReport));
  const [novaPoshta, setNovaPoshta] = useState(view.settings.trackingUrls.novaPoshta);
  const [ukrposhta, setUkrposhta] = useState(view.settings.trackingUrls.ukrposhta);
  const [rules, setRules] = useState<Rule[]>(view.settings.statusRules);
  // The version these fields stand on: the one loaded, then the one this page's save made. A save made
  // meanwhile elsewhere is not taken in, so this page's next save is refused as changed meanwhile, entries kept.
  const [version, setVersion] = useState(view.version);
  useEffect(() => {
    if (answer?.ok) setVersion(answer.version);
  }, [answer]);
  const [choice, setChoice] = useState<"service" | "location">(mode.current);
  const [address1, setAddress1] = useState("");
  const [city, setCity] = useState("");
  const [zip, setZip] = useState("");
  const [modeLocationId, setModeLocationId] = useState("");
  const chooseMode = () =>
    submit(
      { intent: "mode", mode: choice, address1, city, zip, locationId: modeLocationId, version },
      { method: "post", encType: "application/json" },
    );
  const inService = mode.current === "service";
  const errors: Record<string, Message> = answer && !answer.ok ? answer.errors : {};
  const error = (path: string) => {
    const text = errors[path];
    return text ? sayTexts(t, format, text) : undefined;
  };

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    submit(
      {
        locationId,
        notifyBuyer,
        pollMinutes: Number(pollMinutes),
        idsPerReport: Number(idsPerReport),
        trackingUrls: { novaPoshta, ukrposhta },
        statusRules: rules,
        version,
      },
      { method: "post", encType: "application/json" },
    );
  };
  const setRule = (index: number, changes: Partial<Rule>) =>
    setRules((current) => current.map((rule, i) => (i === index ? { ...rule, ...changes } : rule)));
  const stageLabel = (stage: string) =>
    (["none", ...STAGES] as string[]).includes(stage) ? t(`stages.${stage as StageKey}`) : stage;
  const stageOptions = ["none", ...STAGES].map((value) => ({ value, label: stageLabel(value) }));
  /** A stored setting's name, for a problem listed apart from the form. */
  const fieldName = (path: string) => {
    const [top, second] = path.split(".");
    if (top === "trackingUrls")
      return second === "ukrposhta" ? t("fulfillment.ukrposhta") : t("fulfillment.novaPoshta");
    if (top === "statusRules") return t("table.title");
    if (top === "pollMinutes") return t("polling.minutes");
    if (top === "idsPerReport") return t("polling.idsPerReport");
    if (top === "notifyBuyer") return t("fulfillment.notifyBuyer");
    return path;
  };

  return (
    <Page title={t("title")} backAction={{ content: t("back"), url: "/app/settings" }}>
      <form onSubmit={save}>
        <BlockStack gap="400">
          {answer?.ok && !answer.mode && <Banner tone="success">{t("saved")}</Banner>}
          {answer?.ok && answer.mode && (
            <Banner tone="success">
              {t("mode.saved", {
                mode:
                  answer.mode === "service"
                    ? t("mode.currentService", { name: mode.locationName ?? "" })
                    : t("mode.currentLocation"),
              })}
            </Banner>
          )}
          {errors.form && <Banner tone="critical">{error("form")}</Banner>}
          {view.issues && (
            <Banner tone="warning" title={t("problem.title")}>
              <BlockStack gap="200">
                <p>{t("problem.body")}</p>
                <ul>
                  {Object.entries(view.issues).map(([path, text]) => (
                    <li key={path}>
                      {path === "form" ? (
                        <MessageText text={text} />
                      ) : (
                        t("problem.field", { field: fieldName(path), error: sayTexts(t, format, text) })
                      )}
                    </li>
                  ))}
                </ul>
              </BlockStack>
            </Banner>
          )}
          <Layout>
            <Layout.AnnotatedSection title={t("mode.title")}>
              <Card>
                <BlockStack gap="300">
                  <Text as="p">
                    {t("mode.current", {
                      mode: inService
                        ? t("mode.currentService", { name: mode.locationName ?? "" })
                        : t("mode.currentLocation"),
                    })}
                  </Text>
                  <ChoiceList
                    title={t("mode.title")}
                    titleHidden
                    choices={[
                      { label: t("mode.location"), value: "location", helpText: t("mode.locationHelp") },
                      { label: t("mode.service"), value: "service", helpText: t("mode.serviceHelp") },
                    ]}
                    selected={[choice]}
                    onChange={(selected) => setChoice(selected[0] === "service" ? "service" : "location")}
                    error={error("mode")}
                  />
                  {choice === "service" && (
                    <FormLayout>
                      <TextField
                        label={t("mode.address1")}
                        autoComplete="off"
                        value={address1}
                        onChange={setAddress1}
                        helpText={t("mode.addressHelp")}
                      />
                      <FormLayout.Group>
                        <TextField
                          label={t("mode.city")}
                          autoComplete="off"
                          value={city}
                          onChange={setCity}
                        />
                        <TextField label={t("mode.zip")} autoComplete="off" value={zip} onChange={setZip} />
                      </FormLayout.Group>
                    </FormLayout>
                  )}
                  {choice === "location" && inService && locations && (
                    <Select
                      label={t("fulfillment.location")}
                      options={[
                        { label: t("fulfillment.locationNone"), value: "" },
                        ...locations.map(({ id, name }) => ({ label: name, value: id })),
                      ]}
                      value={modeLocationId}
                      onChange={setModeLocationId}
                    />
                  )}
                  {choice !== mode.current && (
                    <Banner tone="info" title={t("mode.switchTitle")}>
                      <BlockStack gap="200">
                        <p>{choice === "service" ? t("mode.switchToService") : t("mode.switchToLocation")}</p>
                        <p>{t("mode.switchInFlight")}</p>
                      </BlockStack>
                    </Banner>
                  )}
                  {(choice !== mode.current || choice === "service") && (
                    <InlineStack>
                      <Button
                        onClick={chooseMode}
                        loading={saving}
                        disabled={choice === "location" && !modeLocationId}
                      >
                        {choice === "service" ? t("mode.register") : t("mode.useLocation")}
                      </Button>
                    </InlineStack>
                  )}
                </BlockStack>
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection
              title={t("fulfillment.title")}
              description={t("fulfillment.description")}
            >
              <Card>
                <FormLayout>
                  {inService ? (
                    <Text as="p">{t("mode.currentService", { name: mode.locationName ?? "" })}</Text>
                  ) : locations ? (
                    <Select
                      label={t("fulfillment.location")}
                      options={[
                        { label: t("fulfillment.locationNone"), value: "" },
                        ...locations.map(({ id, name }) => ({ label: name, value: id })),
                      ]}
                      value={locationId}
                      onChange={setLocationId}
                      error={error("locationId")}
                    />
                  ) : (
                    <Banner tone="warning">{t("fulfillment.locationsUnreadable")}</Banner>
                  )}
                  <Checkbox
                    label={t("fulfillment.notifyBuyer")}
                    checked={notifyBuyer}
                    onChange={setNotifyBuyer}
                    error={error("notifyBuyer")}
                  />
                  <TextField
                    label={t("fulfillment.novaPoshta")}
                    autoComplete="off"
                    value={novaPoshta}
                    onChange={setNovaPoshta}
                    helpText={t("fulfillment.ttnHelp", { placeholder: TTN_PLACEHOLDER })}
                    error={error("trackingUrls.novaPoshta")}
                  />
                  <TextField
                    label={t("fulfillment.ukrposhta")}
                    autoComplete="off"
                    value={ukrposhta}
                    onChange={setUkrposhta}
                    helpText={t("fulfillment.ttnHelp", { placeholder: TTN_PLACEHOLDER })}
                    error={error("trackingUrls.ukrposhta")}
                  />
                </FormLayout>
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title={t("polling.title")} description={t("polling.description")}>
              <Card>
                <FormLayout>
                  {lastCheck?.problem ? (
                    <Banner
                      tone="warning"
                      title={t("polling.failedTitle", { at: format.dateTime(lastCheck.at) })}
                    >
                      <p>
                        <MessageText text={lastCheck.problem} />
                      </p>
                      <p>{t("polling.failedRetry")}</p>
                    </Banner>
                  ) : (
                    <Text as="p" tone="subdued">
                      {lastCheck
                        ? t("polling.last", { at: format.dateTime(lastCheck.at) })
                        : t("polling.none")}
                    </Text>
                  )}
                  <TextField
                    label={t("polling.minutes")}
                    type="number"
                    min={5}
                    max={1440}
                    autoComplete="off"
                    value={pollMinutes}
                    onChange={setPollMinutes}
                    error={error("pollMinutes")}
                  />
                  <TextField
                    label={t("polling.idsPerReport")}
                    type="number"
                    min={1}
                    max={500}
                    autoComplete="off"
                    value={idsPerReport}
                    onChange={setIdsPerReport}
                    helpText={t("polling.idsPerReportHelp")}
                    error={error("idsPerReport")}
                  />
                </FormLayout>
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title={t("table.title")} description={t("table.description")}>
              <BlockStack gap="400">
                <Card>
                  <BlockStack gap="300">
                    {error("statusRules") && (
                      <Text as="p" tone="critical">
                        {error("statusRules")}
                      </Text>
                    )}
                    {rules.length === 0 && <Text as="p">{t("table.none")}</Text>}
                    {rules.map((rule, index) => (
                      <InlineStack key={index} gap="300" blockAlign="end" wrap={false}>
                        <TextField
                          label={t("table.id")}
                          autoComplete="off"
                          value={rule.id}
                          onChange={(id) => setRule(index, { id })}
                          error={error(`statusRules.${index}.id`)}
                        />
                        <TextField
                          label={t("table.name")}
                          autoComplete="off"
                          value={rule.name}
                          onChange={(name) => setRule(index, { name })}
                          error={error(`statusRules.${index}.name`) ?? error(`statusRules.${index}`)}
                        />
                        <Select
                          label={t("table.stage")}
                          options={stageOptions}
                          value={rule.stage}
                          onChange={(stage) => setRule(index, { stage: stage as Rule["stage"] })}
                          error={error(`statusRules.${index}.stage`)}
                        />
                        <Button onClick={() => setRules((current) => current.filter((_, i) => i !== index))}>
                          {t("table.remove")}
                        </Button>
                      </InlineStack>
                    ))}
                    <InlineStack>
                      <Button
                        onClick={() =>
                          setRules((current) => [...current, { id: "", name: "", stage: "shipped" }])
                        }
                      >
                        {t("table.add")}
                      </Button>
                    </InlineStack>
                  </BlockStack>
                </Card>
                <Card>
                  <BlockStack gap="200">
                    <Text as="h3" variant="headingSm">
                      {t("table.builtIn")}
                    </Text>
                    {builtIn.map(({ stage, names }) => (
                      <Text as="p" key={stage}>
                        {t("table.builtInRow", { stage: stageLabel(stage), names: names.join(", ") })}
                      </Text>
                    ))}
                  </BlockStack>
                </Card>
              </BlockStack>
            </Layout.AnnotatedSection>
          </Layout>
          <InlineStack align="end">
            <Button variant="primary" submit loading={saving}>
              {t("save")}
            </Button>
          </InlineStack>
        </BlockStack>
      </form>
    </Page>
  );
}

type StageKey = "none" | (typeof STAGES)[number];
