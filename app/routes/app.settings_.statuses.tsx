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
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState, type FormEvent } from "react";
import { appContext } from "../context.server";
import { listLocations } from "../fulfillment/locations.server";
import { formatShopTime, shopTimeZone } from "../orders/queries.server";
import { STAGES } from "../orders/states";
import { createShopAdmin } from "../shopify/admin-graphql.server";
import { authenticate } from "../shopify.server";
import { loadStatusSettings, saveStatusSettings } from "../statuses/settings.server";
import { BUILT_IN_STATUSES } from "../statuses/status-table";
import type { StatusRule } from "../statuses/settings";
import { wakeWorker } from "../work/worker.server";

const STAGE_LABELS: Record<string, string> = {
  none: "No stage yet",
  picked: "Picked",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled_at_warehouse: "Cancelled at the warehouse",
  returned: "Returned",
};

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
  const [{ lastCheck, ...view }, locations, timeZone] = await Promise.all([
    loadStatusSettings(db, session.shop),
    locationsOf(request),
    shopTimeZone(db, session.shop),
  ]);
  return {
    view,
    lastCheck: lastCheck && { at: formatShopTime(lastCheck.at, timeZone), problem: lastCheck.problem },
    locations: locations?.map(({ id, name }) => ({ id, name })) ?? null,
    builtIn: BUILT_IN_STATUSES.map(({ stage, names }) => ({ stage: stage ?? "none", names })),
  };
};

type ActionAnswer = { ok: true } | { ok: false; errors: Record<string, string> };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const input: unknown = await request.json().catch(() => undefined);
  if (typeof input !== "object" || input === null) {
    return { ok: false, errors: { form: "The form could not be read; reload the page and try again." } };
  }
  const locations = await locationsOf(request);
  if (locations === null) {
    return {
      ok: false,
      errors: { form: "Shopify's locations could not be read just now; try again in a moment." },
    };
  }
  const saved = await saveStatusSettings(
    { ...appContext(), wake: wakeWorker },
    session.shop,
    input,
    locations,
  );
  return saved.ok ? { ok: true } : { ok: false, errors: saved.errors };
};

type Rule = { id: string; name: string; stage: StatusRule["stage"] };

export default function StatusSettings() {
  const { view, lastCheck, locations, builtIn } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const saving = useNavigation().state === "submitting";
  const [locationId, setLocationId] = useState(view.locationId ?? "");
  const [notifyBuyer, setNotifyBuyer] = useState(view.settings.notifyBuyer);
  const [pollMinutes, setPollMinutes] = useState(String(view.settings.pollMinutes));
  const [idsPerReport, setIdsPerReport] = useState(String(view.settings.idsPerReport));
  const [novaPoshta, setNovaPoshta] = useState(view.settings.trackingUrls.novaPoshta);
  const [ukrposhta, setUkrposhta] = useState(view.settings.trackingUrls.ukrposhta);
  const [rules, setRules] = useState<Rule[]>(view.settings.statusRules);
  const errors: Record<string, string> = answer && !answer.ok ? answer.errors : {};

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
      },
      { method: "post", encType: "application/json" },
    );
  };
  const setRule = (index: number, changes: Partial<Rule>) =>
    setRules((current) => current.map((rule, i) => (i === index ? { ...rule, ...changes } : rule)));
  const stageOptions = ["none", ...STAGES].map((value) => ({ value, label: STAGE_LABELS[value] ?? value }));

  return (
    <Page title="Statuses and fulfillment" backAction={{ content: "Settings", url: "/app/settings" }}>
      <form onSubmit={save}>
        <BlockStack gap="400">
          {answer?.ok && <Banner tone="success">Status settings saved.</Banner>}
          {errors.form && <Banner tone="critical">{errors.form}</Banner>}
          {view.problem && (
            <Banner tone="warning" title="The saved status settings no longer validate">
              <p>The defaults are used until you save these settings again. What was wrong: {view.problem}</p>
            </Banner>
          )}
          <Layout>
            <Layout.AnnotatedSection
              title="Fulfillment in Shopify"
              description="When the warehouse ships an order, the app fulfils it in Shopify at this location, with the waybill and its tracking page."
            >
              <Card>
                <FormLayout>
                  {locations ? (
                    <Select
                      label="The location that stands for the warehouse"
                      options={[
                        { label: "Not chosen yet: orders wait to be fulfilled", value: "" },
                        ...locations.map(({ id, name }) => ({ label: name, value: id })),
                      ]}
                      value={locationId}
                      onChange={setLocationId}
                      error={errors.locationId}
                    />
                  ) : (
                    <Banner tone="warning">
                      Shopify&apos;s locations could not be read just now. Reload the page to choose one.
                    </Banner>
                  )}
                  <Checkbox
                    label="Let Shopify email the buyer when an order ships or its tracking changes"
                    checked={notifyBuyer}
                    onChange={setNotifyBuyer}
                    error={errors.notifyBuyer}
                  />
                  <TextField
                    label="Nova Poshta tracking page"
                    autoComplete="off"
                    value={novaPoshta}
                    onChange={setNovaPoshta}
                    helpText="{ttn} is replaced by the waybill number."
                    error={errors["trackingUrls.novaPoshta"]}
                  />
                  <TextField
                    label="Ukrposhta tracking page"
                    autoComplete="off"
                    value={ukrposhta}
                    onChange={setUkrposhta}
                    helpText="{ttn} is replaced by the waybill number."
                    error={errors["trackingUrls.ukrposhta"]}
                  />
                </FormLayout>
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection
              title="Looking orders up"
              description="Every order the warehouse has and has not delivered yet is looked up again after this many minutes, in case a notification was lost."
            >
              <Card>
                <FormLayout>
                  {lastCheck?.problem ? (
                    <Banner tone="warning" title={`The last look-up, on ${lastCheck.at}, did not work`}>
                      <p>{lastCheck.problem}</p>
                      <p>It is tried again by itself; orders keep their stages meanwhile.</p>
                    </Banner>
                  ) : (
                    <Text as="p" tone="subdued">
                      {lastCheck
                        ? `Last looked up on ${lastCheck.at}.`
                        : "No look-up has run lately: there are no orders on their way to follow."}
                    </Text>
                  )}
                  <TextField
                    label="Minutes between look-ups"
                    type="number"
                    min={5}
                    max={1440}
                    autoComplete="off"
                    value={pollMinutes}
                    onChange={setPollMinutes}
                    error={errors.pollMinutes}
                  />
                  <TextField
                    label="Orders looked up in one request"
                    type="number"
                    min={1}
                    max={500}
                    autoComplete="off"
                    value={idsPerReport}
                    onChange={setIdsPerReport}
                    helpText="The warehouse allows one look-up a minute. Lower this only if it refuses long requests."
                    error={errors.idsPerReport}
                  />
                </FormLayout>
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection
              title="Status table"
              description="Which of the warehouse's statuses means which stage. Your rows come first, by the status's id or name; a status nobody knows is shown on the order and moves nothing."
            >
              <BlockStack gap="400">
                <Card>
                  <BlockStack gap="300">
                    {rules.length === 0 && <Text as="p">No rows of your own yet.</Text>}
                    {rules.map((rule, index) => (
                      <InlineStack key={index} gap="300" blockAlign="end" wrap={false}>
                        <TextField
                          label="Status id"
                          autoComplete="off"
                          value={rule.id}
                          onChange={(id) => setRule(index, { id })}
                          error={errors[`statusRules.${index}.id`]}
                        />
                        <TextField
                          label="Status name"
                          autoComplete="off"
                          value={rule.name}
                          onChange={(name) => setRule(index, { name })}
                          error={errors[`statusRules.${index}.name`] ?? errors[`statusRules.${index}`]}
                        />
                        <Select
                          label="Stage"
                          options={stageOptions}
                          value={rule.stage}
                          onChange={(stage) => setRule(index, { stage: stage as Rule["stage"] })}
                        />
                        <Button onClick={() => setRules((current) => current.filter((_, i) => i !== index))}>
                          Remove
                        </Button>
                      </InlineStack>
                    ))}
                    <InlineStack>
                      <Button
                        onClick={() =>
                          setRules((current) => [...current, { id: "", name: "", stage: "shipped" }])
                        }
                      >
                        Add a status
                      </Button>
                    </InlineStack>
                  </BlockStack>
                </Card>
                <Card>
                  <BlockStack gap="200">
                    <Text as="h3" variant="headingSm">
                      Built in
                    </Text>
                    {builtIn.map(({ stage, names }) => (
                      <Text as="p" key={stage}>
                        {STAGE_LABELS[stage]}: {names.join(", ")}
                      </Text>
                    ))}
                  </BlockStack>
                </Card>
              </BlockStack>
            </Layout.AnnotatedSection>
          </Layout>
          <InlineStack align="end">
            <Button variant="primary" submit loading={saving}>
              Save
            </Button>
          </InlineStack>
        </BlockStack>
      </form>
    </Page>
  );
}
