// Each shop's parsed order mapping, kept for a few seconds so that order webhooks do not read and parse
// the settings row every time (about a ninth of an order webhook's CPU, bench/intake-parts.ts).
// Invalidation: a save in this process forgets the shop at once; another instance's save is seen within
// `ttlMs`. Whatever re-maps open orders after a save must therefore start (or run again) once `ttlMs` has
// passed since the save, so that an order another instance mapped with the old rules meanwhile is re-mapped.
import type { ShopMapping } from "../orders/settings";

export interface MappingCache {
  /** The shop's mapping, from the cache while fresh, else from `load` (which is then remembered). */
  get(shop: string, load: () => Promise<ShopMapping>): Promise<ShopMapping>;
  /** Call after the shop's settings were saved (or the shop removed), before answering the merchant. */
  forget(shop: string): void;
}

/** How long another instance may map with a mapping the merchant has since replaced. */
export const MAPPING_CACHE_TTL_MS = 5_000;

export function createMappingCache(
  options: { ttlMs?: number; now?: () => number; maxShops?: number } = {},
): MappingCache {
  const ttlMs = options.ttlMs ?? MAPPING_CACHE_TTL_MS;
  const now = options.now ?? (() => performance.now());
  const maxShops = options.maxShops ?? 10_000;
  const entries = new Map<string, { loadedAt: number; mapping: Promise<ShopMapping> }>();
  // The promise is kept from the start of its read, so that forget() during the read drops it too: a read
  // that began before a save never lands in the cache after it.

  return {
    get(shop, load) {
      const entry = entries.get(shop);
      if (entry && now() - entry.loadedAt < ttlMs) return entry.mapping;
      const loadedAt = now();
      const mapping = load();
      // A failed read is not remembered: the next webhook reads again.
      mapping.catch(() => {
        if (entries.get(shop)?.mapping === mapping) entries.delete(shop);
      });
      // Many shops on one instance: the oldest entry makes room (Map keeps insertion order).
      if (entries.size >= maxShops && !entries.has(shop)) entries.delete(entries.keys().next().value!);
      entries.set(shop, { loadedAt, mapping });
      return mapping;
    },
    forget(shop) {
      entries.delete(shop);
    },
  };
}
