// The kinds of fix a held order's page offers, and how the action reads one fix form's fields: the form
// (./fix-form.tsx) and the action (./route.tsx) name the same fields here.
export const FIXES = [
  "phone",
  "deliveryMethod",
  "warehouseRef",
  "courierAddress",
  "postcode",
  "splitCod",
] as const;
export type Fix = (typeof FIXES)[number];

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : undefined);

/** The corrections one fix form sends, as correctOrder's overrides; correctOrder checks them. */
export function overridesFrom(fix: Fix, form: FormData): Record<string, unknown> {
  switch (fix) {
    case "phone":
      return { phone: text(form.get("phone")) };
    case "deliveryMethod":
      return { deliveryMethod: text(form.get("deliveryMethod")) };
    case "warehouseRef":
      return { warehouseRef: text(form.get("warehouseRef")) };
    case "postcode":
      return { postcode: text(form.get("postcode")) };
    case "splitCod":
      return { splitCod: text(form.get("splitCod")) };
    case "courierAddress":
      return {
        courier: {
          street: text(form.get("street")),
          house: text(form.get("house")),
          flat: text(form.get("flat")) || undefined,
          // The city the held address is in (its hold names it); without one, Kyiv.
          cityRef: text(form.get("cityRef")) || undefined,
        },
      };
  }
}
