// A server-decided text shown on a page (a Message, or a list of them: a hold reason, an action's answer, a
// step's problem): each sentence in the admin's language and formats, and the warehouse's own words after
// it, untranslated and set apart as theirs. Every page shows a Message this way; where a text has to be a
// string (inside another sentence, a string-only prop), `useTexts` (./use-texts.ts) says the same words.
import { Text } from "@shopify/polaris";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../i18n/react";
import { sentenceOf, textList, warehouseSays, type Texts } from "./use-texts";

export function MessageText({ text }: { text: Texts }) {
  const { t } = useTranslation("common");
  const format = useFormat();
  return (
    <>
      {textList(text).map((one, index) => (
        <Fragment key={index}>
          {index > 0 && " "}
          {sentenceOf(t, format, one)}
          {one.said && (
            <>
              {" "}
              <Text as="span" tone="subdued">
                {warehouseSays(t)} {one.said}
              </Text>
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}
