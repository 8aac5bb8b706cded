// The sender chosen in Settings end to end: orders go to the warehouse simulator over HTTP carrying the
// chosen `delivery_sender_id` (the simulator checks it is one of the account's senders), both an order that
// arrives after the choice and one taken in before it, through the re-mapping the choice asked for.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { remapOpenOrders } from "../../app/orders/remap.server";
import { REMAP_KIND } from "../../app/orders/states";
import { chooseSender } from "../../app/settings/senders.server";
import { DEFAULT_ACCOUNT } from "../warehouse-sim";
import { eventually, orderPayload, ordersInState, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { SENDER_SOLE_TRADER as SOLE_TRADER, TWO_SENDERS } from "../support/senders";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

describe("the sender chosen in Settings", () => {
  it("is the delivery_sender_id of orders sent after the choice", async () => {
    flow = await startOrderFlow({
      noWorker: true,
      simulator: {
        accounts: [
          {
            ...DEFAULT_ACCOUNT,
            senders: TWO_SENDERS,
          },
        ],
      },
    });
    const { sim } = flow;
    // Taken in before the choice: ready, mapped without a sender.
    await flow.post({ topic: "orders/create", payload: orderPayload(7301) });
    expect(await ordersInState("ready")).toBe(1);

    const deps = { ...appContext(), endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 } };
    expect(await chooseSender(deps, SHOP, { senderId: SOLE_TRADER })).toMatchObject({ ok: true });
    const remap = await appContext().db.shopSchedule.findUnique({
      where: { shop_kind: { shop: SHOP, kind: REMAP_KIND } },
    });
    expect(remap).not.toBeNull();
    // The re-mapping the choice asked for, as the worker runs it.
    expect(await remapOpenOrders(appContext(), SHOP)).toEqual({ changed: 1, complete: true });

    // Arrives after the choice.
    await flow.post({ topic: "orders/create", payload: orderPayload(7302) });
    flow.worker.start();
    await eventually(async () => (await ordersInState("accepted")) === 2, "both orders to be accepted");

    const sent = sim.orders().map((order) => [order.id_order, order.submitted.delivery_sender_id]);
    expect(sent.sort()).toEqual([
      ["7301", SOLE_TRADER],
      ["7302", SOLE_TRADER],
    ]);
    expect(sim.stats().refusals).toEqual([]);
  });
});
