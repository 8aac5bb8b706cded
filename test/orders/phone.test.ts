import { describe, expect, it } from "vitest";
import { normaliseUkrainianPhone } from "../../app/orders/phone";
import { PHONE_PATTERN } from "../../app/warehouse/wire";

describe("normaliseUkrainianPhone", () => {
  it.each([
    ["+380 67 123 45 67", "380671234567"],
    ["067-123-45-67", "380671234567"],
    ["(067)1234567", "380671234567"],
    ["80671234567", "380671234567"],
    ["8 067 123 45 67", "380671234567"],
    ["8-044-123-45-67", "380441234567"],
    ["380671234567", "380671234567"],
    ["0671234567", "380671234567"],
    ["+38 (067) 123-45-67", "380671234567"],
    ["38 067 123 45 67", "380671234567"],
    ["067.123.45.67", "380671234567"],
    ["  +380 (50) 765-43-21  ", "380507654321"],
    ["+380 (0)93 111 22 33", "380931112233"],
    ["+380441234567", "380441234567"], // a Kyiv landline
    ["044 123 4567", "380441234567"],
    ["0 50 765 43 21", "380507654321"],
  ])("reads %j as %s", (raw, expected) => {
    const phone = normaliseUkrainianPhone(raw);
    expect(phone).toBe(expected);
    expect(phone).toMatch(PHONE_PATTERN);
  });

  it.each([
    ["+48 601 234 567", "a Polish mobile"],
    ["+1 202 555 0123", "a US number"],
    ["+44 20 7946 0958", "a UK number"],
    ["+80671234567", "an international number that only looks like the old trunk prefix"],
    ["555-555-SHIP", "the placeholder in Shopify's example payload"],
    ["067 123 45", "a Ukrainian number that is too short"],
    ["067 123 45 67 89", "a Ukrainian number that is too long"],
    ["not a phone", "words"],
    ["", "nothing"],
    ["   ", "blanks"],
  ])("rejects %j (%s)", (raw) => {
    expect(normaliseUkrainianPhone(raw)).toBeNull();
  });
});
