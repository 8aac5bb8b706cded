// Outside the Shopify admin there is nothing to show: a visit with a shop goes to the app, others get a note.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return null;
};

export default function Landing() {
  return (
    <main style={{ fontFamily: "Inter, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Sklad Sync</h1>
      <p>
        Sends your Shopify orders to your fulfillment warehouse in Ukraine and brings statuses, tracking
        numbers and stock back. Install it from the Shopify App Store, then open it from your Shopify admin.
      </p>
    </main>
  );
}
