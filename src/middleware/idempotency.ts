import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../domain/secrets';
import { ProblemError } from '../lib/problem';
import type { AppBindings } from '../lib/types';
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
 * `Idempotency-Key` for the POSTs that create or trigger work (opt in with
 * `defineRoute({ idempotent: true })`, which puts this after the route's auth middleware). Without
 * the header the request runs as usual. With it, per caller (API key or user) and key, for 24 hours:
 * the first request runs and its response is stored; a retry gets that response again with
 * `Idempotent-Replayed: true`; the same key with another method, path or body is a 422
 * (`idempotency-key-mismatch`); a retry while the first still runs is a 409
 * (`idempotency-key-in-use`). A 5xx or 429 is not stored: the key is released, so a retry runs.
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
    const claim = await claimIdempotencyKey(db, caller, key, hash);
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
      const { status, headers, body: stored } = claim.response;
      return new Response(status === 204 ? null : stored, {
        status,
        headers: { ...headers, [REPLAYED_HEADER]: 'true' },
      });
    }

    try {
      await next();
    } catch (err) {
      await releaseIdempotencyKey(db, caller, key);
      throw err;
    }
    const res = c.res;
    if (!storesResponse(res.status)) {
      await releaseIdempotencyKey(db, caller, key);
      return;
    }
    const text = await res.clone().text();
    if (text.length > MAX_STORED_BODY) {
      await releaseIdempotencyKey(db, caller, key);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await completeIdempotencyKey(db, caller, key, { status: res.status, headers, body: text });
  };
}
