// Polaris's words in Ukrainian: each one stands for a word Polaris really has, with the same placeholders,
// so a Polaris upgrade that renames a key shows here rather than as English in a Ukrainian page.
import englishTexts from "@shopify/polaris/locales/en.json";
import { describe, expect, it } from "vitest";
import { polarisTexts } from "../../app/i18n/polaris";
import ukrainianTexts from "../../app/i18n/polaris-uk.json";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string"
      ? [[prefix + key, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("Polaris in Ukrainian", () => {
  const english = new Map(leaves(englishTexts as Tree));
  const ukrainian = leaves(ukrainianTexts as Tree);

  it.each(ukrainian)("%s is a Polaris key, with its placeholders", (key, text) => {
    expect(english.has(key), key).toBe(true);
    expect(placeholders(text)).toEqual(placeholders(english.get(key)!));
    expect(text).not.toEqual(english.get(key));
  });

  it("falls back to Polaris's English for the rest, and gives English as it is", () => {
    expect(polarisTexts("uk")).toEqual([ukrainianTexts, englishTexts]);
    expect(polarisTexts("en")).toBe(englishTexts);
  });
});
