// Shopify's ids as its REST-style webhook payloads write them, shared by every payload schema. JSON.parse
// rounds numbers beyond 2^53 (the documented examples have `"id": 820982911946154500` beside
// `"admin_graphql_api_id": "gid://shopify/Order/820982911946154508"`), so an id is kept as an exact
// digit string, taken from the gid when the payload has one.
import { z } from "zod";

const GID = /^gid:\/\/shopify\/\w+\/(\d+)$/;
const NUMERIC_ID = "must be a numeric id (a whole number, a string of digits, or a gid://shopify/… id)";

/** A number, digit string or gid, as exact digits where the input has them. */
export const numericId = z.union(
  [
    // Not z.number().int(): zod's int stops at 2^53, and JSON numbers beyond it are the point here.
    // BigInt writes 1e21 as its digits, where String would write "1e+21".
    z
      .number()
      .refine((id) => Number.isInteger(id) && id >= 0, NUMERIC_ID)
      .transform((id) => BigInt(id).toString()),
    z.string().regex(/^\d+$/, NUMERIC_ID),
    z
      .string()
      .regex(GID, NUMERIC_ID)
      .transform((gid) => gid.match(GID)![1]!),
  ],
  { error: NUMERIC_ID },
);

export const graphqlId = z.string().regex(GID, "must be a gid://shopify/… id");

/** The digits of `gid://shopify/Order/820982911946154508`, else the id as read. */
export function exactId<Id extends string | undefined | null>(
  id: Id,
  gid: string | null | undefined,
): string | Id {
  const digits = gid?.match(GID)?.[1];
  return digits ?? id;
}
