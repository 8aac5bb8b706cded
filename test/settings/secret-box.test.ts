// The warehouse ApiKey at rest: bound to its shop, refused when its tag is cut short, and values written
// before the binding (v1) still read and rewritten as bound ones on first use.
import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  decryptSecret,
  encryptionKey,
  encryptSecret,
  SecretUnreadable,
} from "../../app/settings/secret-box.server";
import { warehouseAccess } from "../../app/settings/settings.server";

const key = encryptionKey(undefined);
const SHOP = "box.myshopify.com";
const OTHER = "other.myshopify.com";

/** A value as the app stored it before values were bound to their shop. */
function v1(plain: string, tagBytes = 16): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag().subarray(0, tagBytes);
  return `v1:${Buffer.concat([iv, tag, ciphertext]).toString("base64")}`;
}

describe("the secret box", () => {
  it("decrypts a value for the shop it was stored for, and for no other", () => {
    const stored = encryptSecret("api-key-1234", key, SHOP);
    expect(() => decryptSecret(stored, key, OTHER)).toThrow(SecretUnreadable);
    expect(decryptSecret(stored, key, SHOP)).toBe("api-key-1234");
    expect(stored).toMatch(/^v2:/);
  });

  it("refuses a value whose tag is shorter than 16 bytes", () => {
    // The empty key's stored form is just IV and tag, so cutting the body short cuts the tag; GCM's
    // truncated tag is a prefix of the full one, so Node would accept it unless told the tag's length.
    for (const stored of [v1("", 4), v1("", 12), encryptSecret("", key, SHOP).slice(0, -8)]) {
      expect(() => decryptSecret(stored, key, SHOP)).toThrow(SecretUnreadable);
    }
    expect(decryptSecret(v1(""), key, SHOP)).toBe("");
  });

  it("refuses a changed value, another key, and an unknown version", () => {
    const stored = encryptSecret("api-key-1234", key, SHOP);
    const body = Buffer.from(stored.slice(3), "base64");
    body[body.length - 1]! ^= 1;
    expect(() => decryptSecret(`v2:${body.toString("base64")}`, key, SHOP)).toThrow(SecretUnreadable);
    expect(() => decryptSecret(stored, randomBytes(32), SHOP)).toThrow(SecretUnreadable);
    expect(() => decryptSecret(`v9:${stored.slice(3)}`, key, SHOP)).toThrow(SecretUnreadable);
  });

  it("reads a v1 value and rewrites it bound to its shop the first time the worker reads it", async () => {
    const { db } = appContext();
    const old = v1("api-key-5678");
    await db.shopSettings.create({ data: { shop: SHOP, apiKeyCiphertext: old } });

    expect((await warehouseAccess(db, SHOP))?.apiKey).toBe("api-key-5678");
    const { apiKeyCiphertext } = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(apiKeyCiphertext).toMatch(/^v2:/);
    expect(decryptSecret(apiKeyCiphertext!, key, SHOP)).toBe("api-key-5678");
    expect(() => decryptSecret(apiKeyCiphertext!, key, OTHER)).toThrow(SecretUnreadable);

    // Read again: already bound, so left as it is.
    expect((await warehouseAccess(db, SHOP))?.apiKey).toBe("api-key-5678");
    expect((await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } })).apiKeyCiphertext).toBe(
      apiKeyCiphertext,
    );
  });
});
