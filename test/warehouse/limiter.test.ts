// The limiter's behaviour, run against each store it is given in production and tests: the memory store and the
// database store the work engine shares between processes (on SQLite, or PostgreSQL under `npm run test:pg`).
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  MemoryRateLimitStore,
  rateLimitKey,
  WarehouseRateLimiter,
  type RateLimitState,
  type RateLimitStore,
} from "../../app/warehouse/limiter.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { DatabaseRateLimitStore } from "../../app/work/rate-limit-store.server";

const KEY = "5c1f3a52-9d1e-4e63-a0b1-2f1b4c7d8e90";
const MARGIN = 200;
const SHOP = "kyiv-goods.myshopify.com";

const STORES: Array<{ name: string; newStore: () => RateLimitStore }> = [
  { name: "memory", newStore: () => new MemoryRateLimitStore() },
  { name: "database", newStore: () => new DatabaseRateLimitStore(appContext().db, SHOP) },
];

describe.each(STORES)("the warehouse rate limiter (the $name store)", ({ newStore }) => {
  function limiterAt(start = 1_700_000_000_000, store: RateLimitStore = newStore()) {
    const clock = { now: start };
    const limiter = new WarehouseRateLimiter(store, { now: () => clock.now });
    return { clock, limiter, store };
  }

  it("allows 60 requests in a rolling minute across operations, then names the wait", async () => {
    const { clock, limiter } = limiterAt();
    const start = clock.now;
    for (let i = 0; i < 60; i++) {
      clock.now = start + i * 100;
      const operation = i % 2 ? OPERATIONS.addOrder : OPERATIONS.getCities;
      expect(await limiter.tryAcquire(KEY, operation)).toEqual({ granted: true, sentAt: clock.now });
    }
    clock.now = start + 6_000;
    // The first request leaves the window a minute (plus the margin) after it was sent.
    const expectedAt = start + 60_000 + MARGIN;
    expect(await limiter.tryAcquire(KEY, OPERATIONS.addProduct)).toEqual({
      granted: false,
      retryAfterMs: expectedAt - clock.now,
    });
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.addOrder)).toBe(expectedAt);
    clock.now = expectedAt - 1;
    expect((await limiter.tryAcquire(KEY, OPERATIONS.addOrder)).granted).toBe(false);
    clock.now = expectedAt;
    expect((await limiter.tryAcquire(KEY, OPERATIONS.addOrder)).granted).toBe(true);
    // Only one slot opened: the second request of the window is still inside it.
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.addOrder)).toBe(start + 100 + 60_000 + MARGIN);
  });

  it("says when the window's last request left and at what pace the window is spent evenly", async () => {
    const { clock, limiter } = limiterAt();
    const start = clock.now;
    expect(await limiter.headroom(KEY, OPERATIONS.addOrder)).toEqual({
      at: start,
      paceMs: 1_000,
      windowMs: 60_000,
      requestsPerWindow: 60,
      lastAt: null,
    });
    for (let i = 0; i < 45; i++) {
      clock.now = start + i;
      await limiter.tryAcquire(KEY, OPERATIONS.addOrder);
    }
    expect(await limiter.headroom(KEY, OPERATIONS.addOrder)).toMatchObject({ lastAt: start + 44 });
    // A minute (and the margin) after the last of them, the window is empty again.
    clock.now = start + 44 + 60_000 + MARGIN;
    expect(await limiter.headroom(KEY, OPERATIONS.addOrder)).toMatchObject({ lastAt: null });
  });

  it("allows each report operation once a minute, independently of the others", async () => {
    const { clock, limiter } = limiterAt();
    const start = clock.now;
    expect((await limiter.tryAcquire(KEY, OPERATIONS.reportSklad)).granted).toBe(true);
    expect((await limiter.tryAcquire(KEY, OPERATIONS.listOrder)).granted).toBe(true);
    clock.now = start + 30_000;
    expect(await limiter.tryAcquire(KEY, OPERATIONS.reportSklad)).toEqual({
      granted: false,
      retryAfterMs: 30_000 + MARGIN,
    });
    expect((await limiter.tryAcquire(KEY, OPERATIONS.reportStatusOrder)).granted).toBe(true);
    expect((await limiter.tryAcquire(KEY, OPERATIONS.addOrder)).granted).toBe(true);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.listOrder)).toBe(start + 60_000 + MARGIN);
    clock.now = start + 60_000 + MARGIN;
    expect((await limiter.tryAcquire(KEY, OPERATIONS.reportSklad)).granted).toBe(true);
  });

  it("asking when an operation may run records nothing", async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 100; i++) {
      expect(await limiter.nextAllowedAt(KEY, OPERATIONS.reportSklad)).toBe(clock.now);
    }
    expect((await limiter.tryAcquire(KEY, OPERATIONS.reportSklad)).granted).toBe(true);
  });

  it("holds every operation of a key after a 429, and keeps keys apart", async () => {
    const { clock, limiter } = limiterAt();
    await limiter.blockUntil(KEY, OPERATIONS.addOrder, clock.now + 5_000);
    expect(await limiter.tryAcquire(KEY, OPERATIONS.getCities)).toEqual({
      granted: false,
      retryAfterMs: 5_000,
    });
    expect((await limiter.tryAcquire("another-key", OPERATIONS.getCities)).granted).toBe(true);
    // A shorter block later does not shorten the first.
    await limiter.blockUntil(KEY, OPERATIONS.getCities, clock.now + 1_000);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.getCities)).toBe(clock.now + 5_000);
  });

  it("after a 429 to a report operation holds only that report", async () => {
    const { clock, limiter } = limiterAt();
    await limiter.blockUntil(KEY, OPERATIONS.reportSklad, clock.now + 30_000);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.reportSklad)).toBe(clock.now + 30_000);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.listOrder)).toBe(clock.now);
    expect((await limiter.tryAcquire(KEY, OPERATIONS.addOrder)).granted).toBe(true);
  });

  it("keeps its state in the given store, keyed by a digest rather than the key", async () => {
    const saved = new Map<string, RateLimitState>();
    const store: RateLimitStore = {
      update(key, change) {
        const { state, result } = change(saved.get(key) ?? { sent: [], lastReport: {} });
        saved.set(key, structuredClone(state));
        return Promise.resolve(result);
      },
    };
    const first = limiterAt(1_700_000_000_000, store);
    await first.limiter.tryAcquire(KEY, OPERATIONS.reportSklad);
    expect([...saved.keys()]).toEqual([rateLimitKey(KEY)]);
    expect(JSON.stringify([...saved])).not.toContain(KEY);
    // A second limiter (another process) over the same store sees the first one's send.
    const second = limiterAt(1_700_000_000_000 + 10_000, store);
    expect((await second.limiter.tryAcquire(KEY, OPERATIONS.reportSklad)).granted).toBe(false);
  });

  it("counts a request from its answer once settled, so slow answers keep the window behind the warehouse's", async () => {
    const { clock, limiter } = limiterAt();
    const start = clock.now;
    const stamps: number[] = [];
    for (let i = 0; i < 60; i++) {
      const decision = await limiter.tryAcquire(KEY, i === 0 ? OPERATIONS.listOrder : OPERATIONS.addOrder);
      if (decision.granted) stamps.push(decision.sentAt);
    }
    expect(stamps).toHaveLength(60);
    // The answers came 3 s after the requests left: the warehouse may have stamped them that late.
    clock.now = start + 3_000;
    for (const [i, sentAt] of stamps.entries()) {
      await limiter.settle(KEY, i === 0 ? OPERATIONS.listOrder : OPERATIONS.addOrder, sentAt);
    }
    const expectedAt = start + 3_000 + 60_000 + MARGIN;
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.addOrder)).toBe(expectedAt);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.listOrder)).toBe(expectedAt);
    // Settling a stamp that is no longer in the window changes nothing.
    await limiter.settle(KEY, OPERATIONS.addOrder, start - 1);
    expect(await limiter.nextAllowedAt(KEY, OPERATIONS.addOrder)).toBe(expectedAt);
  });
});
