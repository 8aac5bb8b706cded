// A logger whose lines a test reads: each line the app logs, parsed, in the order written.
import { Writable } from "node:stream";
import { createLogger } from "../../app/logger.server";

export function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level: "info", destination }), lines };
}
