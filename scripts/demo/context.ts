// What the demo's running parts share: its options, the warehouse and store, the app's modules and address,
// and how to tell, wait and stop. run.ts makes it once everything has started.
import type { DemoApp } from "./app";
import type { DemoOptions } from "./options";
import type { DemoWorld } from "./world";

export interface DemoRun {
  options: DemoOptions;
  world: DemoWorld;
  app: DemoApp;
  /** The demo's address (the app's URL). */
  origin: string;
  /** A line for the person watching (silent in --check). */
  say(line: string): void;
  /** Whether the demo is stopping (timers and loops end). */
  stopping(): boolean;
  /** True once `ready` holds, asked every tenth of a second; false at the check's deadline, or once stopping. */
  reached(ready: () => boolean | Promise<boolean>): Promise<boolean>;
  /** Waits until `ready` holds; the check fails, saying what did not happen, at its deadline. */
  until(what: string, ready: () => boolean | Promise<boolean>): Promise<void>;
}
