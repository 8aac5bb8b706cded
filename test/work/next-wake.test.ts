import { describe, expect, it } from "vitest";
import { nextWakeAt } from "../../app/orders/work.server";

const now = 1_000_000;

describe("when a shop's loop looks again", () => {
  it("is nothing when no step waits and no order is due", () => {
    expect(nextWakeAt({ waits: [], earliestDue: null, now })).toBeNull();
  });

  it("is the earliest of the waits and a later due order", () => {
    expect(nextWakeAt({ waits: [now + 500, now + 200], earliestDue: now + 300, now })).toBe(now + 200);
    expect(nextWakeAt({ waits: [now + 500], earliestDue: now + 300, now })).toBe(now + 300);
  });

  it("is now for an order due already when no step waits", () => {
    expect(nextWakeAt({ waits: [], earliestDue: now - 50, now })).toBe(now);
  });

  it("leaves an order due now to the step that waits for it", () => {
    expect(nextWakeAt({ waits: [now + 400], earliestDue: now - 50, now })).toBe(now + 400);
  });

  it("is now, not nothing, when a wait passed while the other steps ran", () => {
    // The rate limits let the next batch go at now - 20; by the time the loop asked, that was past.
    expect(nextWakeAt({ waits: [now - 20], earliestDue: now - 5_000, now })).toBe(now);
  });
});
