// The process's slots: how many shops work at once, and one shop loop's hold on a slot, given back while it
// only waits. Apart from the engine (machinery.server.ts) because it is the fairness between shops
// (decision 018) and nothing else.

/**
 * The process's slots: shops doing work at once. First come, first served: a shop that gives its slot back
 * (to wait, or at the end of its time slice) queues behind the shops already waiting. A shop only holds one
 * while it works (its steps run, its requests are out); a shop that waits, for the warehouse's limits, a
 * Shopify throttle or a backoff, waits without one, so one shop's waiting never costs another shop its turn.
 */
export class Slots {
  private free: number;
  private readonly queue: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  /** Resolves with a slot, now or once the shops queued before have had theirs. */
  take(): Promise<void> {
    if (this.free > 0 && !this.queue.length) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }
  give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
  /** Whether a shop is waiting for a slot. */
  get wanted(): boolean {
    return this.queue.length > 0;
  }
}

/** One shop loop's hold on a slot, given back and taken again around its waits. */
export class SlotHold {
  private held = false;
  /** When the slot was taken (engine's clock), for the time slice. */
  since = 0;
  constructor(
    private readonly slots: Slots,
    private readonly now: () => number,
  ) {}
  /** A take queued now: two waits of one loop that end together (Shopify reads side by side) queue once. */
  private taking: Promise<void> | undefined;
  take(): Promise<void> {
    if (this.held) return Promise.resolve();
    this.taking ??= this.slots.take().then(() => {
      this.held = true;
      this.taking = undefined;
      this.since = this.now();
    });
    return this.taking;
  }
  give(): void {
    if (!this.held) return;
    this.held = false;
    this.slots.give();
  }
  /** Waits `wait` without the slot, then queues for one again (unless `ending`: the loop then needs none). */
  async without(wait: () => Promise<void>, ending: () => boolean): Promise<void> {
    this.give();
    try {
      await wait();
    } finally {
      if (!ending()) await this.take();
    }
  }
}
