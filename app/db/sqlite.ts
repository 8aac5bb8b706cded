// SQLite's write-ahead log: readers never block the writer, and a process killed mid-write leaves
// nothing another process must roll back under an exclusive lock (which, with the default rollback
// journal, made a restarted worker and a reader wait on each other). The mode is kept in the file, so
// setting it once, after migrating, is enough.
import { createClient } from "@libsql/client";

export async function useWriteAheadLog(url: string): Promise<void> {
  const client = createClient({ url });
  try {
    await client.execute("PRAGMA journal_mode = WAL");
  } finally {
    client.close();
  }
}
