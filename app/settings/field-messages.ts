// A settings form's validation errors as Messages, keyed by the field's dotted path ("apiKey",
// "mapping.deliveryRules.0.match"), for the page to say in the admin's language. The schemas keep their
// English messages (the logs and a stored mapping's problem read them); what the merchant reads is chosen
// here from the field and the kind of issue, with the limits as values.
import type { z } from "zod";
import { message, type Message } from "../i18n/message";

type Issue = z.core.$ZodIssue;

/** A field (its path with every index as `*`), the issue codes it answers (any when absent), and the text. */
interface FieldRule {
  path: RegExp;
  codes?: readonly Issue["code"][];
  text: (issue: Issue) => Message;
}

const limit = (issue: Issue, name: "minimum" | "maximum") => {
  const value = (issue as { minimum?: unknown; maximum?: unknown })[name];
  return typeof value === "number" || typeof value === "bigint" ? Number(value) : 0;
};
const fixed = (key: string) => () => message(key);
const between = (key: string) => (issue: Issue) =>
  message(key, { minimum: limitOf(issue, "minimum"), maximum: limitOf(issue, "maximum") });
/** The bounds a number field keeps, whichever side the issue is on (a non-number has neither). */
const NUMBER_BOUNDS: Record<string, { minimum: number; maximum: number }> = {
  pollMinutes: { minimum: 5, maximum: 24 * 60 },
  idsPerReport: { minimum: 1, maximum: 500 },
};
function limitOf(issue: Issue, name: "minimum" | "maximum"): number {
  return NUMBER_BOUNDS[issue.path.join(".")]?.[name] ?? limit(issue, name);
}

/** First match wins: the fields' own texts, then texts by the kind of issue alone. */
export const FIELD_RULES: readonly FieldRule[] = [
  // The warehouse settings (app/settings/settings.server.ts).
  { path: /^apiKey$/, codes: ["too_big"], text: fixed("settings:errors.apiKey.tooLong") },
  { path: /^apiKey$/, text: fixed("settings:errors.apiKey.characters") },
  { path: /^environment$/, text: fixed("settings:errors.environment") },
  { path: /^batchAddOrder$/, text: fixed("settings:errors.checkbox") },
  { path: /^mapping\.(payment|delivery)Rules\.\*\.match$/, text: fixed("settings:errors.ruleMatchEmpty") },
  { path: /^mapping\.(payment|delivery)Rules\.\*\.method$/, text: fixed("settings:errors.ruleMethod") },
  { path: /^mapping\.deliveryLiterals\.\w+$/, text: fixed("settings:errors.deliveryTextEmpty") },
  { path: /^mapping\.payerType$/, text: fixed("settings:errors.payerType") },
  {
    path: /^mapping\.idOrderPrefix$/,
    codes: ["too_big"],
    text: (issue) => message("settings:errors.prefix.tooLong", { maximum: limit(issue, "maximum") }),
  },
  {
    path: /^mapping\.idOrderPrefix$/,
    codes: ["invalid_format"],
    text: fixed("settings:errors.prefix.characters"),
  },
  { path: /^mapping\.idOrderPrefix$/, codes: ["custom"], text: fixed("settings:errors.prefix.endsInDigit") },
  { path: /^mapping\.sendNoteAsComment$/, text: fixed("settings:errors.checkbox") },
  { path: /^mapping\.branchMatchThreshold$/, text: fixed("settings:errors.branchThreshold") },
  { path: /^mapping\.splitCashOnDelivery$/, text: fixed("settings:errors.splitCod") },
  // The status settings (app/statuses/settings.ts).
  { path: /^locationId$/, text: fixed("statuses:errors.location") },
  { path: /^trackingUrls\.\w+$/, text: fixed("statuses:errors.trackingUrl") },
  { path: /^notifyBuyer$/, text: fixed("settings:errors.checkbox") },
  { path: /^pollMinutes$/, text: between("statuses:errors.pollMinutes") },
  { path: /^idsPerReport$/, text: between("statuses:errors.idsPerReport") },
  {
    path: /^statusRules$/,
    codes: ["too_big"],
    text: (issue) => message("statuses:errors.tooManyRules", { maximum: limit(issue, "maximum") }),
  },
  { path: /^statusRules\.\*$/, codes: ["custom"], text: fixed("statuses:errors.ruleNeedsIdOrName") },
  {
    path: /^statusRules\.\*\.(id|name)$/,
    codes: ["too_big"],
    text: (issue) => message("statuses:errors.ruleTooLong", { maximum: limit(issue, "maximum") }),
  },
  { path: /^statusRules\.\*\.stage$/, text: fixed("statuses:errors.ruleStage") },
  // Any field: by the kind of issue.
  { path: /^$/, text: fixed("settings:errors.form") },
  {
    path: /./,
    codes: ["too_small"],
    text: (issue) =>
      limit(issue, "minimum") <= 1 && (issue as { origin?: string }).origin === "string"
        ? message("settings:errors.empty")
        : message("settings:errors.tooSmall", { minimum: limit(issue, "minimum") }),
  },
  {
    path: /./,
    codes: ["too_big"],
    text: (issue) => message("settings:errors.tooBig", { maximum: limit(issue, "maximum") }),
  },
  { path: /./, codes: ["invalid_value"], text: fixed("settings:errors.notAChoice") },
  { path: /./, text: fixed("settings:errors.invalid") },
];

/** The field's path as the rules name it: indices as `*`. */
const pattern = (path: readonly PropertyKey[]) =>
  path.map((part) => (typeof part === "number" ? "*" : String(part))).join(".");

/** The Message for one issue. */
export function fieldMessage(issue: Issue): Message {
  const at = pattern(issue.path);
  const rule = FIELD_RULES.find(
    (candidate) => candidate.path.test(at) && (!candidate.codes || candidate.codes.includes(issue.code)),
  );
  return rule ? rule.text(issue) : message("settings:errors.invalid");
}

/**
 * The errors of a form: the first issue of each field, keyed by dotted path ("form" for the whole).
 * `within` is where the parsed value sits in the form (["mapping"] for a stored mapping parsed alone).
 */
export function fieldMessages(
  error: z.ZodError,
  within: readonly PropertyKey[] = [],
): Record<string, Message> {
  const errors: Record<string, Message> = {};
  for (const found of error.issues) {
    const issue = { ...found, path: [...within, ...found.path] } as Issue;
    errors[issue.path.join(".") || "form"] ??= fieldMessage(issue);
  }
  return errors;
}
