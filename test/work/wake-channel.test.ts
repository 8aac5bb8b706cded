// The wake-up channel between processes (decision 022): what a notification may carry, and the listener's
// one connection, which ignores what is not ours and comes back after its connection is killed.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { recordingLog } from "../support/log";
import { databaseFlavour } from "../../app/db/flavour";
import {
  createWakeListener,
  createWakeNotifier,
  parseWakeMessage,
  WAKE_CHANNEL,
  type WakeListener,
  type WakeMessage,
} from "../../app/work/wake-channel.server";
import { eventually } from "../e2e/harness";

const url = process.env.DATABASE_URL ?? "file:";
const onPostgres = databaseFlavour(url) === "postgresql";
let listener: WakeListener | undefined;

afterEach(async () => {
  await listener?.stop();
  listener = undefined;
});

async function notifyRaw(payload: string) {
  await appContext().db.$executeRaw`SELECT pg_notify(${WAKE_CHANNEL}, ${payload})`;
}

describe("wake-up messages", () => {
  it("reads a shop and a reason, and nothing else, without throwing", () => {
    expect(parseWakeMessage('{"shop":"a.myshopify.com","reason":"new_orders"}')).toEqual({
      shop: "a.myshopify.com",
      reason: "new_orders",
    });
    for (const bad of [
      undefined,
      "",
      "not json",
      "null",
      "[]",
      '{"shop":1,"reason":"due_now"}',
      '{"shop":"a.myshopify.com","reason":"drop_tables"}',
      '{"shop":"","reason":"due_now"}',
      JSON.stringify({ shop: "x".repeat(300), reason: "due_now" }),
    ]) {
      expect(parseWakeMessage(bad)).toBeNull();
    }
  });
});

describe.runIf(onPostgres)("the wake-up listener on PostgreSQL", () => {
  it("ignores malformed payloads, hears good ones, and listens again after its connection is killed", async () => {
    const { log, lines } = recordingLog();
    const heard: WakeMessage[] = [];
    listener = createWakeListener({
      connectionString: url,
      log,
      onMessage: (message) => heard.push(message),
      retry: { firstMs: 50, maxMs: 400 },
    });
    listener.start();
    const firstPid = await eventually(() => listener!.backendPid, "the listener to connect", 10_000);

    await notifyRaw("not json");
    await notifyRaw('{"shop":"a.myshopify.com","reason":"format_disk"}');
    const notifier = createWakeNotifier({ ...appContext(), log });
    notifier.send({ shop: "a.myshopify.com", reason: "new_orders" });
    await notifier.settled();
    await eventually(() => heard.length === 1, "the good message to be heard", 10_000);
    expect(heard).toEqual([{ shop: "a.myshopify.com", reason: "new_orders" }]);
    await eventually(
      () => lines.filter((line) => line.event === "worker.wake_malformed").length === 2,
      "both malformed payloads to be logged",
      10_000,
    );

    // Its connection killed by the server, as a failover or an idle-session killer would.
    await appContext().db.$queryRaw`SELECT pg_terminate_backend(${firstPid}::int)`;
    const secondPid = await eventually(
      () =>
        listener!.backendPid !== null && listener!.backendPid !== firstPid ? listener!.backendPid : null,
      "the listener to connect again",
      15_000,
    );
    expect(secondPid).not.toBe(firstPid);
    notifier.send({ shop: "b.myshopify.com", reason: "shop_changed" });
    await notifier.settled();
    await eventually(() => heard.length === 2, "a message after the reconnect to be heard", 10_000);
    expect(heard[1]).toEqual({ shop: "b.myshopify.com", reason: "shop_changed" });
    // One outage, logged once when it began and once when it ended.
    expect(lines.filter((line) => line.event === "worker.wake_listener_lost")).toHaveLength(1);
    expect(lines.filter((line) => line.event === "worker.wake_listener_back")).toHaveLength(1);

    await listener.stop();
    expect(listener.backendPid).toBeNull();
    // Closed: the server no longer has the session.
    const still = await appContext().db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ${secondPid}::int`;
    expect(Number(still[0]!.n)).toBe(0);
  }, 60_000);

  it("sends one NOTIFY per shop and reason at a time, and one more for what came in meanwhile", async () => {
    const { log } = recordingLog();
    const heard: WakeMessage[] = [];
    listener = createWakeListener({
      connectionString: url,
      log,
      onMessage: (message) => heard.push(message),
    });
    listener.start();
    await eventually(() => listener!.backendPid, "the listener to connect", 10_000);
    const notifier = createWakeNotifier({ ...appContext(), log });
    for (let n = 0; n < 50; n++) notifier.send({ shop: "a.myshopify.com", reason: "new_orders" });
    await notifier.settled();
    await eventually(() => heard.length >= 2, "the wake-ups to be heard", 10_000);
    // The first, and one after it for the 49 that came while it was out.
    expect(heard).toHaveLength(2);
  });
});
