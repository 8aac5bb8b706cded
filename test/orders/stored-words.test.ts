// The sentences the order rows keep in English come back in the admin's language: each sentence the app
// writes on a timeline or an attention matches a text of orders:timeline, with its values read out of it,
// and an unknown one is shown as it is.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { i18nFor } from "../../app/i18n/i18n";
import { translate } from "../../app/i18n/message";
import { created } from "../../app/orders/state-machine";
import { eventTexts, fromEnglish } from "../../app/orders/stored-words";

const ROOT = join(import.meta.dirname, "../..");
const uk = i18nFor("uk").t;

/**
 * Every sentence given as an event's `message` or an `attentionMessage` in the files that write them, its
 * `${…}` parts standing for a value ("X").
 */
function sentencesIn(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const collect = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node))
      found.push(node.head.text + node.templateSpans.map((span) => `X${span.literal.text}`).join(""));
    else ts.forEachChild(node, collect);
  };
  const visit = (node: ts.Node) => {
    const named = (name: ts.Node) => /^(message|attentionMessage)$/.test(name.getText());
    if (ts.isPropertyAssignment(node) && named(node.name)) collect(node.initializer);
    else if (ts.isVariableDeclaration(node) && named(node.name) && node.initializer)
      collect(node.initializer);
    else if (ts.isBinaryExpression(node) && /\battentionMessage$/.test(node.left.getText()))
      collect(node.right);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  // Sentences only: a key or a code is not one.
  return found.filter((text) => /\s/.test(text));
}

describe("stored order sentences", () => {
  it.each([
    "app/orders/state-machine.ts",
    "app/orders/in-doubt.server.ts",
    "app/catalogue/awaiting.server.ts",
  ])("every sentence %s writes has its text in orders:timeline", (file) => {
    const sentences = sentencesIn(file);
    expect(sentences.length).toBeGreaterThan(0);
    const unknown = sentences.filter((sentence) => fromEnglish(sentence).key === "common:text.stored");
    expect(unknown).toEqual([]);
  });

  it("reads the values back and says the sentence in Ukrainian", () => {
    const text = fromEnglish("The warehouse changed the waybill from 20450000000001 to 20450000000002.");
    expect(text).toEqual({
      key: "orders:timeline.ttnChanged",
      values: { from: "20450000000001", to: "20450000000002" },
    });
    expect(translate(uk, text)).toBe("Склад змінив ТТН з 20450000000001 на 20450000000002.");
    // The warehouse's own words inside a sentence stay as they are.
    expect(translate(uk, fromEnglish("The warehouse refused the order: Товар CUP-KARP-BLUE не найден"))).toBe(
      "Склад відхилив замовлення: Товар CUP-KARP-BLUE не найден",
    );
  });

  it("shows a sentence it does not know as it is", () => {
    const text = fromEnglish("attempt 7");
    expect(translate(uk, text)).toBe("attempt 7");
  });

  it("says a held event by its reasons' keys, and an older held event by its words", () => {
    const reasons = [
      {
        code: "phone_invalid",
        message: "…",
        text: { key: "holds:phone.invalid.shipping", values: { phone: "+48 601 234 567" } },
      },
      { code: "recipient_missing", message: "…", text: { key: "holds:recipientMissing" } },
    ];
    expect(eventTexts("held", "…", reasons).map((text) => translate(uk, text))).toEqual([
      "Номер телефону «+48 601 234 567» (з адреси доставки) не є українським мобільним чи стаціонарним номером.",
      "У замовленні немає імені одержувача: його немає ні в адресі доставки, ні в платіжній адресі, ні в даних покупця.",
    ]);
    const older = [{ code: "phone_invalid", message: "The phone number is wrong." }];
    expect(
      eventTexts("held", "The phone number is wrong.", older).map((text) => translate(uk, text)),
    ).toEqual(["The phone number is wrong."]);
  });
});

describe("stored order sentences, the closest text", () => {
  it("prefers the text with more words of its own to a shorter one that also reads the sentence", () => {
    expect(fromEnglish("Not sent: HTTP 503. Trying again at 2026-03-01T10:00:00.000Z (attempt 3).")).toEqual({
      key: "orders:timeline.notSentRetry",
      values: { reason: "HTTP 503", at: "2026-03-01T10:00:00.000Z", attempt: "3" },
    });
    expect(fromEnglish("Not sent: HTTP 400.")).toEqual({
      key: "orders:timeline.notSent",
      values: { reason: "HTTP 400" },
    });
  });
});

describe("a branch the matcher found", () => {
  const order = { delivery_method: "Новая Почта" } as never;
  const found = (source: "address" | "structured") =>
    created({
      result: {
        ok: true,
        order,
        foundBranch: {
          ref: "1ec09d88-e1c2-11e3-8c4a-0050568002cf",
          label: "Відділення №12: вул. Хрещатик, 22 (Київ)",
          confidence: 0.937,
          source,
          evidence: { city: "Киев", number: "12", field: "np_delivery" },
        },
      },
      cancelled: false,
      orderName: "#1001",
      now: new Date(),
    }).events.find((event) => event.kind === "branch_found");

  it("is on the timeline before the order is ready, saying which branch and what the address read", () => {
    const event = found("address");
    expect(event && fromEnglish(event.message)).toEqual({
      key: "orders:timeline.branchFromAddress",
      values: { label: "Відділення №12: вул. Хрещатик, 22 (Київ)", percent: "93", evidence: "Киев, №12" },
    });
    expect(translate(uk, fromEnglish(event!.message))).toContain("впевненість 93 %");
  });

  it("names the field another checkout app's data came from", () => {
    const event = found("structured");
    expect(event && fromEnglish(event.message)).toMatchObject({
      key: "orders:timeline.branchFromData",
      values: { field: "np_delivery" },
    });
  });

  it("is not written for an order that named its branch", () => {
    const events = created({
      result: { ok: true, order },
      cancelled: false,
      orderName: "#1",
      now: new Date(),
    }).events;
    expect(events.map((event) => event.kind)).toEqual(["received", "ready"]);
  });
});

describe("a courier city the matcher found", () => {
  const order = { delivery_method: "Курьерская доставка Киев" } as never;
  const events = (source: "address" | "structured") =>
    created({
      result: {
        ok: true,
        order,
        foundCity: {
          ref: "db5c88f5-391c-11dd-90d9-001a92567626",
          label: "Львів (Львівська обл.)",
          confidence: 0.905,
          source,
        },
      },
      cancelled: false,
      orderName: "#1002",
      now: new Date(),
    }).events;

  it("is on the timeline before the order is ready, saying which city and how sure", () => {
    const all = events("address");
    expect(all.map((event) => event.kind)).toEqual(["received", "city_found", "ready"]);
    const event = all.find((each) => each.kind === "city_found")!;
    expect(fromEnglish(event.message)).toEqual({
      key: "orders:timeline.courierCityFromAddress",
      values: { label: "Львів (Львівська обл.)", percent: "90" },
    });
    expect(translate(uk, fromEnglish(event.message))).toContain("впевненість 90 %");
  });

  it("says the city came from another checkout app's data", () => {
    const event = events("structured").find((each) => each.kind === "city_found")!;
    expect(fromEnglish(event.message)).toMatchObject({
      key: "orders:timeline.courierCityFromData",
      values: { label: "Львів (Львівська обл.)" },
    });
  });
});
