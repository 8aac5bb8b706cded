// How a checklist step sends its form (JSON to the home page's action) and how the answer to it reads: done
// with a possible notice, or the problems that kept it from saving.
import { useSubmit } from "@remix-run/react";
import { Banner, BlockStack } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import type { HomeAnswer } from "./view";

export type Submit = (body: Record<string, unknown>) => void;

export function useJsonSubmit(): Submit {
  const submit = useSubmit();
  return (body) =>
    submit(body as Parameters<typeof submit>[0], { method: "post", encType: "application/json" });
}

export function AnswerBanner({ answer }: { answer: HomeAnswer | undefined }) {
  const { t } = useTranslation("onboarding");
  if (!answer || answer.intent === "previewRules") return null;
  if (answer.ok) {
    return (
      <BlockStack gap="200">
        <Banner tone="success">
          <p>
            <MessageText text={answer.done} />
          </p>
        </Banner>
        {answer.notice && (
          <Banner tone="warning">
            <p>
              <MessageText text={answer.notice} />
            </p>
          </Banner>
        )}
      </BlockStack>
    );
  }
  return (
    <Banner tone="critical" title={t("answer.problemTitle")}>
      <BlockStack gap="100">
        {answer.problems.map((problem, index) => (
          <p key={index}>
            <MessageText text={problem} />
          </p>
        ))}
      </BlockStack>
    </Banner>
  );
}
