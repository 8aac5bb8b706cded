// The cart attributes the branch picker (extensions/branch-picker) writes and the order mapping reads: the
// contract between the two. Cart attributes become the order's note attributes; `_`-prefixed ones are
// hidden from the buyer at checkout.

/** The buyer's delivery choice: one of DELIVERY_TYPES. */
export const DELIVERY_TYPE_ATTRIBUTE = "_delivery_type";
export const DELIVERY_TYPES = ["branch", "postomat", "ukrposhta", "courier"] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/** The carrier's city (branch, parcel locker and courier delivery). */
export const NP_CITY_REF_ATTRIBUTE = "_np_city_ref";
export const NP_CITY_LABEL_ATTRIBUTE = "_np_city_label";
/** The chosen branch or parcel locker, and how it read to the buyer. */
export const NP_WAREHOUSE_REF_ATTRIBUTE = "_np_warehouse_ref";
export const NP_WAREHOUSE_LABEL_ATTRIBUTE = "_np_warehouse_label";
/** Courier delivery: the street as the carrier names it (its Ref when chosen from the list), house, flat. */
export const COURIER_STREET_ATTRIBUTE = "_courier_street";
export const COURIER_STREET_REF_ATTRIBUTE = "_courier_street_ref";
export const COURIER_HOUSE_ATTRIBUTE = "_courier_house";
export const COURIER_FLAT_ATTRIBUTE = "_courier_flat";
/** Ukrposhta: the recipient's postcode (five digits). */
export const UKRPOSHTA_POSTCODE_ATTRIBUTE = "_ukrposhta_postcode";
