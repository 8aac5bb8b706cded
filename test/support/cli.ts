// `npm run cli -- …` as a person runs it, in a child process on the real files: node with tsx's loader (what
// `npx tsx` starts, without npx's own start-up, about half a second a run on this machine).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs scripts/cli.ts with `args` from the project's root; answers its exit code and both outputs. */
export function runCli(args: readonly string[], timeoutMs = 30_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", ...args],
      { cwd: ROOT, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
