/**
 * The certificate page (`GET /verify/{certificateNo}`) built from a verification payload, shared
 * by the app's page handler (`verify` in ./pages.handlers.ts) and the Worker's entry, which
 * answers a cold isolate's first page from memory or KV before the app is imported (issue 54,
 * decisions 0324 and 0325): a certificate link is the commonest first request of an isolate in a
 * new location, and importing the app for it (every route's schemas and metadata) costs several
 * times a hello-world Worker's whole cold start.
 *
 * Kept light on purpose: it imports the page's template, layout and catalogues, never a route
 * file, zod or the certificates service (types aside). The entry imports it with `await import()`
 * on such a request only, and only when KV keeps no page drawn before from the same payload
 * (./pages.drawn.ts, decision 0339), to which it hands what it draws. `test/cold-page.test.ts`
 * compares the entry's answer with the app's byte for byte, header for header, for each state a
 * payload can hold and in both languages.
 */

import { encodeQr, qrSvgPath } from '../../domain/pages/qr';
import { coldPageNumber, publicPageEnvelope } from '../../http/cold-reads';
import { envelopedResponse } from '../../http/finished-response';
import { noneMatch } from '../../lib/etag';
import type { ShareQr } from '../../services/cache-keys';
import type { VerificationPayload } from '../../services/certificates';
import { digilockerConfig } from '../../services/digilocker/config';
import { chooseLanguage, loadCatalogue } from './i18n';
import { pageHeaders } from './layout';
import { PAGE_VERSION } from './page-version';
import { certificatePage } from './verify.templates';
import { type Viewer, viewerCaching } from './viewer-caching';

export { PAGE_VERSION };

/** A visitor without a session (every request the cold path answers). */
const SIGNED_OUT_VIEWER: Viewer = { signedIn: false, userId: null };

/** The page's answer before the envelope (request id, security headers) is put on it. */
export type VerificationPage =
  | { status: 200; headers: Record<string, string>; body: string }
  | { status: 304; headers: Record<string, string>; body: null };

/** What the page reads of the Worker's settings. */
type PageEnv = Pick<Env, 'PUBLIC_BASE_URL'> &
  Partial<Pick<Env, 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'>>;

/**
 * The certificate page of `found` (a verification payload as memory, KV or D1 gave it) for
 * `request`: its language (`?lang=`, else `Accept-Language`), ETag, caching and CSP, and a 304
 * when the client holds this very page. `jwksPath` is where the page's own signature check finds
 * the keys; `viewer` and `isHolder` who is looking (pages.viewer.ts: the cold path answers only
 * visitors without a session, the app everyone).
 */
export function verificationPage(
  request: Request,
  env: PageEnv,
  found: { json: string; etag: string },
  jwksPath: string,
  viewer: Viewer = SIGNED_OUT_VIEWER,
  isHolder = false,
): VerificationPage {
  const lang = chooseLanguage(request);
  // Server-wide (the same for every viewer), so the page stays cacheable; it is in the ETag.
  const digilockerDocType = digilockerConfig(env)?.docType ?? null;
  const etag = found.etag.replace(
    /"$/,
    `-${lang}-${PAGE_VERSION}${digilockerDocType ? '-dl' : ''}${isHolder ? '-holder' : ''}-html"`,
  );
  const headers: Record<string, string> = {
    ...pageHeaders(lang),
    ...viewerCaching(viewer, 'public, max-age=60', etag),
  };
  if (noneMatch(request.headers.get('If-None-Match') ?? undefined, headers.ETag ?? '')) {
    delete headers['Content-Type'];
    return { status: 304, headers, body: null };
  }
  const payload = JSON.parse(found.json) as VerificationPayload;
  return {
    status: 200,
    headers,
    body: certificatePage({
      v: payload,
      lang,
      base: baseUrl(env),
      jwksPath,
      digilockerDocType,
      viewer: { signedIn: viewer.signedIn, isHolder },
    }),
  };
}

/** The deployment's public origin, as the page's links and share link carry it. */
const baseUrl = (env: PageEnv): string => env.PUBLIC_BASE_URL.replace(/\/$/, '');

/**
 * Encodes and draws the QR code of `certificateNo`'s share link (the page's `${base}/verify/{no}`)
 * ahead of the page, for src/domain/pages/qr.ts to keep, from what KV's metadata carries when it
 * was written for this origin: the code itself (decision 0328: no encoding at all), else its mask
 * (decision 0327: the mask search is most of the encoding's ≈ 10 ms on a cold isolate's
 * unoptimised code). The same symbol, so the page is the same bytes either way.
 */
function warmShareQr(env: PageEnv, certificateNo: string, qr: ShareQr | undefined): void {
  const base = baseUrl(env);
  const known =
    qr?.base !== base
      ? undefined
      : qr.modules !== undefined && qr.size !== undefined
        ? { size: qr.size, mask: qr.mask, modules: qr.modules }
        : qr.mask;
  const code = encodeQr(`${base}/verify/${certificateNo}`, known);
  if (code) qrSvgPath(code);
}

/** As `JWKS_PATH` of the certificates' routes (not imported: a route file brings zod). */
const JWKS_PATH = '/.well-known/jwks.json';

/**
 * The page of a payload `coldPayload` gave, with the envelope the app's middleware gives a public
 * page. The page's language is loaded first when it is not yet (Hindi, on a cold isolate: its
 * catalogue is imported only for a visitor who asks for it, decision 0328).
 */
export function coldPageResponse(
  request: Request,
  env: Env,
  path: string,
  found: { json: string; etag: string; qr?: ShareQr },
  drawn?: (page: { headers: Record<string, string>; body: string }) => void,
): Response | Promise<Response> {
  const loading = loadCatalogue(chooseLanguage(request));
  return loading
    ? loading.then(() => coldPageAnswer(request, env, path, found, drawn))
    : coldPageAnswer(request, env, path, found, drawn);
}

/** The page drawn (`drawn` is given it when it is a 200, to keep), in the envelope of a public page. */
function coldPageAnswer(
  request: Request,
  env: Env,
  path: string,
  found: { json: string; etag: string; qr?: ShareQr },
  drawn?: (page: { headers: Record<string, string>; body: string }) => void,
): Response {
  const certificateNo = coldPageNumber(request, path);
  if (certificateNo !== null) warmShareQr(env, certificateNo, found.qr);
  const page = verificationPage(request, env, found, JWKS_PATH);
  if (page.status === 200 && drawn) drawn({ headers: page.headers, body: page.body });
  return envelopedResponse(page.body, page.status, page.headers, publicPageEnvelope(request, path));
}
