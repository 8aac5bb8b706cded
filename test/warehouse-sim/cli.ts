// `npm run sim`: starts the warehouse simulator and prints one JSON line with its addresses and credentials,
// so a script or a person can point the app at it; SIGINT or SIGTERM closes it cleanly.
import { parseArgs } from "node:util";
import { numberedAccounts, startWarehouseSimulator } from "./server";

const USAGE =
  "usage: tsx test/warehouse-sim/cli.ts [--port 0] [--host 127.0.0.1] [--stage-delays picked,shipped,delivered (s)] [--no-limits] [--accounts N]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      "stage-delays": { type: "string" },
      "no-limits": { type: "boolean", default: false },
      // N accounts (numberedAccounts): the default one and N-1 numbered, each its own key and limits.
      accounts: { type: "string", default: "1" },
      help: { type: "boolean", default: false },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, not ${values.port}`);

const accountCount = Number(values.accounts);
if (!Number.isInteger(accountCount) || accountCount < 1)
  fail(`--accounts must be a whole number of at least 1, not ${values.accounts}`);

let stageDelaysMs = null;
if (values["stage-delays"] !== undefined) {
  const seconds = values["stage-delays"].split(",").map(Number);
  if (seconds.length !== 3 || seconds.some((value) => !Number.isFinite(value) || value < 0))
    fail(`--stage-delays takes three non-negative numbers of seconds, not ${values["stage-delays"]}`);
  const [picked, shipped, delivered] = seconds.map((value) => Math.round(value * 1000)) as [
    number,
    number,
    number,
  ];
  stageDelaysMs = { picked, shipped, delivered };
}

const simulator = await startWarehouseSimulator({
  port,
  host: values.host,
  stageDelaysMs,
  accounts: numberedAccounts(accountCount),
  rateLimits: values["no-limits"] ? false : undefined,
  onUnexpectedError: (error) => console.error("warehouse simulator: unexpected error", error),
});

const { url, urlV2, apiKey, stagingApiKey, login, password, controlUrl } = simulator;
console.log(JSON.stringify({ url, urlV2, apiKey, stagingApiKey, login, password, controlUrl }));

let closing = false;
const shutDown = () => {
  if (closing) return;
  closing = true;
  simulator.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("warehouse simulator: close failed", error);
      process.exit(1);
    },
  );
};
process.on("SIGINT", shutDown);
process.on("SIGTERM", shutDown);
