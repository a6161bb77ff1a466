/**
 * The OAuth 2.0 token, registration and metadata endpoints of the Open Badges API, answered by the
 * OAuth library (src/services/portability/oauth.ts) ahead of the app. Imported by the Worker's
 * entry (src/index.ts) with `await import()` on the first such request only (decision 0324).
 */
import { getDb } from '../db/client';
import { ProblemError, problemBody, problemResponse } from '../lib/problem';
import { applySecurityHeaders } from '../middleware/security-headers';
import { strictOAuthBody } from '../middleware/strict-utf8';
import { countClientRegistration } from '../services/account-throttles';
import { auditGrantsEndedAtTokenEndpoint } from '../services/portability/grants';
import { authorizationServer, isAuthorizationServerPath, OAUTH_PATHS } from '../services/portability/oauth';

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

/**
 * A request under `/oauth/` or `/.well-known/oauth-`: the library's when it is one of the
 * authorization server's endpoints, else `app()` (the authorization page is the app's).
 */
export async function answerOAuth(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  path: string,
  app: () => Response | Promise<Response>,
): Promise<Response> {
  const pathname = path.split('?')[0] ?? path;
  if (!isAuthorizationServerPath(pathname)) return app();
  // Admitted by the registration limit, then bodies decoded strictly, as the app's are
  // (src/middleware/strict-utf8.ts).
  const checked = (await admitRegistration(request, env, pathname)) ?? (await strictOAuthBody(request));
  if (checked instanceof Response)
    return withSecurityHeaders(request, checked, !path.startsWith('/.well-known/'));
  const server = await authorizationServer(env);
  return withSecurityHeaders(request, await serve(), !path.startsWith('/.well-known/'));

  async function serve(): Promise<Response> {
    const answer = (r: Request) => server.fetch(r, env, ctx);
    // A grant the token endpoint ends (a client's RFC 7009 revocation, a reused code or
    // refresh token) is audited.
    if (pathname === OAUTH_PATHS.token)
      return auditGrantsEndedAtTokenEndpoint(getDb(env.DB), env, checked as Request, answer);
    // A registration's client_name is checked and its scope kept (loaded only here).
    if (pathname === OAUTH_PATHS.register && (checked as Request).method === 'POST') {
      const { registerClient } = await import('../services/portability/client-registration');
      return registerClient(getDb(env.DB), env, checked as Request, answer);
    }
    return answer(checked as Request);
  }
}
