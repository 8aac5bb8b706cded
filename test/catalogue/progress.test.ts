// What the Catalogue page says of a full sync: the step, how far it has got, and the time left in words,
// at the pace the catalogue kind allows (50 cards a minute at the warehouse's real limits). progress.ts
// answers Messages; they are put into words here as the page does, in English and in Ukrainian.
import { describe, expect, it } from "vitest";
import { aboutDuration, fullSyncEstimate, syncProgress } from "../../app/catalogue/progress";
import { cardPaceMs } from "../../app/catalogue/work.server";
import { sayTexts, type Texts } from "../../app/components/use-texts";
import { createFormatter } from "../../app/i18n/format";
import { i18nFor } from "../../app/i18n/i18n";
import type { Locale } from "../../app/i18n/locales";
import { WAREHOUSE_RATE_LIMITS } from "../../app/warehouse/limiter.server";

const paceMs = cardPaceMs(WAREHOUSE_RATE_LIMITS);
const counts = { variantsRead: 0, alreadyThere: 0, sent: 0, stillDue: 0 };

/** The texts as the page writes them in `locale`, with no-break spaces made plain for comparison. */
const say = (locale: Locale, texts: Texts) =>
  sayTexts(i18nFor(locale).t, createFormatter(locale, "Europe/Kyiv"), texts).replace(/[\u00a0\u202f]/g, " ");
const en = (texts: Texts) => say("en", texts);
const uk = (texts: Texts) => say("uk", texts);

describe("aboutDuration", () => {
  it.each([
    [0, { unit: "underMinute" }],
    [45_000, { unit: "underMinute" }],
    [61_000, { unit: "minutes", minutes: 2 }],
    [59 * 60_000, { unit: "minutes", minutes: 59 }],
    [60 * 60_000, { unit: "hours", hours: 1, minutes: 0 }],
    [(2 * 60 + 4) * 60_000, { unit: "hours", hours: 2, minutes: 0 }],
    [(3 * 60 + 17) * 60_000, { unit: "hours", hours: 3, minutes: 20 }],
    [(3 * 60 + 56) * 60_000, { unit: "hours", hours: 4, minutes: 0 }],
  ])("reads %i ms as %o", (ms, about) => {
    expect(aboutDuration(ms)).toEqual(about);
  });
});

describe("syncProgress", () => {
  it("gives the read as a share of Shopify's count, or the count alone when Shopify gave none", () => {
    const reading = { ...counts, phase: "shopify" as const, variantsRead: 2_500 };
    const shared = syncProgress(reading, { variantsInShop: 10_000, paceMs });
    expect(shared).toMatchObject({ percent: 25, timeLeft: null });
    expect(en(shared.title)).toBe("Step 1 of 3: reading your catalogue from Shopify");
    expect(uk(shared.title)).toBe("Крок 1 з 3: читаємо ваш каталог із Shopify");
    expect(en(shared.detail)).toMatch(/^2,500 of 10,000 variants read\. How long sending takes/);
    expect(uk(shared.detail)).toMatch(/^Прочитано 2 500 з 10 000 варіантів\. Скільки триватиме/);
    const alone = syncProgress(reading, { variantsInShop: null, paceMs });
    expect(alone).toMatchObject({ percent: 0 });
    expect(en(alone.detail)).toMatch(/^2,500 variants read so far\./);
    expect(uk(alone.detail)).toMatch(/^Поки що прочитано 2 500 варіантів\./);
    const one = syncProgress({ ...reading, variantsRead: 21 }, { variantsInShop: null, paceMs });
    expect(uk(one.detail)).toMatch(/^Поки що прочитано 21 варіант\./);
  });

  it("says while sending how long the cards still due take at 50 a minute, and why so slow", () => {
    const sending = {
      phase: "sending" as const,
      variantsRead: 10_000,
      alreadyThere: 1_000,
      sent: 0,
      stillDue: 9_000,
    };
    const progress = syncProgress(sending, { variantsInShop: null, paceMs });
    expect(progress.percent).toBe(0);
    expect(en(progress.title)).toBe("Step 3 of 3: sending the products the warehouse lacks");
    expect(en(progress.detail)).toBe("0 of 9,000 sent; 1,000 were at the warehouse already.");
    expect(uk(progress.detail)).toBe("Надіслано 0 з 9 000; 1 000 товарів уже було на складі.");
    expect(en(progress.timeLeft)).toBe(
      "About 3 hours left. The warehouse takes one product a request, 50 a minute, so that orders are never held up.",
    );
    expect(uk(progress.timeLeft)).toBe(
      "Залишилося близько 3 годин. Склад приймає по одному товару за запит, 50 на хвилину, щоб замовлення ніколи не затримувалися.",
    );
    const almost = syncProgress({ ...sending, sent: 8_990, stillDue: 10 }, { variantsInShop: null, paceMs });
    expect(almost.percent).toBe(99);
    expect(en(almost.timeLeft)).toMatch(/^Under a minute left\./);
    expect(uk(almost.timeLeft)).toMatch(/^Залишилося менше хвилини\./);
    expect(
      syncProgress({ ...sending, sent: 9_000, stillDue: 0 }, { variantsInShop: null, paceMs }),
    ).toMatchObject({ percent: 100, timeLeft: null });
  });
});

describe("fullSyncEstimate", () => {
  it("gives the longest the shop's variants could take to send", () => {
    expect(en(fullSyncEstimate(10_000, paceMs))).toBe(
      "Your shop has 10,000 variants. If the warehouse had none of them, sending them all would take about " +
        "3 hours 20 minutes. The warehouse takes one product a request, 50 a minute, so that orders are never " +
        "held up.",
    );
    expect(uk(fullSyncEstimate(10_000, paceMs))).toBe(
      "У вашому магазині 10 000 варіантів. Якби на складі не було жодного з них, надсилання всіх тривало б " +
        "близько 3 годин 20 хвилин. Склад приймає по одному товару за запит, 50 на хвилину, щоб замовлення " +
        "ніколи не затримувалися.",
    );
    expect(uk(fullSyncEstimate(61, paceMs))).toMatch(/^У вашому магазині 61 варіант\. .* близько 2 хвилин\./);
    expect(en(fullSyncEstimate(null, paceMs))).toBe(
      "When the warehouse lacks many of them, sending takes a while. The warehouse takes one product a " +
        "request, 50 a minute, so that orders are never held up.",
    );
  });
});
