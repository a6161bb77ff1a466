/**
 * The verification page (`GET /verify/{no}`) of a cold isolate, before the app is imported
 * (issue 54, decision 0324): a certificate link is the commonest first request of an isolate in a
 * new location, and the app (every route's schemas, the router built on first match) costs many
 * times a hello-world Worker's cold start. Imported with `await import()` by the entry
 * (src/index.ts) for such a request only: it brings the page's template and styles, not the app.
 *
 * It answers as `verify` in src/routes/pages/pages.handlers.ts does (the same payload, ETag, CSP,
 * template and headers; the app's envelope through `envelopedResponse`), only for a canonical
 * number whose payload memory or KV holds. Anything else is null: the app's (404, 400, a payload
 * built from D1). `test/memory-reads.test.ts` compares both answers byte for byte, so a change to
 * the page's handler that is not made here fails there.
 */
import { parseCertificateNumber } from '../../domain/certificates/certificate-number';
import { envelopedResponse } from '../../http/finished-response';
import { noneMatch } from '../../lib/etag';
import { corsCase } from '../../middleware/public-cors';
import type { VerificationPayload } from '../../services/certificates';
import { verificationFromKv, verificationFromMemory } from '../../services/verification-reads';
import { verifyCsp } from './pages.assets';
import { verifyPage } from './pages.templates';

export const VERIFY_PAGE_PREFIX = '/verify/';
const JWKS_PATH = '/.well-known/jwks.json';
const HTML = 'text/html; charset=utf-8';

/** The page's CSP digest for its ETag, once per isolate and policy (as the handler's `cspTag`). */
const cspTags = new Map<string, Promise<string>>();
function cspTag(csp: string): Promise<string> {
  let tag = cspTags.get(csp);
  if (!tag) {
    tag = crypto.subtle.digest('SHA-256', new TextEncoder().encode(csp)).then((d) =>
      [...new Uint8Array(d)]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')
        .slice(0, 10),
    );
    cspTags.set(csp, tag);
  }
  return tag;
}

/** `GET /verify/{no}` from memory or KV, or null (then the app's). `path` as the entry took it. */
export async function answerPageFromKv(request: Request, env: Env, path: string): Promise<Response | null> {
  if (request.method !== 'GET' || !path.startsWith(VERIFY_PAGE_PREFIX)) return null;
  const certificateNo = path.slice(VERIFY_PAGE_PREFIX.length);
  const parsed = parseCertificateNumber(certificateNo);
  if (!parsed.ok || parsed.normalised !== certificateNo) return null;
  const found = verificationFromMemory(certificateNo) ?? (await verificationFromKv(env, certificateNo));
  if (!found) return null;
  const csp = await verifyCsp();
  const headers: Record<string, string> = {
    ETag: found.etag.replace(/"$/, `-${await cspTag(csp)}-html"`),
    'Cache-Control': 'public, max-age=60',
    'Content-Security-Policy': csp,
  };
  const envelope = {
    requestId: crypto.randomUUID(),
    clientRequestId: request.headers.get('X-Request-Id') ?? undefined,
    publicRead: corsCase(request.method, path) === 'read',
    personal: false,
  };
  if (noneMatch(request.headers.get('If-None-Match'), headers.ETag as string))
    return envelopedResponse(null, 304, headers, envelope);
  const payload = JSON.parse(found.json) as VerificationPayload;
  const shareUrl = `${env.PUBLIC_BASE_URL.replace(/\/$/, '')}/verify/${payload.certificateNo}`;
  headers['Content-Type'] = HTML;
  return envelopedResponse(verifyPage(payload, shareUrl, JWKS_PATH), 200, headers, envelope);
}
