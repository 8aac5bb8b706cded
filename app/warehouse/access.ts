// What a shop's saved warehouse key gives the code that calls the warehouse for it: which of the warehouse's
// two environments the key is for, and the account's batch switch. The settings read it (settings.server.ts);
// the engine's lease carries it (app/work/steps.server.ts), which is why it sits below both.

export const WAREHOUSE_ENVIRONMENTS = ["production", "staging"] as const;
export type WarehouseEnvironment = (typeof WAREHOUSE_ENVIRONMENTS)[number];

export interface WarehouseAccess {
  apiKey: string;
  /** The saved key's digest: a refusal pauses the shop only while this key is still the saved one. */
  keyDigest: string;
  environment: WarehouseEnvironment;
  batchAddOrder: boolean;
}
