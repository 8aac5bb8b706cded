// What the dashboard reads: the warehouse connection's health, the orders per state and stage, what needs
// the merchant, the last stock and catalogue syncs, and orders sent, shipped and delivered per day. Every
// query is bounded: counts and one-row look-ups on the shop's indexes, and one count per day and kind
// for the chart (30 days, each a range of the OrderEvent(shop, kind, at) index). An index that would serve
// the last order the warehouse accepted better (not in the schema yet): WarehouseOrder(shop, acceptedAt).
import type { Db } from "../db.server";
import type { Message } from "../i18n/message";
import { readTexts } from "../i18n/texts";
import { parseOnboarding } from "../onboarding/state";
import { countOrdersByStage, countOrdersByState, type OrderCounts } from "../orders/queries.server";
import { EVENT, type Stage } from "../orders/states";
import { STATUSES_KIND } from "../statuses/kinds.server";
import { STOCK_KIND } from "../stock/kinds.server";
import type { RateLimitState } from "../warehouse/limiter.server";
import { REQUESTS_PER_WINDOW } from "../warehouse/wire";
import { lastDays } from "./days";

export const CHART_DAYS = 30;

/** The timeline events a chart series counts. */
export const CHART_SERIES = {
  sent: [EVENT.accepted, EVENT.foundAtWarehouse],
  shipped: [EVENT.shipped],
  delivered: [EVENT.delivered],
} as const;
export type ChartSeries = keyof typeof CHART_SERIES;

export interface ChartDay {
  date: string;
  sent: number;
  shipped: number;
  delivered: number;
}

/** Orders sent (accepted by the warehouse), shipped and delivered on each of the shop's last days. */
export async function ordersPerDay(
  db: Db,
  shop: string,
  timeZone: string,
  now: Date,
  count = CHART_DAYS,
): Promise<ChartDay[]> {
  const kinds: string[] = Object.values(CHART_SERIES).flat();
  const seriesOf = new Map<string, ChartSeries>(
    Object.entries(CHART_SERIES).flatMap(([series, list]) =>
      list.map((kind) => [kind, series as ChartSeries] as const),
    ),
  );
  const result: ChartDay[] = [];
  for (const day of lastDays(now, timeZone, count)) {
    const groups = await db.orderEvent.groupBy({
      by: ["kind"],
      where: { shop, kind: { in: kinds }, at: { gte: new Date(day.start), lt: new Date(day.end) } },
      _count: { _all: true },
    });
    const row: ChartDay = { date: day.date, sent: 0, shipped: 0, delivered: 0 };
    for (const group of groups) {
      const series = seriesOf.get(group.kind);
      if (series) row[series] += group._count._all;
    }
    result.push(row);
  }
  return result;
}

export interface ConnectionHealth {
  hasKey: boolean;
  environment: string;
  /** When the warehouse refused the saved key (work is paused until a new one is saved). */
  pausedAt: string | null;
  /** The latest moment the warehouse is known to have answered (ISO), from the work the app records. */
  lastSuccessAt: string | null;
  /** Requests in the key's current window, of the limit (60 a minute). */
  rateLimit: { used: number; limit: number; blockedUntil: string | null } | null;
}

const latest = (dates: Array<Date | string | null | undefined>): string | null => {
  const times = dates.filter((date): date is Date | string => Boolean(date)).map((date) => new Date(date));
  if (!times.length) return null;
  return new Date(Math.max(...times.map((date) => date.getTime()))).toISOString();
};

export async function connectionHealth(
  db: Db,
  shop: string,
  now: Date,
  windowMs: number,
): Promise<ConnectionHealth> {
  const settings = await db.shopSettings.findUnique({
    where: { shop },
    select: {
      apiKeyCiphertext: true,
      apiKeyDigest: true,
      environment: true,
      pausedAt: true,
      onboarding: true,
    },
  });
  const [accepted, schedules, stock, limit] = await Promise.all([
    db.warehouseOrder.findFirst({
      where: { shop, acceptedAt: { not: null } },
      orderBy: { acceptedAt: "desc" },
      select: { acceptedAt: true },
    }),
    // Runs that called the warehouse and worked (a failed run keeps its error).
    db.shopSchedule.findMany({
      where: { shop, kind: { in: [STATUSES_KIND, STOCK_KIND] }, lastError: null },
      select: { lastRunAt: true },
    }),
    db.stockSync.findFirst({
      where: { shop, error: null, finishedAt: { not: null } },
      orderBy: { startedAt: "desc" },
      select: { finishedAt: true },
    }),
    settings?.apiKeyDigest
      ? db.rateLimitState.findUnique({ where: { key: settings.apiKeyDigest }, select: { state: true } })
      : null,
  ]);
  return {
    hasKey: Boolean(settings?.apiKeyCiphertext),
    environment: settings?.environment ?? "production",
    pausedAt: settings?.pausedAt?.toISOString() ?? null,
    lastSuccessAt: latest([
      parseOnboarding(settings?.onboarding).connectionCheckedAt,
      accepted?.acceptedAt,
      stock?.finishedAt,
      ...schedules.map((schedule) => schedule.lastRunAt),
    ]),
    rateLimit: limit ? rateLimitUse(limit.state, now.getTime(), windowMs) : null,
  };
}

/** The share of the key's limit its last window used, from the state the limiter keeps. */
export function rateLimitUse(
  stored: string,
  now: number,
  windowMs: number,
): { used: number; limit: number; blockedUntil: string | null } {
  let state: Partial<RateLimitState> = {};
  try {
    state = JSON.parse(stored) as Partial<RateLimitState>;
  } catch {
    // Unreadable: shown as unused.
  }
  const used = (state.sent ?? []).filter((at) => typeof at === "number" && at > now - windowMs).length;
  const blocked = typeof state.blockedUntil === "number" && state.blockedUntil > now;
  return {
    used,
    limit: REQUESTS_PER_WINDOW,
    blockedUntil: blocked ? new Date(state.blockedUntil!).toISOString() : null,
  };
}

export interface SyncSummary {
  startedAt: string;
  finishedAt: string | null;
  errors: Message[];
}

export interface DashboardData {
  connection: ConnectionHealth;
  states: OrderCounts;
  stages: Record<Stage, number>;
  attention: { catalogueProblems: number; refusedWebhooks: number };
  stock: (SyncSummary & { changed: number; problems: number }) | null;
  catalogue: (SyncSummary & { phase: string }) | null;
  chart: ChartDay[];
}

export async function dashboard(
  db: Db,
  shop: string,
  options: { now: Date; timeZone: string; windowMs: number },
): Promise<DashboardData> {
  const [connection, states, stages, catalogueProblems, refusals, stock, catalogue, chart] =
    await Promise.all([
      connectionHealth(db, shop, options.now, options.windowMs),
      countOrdersByState(db, shop),
      countOrdersByStage(db, shop),
      db.catalogueItem.count({ where: { shop, problem: { not: null }, deletedAt: null } }),
      db.webhookRefusal.aggregate({ where: { shop }, _sum: { count: true } }),
      db.stockSync.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } }),
      db.catalogueSync.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } }),
      ordersPerDay(db, shop, options.timeZone, options.now),
    ]);
  return {
    connection,
    states,
    stages,
    attention: { catalogueProblems, refusedWebhooks: refusals._sum.count ?? 0 },
    stock: stock && {
      startedAt: stock.startedAt.toISOString(),
      finishedAt: stock.finishedAt?.toISOString() ?? null,
      changed: stock.changed,
      problems: stock.problems,
      errors: readTexts(stock.error),
    },
    catalogue: catalogue && {
      phase: catalogue.phase,
      startedAt: catalogue.startedAt.toISOString(),
      finishedAt: catalogue.finishedAt?.toISOString() ?? null,
      errors: readTexts(catalogue.error),
    },
    chart,
  };
}
