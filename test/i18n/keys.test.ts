// Both languages say everything: the same keys in every namespace, every plural form Ukrainian needs, the
// same placeholders, and no empty text.
import { describe, expect, it } from "vitest";
import { resources } from "../../app/i18n/resources";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** The plural forms each language's rules ask for (Intl.PluralRules, which i18next follows). */
const FORMS = {
  en: new Intl.PluralRules("en").resolvedOptions().pluralCategories,
  uk: new Intl.PluralRules("uk").resolvedOptions().pluralCategories,
};

/** Keys without their plural suffix, each with the forms present. */
function byBase(flat: Map<string, string>): Map<string, Set<string>> {
  const bases = new Map<string, Set<string>>();
  for (const key of flat.keys()) {
    const form = PLURAL.exec(key)?.[1];
    const base = form ? key.slice(0, -form.length - 1) : key;
    const forms = bases.get(base) ?? new Set<string>();
    if (form) forms.add(form);
    bases.set(base, forms);
  }
  return bases;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

describe("the translations", () => {
  const namespaces = Object.keys(resources.en) as (keyof typeof resources.en)[];

  it("have the same namespaces in both languages", () => {
    expect(Object.keys(resources.uk).sort()).toEqual([...namespaces].sort());
  });

  describe.each(namespaces)("namespace %s", (namespace) => {
    const en = flatten(resources.en[namespace] as Tree);
    const uk = flatten(resources.uk[namespace] as Tree);
    const enBases = byBase(en);
    const ukBases = byBase(uk);

    it("has every key in both languages, with every plural form each language needs", () => {
      expect([...ukBases.keys()].sort()).toEqual([...enBases.keys()].sort());
      for (const [base, forms] of enBases) {
        if (!forms.size) {
          expect(ukBases.get(base)?.size, `${base} is plural in Ukrainian only`).toBe(0);
          continue;
        }
        expect([...forms].sort(), `English forms of ${base}`).toEqual([...FORMS.en].sort());
        expect([...(ukBases.get(base) ?? [])].sort(), `Ukrainian forms of ${base}`).toEqual(
          [...FORMS.uk].sort(),
        );
      }
    });

    it("uses the same placeholders in both languages, and no text is empty", () => {
      for (const [key, text] of en) {
        expect(text.trim(), `en ${key}`).not.toBe("");
        const base = key.replace(PLURAL, "");
        const others = [...uk].filter(([ukKey]) => ukKey.replace(PLURAL, "") === base);
        for (const [ukKey, ukText] of others) {
          expect(ukText.trim(), `uk ${ukKey}`).not.toBe("");
          // A plural's one form may say "one" in words instead of {{count}}.
          const drop = (names: (string | undefined)[]) => names.filter((name) => name !== "count");
          expect(drop(placeholders(ukText)), `placeholders of uk ${ukKey}`).toEqual(drop(placeholders(text)));
        }
      }
    });
  });
});
