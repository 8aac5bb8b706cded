// Order stages: each change moves stock, assigns the waybill, notifies the key's URL, and (when stage delays
// are set) schedules the next change on the simulator clock. Due changes run in time order with their own dates.
import { DELIVERY_METHOD } from "./spec-literals";
import { formatMoment, type SimulatorClock } from "./clock";
import type { Notifier, StatusNotification } from "./notifications";
import { type KeyStore, MOVEMENT_DOCUMENT, type OrderRecord, type SimulatorState } from "./state";
import { nextStage, ORDER_STATUS_TABLE, type OrderStage, type ProgressStage } from "./statuses";

/** Delay from entering the previous stage to entering this one. */
export interface StageDelays {
  picked: number;
  shipped: number;
  delivered: number;
}

/** What the carrier charges once the parcel is handed over (a flat fee per method is enough for tests). */
const DELIVERY_COST: Record<string, number> = {
  [DELIVERY_METHOD.novaPoshta]: 80,
  [DELIVERY_METHOD.ukrposhta]: 45,
  [DELIVERY_METHOD.kyivCourier]: 150,
  [DELIVERY_METHOD.pickup]: 0,
};

interface Due {
  at: number;
  store: KeyStore;
  order: OrderRecord;
  /** The stage the order had when this was scheduled; a manual change in between makes the entry stale. */
  from: OrderStage;
  stageAt: number;
}

/** A binary min-heap on `at`, so the next due change is found in O(1) however many orders wait. */
class DueQueue {
  private readonly items: Due[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Due | undefined {
    return this.items[0];
  }

  push(item: Due): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]!.at <= item.at) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = item;
  }

  pop(): Due | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || !last) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.at < items[left]!.at ? right : left;
      if (items[child]!.at >= last.at) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

export interface LifecycleOptions {
  state: SimulatorState;
  clock: SimulatorClock;
  notifier: Notifier;
  stageDelays: () => StageDelays | null;
  /** Extra copies of every notification (the repeated-notification fault). */
  notificationRepeats: () => number;
}

export class OrderLifecycle {
  private readonly queue = new DueQueue();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: LifecycleOptions) {}

  /** AddOrder accepted the order: it enters `new`, is announced, and waits for picking. */
  accepted(store: KeyStore, order: OrderRecord): void {
    this.notify(store, order);
    this.schedule(store, order);
  }

  /** Moves the order one stage on, at `at` (the due moment, or now for a manual change). */
  step(store: KeyStore, order: OrderRecord, to: ProgressStage, at: number): void {
    if (to === "shipped") {
      for (const line of order.lines) {
        store.reserve([line], -1);
        store.move(line.sku, -line.count, MOVEMENT_DOCUMENT.shipment(order.id_order_FF, at), at);
      }
      order.TTN =
        order.deliveryMethod === DELIVERY_METHOD.novaPoshta
          ? this.options.state.nextTtn()
          : order.deliveryMethod === DELIVERY_METHOD.ukrposhta
            ? this.options.state.nextPostalBarcode()
            : "";
      order.deliveryCost = DELIVERY_COST[order.deliveryMethod] ?? 0;
    }
    this.enter(store, order, to, at);
    this.schedule(store, order);
  }

  /** Steps through every stage up to `target`, each with its own notification. */
  advanceTo(store: KeyStore, order: OrderRecord, target: ProgressStage, at: number): void {
    for (let next = nextStage(order.stage); next; next = nextStage(order.stage)) {
      this.step(store, order, next, at);
      if (next === target) return;
    }
  }

  cancel(store: KeyStore, order: OrderRecord, at: number): void {
    store.reserve(order.lines, -1);
    this.enter(store, order, "cancelled", at);
  }

  /** EditOrder may turn a draft into an order to ship, or change nothing that matters to the schedule. */
  edited(store: KeyStore, order: OrderRecord): void {
    this.schedule(store, order);
  }

  /** Runs every change due by now, in time order; later changes of the same order chain on due moments. */
  processDue(): void {
    const now = this.options.clock.now();
    for (let due = this.queue.peek(); due && due.at <= now; due = this.queue.peek()) {
      this.queue.pop();
      const { store, order } = due;
      const next = nextStage(order.stage);
      if (order.stage !== due.from || order.stageAt !== due.stageAt || order.draft || !next) continue;
      this.step(store, order, next, due.at);
    }
    this.arm();
  }

  /** Schedules every waiting order again (stage delays were switched on or changed). */
  rescheduleAll(stores: readonly KeyStore[]): void {
    this.queue.clear();
    for (const store of stores) for (const order of store.orders) this.schedule(store, order, false);
    this.processDue();
  }

  clear(): void {
    this.queue.clear();
    this.arm();
  }

  close(): void {
    this.closed = true;
    this.queue.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  notification(order: OrderRecord): StatusNotification {
    const status = ORDER_STATUS_TABLE[order.stage];
    return {
      id_order: order.id_order,
      id_order_FF: order.id_order_FF,
      key_order: order.key_order,
      status_mtp: status.name,
      status_mtp_id: status.id,
      status_mtp_date: formatMoment(order.stageAt),
      TTN: order.TTN,
    };
  }

  private enter(store: KeyStore, order: OrderRecord, stage: OrderStage, at: number): void {
    order.stage = stage;
    order.stageAt = at;
    order.history.push({ stage, at });
    this.notify(store, order);
  }

  private notify(store: KeyStore, order: OrderRecord): void {
    if (!store.notificationUrl) return;
    const copies = this.options.notificationRepeats();
    this.options.notifier.notify(store.apiKey, store.notificationUrl, this.notification(order), copies);
  }

  private schedule(store: KeyStore, order: OrderRecord, arm = true): void {
    const delays = this.options.stageDelays();
    const next = nextStage(order.stage);
    if (!delays || !next || next === "new" || order.draft) return;
    const at = order.stageAt + delays[next];
    this.queue.push({ at, store, order, from: order.stage, stageAt: order.stageAt });
    if (arm) this.arm();
  }

  /** One real timer for the earliest due change; none while the clock is frozen (only advance moves it). */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const due = this.queue.peek();
    if (this.closed || !due || this.options.clock.frozen) return;
    const wait = Math.min(Math.max(0, due.at - this.options.clock.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => this.processDue(), wait);
    this.timer.unref();
  }
}
