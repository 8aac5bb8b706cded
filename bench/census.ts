// A census of the SQL statements the app runs, for bench:intake's BENCH_CENSUS=1: each statement's count
// and the CPU its driver call takes (libSQL runs a local statement synchronously inside the call, so the
// CPU measured around the call is the statement's). Installs the app's database before anything asks the
// context for one; Prisma's own work per query is what the process spends beyond these.
import { createDb } from "../app/db.server";
import { SingleConnectionLibSQL } from "../app/db/libsql.server";
import { cpuMs } from "./floor";

const statements = new Map<string, { count: number; cpuMs: number }>();
let counting = false;
/** Whether each statement's CPU is measured too: process.cpuUsage a statement costs more than many statements do. */
let timing = true;

/** The statement's shape: its text up to the values, so that inserts of any row count as one. */
function shape(sql: string): string {
  return sql
    .replace(/\s+/g, " ")
    .replace(/VALUES .*/i, "VALUES …")
    .replace(/IN \([^)]*\)/gi, "IN (…)")
    .slice(0, 140);
}

class CountingLibSQL extends SingleConnectionLibSQL {
  override createClient(config: Parameters<SingleConnectionLibSQL["createClient"]>[0]) {
    const client = super.createClient(config);
    // Replaced on the connection itself, so that transactions (which call it directly) are counted too.
    const execute = client.execute.bind(client);
    Object.assign(client, {
      execute(statement: Parameters<typeof execute>[0]) {
        const before = counting && timing ? cpuMs() : 0;
        const result = execute(statement);
        if (counting) {
          const key = shape(typeof statement === "string" ? statement : statement.sql);
          const entry = statements.get(key) ?? { count: 0, cpuMs: 0 };
          entry.count++;
          if (timing) entry.cpuMs += cpuMs() - before;
          statements.set(key, entry);
        }
        return result;
      },
    });
    return client;
  }
}

/** `timing: false` counts statements only, for a benchmark that measures the process's CPU meanwhile. */
export async function installStatementCensus(options: { timing?: boolean } = {}): Promise<void> {
  timing = options.timing ?? true;
  const { env } = await import("../app/env.server");
  const { createLogger } = await import("../app/logger.server");
  globalThis.skladSyncContext = {
    db: createDb(env().DATABASE_URL, new CountingLibSQL({ url: env().DATABASE_URL })),
    log: createLogger({ level: env().LOG_LEVEL }),
    clock: () => new Date(),
  };
}

export function countStatements(on: boolean): void {
  counting = on;
}

/** Each statement shape's count and CPU per order, most costly first. */
export function statementCensus(orders: number) {
  return [...statements]
    .sort((a, b) => b[1].cpuMs - a[1].cpuMs)
    .map(([sql, { count, cpuMs }]) => ({
      sql,
      perOrder: Number((count / orders).toFixed(3)),
      cpuMsPerOrder: Number((cpuMs / orders).toFixed(3)),
      cpuMsEach: Number((cpuMs / count).toFixed(3)),
    }));
}
