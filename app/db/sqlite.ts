// How the app uses SQLite, set on every connection it opens. The write-ahead log lets readers and the one
// writer go on side by side, and a process killed mid-write leaves nothing another must roll back under an
// exclusive lock. busy_timeout makes a second process (the worker, the CLI) wait for the write lock instead
// of failing at once with SQLITE_BUSY. synchronous=NORMAL is WAL's usual setting: a commit is durable
// against a crash of the process, and a power cut loses at most the last commits, never the file.
import { createClient } from "@libsql/client";

/**
 * How long a statement waits for another connection's write lock. The driver is synchronous, so the
 * waiting process's event loop stalls meanwhile: long enough for any one transaction of ours, short enough
 * that a lock held by a hung process surfaces as an error.
 */
export const BUSY_TIMEOUT_MS = 5000;

/** The statements each new connection runs before any other. */
export const CONNECTION_PRAGMAS = [
  // First, so that switching the journal mode itself waits for another process rather than failing.
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  // Kept in the file once set; on an in-memory database it answers "memory" and changes nothing.
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
] as const;

/** Puts the database at `url` in write-ahead-log mode (setup and the test template do this once). */
export async function useWriteAheadLog(url: string): Promise<void> {
  const client = createClient({ url });
  try {
    for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
  } finally {
    client.close();
  }
}
