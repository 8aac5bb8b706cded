// What buyers type, made readable for the address matcher (app/reference/writing.ts): each writing as the
// matcher then parses it, and what it says beyond its words (another carrier, a freight branch).
import { describe, expect, it } from "vitest";
import { tokens } from "../../app/reference/fold";
import { cyrillicLookAlikes, readWriting } from "../../app/reference/writing";

/** The folded words, so that spacing left by a replacement does not matter. */
const read = (text: string) => tokens(readWriting(text).text.replace(/[№#]/g, " № ")).join(" ");

describe("readWriting", () => {
  it("mends the carrier's words: typos, glued, look-alike letters, 'office' after the carrier", () => {
    expect(read("пштомат 250")).toBe(tokens("поштомат 250").join(" "));
    expect(read("нова пошат 55")).toBe(tokens("нова пошта 55").join(" "));
    expect(read("отдлеление 31")).toBe(tokens("відділення 31").join(" "));
    expect(read("новапошта1")).toBe(tokens("нова пошта 1").join(" "));
    expect(read("NovaPoshta 3")).toBe(tokens("Nova Poshta 3").join(" "));
    expect(read("NP office 15")).toBe(tokens("NP відділення 15").join(" "));
    // A street two letters from the carrier's word stays a street; an office without the carrier, an office.
    expect(read("вул. Поштова 5")).toBe(tokens("вул. Поштова 5").join(" "));
    expect(read("Velyka Vasylkivska 100, office 15")).toBe(
      tokens("Velyka Vasylkivska 100 office 15").join(" "),
    );
  });

  it("makes Latin look-alikes Cyrillic only in Cyrillic writing", () => {
    expect(cyrillicLookAlikes("HП 41")).toBe("НП 41");
    expect(cyrillicLookAlikes("HOBA ПOШTA 21")).toBe("НОВА ПОШТА 21");
    expect(cyrillicLookAlikes("Kиїв")).toBe("Київ");
    expect(cyrillicLookAlikes("Nova Poshta 12")).toBe("Nova Poshta 12");
  });

  it("marks an offered second number as a branch's, so that the matcher sees two", () => {
    for (const text of [
      "НП 5 або 12",
      "5 або 12 відділення",
      "NP 5 or 12",
      "Нова пошта 5, якщо закрите то 12",
      "НП 5 (або 12)",
      "відділення 5, 12",
      "НП 5 - 12",
      "НП №5/№12",
    ]) {
      const numbers = readWriting(text).text.match(/№\s*\d+/g) ?? [];
      expect(
        numbers.map((number) => number.replace(/\D/g, "")),
        text,
      ).toContain("12");
    }
    // A house and flat stay as they are.
    expect(readWriting("пр. Миру 21/3").text).toBe("пр. Миру 21/3");
  });

  it("drops weights, hours and floors, and says what they meant", () => {
    expect(readWriting("вантажне до 1100 кг")).toMatchObject({ freight: true });
    expect(read("вантажне до 1100 кг")).toBe("");
    expect(readWriting("НП 12 (до 30 кг)")).toMatchObject({ freight: false });
    expect(read("НП12 до 18:00")).toBe(tokens("НП 12").join(" "));
    expect(read("НП №14 з 9 до 18")).toBe(tokens("НП № 14").join(" "));
    expect(read("НП 5 (2 поверх)")).toBe(tokens("НП 5").join(" "));
  });

  it("notices another carrier", () => {
    for (const text of [
      "Укрпошта відділення 12",
      "Ukrposhta branch 25",
      "Meest Express 5",
      "Міст експрес 14",
      "Justin 2",
    ]) {
      expect(readWriting(text).otherCarrier, text).toBe(true);
    }
    expect(readWriting("Нова Пошта 12").otherCarrier).toBe(false);
  });
});
