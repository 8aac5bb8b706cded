// The Shopify fake in a process of its own (benchmarks), so that its schema work does not share the app's
// thread: starts it on a free loopback port and prints one JSON line with its addresses; it is then seeded
// and read through its control routes (control.ts). SIGINT or SIGTERM closes it cleanly.
import { parseArgs } from "node:util";
import { startShopifyFake } from "./server";

const USAGE =
  "usage: tsx test/shopify-fake/cli.ts [--restore-rate points/s (100)] [--maximum-available points (2000)]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      "restore-rate": { type: "string" },
      "maximum-available": { type: "string" },
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

/** A bucket figure, in points (a second, for the rate); absent: the fake's own default. */
function points(option: string, given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const value = Number(given);
  if (!Number.isInteger(value) || value <= 0)
    fail(`--${option} must be a positive whole number, not ${given}`);
  return value;
}

const fake = await startShopifyFake({
  restoreRate: points("restore-rate", values["restore-rate"]),
  maximumAvailable: points("maximum-available", values["maximum-available"]),
});

const { url, graphqlUrl, controlUrl } = fake;
console.log(JSON.stringify({ url, graphqlUrl, controlUrl }));

let closing = false;
const shutDown = () => {
  if (closing) return;
  closing = true;
  fake.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("Shopify fake: close failed", error);
      process.exit(1);
    },
  );
};
process.on("SIGINT", shutDown);
process.on("SIGTERM", shutDown);
