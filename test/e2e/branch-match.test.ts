// A branch the order does not name, end to end against the simulator over real HTTP: the key's reference
// data is fetched by the engine's refresh, an order held for its branch before the data came is mapped again
// once it is in and sent with the branch its address names, a later order is matched as it arrives, and an
// address that names no branch for sure waits for the merchant with the best guesses.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { referenceRefreshKind } from "../../app/reference/refresh.server";
import { referenceSearchFor } from "../../app/reference/store.server";
import { KYIV_CITY_REF, defaultReferenceData } from "../warehouse-sim/reference-data";
import { eventually, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { inEnglishWords } from "../support/orders";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;
const kyivBranch = (number: string) =>
  defaultReferenceData()
    .branchesInCity(KYIV_CITY_REF)
    .find((branch) => branch.Number === number)!;

/** An order whose address names its branch in words, with no branch chosen in the cart. */
function addressedOrder(n: number, address2: string, city = "Київ") {
  const payload = orderPayload(n);
  return {
    ...payload,
    note_attributes: [],
    shipping_address: {
      ...(payload.shipping_address as object),
      city,
      address1: "вул. Хрещатик, 22",
      address2,
    },
  };
}

const orderNumbered = (n: number) => db().warehouseOrder.findFirstOrThrow({ where: { idOrder: String(n) } });

describe("a branch found from the address", { timeout: 120_000 }, () => {
  it("holds an order until the directory is in, then sends it to the branch its address names", async () => {
    flow = await startOrderFlow({
      // The directory is fetched once, then the biggest city described (its Russian name "Киев"), then a rest.
      worker: {
        kinds: [referenceRefreshKind({ describeEveryMs: 50, describeBurst: 1, describeRestMs: 3_600_000 })],
      },
      // The first order comes in before any work runs: before the directory could be there.
      noWorker: true,
    });
    const branch = kyivBranch("12");
    await flow.post({ topic: "orders/create", payload: addressedOrder(8101, "Нова Пошта, відділення №12") });
    expect((await orderNumbered(8101)).state).toBe("held");
    flow.restartWorker();

    await eventually(
      async () => (await orderNumbered(8101)).state === "accepted",
      "the order to be sent",
      60_000,
    );
    const sent = flow.sim.orders().find((order) => order.id_order === "8101")!;
    expect(sent.submitted.delivery_address).toEqual({ WarehouseRef: branch.Ref });
    const order = await orderNumbered(8101);
    const events = await db().orderEvent.findMany({ where: { orderId: order.id }, orderBy: { at: "asc" } });
    const kinds = events.map((event) => event.kind);
    // Held while the directory was not there, found once it was.
    expect(kinds.indexOf("held")).toBeGreaterThan(-1);
    expect(kinds.indexOf("branch_found")).toBeGreaterThan(kinds.indexOf("held"));
    const found = events.find((event) => event.kind === "branch_found")!;
    expect(inEnglishWords(found.message)).toContain(branch.Description);
    expect(inEnglishWords(found.message)).toContain("№12");

    // The directory in and Kyiv described, a new order is matched as it comes in: ready from its first event.
    await eventually(async () => {
      const search = await referenceSearchFor(db(), SHOP, { newest: true });
      return search?.searchCities("Киев", 1)[0]?.city.ref === KYIV_CITY_REF;
    }, "Kyiv to be described and searchable");
    const locker = defaultReferenceData()
      .branchesInCity(KYIV_CITY_REF)
      .find((each) => each.CategoryOfWarehouse === "Postomat")!;
    await flow.post({
      topic: "orders/create",
      payload: addressedOrder(8102, `поштомат ${locker.Number}`, "Киев"),
    });
    await eventually(
      async () => (await orderNumbered(8102)).state === "accepted",
      "the second order to be sent",
    );
    const second = await orderNumbered(8102);
    const secondKinds = (
      await db().orderEvent.findMany({ where: { orderId: second.id }, orderBy: { at: "asc" } })
    ).map((event) => event.kind);
    expect(secondKinds.slice(0, 3)).toEqual(["received", "branch_found", "ready"]);
    expect(flow.sim.orders().find((each) => each.id_order === "8102")!.submitted.delivery_address).toEqual({
      WarehouseRef: locker.Ref,
    });

    // A home address and no branch: held, with guesses to choose from, and nothing sent.
    await flow.post({ topic: "orders/create", payload: addressedOrder(8103, "кв. 5") });
    const held = await orderNumbered(8103);
    expect(held.state).toBe("held");
    const reasons = JSON.parse(held.holdReasons!) as { code: string; candidates?: unknown[] }[];
    expect(reasons.map((reason) => reason.code)).toEqual(["branch_missing"]);
    expect(reasons[0]!.candidates!.length).toBeLessThanOrEqual(3);
    expect(flow.sim.orders().some((each) => each.id_order === "8103")).toBe(false);
  });
});
