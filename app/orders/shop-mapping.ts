// Mapping with a shop's saved settings as they are: while they no longer validate, every order is held
// with that reason rather than mapped with defaults the merchant never chose (a wrong delivery text or
// payment method would reach the warehouse as if meant). Saving valid settings maps them again.
import { mapOrder, type MappingInput, type MappingResult } from "./mapping";
import type { ShopMapping } from "./settings";

export function mapWithShopMapping(
  input: Omit<MappingInput, "settings"> & { shopMapping: ShopMapping },
): MappingResult {
  const { shopMapping, ...rest } = input;
  if (shopMapping.problem === null) return mapOrder({ ...rest, settings: shopMapping.mapping });
  return {
    ok: false,
    hold: [
      {
        code: "mapping_invalid",
        message: `The store's saved order settings are no longer valid, so no order is mapped with them: ${shopMapping.problem}`,
        fix: "Open Settings, correct the settings named there and save: held orders are then mapped again.",
        action: "settings",
      },
    ],
  };
}
