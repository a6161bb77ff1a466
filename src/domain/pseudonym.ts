/**
 * Keyed pseudonyms for records that must outlive a person's erasure without identifying them
 * (DPDP Rules 2025, Rule 8(3): processing logs are kept for a year). A pseudonym is
 * `psn_` + the first 32 hex digits of HMAC-SHA256(key, id). The key is derived with HKDF-SHA256
 * from an existing secret (the deployment's `CERT_SIGNING_KEY`, info `audit-pseudonym-v1`), so
 * no new secret is needed; rotating that secret makes old and new pseudonyms unlinkable, which
 * only strengthens the pseudonymisation. Without the key a pseudonym cannot be linked back.
 */
const encoder = new TextEncoder();

export async function pseudonymKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('audit-pseudonym-v1') },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
}

export async function pseudonym(key: CryptoKey, id: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(id)));
  return `psn_${[...mac.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
