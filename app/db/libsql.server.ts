// Prisma's libSQL adapter with every transaction on the client's one connection, that connection set up
// for several processes on one file, and every transaction holding the write lock from its BEGIN.
//
// One connection: @libsql/client hands its connection to each transaction and opens a new one for the
// next query; the old one stays open (the database, its WAL and its index) until garbage collection gets to
// it. Recording 10,000 orders ran the process out of file descriptors (SQLITE_CANTOPEN); measured, open
// files grew by about one for every two orders. Prisma's adapter already holds a lock for the whole of a
// transaction, so nothing else runs on the connection meanwhile and the second connection bought nothing.
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { CONNECTION_PRAGMAS } from "./sqlite";

// The adapter's own copy of @libsql/client, whatever version it brings.
type Client = ReturnType<PrismaLibSQL["createClient"]>;
type Transaction = Awaited<ReturnType<Client["transaction"]>>;
type TransactionMode = "write" | "read" | "deferred";
type InStatement = Parameters<Client["execute"]>[0];

// Prisma asks for a deferred transaction whatever it will do. A deferred transaction that reads and then
// writes must upgrade its read lock, and when another process wrote meanwhile SQLite answers SQLITE_BUSY at
// once: waiting cannot help (the reader's snapshot is stale), so busy_timeout does not apply. Taking the
// write lock at BEGIN instead waits (busy_timeout) for the other writer and then sees its work. In WAL
// mode readers outside a transaction are not held up by it; transactions that only read queue behind
// writers, which ours rarely are.
const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  deferred: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
};

/** A transaction run as BEGIN … COMMIT on the client's own connection. */
function transactionOn(client: Client): Transaction {
  let open = true;
  const finish = async (statement: "COMMIT" | "ROLLBACK") => {
    if (!open) return;
    open = false;
    try {
      await client.execute(statement);
    } catch (error) {
      // A COMMIT can fail and leave the transaction open (a deferred constraint, a busy lock past its
      // timeout). Prisma does not roll back after a failed commit, so without this the connection would stay
      // inside the transaction and every later BEGIN on it would fail.
      if (statement === "COMMIT") await client.execute("ROLLBACK").catch(() => undefined);
      throw error;
    }
  };
  return {
    execute: (statement: InStatement) => client.execute(statement),
    batch: async (statements: InStatement[]) => {
      const results = [];
      for (const statement of statements) results.push(await client.execute(statement));
      return results;
    },
    executeMultiple: (sql: string) => client.executeMultiple(sql),
    commit: () => finish("COMMIT"),
    rollback: () => finish("ROLLBACK"),
    close: () => void finish("ROLLBACK").catch(() => undefined),
    get closed() {
      return !open;
    },
  } as Transaction;
}

/**
 * The client's connection set up (CONNECTION_PRAGMAS) before its first statement. The settings are the
 * connection's own, so the app sets them itself rather than trusting that `npm run setup` ran on this file.
 */
function configured(client: Client): () => Promise<void> | undefined {
  // The connection's own method, taken before anything wraps it: a wrapper that waits for this set-up
  // would otherwise wait for itself.
  const execute = client.execute.bind(client);
  let done = false;
  let ready: Promise<void> | undefined;
  // Once set up, nothing to wait for: a statement then runs in the call, not a microtask later.
  return () =>
    done
      ? undefined
      : (ready ??= (async () => {
          for (const pragma of CONNECTION_PRAGMAS) await execute(pragma);
          done = true;
        })().catch((error: unknown) => {
          // Tried again on the next statement: a lock held by another process during start-up is not fatal.
          ready = undefined;
          throw error;
        }));
}

/** The part of Prisma's driver-adapter interface (SqlDriverAdapter) that app/db/sql.server.ts uses. */
export interface SqlQueryable {
  queryRaw(query: AdapterQuery): Promise<{ columnNames: string[]; rows: unknown[][] }>;
  executeRaw(query: AdapterQuery): Promise<number>;
}
export interface AdapterQuery {
  sql: string;
  args: unknown[];
  argTypes: {
    scalarType: "string" | "int" | "float" | "boolean" | "datetime" | "unknown";
    arity: "scalar";
  }[];
}
export interface ConnectedAdapter extends SqlQueryable {
  startTransaction(): Promise<SqlQueryable & { commit(): Promise<void>; rollback(): Promise<void> }>;
}

export class SingleConnectionLibSQL extends PrismaLibSQL {
  #adapter: ConnectedAdapter | undefined;

  /**
   * The adapter Prisma connected through this factory, while it is connected: statements given to it run
   * on the same connection, under the same lock, as Prisma's own, without Prisma's query engine.
   */
  get connected(): ConnectedAdapter | undefined {
    return this.#adapter;
  }

  override async connect(): ReturnType<PrismaLibSQL["connect"]> {
    const adapter = await super.connect();
    this.#adapter = adapter as unknown as ConnectedAdapter;
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = () => {
      if (this.#adapter === (adapter as unknown as ConnectedAdapter)) this.#adapter = undefined;
      return dispose();
    };
    return adapter;
  }

  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]): Client {
    const client = super.createClient(config);
    const ready = configured(client);
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property === "transaction") {
          return async (mode: TransactionMode = "write") => {
            await ready();
            await target.execute(BEGIN[mode]);
            return transactionOn(target);
          };
        }
        if (property === "execute" || property === "batch" || property === "executeMultiple") {
          const method = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
          return (...args: unknown[]) => {
            const setUp = ready();
            return setUp ? setUp.then(() => method.apply(target, args)) : method.apply(target, args);
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
