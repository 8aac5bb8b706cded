// `npm run --silent cli -- match-branch FILE [--warehouse-url URL]` as a person runs it: node with tsx
// running scripts/cli.ts in a child process, against the simulator's default reference data, or against a
// simulator on loopback with another data set, read over HTTP.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun } from "../support/cli";
import { DEFAULT_BRANCH_MATCH_THRESHOLD } from "../../app/reference/matcher";
import { branchLabel, type CarrierBranch, type CarrierCity } from "../../app/reference/types";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim";
import { buildReferenceData } from "../warehouse-sim/reference-data";
import { simulatorReferenceData, type SimulatorReference } from "./sim-data";

interface Printed {
  ref: string | null;
  confidence: number;
  candidates: { ref: string; label: string; score: number }[];
}

const cli = (...args: string[]) => runCli(args, 60_000);

const OTHER_SEED = 7;
let dir: string;
let sim: WarehouseSimulator;
let defaultData: SimulatorReference;
let otherData: SimulatorReference;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sklad-match-"));
  defaultData = simulatorReferenceData();
  otherData = simulatorReferenceData(OTHER_SEED);
  sim = await startWarehouseSimulator({ referenceData: buildReferenceData({ seed: OTHER_SEED }) });
});
afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function orderFile(fields: Record<string, unknown>): Promise<string> {
  const path = join(dir, `order-${++files}.json`);
  await writeFile(
    path,
    JSON.stringify({
      id: 7000 + files,
      order_number: 7000 + files,
      created_at: "2026-11-26T00:00:00Z",
      line_items: [],
      ...fields,
    }),
  );
  return path;
}

function branchIn(data: SimulatorReference, city: CarrierCity, number: string): CarrierBranch {
  const branch = data.branches.find(
    (candidate) => candidate.cityRef === city.ref && candidate.number === number,
  );
  if (!branch) throw new Error(`no branch ${number} in ${city.name}`);
  return branch;
}

function onlyLine(run: CliRun): Printed {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Printed;
}

// Each run starts node and tsx; the warehouse runs also fetch 22,000 branches. One at a time.
describe("cli match-branch", { timeout: 120_000 }, () => {
  it("prints the branch, its confidence and the candidates against the simulator's data", async () => {
    const kyiv = defaultData.cities.find((city) => city.name === "Київ")!;
    const branch = branchIn(defaultData, kyiv, "12");
    const printed = onlyLine(
      await cli(
        "match-branch",
        await orderFile({ shipping_address: { city: "Киев", address1: "Нова Пошта №12" } }),
      ),
    );
    expect(printed.ref).toBe(branch.ref);
    expect(printed.confidence).toBeGreaterThanOrEqual(DEFAULT_BRANCH_MATCH_THRESHOLD);
    expect(printed.candidates[0]).toEqual({
      ref: branch.ref,
      label: branchLabel(branch, kyiv),
      score: printed.confidence,
    });
    expect(Object.keys(printed)).toEqual(["ref", "confidence", "candidates"]);
  });

  it("prints no ref and no confidence for an order it cannot place", async () => {
    const printed = onlyLine(
      await cli("match-branch", await orderFile({ shipping_address: { city: "Атлантида" } })),
    );
    expect(printed).toEqual({ ref: null, confidence: 0, candidates: [] });
  });

  it("reads the branches and the order's cities from the warehouse at --warehouse-url", async () => {
    // The simulator there has another data set: its Kyiv branch 12 is not the default data's.
    const kyiv = otherData.cities.find((city) => city.name === "Київ")!;
    const branch = branchIn(otherData, kyiv, "12");
    expect(branch.ref).not.toBe(
      branchIn(
        defaultData,
        defaultData.cities.find((city) => city.name === "Київ")!,
        "12",
      ).ref,
    );
    const printed = onlyLine(
      await cli(
        "match-branch",
        await orderFile({ shipping_address: { city: "Kyiv", address1: "НП 12" } }),
        "--warehouse-url",
        sim.url,
      ),
    );
    expect(printed.ref).toBe(branch.ref);
    expect(printed.confidence).toBeGreaterThanOrEqual(DEFAULT_BRANCH_MATCH_THRESHOLD);
  });

  it("tells villages sharing a name apart by the region getCities gives", async () => {
    // A name several settlements with branches share in that data set, and one of them by its region.
    const withBranches = new Set(otherData.branches.map((branch) => branch.cityRef));
    const byName = new Map<string, CarrierCity[]>();
    for (const city of otherData.cities) {
      if (withBranches.has(city.ref)) byName.set(city.name, [...(byName.get(city.name) ?? []), city]);
    }
    const namesakes = [...byName.values()].find((cities) => cities.length >= 2)!;
    const village = namesakes[1]!;
    const branch = branchIn(otherData, village, "1");
    const region = onlyLine(
      await cli(
        "match-branch",
        await orderFile({
          shipping_address: { city: village.name, province: `${village.area} обл.`, address1: "НП 1" },
        }),
        "--warehouse-url",
        sim.url,
      ),
    );
    expect(region.ref).toBe(branch.ref);
    expect(region.confidence).toBeGreaterThanOrEqual(DEFAULT_BRANCH_MATCH_THRESHOLD);

    const noRegion = onlyLine(
      await cli(
        "match-branch",
        await orderFile({ shipping_address: { city: village.name, address1: "НП 1" } }),
        "--warehouse-url",
        sim.url,
      ),
    );
    expect(noRegion.confidence).toBeLessThan(DEFAULT_BRANCH_MATCH_THRESHOLD);
  });

  it("reports a warehouse it cannot read, a missing file and a wrong command line with exit 1", async () => {
    const order = await orderFile({ shipping_address: { city: "Київ", address1: "НП 12" } });
    const unreachable = await cli("match-branch", order, "--warehouse-url", "http://127.0.0.1:9/api");
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("cannot read the reference data of http://127.0.0.1:9/api");

    const missing = await cli("match-branch", join(dir, "absent.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read the payload file");

    const noFile = await cli("match-branch");
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain("match-branch needs the payload FILE");
  });
});
