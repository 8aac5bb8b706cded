// A Shopify variant as the warehouse's product card (AddProduct's sku, name and barcode), or the problems that
// keep it from being one, each fixed by the merchant in Shopify. Pure: a webhook payload and a GraphQL read
// both arrive here as CatalogueVariant, so both give the same card for the same variant.
import { PRODUCT_FIELD_MAX_LENGTH } from "../warehouse/wire";

/** A variant as both sources give it; ids are GIDs. */
export interface CatalogueVariant {
  productId: string;
  variantId: string;
  /** Null where the source leaves it out (webhook payloads may). */
  inventoryItemId: string | null;
  /** InventoryItem.tracked; null where the source does not say (webhook payloads). */
  tracked: boolean | null;
  productTitle: string;
  variantTitle: string;
  sku: string | null;
  barcode: string | null;
}

/** AddProduct's fields as the client takes them; no barcode is sent as none. */
export interface ProductCard {
  sku: string;
  name: string;
  barcode?: string;
}

/** The title Shopify gives the only variant of a product without options. */
export const DEFAULT_VARIANT_TITLE = "Default Title";

export const CARD_PROBLEMS = [
  "sku_missing",
  "sku_duplicate",
  "sku_too_long",
  "sku_invisible_characters",
  "barcode_invalid",
  "title_missing",
] as const;
export type CardProblemCode = (typeof CARD_PROBLEMS)[number];

const LIMIT = PRODUCT_FIELD_MAX_LENGTH;

/** One whole sentence per problem, kept whole for translation; the particulars travel beside it. */
export const CARD_PROBLEM_MESSAGES: Readonly<Record<CardProblemCode, string>> = {
  sku_missing:
    "This variant has no SKU, so the warehouse cannot list it; give it in Shopify the SKU the warehouse knows the goods by.",
  sku_duplicate:
    "Several variants share this SKU, so the warehouse would take them for one product; give each variant its own SKU in Shopify.",
  sku_too_long: `This SKU is longer than the ${LIMIT.sku} characters the warehouse takes, so shorten it in Shopify.`,
  sku_invisible_characters:
    "This SKU contains invisible characters that the warehouse staff cannot type or see, so retype it in Shopify.",
  barcode_invalid: `This barcode is longer than ${LIMIT.barcode} characters or contains invisible characters, so correct it in Shopify.`,
  title_missing:
    "This product has no title, so the warehouse would have no name for its goods; give the product a title in Shopify.",
};

export interface CardProblem {
  code: CardProblemCode;
  message: string;
  productId: string;
  variantId: string;
  /** The variant's page in the Shopify admin, through App Bridge's shopify: protocol. */
  fixUrl: string;
  /** The SKU as it would be sent, when the variant has one. */
  sku?: string;
  /** sku_duplicate: the other variants with the same SKU. */
  sharedWith?: string[];
}

export interface VariantCard {
  productId: string;
  variantId: string;
  card: ProductCard;
}

export interface CatalogueCards {
  cards: VariantCard[];
  /** Every problem of every variant left out of `cards`. */
  problems: CardProblem[];
}

/**
 * Text as the order mapping writes a SKU: runs of whitespace (line breaks, tabs, non-breaking spaces) as one
 * space, trimmed. A SKU must be written alike here and on AddOrder's lines, or an order names goods the
 * warehouse does not know.
 */
export const cleanText = (text: string | null | undefined): string =>
  (text ?? "").replace(/\s+/g, " ").trim();

/** Control and formatting characters (a zero-width space pasted with a SKU): invisible in the admin and on labels. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/** `shopify://admin/products/<id>/variants/<id>`: the legacy numbers from the GIDs. */
export function variantAdminUrl(productId: string, variantId: string): string {
  const number = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
  return `shopify://admin/products/${number(productId)}/variants/${number(variantId)}`;
}

/** A title as the name carries it; control characters go after whitespace, so a line break still parts words. */
const cleanTitle = (title: string) => cleanText(title).replace(/\p{Cc}/gu, "");

const ELLIPSIS = "…";
/** A product title cut shorter than this says too little to pick goods by; then the variant title gives way too. */
const MIN_PRODUCT_TITLE = 30;

/**
 * `text` within `max` UTF-16 units (as the warehouse schema counts), ending in an ellipsis: at the last space
 * when one falls in the second half, so no word is cut through, and never inside a surrogate pair.
 */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = "";
  for (const char of text) {
    if (kept.length + char.length > max - ELLIPSIS.length) break;
    kept += char;
  }
  const space = kept.lastIndexOf(" ");
  if (space >= max / 2) kept = kept.slice(0, space);
  return kept.replace(/[\s,;:/\-–—]+$/u, "") + ELLIPSIS;
}

/**
 * The card's name: the product's title, then " - " and the variant's title unless it is Shopify's "Default
 * Title", as Shopify names the order lines that AddOrder sends. Too long a name loses the end of the product's
 * title first, since the variant's title is what tells the variants apart. The product's title is not empty
 * (catalogueCards holds such a variant back as title_missing).
 */
export function cardName(productTitle: string, variantTitle: string): string {
  const product = cleanTitle(productTitle);
  const variant = cleanTitle(variantTitle);
  const suffix = variant && variant !== DEFAULT_VARIANT_TITLE ? ` - ${variant}` : "";
  const room = LIMIT.name - suffix.length;
  if (product.length <= room) return product + suffix;
  if (room >= MIN_PRODUCT_TITLE) return shorten(product, room) + suffix;
  return shorten(product + suffix, LIMIT.name);
}

function problemsOf(variant: CatalogueVariant, sku: string, barcode: string): CardProblemCode[] {
  const codes: CardProblemCode[] = [];
  if (!sku) codes.push("sku_missing");
  else if (INVISIBLE.test(sku)) codes.push("sku_invisible_characters");
  else if (sku.length > LIMIT.sku) codes.push("sku_too_long");
  if (barcode.length > LIMIT.barcode || INVISIBLE.test(barcode)) codes.push("barcode_invalid");
  if (!cleanTitle(variant.productTitle)) codes.push("title_missing");
  return codes;
}

/**
 * The cards of a set of variants, and the problems of those that cannot have one. SKUs are compared exactly
 * as they would be sent (whitespace as cleanText writes it, letter case kept): Shopify's SKUs are
 * case-sensitive, AddProduct upserts by sku and nothing says the warehouse folds case (the simulator does
 * not), and taking two SKUs for one would leave one never sent, with its orders refused. A shared SKU is a
 * problem of every variant sharing it, since which of them the warehouse should know is the merchant's call;
 * so pass every variant of the shop that the caller knows, not one product's alone.
 */
export function catalogueCards(variants: readonly CatalogueVariant[]): CatalogueCards {
  const variantsBySku = new Map<string, Set<string>>();
  for (const variant of variants) {
    const sku = cleanText(variant.sku);
    if (sku) variantsBySku.set(sku, (variantsBySku.get(sku) ?? new Set()).add(variant.variantId));
  }
  const cards: VariantCard[] = [];
  const problems: CardProblem[] = [];
  for (const variant of variants) {
    const { productId, variantId } = variant;
    const sku = cleanText(variant.sku);
    const barcode = cleanText(variant.barcode);
    const sharing = [...(variantsBySku.get(sku) ?? [])].filter((id) => id !== variantId);
    const codes = problemsOf(variant, sku, barcode);
    if (sharing.length > 0) codes.push("sku_duplicate");
    if (codes.length === 0) {
      const card = { sku, name: cardName(variant.productTitle, variant.variantTitle) };
      cards.push({ productId, variantId, card: barcode ? { ...card, barcode } : card });
      continue;
    }
    for (const code of codes) {
      problems.push({
        code,
        message: CARD_PROBLEM_MESSAGES[code],
        productId,
        variantId,
        fixUrl: variantAdminUrl(productId, variantId),
        ...(sku && { sku }),
        ...(code === "sku_duplicate" && { sharedWith: sharing }),
      });
    }
  }
  return { cards, problems };
}
