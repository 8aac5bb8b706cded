// Why a card could not be sent and waits for the merchant (CatalogueItem.problem, beside the problems of
// the card itself in card.ts): the warehouse refused it, or could not be reached after every attempt.
export const CARD_SEND_PROBLEM = { refused: "refused", retriesExhausted: "retries_exhausted" } as const;
