import { app } from './app';
import { getDb } from './db/client';
import { answerFromMemory, pathOf } from './http/memory-reads';
import { useLogLevel } from './lib/log';
import { ProblemError, problemBody, problemResponse } from './lib/problem';
import { applySecurityHeaders } from './middleware/security-headers';
import { strictOAuthBody } from './middleware/strict-utf8';
import { consumeDeadLetters, consumeJobBatch, DEAD_LETTER_QUEUE } from './queue/consumer';
import { runScheduled } from './scheduled';
import { countClientRegistration } from './services/account-throttles';
import { auditGrantsEndedAtTokenEndpoint } from './services/portability/grants';
import { asImsx } from './services/portability/imsx';
import { authorizationServer, isAuthorizationServerPath, OAUTH_PATHS } from './services/portability/oauth';

export { KvCoalescer } from './durable/kv-coalescer';
export { RateLimiter } from './durable/rate-limiter';

/** The app's fetch, taken once at load (as `fetch: app.fetch` did). */
const serveApp = app.fetch;

/**
 * The library's answers carry the same security headers as the app's (nosniff, HSTS, a CSP that
 * forbids framing, no referrer): a token or a registration is personal, never stored by a cache.
 */
function withSecurityHeaders(request: Request, response: Response, personal: boolean): Response {
  const copy = new Response(response.body, response);
  applySecurityHeaders(copy.headers, {
    requestId: crypto.randomUUID(),
    clientRequestId: request.headers.get('X-Request-Id') ?? undefined,
    personal,
  });
  return copy;
}

/**
 * Dynamic client registration is unauthenticated and stores a client: limited per client network
 * (`CLIENT_REGISTRATIONS_PER_NETWORK`), a 429 problem with `Retry-After` past it. Null: admitted.
 */
async function admitRegistration(request: Request, env: Env, pathname: string): Promise<Response | null> {
  if (pathname !== OAUTH_PATHS.register || request.method !== 'POST') return null;
  try {
    await countClientRegistration(env, request.headers.get('CF-Connecting-IP') ?? undefined);
    return null;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return problemResponse(problemBody(error.type, error.message, { instance: pathname }), error.headers);
  }
}

export default {
  // The OAuth 2.0 token, registration and metadata endpoints of the Open Badges API are the OAuth
  // library's (src/services/portability/oauth.ts); everything else, the authorization page included,
  // is the app's. Errors under /ims/ are the Open Badges API's `Imsx_StatusInfo`, not problem+json.
  // Not async, and no URL parsed: this runs on every request, the hot public reads included.
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    useLogLevel(env.LOG_LEVEL);
    const path = pathOf(request.url);
    if (path.startsWith('/oauth/') || path.startsWith('/.well-known/oauth-')) {
      const pathname = path.split('?')[0] ?? path;
      if (isAuthorizationServerPath(pathname))
        // Admitted by the registration limit, then bodies decoded strictly, as the app's are
        // (src/middleware/strict-utf8.ts).
        return admitRegistration(request, env, pathname)
          .then(async (refused) => refused ?? (await strictOAuthBody(request)))
          .then(async (checked) => {
            if (checked instanceof Response) return checked;
            const server = await authorizationServer(env);
            // A grant the token endpoint ends (a client's RFC 7009 revocation, a reused code) is audited.
            return pathname === OAUTH_PATHS.token
              ? auditGrantsEndedAtTokenEndpoint(getDb(env.DB), env, checked, (r) => server.fetch(r, env, ctx))
              : server.fetch(checked, env, ctx);
          })
          .then((response) => withSecurityHeaders(request, response, !path.startsWith('/.well-known/')));
    }
    if (!path.startsWith('/ims/'))
      return answerFromMemory(request, env, ctx, path) ?? serveApp(request, env, ctx);
    return Promise.resolve(serveApp(request, env, ctx)).then((response) =>
      response.status >= 400 ? asImsx(response) : response,
    );
  },
  async queue(batch, env) {
    useLogLevel(env.LOG_LEVEL);
    if (batch.queue === DEAD_LETTER_QUEUE) await consumeDeadLetters(batch, env);
    else await consumeJobBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    useLogLevel(env.LOG_LEVEL);
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
