/**
 * Secrets at rest: password hashing, random tokens, and hashes of tokens and keys.
 * Uses only WebCrypto, so it runs the same in workerd, tests and Node.
 */

/**
 * PBKDF2-SHA256 work factor. Production workerd refuses more than 100,000 iterations
 * (local workerd does not), so this is both the target and the ceiling.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

const encoder = new TextEncoder();

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** A random bearer token: 32 bytes (256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return toBase64Url(randomBytes(bytes));
}

/** SHA-256, hex: how session tokens and API keys are stored and looked up. */
export async function sha256Hex(value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value))));
}

/** Compares without an early exit, so the time taken does not tell how much matched. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

export async function derivePasswordKey(
  password: string,
  salt: Uint8Array,
  iterations: number,
): Promise<Uint8Array> {
  if (iterations > PBKDF2_MAX_ITERATIONS) throw new RangeError('PBKDF2 iterations above the workerd cap');
  const material = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    KEY_BYTES * 8,
  );
  return new Uint8Array(bits);
}

export type PasswordRecord = { passwordHash: string; passwordSalt: string; passwordIterations: number };

export async function hashPassword(password: string): Promise<PasswordRecord> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derivePasswordKey(password, salt, PBKDF2_ITERATIONS);
  return { passwordHash: toBase64(key), passwordSalt: toBase64(salt), passwordIterations: PBKDF2_ITERATIONS };
}

/**
 * A record no password matches. Verifying against it costs the same as a real check, so
 * a login for an unknown email takes as long as one with a wrong password.
 */
export const UNMATCHABLE_PASSWORD: PasswordRecord = {
  passwordHash: toBase64(new Uint8Array(KEY_BYTES)),
  passwordSalt: toBase64(new Uint8Array(SALT_BYTES).fill(7)),
  passwordIterations: PBKDF2_ITERATIONS,
};

export async function verifyPassword(password: string, record: PasswordRecord): Promise<boolean> {
  const key = await derivePasswordKey(password, fromBase64(record.passwordSalt), record.passwordIterations);
  return constantTimeEqual(key, fromBase64(record.passwordHash));
}

/** Equal-time string comparison (via SHA-256, so lengths do not leak either). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([sha256Hex(a), sha256Hex(b)]);
  return constantTimeEqual(encoder.encode(ha), encoder.encode(hb));
}
