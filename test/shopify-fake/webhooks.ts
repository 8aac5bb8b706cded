// Delivery of the webhooks the fake's shops raise (ShopStore.webhookOutbox), as Shopify delivers them: each
// entry POSTed to `<appUrl>/webhooks/<topic>` (the topic's `/` kept as a path), its body signed with HMAC-SHA256
// under the app's secret, with Shopify's headers; a shop's entries one at a time in order, a failed delivery
// (no answer, or not 2xx) tried again after each of `retryDelaysMs`, then given up. Off until a target is set.
import { createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_API_VERSION } from "../../app/api-version";
import type { FakeState, ShopStore, WebhookEntry } from "./state";

export interface WebhookTarget {
  /** The app's base URL, e.g. `http://127.0.0.1:3000`. */
  appUrl: string;
  /** The app's API secret, which signs every body. */
  secret: string;
}

/** What became of one webhook: delivered (a 2xx answer) or given up after its last attempt. */
export interface WebhookDeliveryRecord {
  id: string;
  eventId: string;
  shop: string;
  topic: string;
  url: string;
  attempts: number;
  /** The last answer's HTTP status; null when the last attempt got none. */
  status: number | null;
  delivered: boolean;
  /** Why the last attempt failed, when it got no answer. */
  error?: string;
}

export interface WebhookDeliveryOptions {
  /** Waits before the 2nd, 3rd, ... attempt; its length is the number of retries. Default 200, 1000, 3000 ms. */
  retryDelaysMs?: readonly number[];
  /** How long an attempt waits for the app's answer (Shopify allows 5 seconds). */
  timeoutMs?: number;
}

/** The headers Shopify sends with a webhook (as test/support/webhooks.ts builds them for the app's own tests). */
export function signedWebhookHeaders(
  shop: string,
  entry: Pick<WebhookEntry, "id" | "eventId" | "topic" | "at">,
  body: string,
  secret: string,
): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": entry.topic,
    "X-Shopify-Shop-Domain": shop,
    "X-Shopify-Hmac-Sha256": createHmac("sha256", secret).update(body, "utf8").digest("base64"),
    "X-Shopify-Webhook-Id": entry.id,
    "X-Shopify-Event-Id": entry.eventId,
    "X-Shopify-API-Version": ADMIN_API_VERSION,
    "X-Shopify-Triggered-At": entry.at,
  };
}

export class WebhookDelivery {
  readonly deliveries: WebhookDeliveryRecord[] = [];
  private target: WebhookTarget | null = null;
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;

  constructor(
    private readonly state: FakeState,
    options: WebhookDeliveryOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? [200, 1000, 3000];
    this.timeoutMs = options.timeoutMs ?? 5000;
    state.onWebhook = () => this.kick();
  }

  /** Starts delivering to `target` (what is in the outboxes now goes first); null stops after the current one. */
  deliverTo(target: WebhookTarget | null): void {
    this.target = target && { appUrl: target.appUrl.replace(/\/+$/, ""), secret: target.secret };
    this.kick();
  }

  get deliveringTo(): WebhookTarget | null {
    return this.target;
  }

  /** Resolves once every outbox is empty or delivery is off, and no delivery is under way. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  private kick(): void {
    if (!this.target || this.running || this.stopping.signal.aborted) return;
    this.running = this.run().finally(() => {
      this.running = null;
      // A webhook raised as the last run was ending would otherwise wait for the next one.
      if (this.next()) this.kick();
    });
  }

  private next(): { store: ShopStore; entry: WebhookEntry } | undefined {
    for (const store of this.state.shops()) {
      const entry = store.webhookOutbox[0];
      if (entry) return { store, entry };
    }
    return undefined;
  }

  private async run(): Promise<void> {
    for (let next = this.next(); next && this.target; next = this.next()) {
      if (this.stopping.signal.aborted) return;
      await this.deliver(next.store, next.entry, this.target);
      // A drain may have taken it meanwhile; otherwise it leaves the outbox now, delivered or given up.
      const at = next.store.webhookOutbox.indexOf(next.entry);
      if (at >= 0) next.store.webhookOutbox.splice(at, 1);
    }
  }

  private async deliver(store: ShopStore, entry: WebhookEntry, target: WebhookTarget): Promise<void> {
    const shop = store.shop.myshopifyDomain;
    const body = JSON.stringify(entry.payload);
    const record: WebhookDeliveryRecord = {
      ...{ id: entry.id, eventId: entry.eventId, shop, topic: entry.topic },
      ...{ url: `${target.appUrl}/webhooks/${entry.topic}`, attempts: 0, status: null, delivered: false },
    };
    this.deliveries.push(record);
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt++) {
      if (attempt > 0) {
        try {
          await sleep(this.retryDelaysMs[attempt - 1], undefined, { signal: this.stopping.signal });
        } catch {
          return; // the fake is closing
        }
      }
      record.attempts++;
      try {
        const response = await fetch(record.url, {
          method: "POST",
          headers: signedWebhookHeaders(shop, entry, body, target.secret),
          body,
          signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.timeoutMs)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        record.status = response.status;
        delete record.error;
        if (response.ok) {
          record.delivered = true;
          return;
        }
      } catch (error) {
        record.status = null;
        record.error = error instanceof Error ? error.message : String(error);
      }
    }
  }
}
