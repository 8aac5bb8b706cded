// The simulator's wire literals against the provider's documents (copies in test/fixtures of ../shared/spec):
// each string the simulator expects or answers must be written there as it is, so that the simulator checks the
// client against the specification and not against itself. The client's literals are checked against the
// simulator by test/warehouse/contract.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as literals from "./spec-literals";

const read = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const SPEC = read("warehouse-api.md");
const NOTES = read("warehouse-api-notes.md");
const OPENAPI = read("provider-openapi.json");
const DOCUMENTS = [SPEC, NOTES, OPENAPI].join("\n");

/** Every string value in the module, with the export it comes from. */
function strings(value: unknown, at: string): Array<[string, string]> {
  if (typeof value === "string") return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${at}[${index}]`));
  if (value && typeof value === "object" && !(value instanceof RegExp))
    return Object.entries(value).flatMap(([key, item]) => strings(item, `${at}.${key}`));
  return [];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Written whole: no letter, digit or underscore either side (so `comment` is not found in `сomment`). */
const writtenIn = (document: string, literal: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}_])${escape(literal)}(?![\\p{L}\\p{N}_])`, "u").test(document);

describe("the simulator's wire literals", () => {
  const all = Object.entries(literals).flatMap(([name, value]) => strings(value, name));

  it.each(all)("%s (%s) is written in the provider's documents", (_name, literal) => {
    expect(writtenIn(DOCUMENTS, literal)).toBe(true);
  });

  it("spells the Cyrillic literals exactly as the documents do, letter case and script included", () => {
    // A look-alike Latin letter or a changed case would still pass a loose comparison: these must match.
    for (const literal of [
      ...Object.values(literals.PAYMENT_METHOD),
      ...Object.values(literals.INBOUND_DELIVERY_METHOD),
      literals.DELIVERY_METHOD.novaPoshta,
      literals.DELIVERY_METHOD.kyivCourier,
      literals.DELIVERY_METHOD.pickup,
    ])
      expect(NOTES).toContain(`"${literal}"`);
    expect(NOTES).toContain(`\`${literals.DELIVERY_REQUEST_COMMENT_FIELD}\`, bytes d1 81`);
    expect([...Buffer.from(literals.DELIVERY_REQUEST_COMMENT_FIELD.slice(0, 1))]).toEqual([0xd1, 0x81]);
  });

  it("takes its limits from the specification's Limits section", () => {
    const limits = SPEC.slice(SPEC.indexOf("## Limits"), SPEC.indexOf("## Versioning"));
    expect(literals.RATE_LIMIT_WINDOW_MS).toBe(60_000);
    expect(limits).toContain(
      `| ${literals.REQUESTS_PER_WINDOW} requests per minute per ApiKey | all operations |`,
    );
    expect(limits).toContain(
      `| ${literals.REPORT_REQUESTS_PER_WINDOW} request per minute | ${literals.REPORT_OPERATIONS.join(", ")} |`,
    );
    expect(limits).toContain(`| ${literals.MAX_ORDERS_PER_BATCH} orders per request | AddOrder |`);
    expect(NOTES).toContain(`up to ${literals.LIST_PAGE_SIZE} a page`);
  });

  it("numbers the inbound delivery statuses as ReportDeliveryRequest does", () => {
    const { new: fresh, arrivedNotFullyReceived, received } = literals.INBOUND_DELIVERY_STATUS;
    expect(NOTES).toContain(
      `status: ${fresh} new, ${arrivedNotFullyReceived} arrived not fully received, ${received} received and confirmed`,
    );
  });

  it("accepts the documents' own examples with its patterns", () => {
    expect(NOTES).toContain("Kyiv `8d5a980d-391c-11dd-90d9-001a92567626`");
    expect(literals.CARRIER_REF_PATTERN.test("8d5a980d-391c-11dd-90d9-001a92567626")).toBe(true);
    expect(SPEC).toContain("country code 380 followed by nine digits");
    expect(literals.PHONE_PATTERN.test("380501234567")).toBe(true);
    expect(literals.PHONE_PATTERN.test("0501234567")).toBe(false);
  });
});
