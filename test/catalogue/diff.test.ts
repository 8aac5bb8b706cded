import { describe, expect, it } from "vitest";
import type { ProductCard } from "../../app/catalogue/card";
import { diffCatalogue, type SentProduct } from "../../app/catalogue/diff";
import { stockRowSchema } from "../../app/warehouse/schemas";

const MUG: ProductCard = { sku: "MUG-1", name: "Чашка - Синя", barcode: "4820000000017" };
const TEA: ProductCard = { sku: "TEA-1", name: "Чай трав'яний" };

/** A ReportSklad row as the client parses it (barcode "" when the warehouse has none). */
const row = (sku: string, barcode?: string) =>
  stockRowSchema.parse({ sku, quantity: 3, quantityAvailable: 2, stock: 3, ...(barcode && { barcode }) });

const sent = (entries: Array<[string, SentProduct]>) => new Map(entries);

describe("diffCatalogue against a ReportSklad", () => {
  it("sends nothing when the warehouse holds each SKU with the barcode and the name last sent", () => {
    const diff = diffCatalogue({
      cards: [MUG, TEA],
      lastSent: sent([
        ["MUG-1", { name: MUG.name, barcode: MUG.barcode }],
        ["TEA-1", { name: TEA.name }],
      ]),
      reported: [row("MUG-1", "4820000000017"), row("TEA-1")],
    });
    expect(diff).toEqual({ send: [], unchanged: ["MUG-1", "TEA-1"] });
  });

  it("sends a SKU the warehouse does not report, even one sent before", () => {
    const diff = diffCatalogue({
      cards: [MUG, TEA],
      lastSent: sent([
        ["MUG-1", { name: MUG.name, barcode: MUG.barcode }],
        ["TEA-1", { name: TEA.name }],
      ]),
      reported: [row("TEA-1")],
    });
    expect(diff).toEqual({ send: [{ card: MUG, reasons: ["missing"] }], unchanged: ["TEA-1"] });
  });

  it("sends a barcode that changed in Shopify, read against the warehouse's own report", () => {
    const diff = diffCatalogue({
      cards: [MUG],
      // What was last sent agrees with Shopify; the warehouse holds another barcode: the report wins.
      lastSent: sent([["MUG-1", { name: MUG.name, barcode: MUG.barcode }]]),
      reported: [row("MUG-1", "4820000000024")],
    });
    expect(diff).toEqual({ send: [{ card: MUG, reasons: ["barcode_changed"] }], unchanged: [] });
  });

  it("sends a name that differs from the one last sent, since the report carries none", () => {
    const diff = diffCatalogue({
      cards: [MUG],
      lastSent: sent([["MUG-1", { name: "Чашка - Синя (стара назва)", barcode: MUG.barcode }]]),
      reported: [row("MUG-1", "4820000000017")],
    });
    expect(diff.send).toEqual([{ card: MUG, reasons: ["name_changed"] }]);
  });

  it("sends a SKU the warehouse holds under a name the app never sent", () => {
    const diff = diffCatalogue({ cards: [MUG], lastSent: sent([]), reported: [row("MUG-1", MUG.barcode)] });
    expect(diff.send).toEqual([{ card: MUG, reasons: ["name_unknown"] }]);
  });

  it("keeps the warehouse's barcode when Shopify has none: neither a reason to send, nor erased by a send", () => {
    const unchanged = diffCatalogue({
      cards: [TEA],
      lastSent: sent([["TEA-1", { name: TEA.name }]]),
      reported: [row("TEA-1", "4820000000048")],
    });
    expect(unchanged).toEqual({ send: [], unchanged: ["TEA-1"] });

    const renamed = diffCatalogue({
      cards: [{ ...TEA, name: "Чай трав'яний 100 г" }],
      lastSent: sent([["TEA-1", { name: TEA.name }]]),
      reported: [row("TEA-1", "4820000000048")],
    });
    expect(renamed.send).toEqual([
      {
        card: { sku: "TEA-1", name: "Чай трав'яний 100 г", barcode: "4820000000048" },
        reasons: ["name_changed"],
      },
    ]);
  });

  it("gives every reason a card is sent for", () => {
    const diff = diffCatalogue({
      cards: [MUG],
      lastSent: sent([["MUG-1", { name: "Чашка", barcode: MUG.barcode }]]),
      reported: [row("MUG-1", "4820000000024")],
    });
    expect(diff.send).toEqual([{ card: MUG, reasons: ["name_changed", "barcode_changed"] }]);
  });

  it("reads a reported SKU and barcode with the whitespace the cards are written with", () => {
    const diff = diffCatalogue({
      cards: [MUG],
      lastSent: sent([["MUG-1", { name: MUG.name }]]),
      reported: [row(" MUG-1 ", "4820000000017 ")],
    });
    expect(diff.unchanged).toEqual(["MUG-1"]);
  });
});

describe("diffCatalogue without a report (a product webhook)", () => {
  const lastSent = sent([["MUG-1", { name: MUG.name, barcode: MUG.barcode }]]);

  it("sends nothing for a card as it was last sent", () => {
    expect(diffCatalogue({ cards: [MUG], lastSent })).toEqual({ send: [], unchanged: ["MUG-1"] });
  });

  it("sends a card never sent, and one whose barcode or name changed since", () => {
    const changed = { ...MUG, barcode: "4820000000024" };
    expect(diffCatalogue({ cards: [TEA], lastSent }).send).toEqual([{ card: TEA, reasons: ["missing"] }]);
    expect(diffCatalogue({ cards: [changed], lastSent }).send).toEqual([
      { card: changed, reasons: ["barcode_changed"] },
    ]);
    const renamed = { ...MUG, name: "Чашка - Блакитна" };
    expect(diffCatalogue({ cards: [renamed], lastSent }).send).toEqual([
      { card: renamed, reasons: ["name_changed"] },
    ]);
  });
});
