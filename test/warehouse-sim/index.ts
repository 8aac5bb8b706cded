// Public entry of the warehouse API simulator used by tests, the benchmark and `npm run sim`.
export {
  DEFAULT_ACCOUNT,
  startWarehouseSimulator,
  type AccountOptions,
  type SimulatorStatsSnapshot,
  type WarehouseSimulator,
  type WarehouseSimulatorOptions,
} from "./server";
export { SimulatorClock, type Instant } from "./clock";
export type { SimulatorSettings, SimulatorStats } from "./core";
export type { DropFault, FailureFault, FaultSnapshot, FaultSwitches } from "./faults";
export type { StageDelays } from "./lifecycle";
export type { RateLimitOption, RateLimitSettings } from "./limits";
export type { NotificationAttempt, StatusNotification } from "./notifications";
export type { AddReturn, AdvanceOrder, ReceiveDelivery, SeedProduct } from "./control";
export type {
  DeliveryRequestRecord,
  KeyStore,
  MovementRecord,
  OrderRecord,
  ProductRecord,
  ReturnRecord,
  SenderDetails,
  SimulatorAccount,
} from "./state";
export {
  CARRIER_STATUS,
  ORDER_STAGES,
  ORDER_STATUS_TABLE,
  STATUS_DICTIONARY,
  type OrderStage,
} from "./statuses";
