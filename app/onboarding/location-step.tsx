// The checklist's location step: a location of the shop that stands for the warehouse, or the app's
// fulfillment service registered with the warehouse's address, with what a switch means for orders on the way.
import { useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  ChoiceList,
  FormLayout,
  InlineStack,
  Select,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useJsonSubmit } from "./step-answer";
import type { ChecklistView } from "./view";

export function LocationStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const { t: tMode } = useTranslation("statuses");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const { choices, current, currentName, mode } = view.location;
  const [choice, setChoice] = useState<"location" | "service">(mode);
  const [locationId, setLocationId] = useState(mode === "location" ? (current ?? "") : "");
  const [address1, setAddress1] = useState("");
  const [city, setCity] = useState("");
  const [zip, setZip] = useState("");
  const modeChoice = (
    <ChoiceList
      title={tMode("mode.title")}
      choices={[
        { label: tMode("mode.location"), value: "location", helpText: tMode("mode.locationHelp") },
        { label: tMode("mode.service"), value: "service", helpText: tMode("mode.serviceHelp") },
      ]}
      selected={[choice]}
      onChange={(selected) => setChoice(selected[0] === "service" ? "service" : "location")}
    />
  );
  const guidance = choice !== mode && (current !== null || mode === "service") && (
    <Banner tone="info" title={tMode("mode.switchTitle")}>
      <BlockStack gap="200">
        <p>{choice === "service" ? tMode("mode.switchToService") : tMode("mode.switchToLocation")}</p>
        <p>{tMode("mode.switchInFlight")}</p>
      </BlockStack>
    </Banner>
  );
  if (choice === "service") {
    return (
      <FormLayout>
        {modeChoice}
        {mode === "service" && currentName && <p>{t("location.serviceCurrent", { name: currentName })}</p>}
        <TextField
          label={tMode("mode.address1")}
          autoComplete="off"
          value={address1}
          onChange={setAddress1}
          helpText={tMode("mode.addressHelp")}
        />
        <FormLayout.Group>
          <TextField label={tMode("mode.city")} autoComplete="off" value={city} onChange={setCity} />
          <TextField label={tMode("mode.zip")} autoComplete="off" value={zip} onChange={setZip} />
        </FormLayout.Group>
        {guidance}
        <InlineStack>
          <Button
            variant="primary"
            disabled={busy}
            onClick={() => submit({ intent: "saveServiceLocation", address1, city, zip })}
          >
            {tMode("mode.register")}
          </Button>
        </InlineStack>
      </FormLayout>
    );
  }
  if (choices === null) return <Banner tone="warning">{t("location.unavailable")}</Banner>;
  if (choices.length === 0) return <Banner tone="warning">{t("location.none")}</Banner>;
  return (
    <FormLayout>
      {modeChoice}
      <Select
        label={t("location.label")}
        placeholder={t("location.placeholder")}
        options={choices.map((choice) => ({ label: choice.name, value: choice.id }))}
        value={locationId}
        onChange={setLocationId}
        helpText={
          mode === "location" && currentName ? t("location.current", { name: currentName }) : undefined
        }
      />
      {guidance}
      <InlineStack>
        <Button
          variant="primary"
          disabled={busy || !locationId}
          onClick={() => submit({ intent: "saveLocation", locationId })}
        >
          {t("location.save")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}
