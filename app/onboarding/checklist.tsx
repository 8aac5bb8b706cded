// The setup checklist: six steps, each a card that opens (the first not done, or the one named by
// `?step=`) and saves on its own; a done step can be opened again and changed.
// Each step's form is its own file (./connection-step.tsx, ...); how a step sends its form and how the
// answer reads is ./step-answer.tsx.
import { Link as RemixLink, useNavigation } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  InlineStack,
  Layout,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { CatalogueStep } from "./catalogue-step";
import { ConnectionStep } from "./connection-step";
import { LocationStep } from "./location-step";
import { NotificationsStep } from "./notifications-step";
import { RulesStep } from "./rules-step";
import { SenderStep } from "./sender-step";
import { ONBOARDING_STEPS, type OnboardingStep } from "./state";
import { AnswerBanner, useJsonSubmit } from "./step-answer";
import type { ChecklistView, HomeAnswer } from "./view";

export function Checklist({ view, answer }: { view: ChecklistView; answer: HomeAnswer | undefined }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const done = ONBOARDING_STEPS.filter((step) => view.state.steps[step]).length;
  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p">{t("intro")}</Text>
            <BlockStack gap="100">
              <Text as="p" variant="bodySm" tone="subdued">
                {t("progress", { done, total: ONBOARDING_STEPS.length })}
              </Text>
              <ProgressBar progress={(done / ONBOARDING_STEPS.length) * 100} size="small" tone="success" />
            </BlockStack>
            <AnswerBanner answer={answer} />
            {ONBOARDING_STEPS.map((step, index) => (
              <StepCard key={step} step={step} number={index + 1} view={view} open={view.open === step}>
                {view.open === step && <StepBody step={step} view={view} answer={answer} />}
              </StepCard>
            ))}
            <Card>
              <BlockStack gap="300">
                <Text as="p" tone="subdued">
                  {t("finishHint")}
                </Text>
                <InlineStack gap="200">
                  <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "finish" })}>
                    {t("finish")}
                  </Button>
                  <Button disabled={busy} onClick={() => submit({ intent: "postpone" })}>
                    {t("finishLater")}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function StepCard(props: {
  step: OnboardingStep;
  number: number;
  view: ChecklistView;
  open: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation("onboarding");
  const { step, number, view, open } = props;
  const isDone = Boolean(view.state.steps[step]);
  return (
    <Card>
      <section aria-labelledby={`step-${step}`}>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd" id={`step-${step}`}>
                {`${number}. ${t(`steps.${step}.title`)}`}
              </Text>
              <Badge tone={isDone ? "success" : undefined}>
                {isDone ? t("badge.done") : t("badge.todo")}
              </Badge>
            </InlineStack>
            {!open && (
              <RemixLink
                to={`/app?step=${step}`}
                aria-label={t(isDone ? "changeStep" : "openStep", { step: t(`steps.${step}.title`) })}
              >
                {isDone ? t("change") : t("open")}
              </RemixLink>
            )}
          </InlineStack>
          <Text as="p" tone="subdued">
            {t(`steps.${step}.description`)}
          </Text>
          {props.children}
        </BlockStack>
      </section>
    </Card>
  );
}

function StepBody(props: { step: OnboardingStep; view: ChecklistView; answer: HomeAnswer | undefined }) {
  switch (props.step) {
    case "connection":
      return <ConnectionStep view={props.view} />;
    case "location":
      return <LocationStep view={props.view} />;
    case "rules":
      return <RulesStep view={props.view} answer={props.answer} />;
    case "sender":
      return <SenderStep view={props.view} />;
    case "notifications":
      return <NotificationsStep view={props.view} />;
    case "catalogue":
      return <CatalogueStep view={props.view} />;
  }
}
