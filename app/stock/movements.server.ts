// What the SKU view reads: the SKU's card from the catalogue (its Shopify variants and the warehouse's
// figures as last reported) and its movements over a period, asked of the warehouse with the shop's key
// while the merchant waits. Never in the merchant's way: no key, a paused key, a warehouse refusing or
// unreachable each answer a problem the page says, and the card is shown all the same.
import type { AppContext } from "../context.server";
import { variantAdminUrl } from "../catalogue/card";
import type { Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { savedKeyClient } from "../work/saved-key-client.server";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import { WarehouseError } from "../warehouse/errors";
import { warehouseErrorText } from "../warehouse/texts";
import { moveProductPeriod, movementReport, type MovementReport, type Period } from "./movements";

/** How long the page waits for the key's limits (60 a minute, shared with the engine) before saying so. */
const LIMITER_WAIT_MS = 2_000;
/** Variants sharing one SKU shown on its card at most (a shared SKU is a catalogue problem anyway). */
const VARIANTS_SHOWN = 10;

export interface SkuVariant {
  name: string;
  /** The variant's page in the Shopify admin; null once Shopify deleted it. */
  adminUrl: string | null;
}

export interface SkuCard {
  sku: string;
  /** The catalogue's name of the first variant with this SKU; null when no variant of the shop has it. */
  name: string | null;
  variants: SkuVariant[];
  /** The warehouse's figures as its last stock report gave them; null when no report named the SKU. */
  warehouse: { quantity: number | null; available: number | null; reportedAt: string } | null;
}

/** The SKU's card from the shop's catalogue (scoped to the shop: another shop's items are never read). */
export async function skuCard(db: Db, shop: string, sku: string): Promise<SkuCard> {
  const items = await db.catalogueItem.findMany({
    where: { shop, sku },
    // Variants still in Shopify first, so that the ones shown are live ones when there are more.
    orderBy: [{ deletedAt: { sort: "asc", nulls: "first" } }, { createdAt: "asc" }],
    take: VARIANTS_SHOWN,
    select: {
      name: true,
      productId: true,
      variantId: true,
      deletedAt: true,
      warehouseQuantity: true,
      warehouseAvailable: true,
      reportedAt: true,
    },
  });
  const reported = items
    .filter((item) => item.reportedAt)
    .sort((a, b) => b.reportedAt!.getTime() - a.reportedAt!.getTime())[0];
  return {
    sku,
    name: items[0]?.name ?? null,
    variants: items.map((item) => ({
      name: item.name,
      adminUrl: item.deletedAt ? null : variantAdminUrl(item.productId, item.variantId),
    })),
    warehouse: reported
      ? {
          quantity: reported.warehouseQuantity,
          available: reported.warehouseAvailable,
          reportedAt: reported.reportedAt!.toISOString(),
        }
      : null,
  };
}

export type SkuMovements =
  | { ok: true; report: MovementReport }
  | {
      ok: false;
      /** "noKey": no key saved or the shop paused; "failed": the warehouse could not answer. */
      reason: "noKey" | "failed";
      problem: Message;
    };

export interface MovementDeps extends AppContext {
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
}

/** The SKU's movements over the period, asked of the warehouse now; throws nothing the warehouse causes. */
export async function skuMovements(
  deps: MovementDeps,
  shop: string,
  sku: string,
  period: Period,
): Promise<SkuMovements> {
  const keyed = await savedKeyClient(deps, shop, { maxLimiterWaitMs: LIMITER_WAIT_MS });
  if (!keyed) return { ok: false, reason: "noKey", problem: message("stock:sku.noKey") };
  const { warehouse } = keyed;
  try {
    const rows = await warehouse.reportMoveProduct({ ...moveProductPeriod(period), productSku: sku });
    return { ok: true, report: movementReport(rows, sku) };
  } catch (error) {
    deps.log.warn(
      { shop, sku, event: "movements.unavailable", err: error },
      "the warehouse's movements of a SKU could not be read",
    );
    if (!(error instanceof WarehouseError)) throw error;
    return { ok: false, reason: "failed", problem: warehouseErrorText(error) };
  }
}
