import { onForgetIsolateState } from '../lib/isolate-state';
import { log } from '../lib/log';

/**
 * Checks of the deployment against what it serves. `PUBLIC_BASE_URL` is written into the OpenAPI
 * server, the JWKS URL, share links, QR codes, PDFs and the signed `iss` of every credential, so
 * a value that does not match the origin requests arrive at is worth knowing: it is compared
 * with the first request's origin once per isolate, logged once, and shown by `GET /api/health`.
 */

export type BaseUrlMismatch = { configured: string; observed: string };

/** undefined: not checked yet in this isolate; null: checked, and they match. */
let result: BaseUrlMismatch | null | undefined;
onForgetIsolateState(() => {
  result = undefined;
});

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The origin with every loopback host spelled `localhost` (they reach the same server). */
function normalOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (LOOPBACK.has(u.hostname)) u.hostname = 'localhost';
    return u.origin;
  } catch {
    return undefined;
  }
}

/**
 * Compares the configured base URL with a request's URL, the first time only; logs a mismatch.
 * @returns the mismatch, if any
 */
export function checkBaseUrl(configured: string, requestUrl: string): BaseUrlMismatch | null {
  if (result !== undefined) return result;
  const observed = new URL(requestUrl).origin;
  result = normalOrigin(configured) === normalOrigin(observed) ? null : { configured, observed };
  if (result) {
    log(
      'warn',
      'PUBLIC_BASE_URL does not match the origin requests arrive at; self-URLs (OpenAPI server, JWKS, share links, credential issuer) point elsewhere',
      { event: 'base-url-mismatch', ...result },
    );
  }
  return result;
}

/** The mismatch found in this isolate (null when none, or before the first request). */
export function baseUrlMismatch(): BaseUrlMismatch | null {
  return result ?? null;
}

/** For tests: forget the check, so the next request checks again. */
export function resetDeploymentChecks(): void {
  result = undefined;
}
