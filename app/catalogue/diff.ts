// Which product cards must go to the warehouse: those whose SKU it lacks and those whose name or barcode differ
// from what it holds, and no other, since every AddProduct is one of the key's 60 requests a minute. Pure.
//
// ReportSklad's rows carry a SKU's barcode but not its name, so the name the warehouse holds is taken to be the
// one the app last sent it (kept by the caller for every AddProduct the warehouse accepted).
import { cleanText, type ProductCard } from "./card";

/** What ReportSklad says of a SKU; its rows (StockRow) fit as they are. */
export interface ReportedProduct {
  sku: string;
  /** "" when the warehouse has none. */
  barcode: string;
}

/** The fields of the last AddProduct the warehouse accepted for a SKU. */
export interface SentProduct {
  name: string;
  barcode?: string;
}

export type SendReason =
  /** The warehouse does not hold the SKU. */
  | "missing"
  /** The name differs from the one last sent. */
  | "name_changed"
  /** The warehouse holds the SKU under a name the app never sent (entered there, or sent before the app's records). */
  | "name_unknown"
  /** Shopify's barcode differs from the warehouse's. */
  | "barcode_changed";

export interface CatalogueDiff {
  send: Array<{ card: ProductCard; reasons: SendReason[] }>;
  /** The SKUs the warehouse already holds as their cards have them. */
  unchanged: string[];
}

export interface CatalogueDiffInput {
  /** One per SKU, as catalogueCards gives them. */
  cards: readonly ProductCard[];
  lastSent: ReadonlyMap<string, SentProduct>;
  /**
   * ReportSklad's rows, read without ExcludeZero (which leaves out SKUs out of stock, so they would look
   * missing). Without a report (a product webhook, when ReportSklad's one call a minute is not spent), what
   * was last sent stands for what the warehouse holds.
   */
  reported?: readonly ReportedProduct[];
}

/**
 * Compares each card with the warehouse. A card without a barcode never counts as changed by it, and when sent
 * for another reason carries the barcode the warehouse has: whether AddProduct without one erases the
 * warehouse's is not documented, and a barcode its staff scanned in is worth more than Shopify's blank.
 */
export function diffCatalogue({ cards, lastSent, reported }: CatalogueDiffInput): CatalogueDiff {
  const heldBarcodes = reported
    ? new Map(reported.map((row) => [cleanText(row.sku), cleanText(row.barcode)]))
    : new Map([...lastSent].map(([sku, sent]) => [sku, sent.barcode ?? ""]));
  const diff: CatalogueDiff = { send: [], unchanged: [] };
  for (const card of cards) {
    const heldBarcode = heldBarcodes.get(card.sku);
    if (heldBarcode === undefined) {
      diff.send.push({ card, reasons: ["missing"] });
      continue;
    }
    const reasons: SendReason[] = [];
    const sentName = lastSent.get(card.sku)?.name;
    if (sentName === undefined) reasons.push("name_unknown");
    else if (sentName !== card.name) reasons.push("name_changed");
    if (card.barcode && card.barcode !== heldBarcode) reasons.push("barcode_changed");
    if (reasons.length === 0) diff.unchanged.push(card.sku);
    else if (card.barcode || !heldBarcode) diff.send.push({ card, reasons });
    else diff.send.push({ card: { ...card, barcode: heldBarcode }, reasons });
  }
  return diff;
}
