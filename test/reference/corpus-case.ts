// The shape of a case of the address matcher's corpus, apart from the cases: both parts of the corpus
// (corpus.ts, corpus-buyers.ts) are written in it, and corpus.ts gathers the second part's cases.
export interface ExpectedBranch {
  /** The city's Ukrainian name as the carrier writes it. */
  city: string;
  /** Its region (oblast), which tells apart cities sharing a name. */
  area: string;
  number: string;
}

export interface CorpusAddress {
  city?: string;
  province?: string;
  address1?: string;
  address2?: string;
  company?: string;
  zip?: string;
}

export interface CorpusCase {
  /** What the case exercises, for the failure report. */
  what: string;
  address: CorpusAddress;
  note?: string;
  noteAttributes?: { name: string; value: string }[];
  expect: ExpectedBranch | "unsure";
  /** For an "unsure" case whose writing still points somewhere: branches the three candidates must offer. */
  offer?: ExpectedBranch[];
}
