import { describe, expect, it } from "vitest";
import { i18nFor } from "../../app/i18n/i18n";
import { message, translate } from "../../app/i18n/message";

describe("a message decided on the server", () => {
  it("is put into words in the page's language, with its values", () => {
    expect(translate(i18nFor("uk").t, message("common:nav.orders"))).toBe("Замовлення");
    expect(translate(i18nFor("en").t, message("common:nav.orders"))).toBe("Orders");
  });

  it("falls back to the stored text, then to the key, when the key is unknown", () => {
    expect(translate(i18nFor("uk").t, message("holds:gone.away"), "Stored English")).toBe("Stored English");
    expect(translate(i18nFor("uk").t, message("holds:gone.away"))).toBe("holds:gone.away");
  });
});
