// Encrypts a shop's warehouse ApiKey at rest with AES-256-GCM. The stored form carries its version, so the
// scheme or the key can change later without guessing how an old value was written.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
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

export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

export class SecretUnreadable extends Error {
  constructor() {
    super(
      "The stored warehouse ApiKey cannot be decrypted: SKLAD_ENCRYPTION_KEY changed since it was saved. " +
        "Enter the ApiKey again in Settings.",
    );
    this.name = "SecretUnreadable";
  }
}

export function decryptSecret(stored: string, key: Buffer): string {
  const [version, body] = stored.split(":", 2);
  if (version !== VERSION || !body) throw new SecretUnreadable();
  const bytes = Buffer.from(body, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new SecretUnreadable();
  }
}

/** What the admin may show of a key: its last four characters. */
export function secretHint(plain: string): string {
  return `••••${plain.slice(-4)}`;
}
