// The SKU map kept from Shopify's product webhooks and the full sync's pages: each variant's warehouse card
// (catalogueCards), and whether it must be sent with AddProduct because it differs from what the warehouse
// holds (diffCatalogue). Nothing is sent from here: a card that must go is made due and the worker is woken.
// A SKU shared by several variants of the shop blocks all of them until the merchant makes it unique; that
// is decided over the shop's whole map, so a change to one product can block or free another's variants.
import { randomUUID } from "node:crypto";
import type { CatalogueItem, Prisma } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import { lockForTransaction } from "../db/lock.server";
import type { WakeReason } from "../context.server";
import {
  CARD_PROBLEM_MESSAGES,
  cardName,
  catalogueCards,
  cleanText,
  DEFAULT_VARIANT_TITLE,
  variantAdminUrl,
  type CardProblem,
  type CatalogueVariant,
  type ProductCard,
} from "./card";
import { message, type Message } from "../i18n/message";
import { PRODUCT_FIELD_MAX_LENGTH } from "../warehouse/wire";
import { releaseOrdersWithCards } from "./awaiting.server";
import { diffCatalogue, type SentProduct } from "./diff";
import { CARD_SEND_PROBLEM } from "./send-problems";
import type { ProductPayload } from "./payload";

export type ProductTopic = "products/create" | "products/update" | "products/delete";

type Tx = Prisma.TransactionClient;

interface Deps extends ServiceDeps {
  wake?: (shop: string, reason?: WakeReason) => void;
}

interface Delivery {
  shop: string;
  eventId: string;
  topic: ProductTopic;
}

/** What a product webhook did: taken in, a redelivery, or older than what the map already has. */
export type ProductIntake = "recorded" | "duplicate" | "stale";

/** products/create and products/update: the product's variants as the SKU map keeps them. */
export async function takeInProductWebhook(
  deps: Deps,
  delivery: Delivery,
  product: ProductPayload,
): Promise<ProductIntake> {
  return takeInOnce(deps, delivery, (tx, now) => recordProduct(tx, delivery.shop, product, now));
}

/** products/delete: the product's variants leave the map's live rows (the warehouse keeps its cards). */
export async function takeInProductDeletion(
  deps: Deps,
  delivery: Delivery,
  productId: string,
): Promise<ProductIntake> {
  return takeInOnce(deps, delivery, async (tx, now) => {
    const rows = await tx.catalogueItem.findMany({
      where: { shop: delivery.shop, productId, deletedAt: null },
    });
    if (!rows.length) return "recorded";
    await tx.catalogueItem.updateMany({
      where: { id: { in: rows.map((row) => row.id) } },
      data: { deletedAt: now, dueAt: null, version: { increment: 1 } },
    });
    await forgetStockBaseline(tx, delivery.shop);
    await settleSharedSkus(tx, delivery.shop, skusOf(rows), now);
    return "recorded";
  });
}

async function takeInOnce(
  deps: Deps,
  delivery: Delivery,
  apply: (tx: Tx, now: Date) => Promise<ProductIntake>,
): Promise<ProductIntake> {
  const { db, clock } = deps;
  const { shop, eventId, topic } = delivery;
  if (await db.webhookEvent.findUnique({ where: { shop_eventId: { shop, eventId } } })) return "duplicate";
  const now = clock();
  const outcome = await db.$transaction(async (tx) => {
    await lockShopCatalogue(tx, shop);
    return apply(tx, now);
  });
  // Recorded after the change: a crash between the two only means the redelivery is applied again, which
  // changes nothing (the same cards, or a stale updated_at).
  try {
    await db.webhookEvent.create({ data: { shop, eventId, topic, receivedAt: now } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  if (outcome === "recorded") {
    // A product deleted, a SKU now shared or renamed: orders parked for its card wait no longer.
    await releaseOrdersWithCards(deps, shop);
    deps.wake?.(shop);
  }
  return outcome;
}

/**
 * Every change to the shop's SKU map holds this until its transaction ends: whether a SKU is shared is read
 * over the whole map, so two products taken in at once (two webhooks, or a webhook beside the full sync's
 * page) must not each decide without the other's rows.
 */
export function lockShopCatalogue(tx: Tx | Db, shop: string): Promise<void> {
  return lockForTransaction(tx, `catalogue:${shop}`);
}

const skusOf = (rows: readonly Pick<CatalogueItem, "sku">[]) =>
  rows.flatMap((row) => (row.sku ? [row.sku] : []));

/**
 * When a card taken in is made due for AddProduct. A product webhook judges it against the card the
 * warehouse last accepted, since ReportSklad's one call a minute is not spent on a webhook. The full sync
 * judges every card against ReportSklad once its read is done; until then a new or changed card it reads
 * is not made due, or it would go before the warehouse was asked whether it has it already.
 */
export type DueRule = "against_last_sent" | "after_report";

/** The row's card as the warehouse should have it, or null when a problem keeps it from being sent. */
export function cardOf(row: Pick<CatalogueItem, "sku" | "name" | "barcode">): ProductCard | null {
  if (!row.sku) return null;
  return { sku: row.sku, name: row.name, ...(row.barcode && { barcode: row.barcode }) };
}

type SentFields = Pick<CatalogueItem, "sentSku" | "sentName" | "sentBarcode">;
const NEVER_SENT: SentFields = { sentSku: null, sentName: null, sentBarcode: null };

/** The card the warehouse last accepted for the row, as diffCatalogue takes it. */
export function lastSentOf(row: SentFields): Map<string, SentProduct> {
  const lastSent = new Map<string, SentProduct>();
  if (row.sentSku && row.sentName !== null) {
    lastSent.set(row.sentSku, { name: row.sentName, ...(row.sentBarcode && { barcode: row.sentBarcode }) });
  }
  return lastSent;
}

/** Whether the card must be sent: the warehouse last accepted another one for its SKU, or none. */
function mustSend(row: SentFields, card: ProductCard) {
  return diffCatalogue({ cards: [card], lastSent: lastSentOf(row) }).send.length > 0;
}

async function recordProduct(
  tx: Tx,
  shop: string,
  product: ProductPayload,
  now: Date,
): Promise<ProductIntake> {
  const existing = await tx.catalogueItem.findMany({ where: { shop, productId: product.productId } });
  const newest = Math.max(0, ...existing.map((row) => row.productUpdatedAt?.getTime() ?? 0));
  if (product.updatedAt && product.updatedAt.getTime() < newest) return "stale";

  const touchedSkus = await upsertVariants(
    tx,
    shop,
    {
      variants: product.variants,
      existing,
      rule: "against_last_sent",
      productUpdatedAt: product.updatedAt,
    },
    now,
  );
  // Variants the product no longer has (a payload that details every variant says so).
  if (!product.truncated) {
    const kept = new Set(product.variants.map((variant) => variant.variantId));
    const gone = existing.filter((row) => !kept.has(row.variantId) && !row.deletedAt);
    if (gone.length) {
      await tx.catalogueItem.updateMany({
        where: { id: { in: gone.map((row) => row.id) } },
        data: { deletedAt: now, dueAt: null, version: { increment: 1 } },
      });
      await forgetStockBaseline(tx, shop);
    }
  }
  await settleSharedSkus(tx, shop, [...touchedSkus], now);
  return "recorded";
}

/**
 * A page of the full sync's read of the shop's variants (any products', up to 250), into the map as a
 * webhook takes a product's, except that no card is made due: the sync judges them against ReportSklad
 * once the read is done. Run it in the transaction that stores the page's cursor.
 */
export async function recordVariantPage(
  tx: Tx,
  shop: string,
  variants: readonly CatalogueVariant[],
  now: Date,
): Promise<void> {
  await lockShopCatalogue(tx, shop);
  const existing = await tx.catalogueItem.findMany({
    where: { shop, variantId: { in: variants.map((variant) => variant.variantId) } },
  });
  const touchedSkus = await upsertVariants(tx, shop, { variants, existing, rule: "after_report" }, now);
  await settleSharedSkus(tx, shop, [...touchedSkus], now, "after_report");
}

/**
 * Once the full sync has read the whole shop: its variants the read did not see are gone from Shopify
 * (deleted while the app was away, or their webhook lost), and leave the map's live rows as products/delete
 * takes them out. A row the read saw was written by it (updatedAt, see upsertVariants), so one last written
 * before the read began was not seen. Answers how many left.
 */
export async function deleteUnseenVariants(
  tx: Tx,
  shop: string,
  readSince: Date,
  now: Date,
): Promise<number> {
  await lockShopCatalogue(tx, shop);
  const unseen = { shop, deletedAt: null, updatedAt: { lt: readSince } };
  const rows = await tx.catalogueItem.findMany({ where: unseen, select: { sku: true } });
  if (!rows.length) return 0;
  await tx.catalogueItem.updateMany({
    where: unseen,
    data: { deletedAt: now, dueAt: null, version: { increment: 1 } },
  });
  await settleSharedSkus(tx, shop, [...new Set(skusOf(rows))], now, "after_report");
  return rows.length;
}

interface VariantIntake {
  variants: readonly CatalogueVariant[];
  /** The rows these variants may have already. */
  existing: readonly CatalogueItem[];
  rule: DueRule;
  /** The product's updated_at, from a source that gives it (webhooks); kept as it is otherwise. */
  productUpdatedAt?: Date | null;
}

/**
 * Writes the variants' rows and answers the SKUs they had and have, for settleSharedSkus. New rows go in
 * one statement, rows whose card, problem or due state is unchanged in another; only a changed row is
 * written alone, and only then is its version raised, so a card being sent meanwhile is recorded as sent
 * rather than sent again. Every row taken in gets `updatedAt` now: the full sync tells the rows its read
 * saw by it (deleteUnseenVariants).
 */
async function upsertVariants(tx: Tx, shop: string, intake: VariantIntake, now: Date): Promise<Set<string>> {
  const { rule } = intake;
  const { cards, problems } = catalogueCards(intake.variants);
  const cardByVariant = new Map(cards.map((entry) => [entry.variantId, entry.card]));
  // A variant's first problem is the one shown (each is fixed in Shopify, and the next shows after).
  const problemByVariant = new Map<string, CardProblem>();
  for (const problem of problems) {
    if (!problemByVariant.has(problem.variantId)) problemByVariant.set(problem.variantId, problem);
  }
  const byVariant = new Map(intake.existing.map((row) => [row.variantId, row]));
  const touchedSkus = new Set(skusOf(intake.existing));
  const dated = intake.productUpdatedAt === undefined ? {} : { productUpdatedAt: intake.productUpdatedAt };
  const created: Prisma.CatalogueItemCreateManyInput[] = [];
  const unchanged: string[] = [];
  let skusMoved = false;

  for (const variant of intake.variants) {
    const card = cardByVariant.get(variant.variantId) ?? null;
    const problem = problemByVariant.get(variant.variantId) ?? null;
    const before = byVariant.get(variant.variantId);
    const fields = variantFields(variant, card, problem, before);
    if (fields.sku) touchedSkus.add(fields.sku);
    if (!before || before.deletedAt || before.sku !== fields.sku) skusMoved = true;
    const changed =
      !before ||
      before.sku !== fields.sku ||
      before.name !== fields.name ||
      before.barcode !== fields.barcode;
    const due = card && !problem && rule === "against_last_sent" && mustSend(before ?? NEVER_SENT, card);
    // An unchanged card keeps its due state, unless it no longer needs sending (a webhook's judgement);
    // the full sync's judgement comes after its read.
    const sending = changed
      ? { dueAt: due ? now : null, attempts: 0, lastError: null }
      : due || rule === "after_report"
        ? {}
        : { dueAt: null };
    const data = { ...fields, ...sending, deletedAt: null };
    if (!before) {
      created.push({ shop, variantId: variant.variantId, ...data, ...dated, updatedAt: now });
    } else if (sameColumns(before, data)) {
      unchanged.push(before.id);
    } else {
      await tx.catalogueItem.update({
        where: { id: before.id },
        data: { ...data, ...dated, updatedAt: now, version: { increment: 1 } },
      });
    }
  }
  if (created.length) await tx.catalogueItem.createMany({ data: created });
  if (unchanged.length) {
    await tx.catalogueItem.updateMany({
      where: { id: { in: unchanged } },
      data: { ...dated, updatedAt: now },
    });
  }
  if (skusMoved) await forgetStockBaseline(tx, shop);
  return touchedSkus;
}

/**
 * A variant's SKU came, went or changed: the stock sync's next run reads Shopify (decision 021), so a new
 * item with a SKU the warehouse reports gets its figure at the next run, not at the next hourly read. The
 * baseline is replaced by a text of its own (not a baseline), so a sync running meanwhile, whose read of
 * Shopify may predate the change, finds it changed and does not keep its own (app/stock/work.server.ts).
 */
async function forgetStockBaseline(tx: Tx, shop: string): Promise<void> {
  await tx.shopSettings.updateMany({
    where: { shop },
    data: { stockBaseline: `forgotten ${randomUUID()}`, stockBaselineAt: null },
  });
}

/** Whether the row already holds every column of `data`. */
function sameColumns(row: CatalogueItem, data: Partial<CatalogueItem>): boolean {
  return (Object.keys(data) as (keyof CatalogueItem)[]).every((column) => {
    const [held, given] = [row[column], data[column]];
    return held instanceof Date && given instanceof Date
      ? held.getTime() === given.getTime()
      : held === given;
  });
}

/** The row's columns for a variant: its card, or its problem with what it would be. */
function variantFields(
  variant: CatalogueVariant,
  card: ProductCard | null,
  problem: CardProblem | null,
  before: CatalogueItem | undefined,
) {
  return {
    productId: variant.productId,
    inventoryItemId: variant.inventoryItemId ?? before?.inventoryItemId ?? null,
    // Webhooks do not say; the full sync and the stock sync read it from Shopify.
    tracked: variant.tracked ?? before?.tracked ?? true,
    sku: card?.sku ?? (cleanText(variant.sku) || null),
    name: card?.name ?? cardName(variant.productTitle, variant.variantTitle),
    barcode: card?.barcode ?? (cleanText(variant.barcode) || null),
    problem: problem?.code ?? null,
    problemMessage: problem?.message ?? null,
  };
}

const SHARED = "sku_duplicate";

/** The problem of a row's card taken alone (its SKU, barcode and name), leaving sharing aside. */
function ownProblem(row: CatalogueItem): CardProblem | null {
  const variant: CatalogueVariant = {
    productId: row.productId,
    variantId: row.variantId,
    inventoryItemId: row.inventoryItemId,
    tracked: row.tracked,
    productTitle: row.name,
    variantTitle: DEFAULT_VARIANT_TITLE,
    sku: row.sku,
    barcode: row.barcode,
  };
  return catalogueCards([variant]).problems[0] ?? null;
}

/**
 * A SKU on more than one live variant of the shop blocks all of them (which one the warehouse should know
 * is the merchant's call); one that is unique again frees its variant, which is made due as `rule` says.
 */
async function settleSharedSkus(
  tx: Tx,
  shop: string,
  skus: string[],
  now: Date,
  rule: DueRule = "against_last_sent",
): Promise<void> {
  if (!skus.length) return;
  const rows = await tx.catalogueItem.findMany({ where: { shop, sku: { in: skus }, deletedAt: null } });
  const bySku = new Map<string, CatalogueItem[]>();
  for (const row of rows) bySku.set(row.sku!, [...(bySku.get(row.sku!) ?? []), row]);
  for (const group of bySku.values()) {
    for (const row of group) {
      const problem = group.length > 1 ? SHARED : (ownProblem(row)?.code ?? null);
      if (problem === row.problem) continue;
      const card = problem ? null : cardOf(row);
      await tx.catalogueItem.update({
        where: { id: row.id },
        data: {
          problem,
          problemMessage: problem ? CARD_PROBLEM_MESSAGES[problem] : null,
          dueAt: card && rule === "against_last_sent" && mustSend(row, card) ? now : null,
          attempts: 0,
          version: { increment: 1 },
        },
      });
    }
  }
}

/**
 * Whether the card's SKU is on another live variant of the shop, asked right before AddProduct: the map's
 * rows may have changed since the card was made due (a product taken in beside it, on any path). If it is,
 * every variant with the SKU is held as sharing it, under the shop's catalogue lock, and nothing is sent.
 */
export async function holdIfShared(
  db: Db,
  shop: string,
  row: Pick<CatalogueItem, "id" | "sku">,
  now: Date,
): Promise<boolean> {
  if (!row.sku) return false;
  const others = await db.catalogueItem.count({
    where: { shop, sku: row.sku, deletedAt: null, id: { not: row.id } },
  });
  if (!others) return false;
  await db.$transaction(async (tx) => {
    await lockShopCatalogue(tx, shop);
    await settleSharedSkus(tx, shop, [row.sku!], now);
  });
  return true;
}

/**
 * A problem's sentence in the admin's language (`catalogue:problem.*`): a card's own problem by its code, a
 * card the warehouse refused or could not take with what went wrong. A code this code does not know shows
 * the row's stored English words as they are.
 */
export function problemText(
  row: Pick<CatalogueItem, "problem" | "problemMessage" | "lastError" | "attempts">,
): Message | null {
  const { problem } = row;
  if (!problem) return null;
  if (problem === CARD_SEND_PROBLEM.refused) {
    return message("catalogue:problem.refused", { detail: row.lastError ?? "" });
  }
  if (problem === CARD_SEND_PROBLEM.retriesExhausted) {
    return message("catalogue:problem.retries_exhausted", {
      count: row.attempts,
      detail: row.lastError ?? "",
    });
  }
  if (problem in CARD_PROBLEM_MESSAGES) {
    return message(`catalogue:problem.${problem}`, {
      skuMax: PRODUCT_FIELD_MAX_LENGTH.sku,
      barcodeMax: PRODUCT_FIELD_MAX_LENGTH.barcode,
    });
  }
  return message("common:text.stored", { text: row.problemMessage ?? problem });
}

/** The shop's catalogue problems, for its pages: each with its sentence and its variant's page in Shopify. */
export async function catalogueProblems(db: Db, shop: string) {
  const rows = await db.catalogueItem.findMany({
    where: { shop, deletedAt: null, problem: { not: null } },
    orderBy: [{ sku: "asc" }, { variantId: "asc" }],
    take: 500,
  });
  return rows.map((row) => ({
    id: row.id,
    sku: row.sku,
    name: row.name,
    /** The sentence in the admin's language (Message), for the pages. */
    text: problemText(row)!,
    fixUrl: variantAdminUrl(row.productId, row.variantId),
  }));
}
