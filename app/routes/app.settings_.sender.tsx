// The Settings page's Sender card data (app/settings/sender-card.tsx): GET the saved sender and the
// account's senders as the warehouse lists them now; POST `{ senderId }` ("" for the warehouse's default)
// to choose one. A resource route, so the Settings page never waits on the warehouse to render.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { message } from "../i18n/message";
import { chooseSender, senderCard, type SenderAnswer, type SenderCardView } from "../settings/senders.server";
import { authenticate } from "../shopify.server";
import { shopChanged, wakeWorker } from "../work/worker.server";

export const loader = async ({ request }: LoaderFunctionArgs): Promise<SenderCardView> => {
  const { session } = await authenticate.admin(request);
  return senderCard(appContext(), session.shop);
};

export const action = async ({ request }: ActionFunctionArgs): Promise<SenderAnswer> => {
  const { session } = await authenticate.admin(request);
  const input: unknown = await request.json().catch(() => undefined);
  if (typeof input !== "object" || input === null) {
    return { ok: false, problems: [message("settings:errors.unreadableForm")] };
  }
  const answer = await chooseSender({ ...appContext(), wake: wakeWorker, shopChanged }, session.shop, input);
  return answer.ok
    ? { ok: true, done: answer.done, version: answer.version ?? 0 }
    : { ok: false, problems: answer.problems };
};
