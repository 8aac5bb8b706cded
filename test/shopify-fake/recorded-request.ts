// What the fake keeps of each Admin API request it answers: the server records them, the control routes
// (control.ts) hand them to another process. Apart from both so that neither imports the other for it.
export type RecordedRequest = { shop: string | null; operationName: string | null; query: string } & {
  variables: Record<string, unknown>;
  /** What the request cost the shop's bucket once answered (null: refused before it was priced). */
  actualCost?: number | null;
};
