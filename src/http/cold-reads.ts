/**
 * A verification answered from KV before the app is imported (issue 54, decision 0324): the first
 * request of a cold isolate is usually a certificate link, and importing the app for it (every
 * route's schemas and metadata, built at load) costs several times a hello-world Worker's whole
 * cold start. `GET /api/verify/{no}` for a number in its canonical form whose payload KV holds is
 * answered here as the app answers it: the same steps (`verificationFromKv`: the change feed, then
 * KV's entry unless it predates a known change, kept in memory as the app keeps it) and the same
 * response builder and envelope as the memory reads (`replayJson`). Anything else, a KV miss
 * included, is null: the caller takes the full path through the app, which stays the one source
 * of every other answer (a 404, a 400 for a typo, a payload built from D1).
 */
import { parseCertificateNumber } from '../domain/certificates/certificate-number';
import { corsCase } from '../middleware/public-cors';
import { SESSION_COOKIE } from '../middleware/session-cookie';
import type { CachedPayload } from '../services/cache-keys';
import {
  VERIFICATION_CACHE_CONTROL,
  verificationFromKv,
  verificationFromMemory,
} from '../services/verification-reads';
import type { Envelope } from './finished-response';
import { pathOf, replayJson, VERIFY_PREFIX } from './replay';

export { pathOf };

/**
 * The answer to `request` from memory or KV, or null when this path does not handle it (or a
 * promise resolving to null: KV has nothing it may serve). `path` is the request's path and query,
 * as `src/index.ts` took it. Before the app is loaded, memory can hold nothing else of what
 * src/http/memory-reads.ts answers (only the app fills it).
 */
export function answerFromKv(
  request: Request,
  env: Env,
  _ctx: Pick<ExecutionContext, 'waitUntil'>,
  path: string,
): Response | Promise<Response | null> | null {
  if (request.method !== 'GET' || !path.startsWith(VERIFY_PREFIX)) return null;
  const inMemory = verificationFromMemory(path.slice(VERIFY_PREFIX.length));
  if (inMemory) return replayJson(request, inMemory, VERIFICATION_CACHE_CONTROL);
  const certificateNo = path.slice(VERIFY_PREFIX.length);
  // Only the canonical form (what links and QR codes carry): anything else, a query string
  // included, is the route's to judge (normalise, or refuse with a 400).
  const parsed = parseCertificateNumber(certificateNo);
  if (!parsed.ok || parsed.normalised !== certificateNo) return null;
  return verificationFromKv(env, certificateNo).then((found) =>
    found ? replayJson(request, found, VERIFICATION_CACHE_CONTROL) : null,
  );
}

const VERIFY_PAGE_PREFIX = '/verify/';
/** The only query strings a cold page answers (besides none): a language the page's route accepts. */
const LANGUAGE_QUERIES = new Set(['lang=en', 'lang=hi']);
/** A `Cookie` header that carries the session cookie (src/middleware/session-cookie.ts). */
const SESSION_IN_COOKIES = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/** Whether `request` carries the session cookie: its visitor may be signed in. */
export const hasSessionCookie = (request: Request): boolean =>
  SESSION_IN_COOKIES.test(request.headers.get('Cookie') ?? '');

/**
 * The certificate number of a `GET /verify/{no}` a cold isolate may answer itself (decision 0325):
 * a number in its canonical form, with no query string or exactly `lang=en` / `lang=hi`, from a
 * visitor without a session cookie; null for anything else (the app's to judge: a typo's 400,
 * another query, another method, a signed-in visitor's page).
 */
export function coldPageNumber(request: Request, path: string): string | null {
  if (request.method !== 'GET' || !path.startsWith(VERIFY_PAGE_PREFIX)) return null;
  // A signed-in visitor's page is theirs (header, holder's controls, private caching): the app's.
  if (hasSessionCookie(request)) return null;
  const q = path.indexOf('?');
  if (q !== -1 && !LANGUAGE_QUERIES.has(path.slice(q + 1))) return null;
  const certificateNo = path.slice(VERIFY_PAGE_PREFIX.length, q === -1 ? undefined : q);
  const parsed = parseCertificateNumber(certificateNo);
  return parsed.ok && parsed.normalised === certificateNo ? certificateNo : null;
}

/**
 * The payload of `certificateNo` that memory or KV may serve without the app (the same rules as
 * `answerFromKv`), or undefined: then the app. Started by the entry while the page's builder is
 * being imported, so the KV round trip and the module's loading overlap.
 */
export function coldPayload(
  env: Pick<Env, 'CACHE'>,
  certificateNo: string,
): CachedPayload | Promise<CachedPayload | undefined> {
  return verificationFromMemory(certificateNo) ?? verificationFromKv(env, certificateNo);
}

/**
 * The envelope the app's middleware gives a public page answered to a visitor without a session
 * (src/middleware/envelope.ts: a request id, the client's own id, CORS for a public read, the
 * security headers), for the certificate pages a cold isolate answers itself.
 */
export function publicPageEnvelope(request: Request, path: string): Envelope {
  const q = path.indexOf('?');
  return {
    requestId: crypto.randomUUID(),
    clientRequestId: request.headers.get('X-Request-Id') ?? undefined,
    publicRead: corsCase(request.method, q === -1 ? path : path.slice(0, q)) === 'read',
    personal: false,
  };
}
