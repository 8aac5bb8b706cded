// Mapping with a shop's saved settings as they are: while they no longer validate, every order is held
// with that reason rather than mapped with defaults the merchant never chose (a wrong delivery text or
// payment method would reach the warehouse as if meant). Saving valid settings maps them again.
import { message } from "../i18n/message";
import { mapOrder, type MappingInput, type MappingResult } from "./mapping";
import type { ShopMapping } from "./settings";
import { inEnglish } from "./words";

export function mapWithShopMapping(
  input: Omit<MappingInput, "settings"> & { shopMapping: ShopMapping },
): MappingResult {
  const { shopMapping, ...rest } = input;
  if (shopMapping.problem === null) return mapOrder({ ...rest, settings: shopMapping.mapping });
  const text = message("holds:settingsInvalid", { problem: shopMapping.problem });
  const fixText = message("holds:fix.settingsInvalid");
  return {
    ok: false,
    hold: [
      {
        code: "mapping_invalid",
        message: inEnglish(text),
        fix: inEnglish(fixText),
        action: "settings",
        text,
        fixText,
      },
    ],
  };
}
