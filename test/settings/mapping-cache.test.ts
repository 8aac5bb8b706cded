import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import type { ShopMapping } from "../../app/orders/settings";
import { createMappingCache } from "../../app/settings/mapping-cache.server";
import { saveSettings, shopMapping } from "../../app/settings/settings.server";

const shop = "mapping-cache.myshopify.com";

async function save(idOrderPrefix: string) {
  const saved = await saveSettings(appContext(), shop, {
    apiKey: "key-1",
    environment: "production",
    batchAddOrder: true,
    mapping: { idOrderPrefix },
  });
  expect(saved.ok).toBe(true);
}

/** A cache over the real settings row, on a clock the test moves, counting the reads it makes. */
function cacheOverDb(ttlMs = 5_000) {
  let clock = 0;
  let reads = 0;
  const cache = createMappingCache({ ttlMs, now: () => clock });
  const load = () => {
    reads++;
    return shopMapping(appContext().db, shop);
  };
  return {
    cache,
    prefix: async () => (await cache.get(shop, load)).mapping.idOrderPrefix,
    advance: (ms: number) => (clock += ms),
    reads: () => reads,
  };
}

describe("the per-shop mapping cache", () => {
  it("reads the settings once while fresh, and again once ttlMs has passed", async () => {
    await save("A-");
    const { prefix, advance, reads } = cacheOverDb();
    expect(await prefix()).toBe("A-");
    expect(await prefix()).toBe("A-");
    expect(reads()).toBe(1);

    // Another instance saved: this one keeps the old mapping until its entry is ttlMs old.
    await save("B-");
    advance(4_999);
    expect(await prefix()).toBe("A-");
    advance(1);
    expect(await prefix()).toBe("B-");
    expect(reads()).toBe(2);
  });

  it("serves a save made in this process at once, once forgotten", async () => {
    await save("A-");
    const { cache, prefix } = cacheOverDb();
    expect(await prefix()).toBe("A-");
    await save("B-");
    cache.forget(shop);
    expect(await prefix()).toBe("B-");
  });

  it("does not keep a read that was under way when the shop was forgotten", async () => {
    await save("A-");
    const { cache, prefix, reads } = cacheOverDb();
    const inFlight = prefix();
    await save("B-");
    cache.forget(shop);
    await inFlight;
    expect(await prefix()).toBe("B-");
    expect(reads()).toBe(2);
  });

  it("does not remember a failed read", async () => {
    const cache = createMappingCache({ now: () => 0 });
    const failing = () => Promise.reject(new Error("database unreachable"));
    await expect(cache.get(shop, failing)).rejects.toThrow("database unreachable");
    const settings = { mapping: { idOrderPrefix: "C-" }, problem: null } as unknown as ShopMapping;
    expect(await cache.get(shop, () => Promise.resolve(settings))).toBe(settings);
  });

  it("keeps at most maxShops shops, dropping the oldest", async () => {
    const cache = createMappingCache({ now: () => 0, maxShops: 2 });
    let reads = 0;
    const load = () => (reads++, Promise.resolve({} as ShopMapping));
    for (const name of ["a", "b", "c", "b", "a"]) await cache.get(name, load);
    // a, b, c read; c pushed a out; b still cached; a read again.
    expect(reads).toBe(4);
  });
});
