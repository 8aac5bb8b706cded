// The warehouse account's senders as the tests give the simulator: a company and a sole trader of Kyiv, the
// records shaped as senderDetails answers them.
import type { SenderDetails } from "../warehouse-sim";
import { KYIV_CITY_REF } from "../warehouse-sim/reference-data";

export const SENDER_FIRM = "1a2b3c4d-0000-4000-8000-000000000001";
export const SENDER_SOLE_TRADER = "1a2b3c4d-0000-4000-8000-000000000002";

export function senderRecord(id: string, name: string): SenderDetails {
  return {
    id,
    name,
    EDRPOU: "41234567",
    phone: "380671234567",
    CityRef: KYIV_CITY_REF,
    CityDescription: "Київ",
    ContactPerson: "Іваненко Іван",
  };
}

/** The account's two senders, in the order senderDetails lists them. */
export const TWO_SENDERS = [
  senderRecord(SENDER_FIRM, 'ТОВ "Київські товари"'),
  senderRecord(SENDER_SOLE_TRADER, "ФОП Іваненко І. І."),
];
