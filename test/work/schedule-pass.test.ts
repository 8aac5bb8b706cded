// What an idle shop's pass costs (decision 023): its schedule rows read once a pass rather than once a kind,
// and a poll due within its early window run with a pass that runs anyway, never in a pass of its own.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import type { Db } from "../../app/db.server";
import { saveSettings } from "../../app/settings/settings.server";
import { mayRunEarly, scheduledKind } from "../../app/work/schedule.server";
import { createWorker } from "../../app/assembly/assembly.server";
import type { Worker } from "../../app/work/worker.server";

const SHOP = "pass-shop.myshopify.com";
const { db, log } = appContext();
const MINUTE = 60_000;
const workers: Worker[] = [];

function worker(kinds: Parameters<typeof createWorker>[0]["kinds"], database: Db = db): Worker {
  const created = createWorker({
    db: database,
    log,
    clock: () => new Date(),
    endpoints: { baseUrl: "http://127.0.0.1:9/api", baseUrlV2: "http://127.0.0.1:9/api2", timeoutMs: 1000 },
    sweepIntervalMs: 60_000,
    // The loop ends once nothing is due now, rather than sleeping until the next row's time.
    holdWaitMs: 0,
    kinds,
  });
  workers.push(created);
  return created;
}

/** A poll that counts its runs and is next due an hour after each. */
function poll(name: string, earlyMs?: number) {
  const runs: number[] = [];
  const kind = scheduledKind(
    name,
    () => {
      runs.push(Date.now());
      return Promise.resolve({ nextRunAt: new Date(Date.now() + 60 * MINUTE) });
    },
    earlyMs === undefined ? {} : { earlyMs },
  );
  return { kind, runs };
}

async function scheduleRow(
  kind: string,
  row: { dueInMs: number; lastRunAgoMs?: number; lastError?: string },
): Promise<void> {
  const now = Date.now();
  await db.shopSchedule.create({
    data: {
      shop: SHOP,
      kind,
      nextRunAt: new Date(now + row.dueInMs),
      lastRunAt: row.lastRunAgoMs === undefined ? null : new Date(now - row.lastRunAgoMs),
      lastError: row.lastError ?? null,
    },
  });
}

beforeEach(async () => {
  await db.shop.create({
    data: {
      shop: SHOP,
      name: "Pass",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(),
    },
  });
  const saved = await saveSettings(appContext(), SHOP, {
    apiKey: "pass-key",
    environment: "production",
    mapping: {},
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((created) => created.stop()));
});

describe("a pass of a shop's steps", () => {
  it("reads the shop's schedule rows once for the pass and once for its wake, however many kinds it has", async () => {
    const polls = ["one", "two", "three", "four", "five", "six"].map((name) => poll(name));
    for (const { kind } of polls) await scheduleRow(kind.name, { dueInMs: -1000 });
    let shopReads = 0;
    const counted = db.$extends({
      query: {
        shopSchedule: {
          $allOperations({ operation, args, query }) {
            // A row's time read for a pass (the whole row, or its nextRunAt): not the personal-data kind's
            // look whether its row exists when a lease opens.
            const { where, select } = args as {
              where?: { shop?: unknown; shop_kind?: unknown };
              select?: { nextRunAt?: boolean };
            };
            const read = operation === "findMany" || operation === "findUnique";
            if (read && (where?.shop || where?.shop_kind) && (!select || select.nextRunAt)) shopReads++;
            return query(args);
          },
        },
      },
    }) as unknown as Db;
    await worker(
      polls.map(({ kind }) => kind),
      counted,
    ).sweep();
    expect(polls.map(({ runs }) => runs.length)).toEqual([1, 1, 1, 1, 1, 1]);
    // The pass that ran them, the pass that found nothing more, and the wake after it: each kind read its
    // own row at each of these before (18 reads).
    expect(shopReads).toBeLessThanOrEqual(3);
  });

  it("runs a poll due within its early window with a pass that runs anyway, and no other", async () => {
    const due = poll("due");
    const soon = poll("soon", 5 * MINUTE);
    const notSoonEnough = poll("later", 5 * MINUTE);
    const failedLast = poll("failed", 5 * MINUTE);
    const putOff = poll("put-off", 5 * MINUTE);
    const noWindow = poll("no-window");
    await scheduleRow("due", { dueInMs: -1000, lastRunAgoMs: 60 * MINUTE });
    await scheduleRow("soon", { dueInMs: 3 * MINUTE, lastRunAgoMs: 27 * MINUTE });
    await scheduleRow("later", { dueInMs: 8 * MINUTE, lastRunAgoMs: 22 * MINUTE });
    // A retry after a failure and a run put off for a moment (orders first) keep the time they chose.
    await scheduleRow("failed", {
      dueInMs: MINUTE,
      lastRunAgoMs: 29 * MINUTE,
      lastError: "the warehouse did not answer",
    });
    await scheduleRow("put-off", { dueInMs: 15_000, lastRunAgoMs: 1000 });
    await scheduleRow("no-window", { dueInMs: MINUTE, lastRunAgoMs: 29 * MINUTE });
    await worker([due, soon, notSoonEnough, failedLast, putOff, noWindow].map(({ kind }) => kind)).sweep();
    expect({
      due: due.runs.length,
      soon: soon.runs.length,
      later: notSoonEnough.runs.length,
      failed: failedLast.runs.length,
      putOff: putOff.runs.length,
      noWindow: noWindow.runs.length,
    }).toEqual({ due: 1, soon: 1, later: 0, failed: 0, putOff: 0, noWindow: 0 });
    // Run early, its next time counts from then: an hour on, not an hour after its old time.
    const row = await db.shopSchedule.findUniqueOrThrow({
      where: { shop_kind: { shop: SHOP, kind: "soon" } },
    });
    expect(row.nextRunAt.getTime()).toBeLessThan(Date.now() + 60 * MINUTE + 1000);
  });

  it("never starts a pass for a poll that is only within its early window", async () => {
    const soon = poll("soon", 5 * MINUTE);
    await scheduleRow("soon", { dueInMs: 3 * MINUTE, lastRunAgoMs: 27 * MINUTE });
    await worker([soon.kind]).sweep();
    expect(soon.runs).toHaveLength(0);
  });
});

describe("mayRunEarly", () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 12) + ms);
  it("allows a fresh run whose last run set it a whole period ahead, and nothing else", () => {
    const window = 5 * MINUTE;
    expect(mayRunEarly({ nextRunAt: at(30 * MINUTE), lastRunAt: at(0), lastError: null }, window)).toBe(true);
    expect(mayRunEarly({ nextRunAt: at(30 * MINUTE), lastRunAt: at(0), lastError: null }, 0)).toBe(false);
    // Put off for a moment, never run, or failed last time.
    expect(mayRunEarly({ nextRunAt: at(15_000), lastRunAt: at(0), lastError: null }, window)).toBe(false);
    expect(mayRunEarly({ nextRunAt: at(30 * MINUTE), lastRunAt: null, lastError: null }, window)).toBe(false);
    expect(mayRunEarly({ nextRunAt: at(30 * MINUTE), lastRunAt: at(0), lastError: "500" }, window)).toBe(
      false,
    );
  });
});
