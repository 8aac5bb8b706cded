// Fault switches for tests of the client's resilience: fail the next calls with an HTTP status, delay every
// answer, hold answers until the test lets them go, drop the answer after committing (the client sees a
// reset), and send each notification again.

export interface FailureFault {
  /** How many matching calls fail. */
  count: number;
  /** The HTTP status to answer: 5xx, 429, 401, ... */
  status: number;
  /** Only these operations (by wire name); every call when absent. */
  operations?: readonly string[];
  /** Sent as Retry-After on a 429 (whole seconds). */
  retryAfterSeconds?: number;
  message?: string;
}

export interface DropFault {
  count: number;
  operations?: readonly string[];
}

export interface FaultSnapshot {
  failures: FailureFault[];
  drops: DropFault[];
  delayMs: number;
  notificationRepeats: number;
  answersHeld: boolean;
}

export class FaultSwitches {
  private failures: FailureFault[] = [];
  private drops: DropFault[] = [];
  /** Added before every API answer. */
  delayMs = 0;
  /** Extra copies of every status notification. */
  notificationRepeats = 0;
  private hold: { released: Promise<void>; release: () => void } | null = null;

  failNext(fault: FailureFault): void {
    if (!Number.isInteger(fault.count) || fault.count < 1)
      throw new Error("count must be a positive integer");
    if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599)
      throw new Error("status must be an HTTP error status (400-599)");
    this.failures.push({ ...fault });
  }

  /** The next `count` matching calls are processed fully, then their socket is destroyed without an answer. */
  dropNext(fault: DropFault): void {
    if (!Number.isInteger(fault.count) || fault.count < 1)
      throw new Error("count must be a positive integer");
    this.drops.push({ ...fault });
  }

  setDelay(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error("delay must be a non-negative number of ms");
    this.delayMs = ms;
  }

  /**
   * Every answer waits, after its operation is done, until releaseAnswers(): a request stays on its way for
   * exactly as long as the test needs, however fast or slow the machine (a delay guesses at that).
   */
  holdAnswers(): void {
    if (this.hold) return;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.hold = { released, release };
  }

  releaseAnswers(): void {
    this.hold?.release();
    this.hold = null;
  }

  /** Resolves when an answer may be sent: at once unless answers are held. */
  answerMayGo(): Promise<void> {
    return this.hold?.released ?? Promise.resolve();
  }

  repeatNotifications(extraCopies: number): void {
    if (!Number.isInteger(extraCopies) || extraCopies < 0)
      throw new Error("repeats must be a non-negative integer");
    this.notificationRepeats = extraCopies;
  }

  /** Consumes one failure for this call, if a rule matches. */
  takeFailure(operation: string | undefined): FailureFault | undefined {
    return take(this.failures, operation);
  }

  takeDrop(operation: string | undefined): boolean {
    return take(this.drops, operation) !== undefined;
  }

  clear(): void {
    this.failures = [];
    this.drops = [];
    this.delayMs = 0;
    this.notificationRepeats = 0;
    this.releaseAnswers();
  }

  snapshot(): FaultSnapshot {
    return {
      failures: this.failures.map((fault) => ({ ...fault })),
      drops: this.drops.map((fault) => ({ ...fault })),
      delayMs: this.delayMs,
      notificationRepeats: this.notificationRepeats,
      answersHeld: this.hold !== null,
    };
  }
}

function take<T extends { count: number; operations?: readonly string[] }>(
  rules: T[],
  operation: string | undefined,
): T | undefined {
  const index = rules.findIndex(
    (rule) => !rule.operations || (operation !== undefined && rule.operations.includes(operation)),
  );
  const rule = rules[index];
  if (!rule) return undefined;
  rule.count--;
  if (rule.count <= 0) rules.splice(index, 1);
  return rule;
}
