// A form's validation errors as Messages: each field gets the text written for it, the limits travel as
// values, and every key a rule can give exists in both languages.
import { describe, expect, it } from "vitest";
import { createFormatter } from "../../app/i18n/format";
import { i18nFor } from "../../app/i18n/i18n";
import { message, translate } from "../../app/i18n/message";
import { fieldMessages } from "../../app/settings/field-messages";
import { settingsFormSchema } from "../../app/settings/settings.server";
import { sayTexts } from "../../app/components/use-texts";
import { statusSettingsFormSchema } from "../../app/statuses/settings.server";

const settingsErrors = (input: unknown) => {
  const parsed = settingsFormSchema.safeParse(input);
  if (parsed.success) throw new Error("the input was valid");
  return fieldMessages(parsed.error);
};
const statusErrors = (input: unknown) => {
  const parsed = statusSettingsFormSchema.safeParse(input);
  if (parsed.success) throw new Error("the input was valid");
  return fieldMessages(parsed.error);
};
const say = (locale: "en" | "uk", text: Parameters<typeof translate>[1]) =>
  translate(i18nFor(locale).t, text);

describe("field messages", () => {
  it("give each field of the settings form its own text, one per field", () => {
    const errors = settingsErrors({
      apiKey: "not a key!",
      environment: "moon",
      mapping: {
        paymentRules: [{ match: " ", method: "barter" }],
        deliveryLiterals: { pickup: "" },
        idOrderPrefix: "UA1",
      },
    });
    expect(errors).toEqual({
      apiKey: message("settings:errors.apiKey.characters"),
      environment: message("settings:errors.environment"),
      "mapping.paymentRules.0.match": message("settings:errors.ruleMatchEmpty"),
      "mapping.paymentRules.0.method": message("settings:errors.ruleMethod"),
      "mapping.deliveryLiterals.pickup": message("settings:errors.deliveryTextEmpty"),
      "mapping.idOrderPrefix": message("settings:errors.prefix.endsInDigit"),
    });
    expect(say("en", errors.apiKey!)).toContain("may hold only letters, digits");
    expect(say("uk", errors.apiKey!)).toBe(
      "ApiKey може містити лише літери, цифри, «-» і «_»: скопіюйте його ще раз із кабінету складу.",
    );
  });

  it("carry the limit a value broke, said in words in both languages", () => {
    const errors = settingsErrors({
      apiKey: "k".repeat(201),
      environment: "production",
      mapping: { idOrderPrefix: "ABCDEFGHIJK-" },
    });
    expect(errors).toEqual({
      apiKey: message("settings:errors.apiKey.tooLong"),
      "mapping.idOrderPrefix": message("settings:errors.prefix.tooLong", { maximum: 10 }),
    });
    expect(say("en", errors["mapping.idOrderPrefix"]!)).toBe(
      "The order number prefix is at most 10 characters.",
    );
    expect(say("uk", errors["mapping.idOrderPrefix"]!)).toBe(
      "Префікс номера замовлення — не більше 10 символів.",
    );
  });

  it("say a number's bounds whichever side it is off, and when it is not a number at all", () => {
    for (const pollMinutes of [2, 5000, 7.5, Number.NaN]) {
      expect(statusErrors({ pollMinutes })).toEqual({
        pollMinutes: message("statuses:errors.pollMinutes", { minimum: 5, maximum: 1440 }),
      });
    }
    expect(say("uk", statusErrors({ idsPerReport: 0 }).idsPerReport!)).toBe(
      "Вкажіть ціле число замовлень від 1 до 500.",
    );
  });

  it("give the status form's rows and tracking pages their texts", () => {
    const errors = statusErrors({
      statusRules: [{ stage: "shipped" }, { id: "x".repeat(41), stage: "lost" }],
      trackingUrls: { novaPoshta: "https://novaposhta.ua/tracking/" },
    });
    expect(errors).toEqual({
      "statusRules.0": message("statuses:errors.ruleNeedsIdOrName"),
      "statusRules.1.id": message("statuses:errors.ruleTooLong", { maximum: 40 }),
      "statusRules.1.stage": message("statuses:errors.ruleStage"),
      "trackingUrls.novaPoshta": message("statuses:errors.trackingUrl"),
    });
    expect(say("en", errors["trackingUrls.novaPoshta"]!)).toBe(
      "Give an https address with {ttn} where the waybill number goes.",
    );
  });

  it("answer input that is not a form at all with the form's own text", () => {
    expect(settingsErrors(null)).toEqual({ form: message("settings:errors.form") });
  });

  it("fall back to a text by the kind of issue for a field without its own", () => {
    const errors = settingsErrors({ environment: "production", mapping: { deliverySenderId: " " } });
    expect(errors).toEqual({ "mapping.deliverySenderId": message("settings:errors.empty") });
  });

  it("use only keys both languages have", () => {
    const issues = [
      { code: "too_big", maximum: 3, origin: "string" },
      { code: "too_small", minimum: 2, origin: "number" },
      { code: "too_small", minimum: 1, origin: "string" },
      { code: "invalid_format", format: "regex" },
      { code: "invalid_value", values: [] },
      { code: "invalid_type", expected: "number" },
      { code: "custom" },
    ] as const;
    const paths = [
      [],
      ["apiKey"],
      ["environment"],
      ["batchAddOrder"],
      ["mapping", "paymentRules", 0, "match"],
      ["mapping", "deliveryRules", 1, "method"],
      ["mapping", "deliveryLiterals", "pickup"],
      ["mapping", "payerType"],
      ["mapping", "idOrderPrefix"],
      ["mapping", "sendNoteAsComment"],
      ["mapping", "deliverySenderId"],
      ["locationId"],
      ["trackingUrls", "ukrposhta"],
      ["notifyBuyer"],
      ["pollMinutes"],
      ["idsPerReport"],
      ["statusRules"],
      ["statusRules", 0],
      ["statusRules", 0, "name"],
      ["statusRules", 0, "stage"],
    ];
    const keys = new Set<string>();
    for (const path of paths) {
      for (const issue of issues) {
        const error = {
          issues: [{ ...issue, path, message: "", input: undefined }],
        } as unknown as Parameters<typeof fieldMessages>[0];
        for (const text of Object.values(fieldMessages(error))) keys.add(text.key);
      }
    }
    expect(keys.size).toBeGreaterThan(20);
    for (const key of keys) {
      for (const locale of ["en", "uk"] as const) {
        expect(i18nFor(locale).exists(key), `${locale} ${key}`).toBe(true);
      }
    }
  });
});

describe("a settings text in words", () => {
  it("writes its numbers the admin's way", () => {
    const text = message("statuses:errors.pollMinutes", { minimum: 5, maximum: 1440 });
    expect(sayTexts(i18nFor("en").t, createFormatter("en", "Europe/Kyiv"), text)).toBe(
      "Give a whole number of minutes from 5 to 1,440.",
    );
    expect(sayTexts(i18nFor("uk").t, createFormatter("uk", "Europe/Kyiv"), text).replace(/\s/g, " ")).toBe(
      "Вкажіть ціле число хвилин від 5 до 1 440.",
    );
    // Words are left as they are.
    expect(
      sayTexts(
        i18nFor("en").t,
        createFormatter("en", "Europe/Kyiv"),
        message("settings:errors.apiKey.shared", { shop: "a-1000.myshopify.com" }),
      ),
    ).toContain("the store a-1000.myshopify.com");
  });
});
