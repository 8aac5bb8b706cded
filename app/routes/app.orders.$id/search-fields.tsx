// The fix form's fields that search the shop's reference data as the merchant types: the branch of an order
// held for one (app/routes/app.branches.ts) and the street of a courier address (app/routes/app.streets.ts).
import { useFetcher, useSubmit } from "@remix-run/react";
import { Autocomplete, Badge, BlockStack, Box, Button, InlineStack, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../components/use-hydrated";
import { percent, type BranchCandidate } from "../../reference/types";
import { CARRIER_REF_PATTERN } from "../../warehouse/wire";
import type { BranchSearchAnswer } from "../app.branches";
import type { StreetSearchAnswer } from "../app.streets";

/** A branch Ref as the carrier's directory writes them, shown as the field's example. */
const EXAMPLE_BRANCH_REF = "1ec09d88-e1c2-11e3-8c4a-0050568002cf";

/** Waited after the last key before the branch search asks the server. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The branch of an order held for one: the matcher's guesses as one-click choices, and a search of the
 * shop's reference data by city, number or address (a carrier Ref typed or pasted is taken as it is).
 */
export function BranchChoice({
  candidates,
  initialRef,
  error,
  busy,
}: {
  candidates: BranchCandidate[];
  initialRef: string;
  error: string | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("orders");
  const submit = useSubmit();
  const search = useFetcher<BranchSearchAnswer>();
  const hydrated = useHydrated();
  const [query, setQuery] = useState(initialRef);
  const [chosen, setChosen] = useState<{ ref: string; label: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const choose = (ref: string) =>
    submit({ intent: "correct", fix: "warehouseRef", warehouseRef: ref }, { method: "post" });
  const typed = (text: string) => {
    setQuery(text);
    setChosen(null);
    clearTimeout(timer.current);
    const trimmed = text.trim();
    if (trimmed.length < 2 || CARRIER_REF_PATTERN.test(trimmed.toLowerCase())) return;
    timer.current = setTimeout(
      () => search.load(`/app/branches?${new URLSearchParams({ q: trimmed })}`),
      SEARCH_DEBOUNCE_MS,
    );
  };
  const answer = search.data;
  const hits = answer?.hits ?? [];
  const ref = chosen?.ref ?? (CARRIER_REF_PATTERN.test(query.trim().toLowerCase()) ? query.trim() : "");
  const helpText =
    answer && !answer.available ? t("detail.branchSearchUnavailable") : t("detail.branchSearchHelp");
  return (
    <BlockStack gap="300">
      {candidates.length > 0 && (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("detail.branchCandidates")}
          </Text>
          {candidates.map((candidate) => (
            <InlineStack key={candidate.ref} gap="200" blockAlign="center" wrap={false}>
              <Button
                onClick={() => choose(candidate.ref)}
                disabled={busy}
                accessibilityLabel={t("detail.branchChooseNamed", { label: candidate.label })}
              >
                {t("detail.branchChoose")}
              </Button>
              <Text as="span">{candidate.label}</Text>
              <Badge tone={candidate.score >= 0.8 ? "success" : "attention"}>
                {t("detail.branchScore", { percent: percent(candidate.score) })}
              </Badge>
            </InlineStack>
          ))}
        </BlockStack>
      )}
      <input type="hidden" name="warehouseRef" value={ref} />
      <Autocomplete
        options={hits.map((hit) => ({ value: hit.ref, label: hit.label }))}
        selected={chosen ? [chosen.ref] : []}
        loading={search.state === "loading"}
        onSelect={([value]) => {
          const hit = hits.find((each) => each.ref === value);
          if (!hit) return;
          setChosen({ ref: hit.ref, label: hit.label });
          setQuery(hit.label);
        }}
        emptyState={
          query.trim().length >= 2 && answer?.available && hits.length === 0 ? (
            <Box padding="300">
              <Text as="p">{t("detail.branchSearchNothing")}</Text>
            </Box>
          ) : undefined
        }
        textField={
          <Autocomplete.TextField
            label={t("detail.branchSearchLabel")}
            placeholder={t("detail.branchSearchPlaceholder", { example: EXAMPLE_BRANCH_REF })}
            helpText={helpText}
            error={error}
            value={query}
            onChange={typed}
            readOnly={!hydrated}
            autoComplete="off"
          />
        }
      />
    </BlockStack>
  );
}

/**
 * The street of a courier address, with the carrier's streets of the order's city offered as the merchant
 * types (app/routes/app.streets.ts); choosing one writes its type and name ("вул. Хрещатик") in the field.
 * Whatever the warehouse answers, the field takes what is typed.
 */
export function StreetField({
  cityRef,
  value,
  onChange,
  error,
}: {
  cityRef: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation("orders");
  const search = useFetcher<StreetSearchAnswer>();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const typed = (text: string) => {
    onChange(text);
    clearTimeout(timer.current);
    const trimmed = text.trim();
    if (trimmed.length < 2) return;
    timer.current = setTimeout(
      () => search.load(`/app/streets?${new URLSearchParams({ q: trimmed, cityRef })}`),
      SEARCH_DEBOUNCE_MS,
    );
  };
  const answer = search.data;
  const streets = answer?.streets ?? [];
  const helpText = answer?.problem
    ? t("detail.streetSearchProblem")
    : answer && !answer.available
      ? t("detail.streetSearchUnavailable")
      : t("detail.streetSearchHelp");
  return (
    <Autocomplete
      options={streets.map((street) => ({ value: street.ref, label: street.label }))}
      selected={[]}
      loading={search.state === "loading"}
      onSelect={([ref]) => {
        const street = streets.find((each) => each.ref === ref);
        if (street) onChange(street.label);
      }}
      emptyState={
        value.trim().length >= 2 && answer?.available && !answer.problem && !answer.invalid ? (
          <Box padding="300">
            <Text as="p">{t("detail.streetSearchNothing")}</Text>
          </Box>
        ) : undefined
      }
      textField={
        <Autocomplete.TextField
          label={t("detail.street")}
          name="street"
          helpText={helpText}
          error={error}
          value={value}
          onChange={typed}
          readOnly={!hydrated}
          autoComplete="off"
        />
      }
    />
  );
}
