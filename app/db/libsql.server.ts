// Prisma's libSQL adapter with every transaction on the client's one connection. @libsql/client hands its
// connection to each transaction and opens a new one for the next query; the old one stays open (the
// database, its WAL and its index) until garbage collection gets to it. Recording 10,000 orders ran the
// process out of file descriptors (SQLITE_CANTOPEN); measured, open files grew by about one for every two
// orders. Prisma's adapter already holds a lock for the whole of a transaction, so nothing else runs on
// the connection meanwhile and the second connection bought nothing.
import { PrismaLibSQL } from "@prisma/adapter-libsql";

// The adapter's own copy of @libsql/client, whatever version it brings.
type Client = ReturnType<PrismaLibSQL["createClient"]>;
type Transaction = Awaited<ReturnType<Client["transaction"]>>;
type TransactionMode = "write" | "read" | "deferred";
type InStatement = Parameters<Client["execute"]>[0];

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/** A transaction run as BEGIN … COMMIT on the client's own connection. */
function transactionOn(client: Client): Transaction {
  let open = true;
  const finish = async (statement: "COMMIT" | "ROLLBACK") => {
    if (!open) return;
    open = false;
    await client.execute(statement);
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

export class SingleConnectionLibSQL extends PrismaLibSQL {
  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]): Client {
    const client = super.createClient(config);
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property === "transaction") {
          return async (mode: TransactionMode = "write") => {
            await target.execute(BEGIN[mode]);
            return transactionOn(target);
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
