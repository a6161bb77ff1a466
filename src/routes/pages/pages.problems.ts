import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PROBLEM_CONTENT_TYPE, type ProblemBody, ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { chooseLanguage } from './i18n';
import { pageCsp } from './layout';
import { embedCsp } from './pages.assets';
import { embedErrorPage } from './pages.templates';
import { pageViewer } from './pages.viewer';
import { verifierPage, verifyErrorPage } from './verify.templates';

/**
 * A browser navigating (or loading an iframe) lists `text/html`; API clients do not, or refuse it
 * with `q=0` (RFC 9110 §12.5.1: "not acceptable").
 */
export function wantsHtml(accept: string | undefined): boolean {
  const match = /(?:^|,)\s*text\/html\s*(;[^,]*)?(?:,|$)/i.exec(accept ?? '');
  return match !== null && !/;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)/i.test(match[1] ?? '');
}

/** The largest badge or credential the /verify form takes (the API's body cap). */
export const VERIFIER_MAX_BYTES = 1024 * 1024;

/** The form's body cap, by `Content-Length` and while streaming (a 413 page). Headroom for the multipart framing. */
export const verifierBodyLimit: MiddlewareHandler = bodyLimit({
  maxSize: VERIFIER_MAX_BYTES + 16 * 1024,
  onError: () => {
    throw new ProblemError(
      'payload-too-large',
      `The badge or credential is over the ${VERIFIER_MAX_BYTES} byte limit.`,
    );
  },
});

/**
 * Errors of the HTML routes. Every error is built as problem+json by the app's one error
 * handler, as everywhere in the API; this middleware, placed first on the route, renders it as
 * a page instead when the request accepts `text/html`, keeping the status and headers
 * (`Retry-After`, `RateLimit`…). Other clients get the problem+json unchanged. Either way the
 * response varies on `Accept`.
 */
export function htmlProblems(
  kind: 'embed' | 'verify' | 'lookup' | 'verifier',
): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !res.headers.get('content-type')?.startsWith(PROBLEM_CONTENT_TYPE)) return;
    const headers = new Headers(res.headers);
    headers.append('Vary', 'Accept');
    let body: BodyInit | null = res.body;
    if (wantsHtml(c.req.header('Accept'))) {
      const problem = (await res.json()) as ProblemBody;
      if (kind === 'embed') {
        body = embedErrorPage(problem, c.req.query('theme') === 'dark' ? 'dark' : 'light');
        headers.set('Content-Security-Policy', await embedCsp());
        headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
      } else {
        const lang = chooseLanguage(c.req.raw);
        const { signedIn } = await pageViewer(c);
        body =
          kind === 'verify'
            ? verifyErrorPage(problem, (c.req.param('certificateNo') ?? '').slice(0, 100), lang, signedIn)
            : kind === 'lookup'
              ? verifyErrorPage(problem, (c.req.query('no') ?? '').trim().slice(0, 100), lang, signedIn)
              : verifierPage(lang, { problem, signedIn });
        headers.set('Content-Security-Policy', pageCsp());
        headers.set('Content-Language', lang);
        // A signed-in person's page (its header) is theirs alone.
        if (signedIn) headers.set('Cache-Control', 'private, no-cache');
        headers.append('Vary', 'Accept-Language, Cookie');
      }
      headers.set('Content-Type', 'text/html; charset=utf-8');
    }
    // Replace rather than merge: Hono's setter would copy the old headers over the new ones.
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  };
}
