// What the Catalogue page says of a full sync: the step, how far it has got, and the time left in words,
// at the pace the catalogue kind allows (50 cards a minute at the warehouse's real limits).
import { describe, expect, it } from "vitest";
import { aboutDuration, fullSyncEstimate, syncProgress } from "../../app/catalogue/progress";
import { cardPaceMs } from "../../app/catalogue/work.server";
import { WAREHOUSE_RATE_LIMITS } from "../../app/warehouse/limiter.server";

const paceMs = cardPaceMs(WAREHOUSE_RATE_LIMITS);
const counts = { variantsRead: 0, alreadyThere: 0, sent: 0, stillDue: 0 };

describe("aboutDuration", () => {
  it.each([
    [0, "under a minute"],
    [45_000, "under a minute"],
    [61_000, "about 2 minutes"],
    [59 * 60_000, "about 59 minutes"],
    [60 * 60_000, "about 1 hour"],
    [(2 * 60 + 4) * 60_000, "about 2 hours"],
    [(3 * 60 + 17) * 60_000, "about 3 hours 20 minutes"],
    [(3 * 60 + 56) * 60_000, "about 4 hours"],
  ])("reads %i ms as %s", (ms, words) => {
    expect(aboutDuration(ms)).toBe(words);
  });
});

describe("syncProgress", () => {
  it("gives the read as a share of Shopify's count, or the count alone when Shopify gave none", () => {
    const reading = { ...counts, phase: "shopify" as const, variantsRead: 2_500 };
    expect(syncProgress(reading, { variantsInShop: 10_000, paceMs })).toMatchObject({
      title: "Step 1 of 3: reading your catalogue from Shopify",
      percent: 25,
      timeLeft: null,
    });
    expect(syncProgress(reading, { variantsInShop: 10_000, paceMs }).detail).toMatch(
      /^2,500 of 10,000 variants read\./,
    );
    expect(syncProgress(reading, { variantsInShop: null, paceMs })).toMatchObject({ percent: 0 });
    expect(syncProgress(reading, { variantsInShop: null, paceMs }).detail).toMatch(
      /^2,500 variants read so far\./,
    );
  });

  it("says while sending how long the cards still due take at 50 a minute, and why so slow", () => {
    const sending = {
      phase: "sending" as const,
      variantsRead: 10_000,
      alreadyThere: 1_000,
      sent: 0,
      stillDue: 9_000,
    };
    expect(syncProgress(sending, { variantsInShop: null, paceMs })).toEqual({
      title: "Step 3 of 3: sending the products the warehouse lacks",
      detail: "0 of 9,000 sent; 1,000 were at the warehouse already.",
      percent: 0,
      timeLeft:
        "About 3 hours left: the warehouse takes one product a request, 50 a minute, so that orders are never held up.",
    });
    const almost = syncProgress({ ...sending, sent: 8_990, stillDue: 10 }, { variantsInShop: null, paceMs });
    expect(almost).toMatchObject({ percent: 99, timeLeft: expect.stringMatching(/^Under a minute left:/) });
    expect(
      syncProgress({ ...sending, sent: 9_000, stillDue: 0 }, { variantsInShop: null, paceMs }),
    ).toMatchObject({ percent: 100, timeLeft: null });
  });
});

describe("fullSyncEstimate", () => {
  it("gives the longest the shop's variants could take to send", () => {
    expect(fullSyncEstimate(10_000, paceMs)).toBe(
      "Your shop has 10,000 variants. If the warehouse had none of them, sending them all would take about " +
        "3 hours 20 minutes: the warehouse takes one product a request, 50 a minute, so that orders are never " +
        "held up.",
    );
    expect(fullSyncEstimate(null, paceMs)).toBe(
      "When the warehouse lacks many of them, sending takes a while: the warehouse takes one product a " +
        "request, 50 a minute, so that orders are never held up.",
    );
  });
});
