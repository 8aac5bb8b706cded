// The editor of a list of order rules (a name the gateway or shipping rate contains, and the method it
// means), one for the onboarding's rules step and Settings' payment and delivery cards. Each caller brings
// its own words (its namespace's labels) and, in Settings, the error beside each field.
import { BlockStack, Button, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";

export interface Rule {
  match: string;
  method: string;
}

export interface RuleEditorLabels {
  /** Shown when the list is empty. */
  none: string;
  match: (number: number) => string;
  method: (number: number) => string;
  /** The remove button's accessible name, and its short visible text. */
  remove: (number: number) => string;
  removeShort: string;
  add: string;
}

export function RuleEditor<R extends Rule>(props: {
  /** A heading above the rules, where the card has none of its own. */
  title?: string;
  rules: R[];
  methods: { value: string; label: string }[];
  labels: RuleEditorLabels;
  /** The error beside a rule's field, by the rule's index. */
  error?: (index: number, field: "match" | "method") => string | undefined;
  onChange: (rules: R[]) => void;
}) {
  const { rules, methods, labels, error, onChange } = props;
  const change = (index: number, rule: Partial<Rule>) =>
    onChange(rules.map((current, at) => (at === index ? ({ ...current, ...rule } as R) : current)));
  return (
    <BlockStack gap={props.title === undefined ? "300" : "200"}>
      {props.title !== undefined && (
        <Text as="h3" variant="headingSm">
          {props.title}
        </Text>
      )}
      {rules.length === 0 && (
        <Text as="p" tone="subdued">
          {labels.none}
        </Text>
      )}
      {rules.map((rule, index) => (
        <FormLayout.Group key={index} condensed>
          <TextField
            label={labels.match(index + 1)}
            autoComplete="off"
            value={rule.match}
            onChange={(match) => change(index, { match })}
            error={error?.(index, "match")}
          />
          <Select
            label={labels.method(index + 1)}
            options={methods}
            value={rule.method}
            onChange={(method) => change(index, { method })}
            error={error?.(index, "method")}
          />
          <div style={{ paddingTop: "1.5rem" }}>
            <Button
              accessibilityLabel={labels.remove(index + 1)}
              onClick={() => onChange(rules.filter((_, at) => at !== index))}
            >
              {labels.removeShort}
            </Button>
          </div>
        </FormLayout.Group>
      ))}
      <InlineStack>
        <Button onClick={() => onChange([...rules, { match: "", method: methods[0]?.value ?? "" } as R])}>
          {labels.add}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
