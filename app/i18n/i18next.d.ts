// Keys are checked by the compiler against the English texts: a key missing there fails the typecheck.
import "i18next";
import type { resources } from "./resources";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: (typeof resources)["en"];
  }
}
