// Encrypts a shop's warehouse ApiKey at rest with AES-256-GCM. The stored form carries its version, so the
// scheme or the key can change later without guessing how an old value was written.
//
// v2 binds each value to its shop (the shop's domain is the associated data), so a value copied into
// another shop's row does not decrypt there. v1 values, written before that, are still read, and rewritten
// as v2 the first time they are read (readApiKey).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Db } from "../db.server";
import { env } from "../env.server";

const VERSION = "v2";
const UNBOUND_VERSION = "v1";
const IV_BYTES = 12;
// Node accepts a shorter tag unless told its length, and a 4-byte tag is forged by trying 2^32 of them.
const TAG_BYTES = 16;

// Used outside production when SKLAD_ENCRYPTION_KEY is unset, so the demo and tests need no setup.
const DEVELOPMENT_KEY = createHash("sha256")
  .update("sklad-sync development key; never for real keys")
  .digest();

/** The 32-byte key from SKLAD_ENCRYPTION_KEY (hex or base64), or the development key when it is unset. */
export function encryptionKey(configured: string | undefined): Buffer {
  if (!configured) return DEVELOPMENT_KEY;
  const key = /^[0-9a-fA-F]{64}$/.test(configured)
    ? Buffer.from(configured, "hex")
    : Buffer.from(configured, "base64");
  if (key.length !== 32) throw new Error("SKLAD_ENCRYPTION_KEY must decode to 32 bytes");
  return key;
}

/** The configured key, decoded: read from the environment here alone, once for the app's dependencies. */
export function configuredEncryptionKey(): Buffer {
  return encryptionKey(env().SKLAD_ENCRYPTION_KEY);
}

/** Dependencies that carry the key (app/context.server.ts decodes it once for the app's services). */
export interface EncryptionKeyDeps {
  encryptionKey?: Buffer | undefined;
}

/** The key a service encrypts with: its dependencies'; the configured one for those built without it (tests). */
export function keyOf(deps: EncryptionKeyDeps): Buffer {
  return deps.encryptionKey ?? configuredEncryptionKey();
}

/** `plain` encrypted for `shop`: it decrypts only with the same key and for the same shop. */
export function encryptSecret(plain: string, key: Buffer, shop: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(shop, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

export class SecretUnreadable extends Error {
  constructor() {
    super(
      "The stored warehouse ApiKey cannot be decrypted: the app's encryption key (SKLAD_ENCRYPTION_KEY) " +
        "changed since it was saved, or it was not saved for this shop. Enter the ApiKey again in Settings.",
    );
    this.name = "SecretUnreadable";
  }
}

/** The plain text of a value encryptSecret stored for `shop` (or of a v1 value, bound to no shop). */
export function decryptSecret(stored: string, key: Buffer, shop: string): string {
  const [version, body] = stored.split(":", 2);
  if ((version !== VERSION && version !== UNBOUND_VERSION) || !body) throw new SecretUnreadable();
  const bytes = Buffer.from(body, "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadable();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    if (version === VERSION) decipher.setAAD(Buffer.from(shop, "utf8"));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new SecretUnreadable();
  }
}

/**
 * The shop's ApiKey from its stored form; a v1 value is rewritten as v2 on the way, so each is bound to
 * its shop after its first use. The rewrite applies only while the row still holds what was read: a key
 * saved meanwhile is kept.
 */
export async function readApiKey(db: Db, shop: string, stored: string, key: Buffer): Promise<string> {
  const plain = decryptSecret(stored, key, shop);
  if (!stored.startsWith(`${VERSION}:`)) {
    await db.shopSettings.updateMany({
      where: { shop, apiKeyCiphertext: stored },
      data: { apiKeyCiphertext: encryptSecret(plain, key, shop) },
    });
  }
  return plain;
}

/** What the admin may show of a key: its last four characters. */
export function secretHint(plain: string): string {
  return `••••${plain.slice(-4)}`;
}
