// The secret in each shop's warehouse notification address (/warehouse/notify/<token>): made on install (or
// when Settings first needs it, for shops installed earlier), replaced on the merchant's request. Stored twice:
// its SHA-256, by which a notification finds its shop, and the token encrypted like the ApiKey (bound to
// the shop), so Settings can show the address again. The token itself is never logged.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { isUniqueViolation, type Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { env } from "../env.server";
import type { Log } from "../logger.server";
import {
  decryptSecret,
  encryptSecret,
  keyOf,
  SecretUnreadable,
  type EncryptionKeyDeps,
} from "../settings/secret-box.server";
import { shopIsActive } from "../shops/lifecycle.server";

export const NOTIFY_PATH = "/warehouse/notify/";

/** 32 random bytes (256 bits) in base64url without padding: always 43 characters of [A-Za-z0-9_-]. */
const TOKEN_BYTES = 32;
export const notifyTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

/** SHA-256 hex: the stored form a notification's token is looked up by. */
export function notifyTokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function storedForm(token: string, shop: string, keys: EncryptionKeyDeps) {
  return {
    notifyTokenDigest: notifyTokenDigest(token),
    notifyTokenCiphertext: encryptSecret(token, keyOf(keys), shop),
  };
}

/**
 * Gives the shop a token unless it has one. Never replaces one: two first visits to Settings at once
 * must not leave the page of the first showing an address the second made useless.
 */
export async function ensureNotifyToken(db: Db, shop: string, keys: EncryptionKeyDeps = {}): Promise<void> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { notifyTokenDigest: true } });
  if (row?.notifyTokenDigest) return;
  const data = storedForm(newToken(), shop, keys);
  if (row) {
    // Only while it still has none: another request may have given it one since.
    await db.shopSettings.updateMany({ where: { shop, notifyTokenDigest: null }, data });
    return;
  }
  try {
    await db.shopSettings.create({ data: { shop, ...data } });
  } catch (error) {
    // Another request made the row meanwhile; a second look gives it a token if that one did not.
    if (!isUniqueViolation(error)) throw error;
    await db.shopSettings.updateMany({ where: { shop, notifyTokenDigest: null }, data });
  }
}

/** The address, or why it cannot be shown (a Message, said by the page in the admin's language). */
export type NotifyAddress = { ok: true; url: string } | { ok: false; message: Message };

/** The shop's whole notification address, made now if the shop has none yet. */
export async function notifyAddress(
  db: Db,
  shop: string,
  keys: EncryptionKeyDeps = {},
): Promise<NotifyAddress> {
  let row = await db.shopSettings.findUnique({ where: { shop }, select: { notifyTokenCiphertext: true } });
  if (!row?.notifyTokenCiphertext) {
    await ensureNotifyToken(db, shop, keys);
    row = await db.shopSettings.findUnique({ where: { shop }, select: { notifyTokenCiphertext: true } });
  }
  try {
    const token = decryptSecret(row!.notifyTokenCiphertext!, keyOf(keys), shop);
    return { ok: true, url: addressOf(token) };
  } catch (error) {
    if (!(error instanceof SecretUnreadable)) throw error;
    // The address may still work (its digest does not need the key); only showing it is impossible.
    return { ok: false, message: message("settings:notifications.unreadable") };
  }
}

function addressOf(token: string): string {
  return `${env().SHOPIFY_APP_URL.replace(/\/+$/, "")}${NOTIFY_PATH}${token}`;
}

/** Replaces the shop's token: the old address stops working with this write. */
export async function rotateNotifyToken(
  deps: { db: Db; log: Log } & EncryptionKeyDeps,
  shop: string,
): Promise<void> {
  const data = storedForm(newToken(), shop, deps);
  await deps.db.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  deps.log.info(
    { shop, event: "statuses.notify_address_replaced" },
    "warehouse notification address replaced",
  );
}

// Compared against when no shop has the digest, so a miss does the same work as a hit.
const NO_DIGEST = Buffer.alloc(32);

/**
 * The installed shop whose notification token this is, or null: an unknown token, or a shop that
 * uninstalled the app. The caller answers both alike.
 */
export async function shopOfNotifyToken(db: Db, token: string): Promise<string | null> {
  const presented = Buffer.from(notifyTokenDigest(token), "hex");
  const row = await db.shopSettings.findUnique({
    where: { notifyTokenDigest: presented.toString("hex") },
    select: { shop: true, notifyTokenDigest: true },
  });
  // The look-up found the row by the digest already; the comparison keeps the decision itself free of
  // early exits, whatever the database's index does.
  const stored = row?.notifyTokenDigest ? Buffer.from(row.notifyTokenDigest, "hex") : NO_DIGEST;
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same) return null;
  return (await shopIsActive(db, row.shop)) ? row.shop : null;
}
