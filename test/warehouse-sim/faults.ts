// Fault switches for tests of the client's resilience: fail the next calls with an HTTP status, delay every
// answer, hold every answer until the test lets them go or hold the next few until released, drop the
// answer after committing (the client sees a reset), answer a batched AddOrder in another shape, and
// send each notification again.

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
  /**
   * Only calls whose JSON body has each of these fields, compared as text (`{ page: 2 }`: a register's
   * second page, which a warehouse may keep refusing while it serves the others).
   */
  when?: Readonly<Record<string, string | number>>;
}

export interface DropFault {
  count: number;
  operations?: readonly string[];
}

/** The shape a batched AddOrder is answered in: the batch shape, or the envelope of the first order alone. */
export type BatchAnswerShape = "batch" | "single";

export interface FaultSnapshot {
  failures: FailureFault[];
  drops: DropFault[];
  delayMs: number;
  notificationRepeats: number;
  answersHeld: boolean;
  heldAnswers: number;
  batchAnswerShape: BatchAnswerShape;
}

export class FaultSwitches {
  private failures: FailureFault[] = [];
  private drops: DropFault[] = [];
  private holds: DropFault[] = [];
  private held: (() => void)[] = [];
  /** How a batched AddOrder is answered (every order of it is processed either way). */
  batchAnswerShape: BatchAnswerShape = "batch";
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

  /**
   * The next `count` matching calls are processed fully, then their answer waits until `releaseHeld()`:
   * a test can act while a request is certainly out, without guessing how long it takes.
   */
  holdNext(fault: DropFault): void {
    if (!Number.isInteger(fault.count) || fault.count < 1)
      throw new Error("count must be a positive integer");
    this.holds.push({ ...fault });
  }

  /** Answers held now. */
  get heldAnswers(): number {
    return this.held.length;
  }

  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  /** When this call's answer is held, what resolves when it is released. */
  takeHold(operation: string | undefined): Promise<void> | undefined {
    if (take(this.holds, operation) === undefined) return undefined;
    return new Promise<void>((resolve) => this.held.push(resolve));
  }

  answerBatchesAs(shape: BatchAnswerShape): void {
    if (shape !== "batch" && shape !== "single") throw new Error('shape must be "batch" or "single"');
    this.batchAnswerShape = shape;
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
  takeFailure(operation: string | undefined, body?: Record<string, unknown>): FailureFault | undefined {
    return take(this.failures, operation, (rule) =>
      Object.entries(rule.when ?? {}).every(
        ([field, value]) => body !== undefined && String(body[field]) === String(value),
      ),
    );
  }

  takeDrop(operation: string | undefined): boolean {
    return take(this.drops, operation) !== undefined;
  }

  clear(): void {
    this.failures = [];
    this.drops = [];
    this.holds = [];
    this.releaseHeld();
    this.batchAnswerShape = "batch";
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
      heldAnswers: this.held.length,
      batchAnswerShape: this.batchAnswerShape,
    };
  }
}

function take<T extends { count: number; operations?: readonly string[] }>(
  rules: T[],
  operation: string | undefined,
  matches: (rule: T) => boolean = () => true,
): T | undefined {
  const index = rules.findIndex(
    (rule) =>
      (!rule.operations || (operation !== undefined && rule.operations.includes(operation))) && matches(rule),
  );
  const rule = rules[index];
  if (!rule) return undefined;
  rule.count--;
  if (rule.count <= 0) rules.splice(index, 1);
  return rule;
}
