// The demo's command line: its options read once, checked, and turned into the numbers the demo runs on. A
// wrong option stops the demo with what is wrong and the usage.
import { parseArgs } from "node:util";

export const USAGE = `usage: npm run demo -- [options]

  --port N            the address's port (default 3300; 0: any free port)
  --every S           a new sample order every S seconds (default 10)
  --stage-delays P,S,D  seconds the warehouse takes to pick, ship and deliver an order (default 5,10,15)
  --reset             start from an empty database (removes the demo's own files only)
  --data-dir DIR      where the database is kept (default .demo; --check: a temporary folder)
  --mode M            how the warehouse appears in Shopify: "location" (default; a location of the store's
                      own) or "service" (the app's fulfillment service, registered as Settings does; the
                      demo asks for fulfillment as the merchant, and for two cancellations)
  --check             run headless on free ports and a temporary database; exit 0 once an order has gone
                      from its webhook to Delivered with its fulfillment in the store and a stock sync wrote
                      inventory; prints one JSON line last
  --timeout S         --check gives up after S seconds (default 120)
  --verbose           the app's own log lines too`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        port: { type: "string" },
        every: { type: "string" },
        "stage-delays": { type: "string" },
        reset: { type: "boolean", default: false },
        check: { type: "boolean", default: false },
        mode: { type: "string", default: "location" },
        timeout: { type: "string", default: "120" },
        "data-dir": { type: "string" },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}

export type DemoOptions = ReturnType<typeof readOptions>;

/** The options given, or the usage printed (--help) and the process ended. */
export function readOptions() {
  const values = parseOptions();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }

  const check = values.check;
  if (values.mode !== "location" && values.mode !== "service")
    fail(`--mode is "location" or "service", not ${values.mode}`);
  const serviceMode = values.mode === "service";
  const seconds = (option: string, given: string, min: number) => {
    const value = Number(given);
    if (!Number.isFinite(value) || value < min)
      fail(`--${option} must be a number of seconds ≥ ${min}, not ${given}`);
    return value;
  };
  const port = Number(values.port ?? (check ? "0" : "3300"));
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, not ${values.port}`);
  const everyMs = seconds("every", values.every ?? (check ? "1" : "10"), 0.2) * 1000;
  const timeoutMs = seconds("timeout", values.timeout, 1) * 1000;
  const delays = (values["stage-delays"] ?? (check ? "1,1,1" : "5,10,15")).split(",").map(Number);
  if (delays.length !== 3 || delays.some((value) => !Number.isFinite(value) || value < 0))
    fail(`--stage-delays takes three non-negative numbers of seconds, not ${values["stage-delays"]}`);
  const [picked, shipped, delivered] = delays.map((value) => Math.round(value * 1000)) as [
    number,
    number,
    number,
  ];
  return {
    check,
    serviceMode,
    port,
    everyMs,
    timeoutMs,
    /** The seconds given, as --stage-delays took them (for the greeting). */
    delays,
    stageDelays: { picked, shipped, delivered },
    reset: values.reset,
    dataDir: values["data-dir"],
    verbose: values.verbose,
  };
}
