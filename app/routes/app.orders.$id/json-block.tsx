// A warehouse body or an event's data on the order page, shown exactly as stored (pretty-printed JSON).
import { Box } from "@shopify/polaris";

export function JsonBlock({ label, json }: { label: string; json: string }) {
  return (
    <Box background="bg-surface-secondary" padding="300" borderRadius="200" overflowX="scroll">
      <pre aria-label={label} style={{ margin: 0, fontSize: 12, whiteSpace: "pre" }}>
        <code>{json}</code>
      </pre>
    </Box>
  );
}
