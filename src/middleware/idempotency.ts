import type { MiddlewareHandler } from 'hono';
import { fromBase64, randomBytes, sha256Hex, toBase64 } from '../domain/secrets';
import { ProblemError } from '../lib/problem';
import type { AppBindings } from '../middleware/context';
import {
  type Caller,
  claimIdempotencyKey,
  completeIdempotencyKey,
  MAX_STORED_BODY,
  releaseIdempotencyKey,
} from '../services/idempotency';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Visible ASCII but `"` and `\`, 1–255 characters (a UUID is the usual choice). */
const KEY_SYNTAX = /^[!#-[\]-~]{1,255}$/;
/** The response headers a replay repeats; cookies and per-request headers are never replayed. */
const REPLAYED_HEADERS = ['content-type', 'location', 'link', 'deprecation', 'sunset', 'content-language'];

/**
 * The key from the header: a Structured Field string as the draft has it (`"8e03…"`), or the
 * same characters bare, as most clients send them. Null when malformed.
 */
export function parseIdempotencyKey(raw: string): string | null {
  const trimmed = raw.trim();
  const unquoted =
    trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  return KEY_SYNTAX.test(unquoted) ? unquoted : null;
}

/** Whether a response is kept for replays: everything below 500 but 429 (waiting changes those). */
export const storesResponse = (status: number) => status < 500 && status !== 429;

/**
 * What the store keeps of an Idempotency-Key: its SHA-256, never the key. The key is what
 * unlocks the stored response (`responseKey`), so a copy of the database must not hold it.
 */
export const storedIdempotencyKey = (key: string) => sha256Hex(`idempotency-key\n${key}`);

const encoder = new TextEncoder();
/** The format of a stored body: `v1.` then base64 of a 12-byte AES-GCM nonce and the ciphertext. */
const SEALED_PREFIX = 'v1.';

/**
 * The AES-256-GCM key of one stored response, derived (HKDF-SHA-256) from the Idempotency-Key
 * itself and the caller. Only who holds the Idempotency-Key (and is the same API key or user)
 * can read the response back: a database dump, or a D1 Time Travel copy, reveals none of the
 * secrets a response carried (an API key's `vpk_…`, a webhook's `whsec_…`) nor any personal data.
 */
async function responseKey(key: string, caller: Caller): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(key), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: encoder.encode(`${caller.kind}:${caller.id}`),
      info: encoder.encode('idempotency stored response v1'),
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Encrypts a response body for the store; bound to the request's fingerprint (as associated data). */
export async function sealStoredBody(
  key: string,
  caller: Caller,
  requestHash: string,
  body: string,
): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(requestHash) },
    await responseKey(key, caller),
    encoder.encode(body),
  );
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return `${SEALED_PREFIX}${toBase64(out)}`;
}

/** The body `sealStoredBody` stored. Throws when it does not decrypt (a damaged row): a 500, never a wrong replay. */
export async function openStoredBody(
  key: string,
  caller: Caller,
  requestHash: string,
  stored: string,
): Promise<string> {
  if (!stored.startsWith(SEALED_PREFIX)) throw new Error('idempotency: stored response in an unknown format');
  const bytes = fromBase64(stored.slice(SEALED_PREFIX.length));
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(requestHash) },
    await responseKey(key, caller),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}

/**
 * `Idempotency-Key` for the POSTs that create or trigger work (opt in with
 * `defineRoute({ idempotent: true })`, which puts this after the route's auth middleware). Without
 * the header the request runs as usual. With it, per caller (API key or user) and key, for 24 hours:
 * the first request runs and its response is stored; a retry gets that response again with
 * `Idempotent-Replayed: true`; the same key with another method, path or body is a 422
 * (`idempotency-key-mismatch`); a retry while the first still runs is a 409
 * (`idempotency-key-in-use`). A 5xx or 429 is not stored: the key is released, so a retry runs.
 * At rest the key is only a hash and the response body is encrypted with a key derived from the
 * Idempotency-Key, so the store never holds a secret a response carried.
 */
export function idempotency(): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const raw = c.req.header(IDEMPOTENCY_HEADER);
    if (raw === undefined) return next();
    const key = parseIdempotencyKey(raw);
    if (key === null) {
      throw new ProblemError('invalid-parameters', 'Invalid Idempotency-Key header.', {
        errors: [
          {
            pointer: `#/header/${IDEMPOTENCY_HEADER}`,
            detail:
              '1–255 visible ASCII characters (no `"` or `\\`), optionally as a quoted string; a UUID is best.',
          },
        ],
      });
    }
    const apiKey = c.get('apiKey');
    const user = c.get('user');
    const caller: Caller | null = apiKey
      ? { kind: 'apikey', id: apiKey.id }
      : user
        ? { kind: 'user', id: user.id }
        : null;
    if (!caller) return next(); // an unauthenticated route: nobody to scope the key to

    const url = new URL(c.req.url);
    const body = await c.req.text();
    const hash = await sha256Hex(`${c.req.method}\n${url.pathname}${url.search}\n${body}`);
    const db = c.var.db;
    const stored = await storedIdempotencyKey(key);
    const claim = await claimIdempotencyKey(db, caller, stored, hash);
    if (claim.outcome === 'mismatch') {
      throw new ProblemError(
        'idempotency-key-mismatch',
        'This Idempotency-Key was used for a different request (method, path or body) in the last 24 hours.',
      );
    }
    if (claim.outcome === 'in-flight') {
      throw new ProblemError(
        'idempotency-key-in-use',
        'A request with this Idempotency-Key is still being processed; retry later with the same key.',
        { headers: { 'Retry-After': '1' } },
      );
    }
    if (claim.outcome === 'replay') {
      const { status, headers, body: sealed } = claim.response;
      return new Response(status === 204 ? null : await openStoredBody(key, caller, hash, sealed), {
        status,
        headers: { ...headers, [REPLAYED_HEADER]: 'true' },
      });
    }

    try {
      await next();
    } catch (err) {
      await releaseIdempotencyKey(db, caller, stored);
      throw err;
    }
    const res = c.res;
    if (!storesResponse(res.status)) {
      await releaseIdempotencyKey(db, caller, stored);
      return;
    }
    const text = await res.clone().text();
    if (text.length > MAX_STORED_BODY) {
      await releaseIdempotencyKey(db, caller, stored);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await completeIdempotencyKey(db, caller, stored, {
      status: res.status,
      headers,
      body: await sealStoredBody(key, caller, hash, text),
    });
  };
}
