import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { isChild } from '../../domain/age';
import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import { ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { assertSameSiteRequest } from '../../middleware/csrf';
import { SESSION_COOKIE } from '../../middleware/session-cookie';
import { needsGuardianConsent } from '../../services/guardians';
import {
  onRedirectDomain,
  registeredScope,
  scopeRefusal,
} from '../../services/portability/client-registration';
import { completeGrant } from '../../services/portability/grants';
import { oauthApi, oauthLibrary } from '../../services/portability/oauth';
import { resolveSession } from '../../services/sessions';
import type * as routes from './oauth.routes';
import { authorizeCsp, consentPage, errorPage, signInPage } from './oauth.templates';

const HTML = 'text/html; charset=utf-8';

async function pageResponse(body: string, status: number, redirectOrigin?: string, extra?: Headers) {
  const headers = new Headers(extra);
  headers.set('Content-Type', HTML);
  headers.set('Cache-Control', 'no-store');
  headers.set('Content-Security-Policy', await authorizeCsp(redirectOrigin));
  return new Response(body, { status, headers });
}

const redirect = (location: string, extra?: Headers) => {
  const headers = new Headers(extra);
  headers.set('Location', location);
  headers.set('Cache-Control', 'no-store');
  return new Response(null, { status: 302, headers });
};

async function sessionUser(c: Context<AppBindings>) {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? ((await resolveSession(c.var.db, token))?.user ?? null) : null;
}

/**
 * A refusal before the holder has seen the consent page: shown on this page, never sent to the
 * client's redirect URI. Until the request is known good and the person has seen who asks, a
 * redirect would make this server an open redirector for anyone who registers a client.
 */
async function pageRefusal(error: unknown) {
  const { AuthorizationError, CimdFetchError } = await oauthLibrary();
  if (error instanceof AuthorizationError)
    return pageResponse(errorPage(`${error.description} (${error.code})`), 400);
  if (error instanceof CimdFetchError)
    return pageResponse(errorPage('This application could not be verified.'), 400);
  throw error;
}

/** After the holder decided on the page: back to the client when the library says it is safe. */
async function refusal(error: unknown) {
  const { AuthorizationError } = await oauthLibrary();
  if (error instanceof AuthorizationError && error.redirectTo) return redirect(error.redirectTo);
  return pageRefusal(error);
}

export const page: AppRouteHandler<typeof routes.authorizePage> = async (c) => {
  const api = await oauthApi(c.env);
  let request: Awaited<ReturnType<typeof api.parseAuthRequest>>;
  try {
    request = await api.parseAuthRequest(c.req.raw);
  } catch (error) {
    return (await pageRefusal(error)) as never;
  }
  // OB 3.0 § "Authorization Request": PKCE is required of every client, confidential ones too
  // (the library asks it of public clients only); `plain` was refused by the parse.
  if (!request.codeChallenge)
    return (await pageResponse(
      errorPage('PKCE is required: the application must send code_challenge with S256 (invalid_request).'),
      400,
    )) as never;
  const client = await api.lookupClient(request.clientId);
  const badScope = scopeRefusal(request.scope, registeredScope(client));
  if (badScope) return (await pageResponse(errorPage(`${badScope} (invalid_scope)`), 400)) as never;
  const user = await sessionUser(c);
  if (!user)
    return (await pageResponse(
      signInPage((await api.lookupClient(request.clientId))?.clientName),
      200,
    )) as never;
  // A child cannot agree to a client's processing: the guardian would have to (not offered yet).
  const now = clock.now();
  if (isChild(user.dateOfBirth, now) || (await needsGuardianConsent(c.var.db, user, now)))
    return (await pageResponse(
      errorPage(
        'This account belongs to a child: access to it cannot be granted to applications (access_denied).',
      ),
      403,
    )) as never;
  const details = await api.describeConsent(request);
  const consent = await api.beginConsent(request);
  const clientUri = client?.clientUri ?? details.clientUri;
  return (await pageResponse(
    consentPage(
      details,
      client,
      consent.handle,
      user.email,
      clientUri && onRedirectDomain(clientUri, request.redirectUri) ? clientUri : undefined,
    ),
    200,
    new URL(request.redirectUri).origin,
    consent.headers,
  )) as never;
};

export const decide: AppRouteHandler<typeof routes.authorizeDecision> = async (c) => {
  const user = await sessionUser(c);
  if (!user)
    return (await pageResponse(
      errorPage('Sign in first, then start again from the application.'),
      401,
    )) as never;
  try {
    assertSameSiteRequest(c);
  } catch (error) {
    if (error instanceof ProblemError)
      return (await pageResponse(
        errorPage('This form can only be sent from this site’s own page.'),
        403,
      )) as never;
    throw error;
  }
  const { handle, decision } = c.req.valid('form');
  const api = await oauthApi(c.env);
  const { AuthorizationError, authorizationErrorRedirect } = await oauthLibrary();
  try {
    if (decision === 'deny') {
      const denied = await api.denyConsent(c.req.raw, handle);
      return new Response(null, { status: 302, headers: denied.headers }) as never;
    }
    const approved = await api.approveConsent(c.req.raw, handle, { scope: undefined });
    const now = clock.now();
    if (isChild(user.dateOfBirth, now))
      return redirect(
        authorizationErrorRedirect(approved.request, 'access_denied'),
        approved.headers,
      ) as never;
    const location = await completeGrant(c.var.db, c.env, user.id, approved.request);
    return redirect(location, approved.headers) as never;
  } catch (error) {
    if (error instanceof AuthorizationError && !error.redirectTo)
      return (await pageResponse(
        errorPage(`${error.description} Start again from the application.`),
        400,
      )) as never;
    return (await refusal(error)) as never;
  }
};
