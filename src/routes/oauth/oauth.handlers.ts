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
import { chooseLanguage, isLang, type Lang } from '../pages/i18n';
import type * as routes from './oauth.routes';
import { authorizeCsp, consentPage, errorPage, type OAuthErrorView, signInPage } from './oauth.templates';

const HTML = 'text/html; charset=utf-8';

async function pageResponse(
  body: string,
  status: number,
  lang: Lang,
  redirectOrigin?: string,
  extra?: Headers,
) {
  const headers = new Headers(extra);
  headers.set('Content-Type', HTML);
  headers.set('Cache-Control', 'no-store');
  headers.set('Content-Language', lang);
  headers.set('Vary', 'Accept-Language, Cookie');
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
async function pageRefusal(error: unknown, lang: Lang, signedIn: boolean, path?: string) {
  const { AuthorizationError, CimdFetchError } = await oauthLibrary();
  if (error instanceof AuthorizationError)
    return refusalPage(
      { kind: kindOf(error.code, error.description), code: error.code, detail: error.description },
      400,
      lang,
      signedIn,
      path,
    );
  if (error instanceof CimdFetchError)
    return refusalPage({ kind: 'unverifiedClient' }, 400, lang, signedIn, path);
  throw error;
}

/** The request's path and query without `lang` (the pages' language switch adds it). */
function pathWithoutLang(url: string): string {
  const here = new URL(url);
  here.searchParams.delete('lang');
  return `${here.pathname}${here.search}`;
}

/** After the holder decided on the page: back to the client when the library says it is safe. */
async function refusal(error: unknown, lang: Lang) {
  const { AuthorizationError } = await oauthLibrary();
  if (error instanceof AuthorizationError && error.redirectTo) return redirect(error.redirectTo);
  return pageRefusal(error, lang, true);
}

/** The page's message for an OAuth error code (the code itself is shown as the technical detail). */
function kindOf(code: string, description = ''): OAuthErrorView['kind'] {
  if (/PKCE|code_challenge/i.test(description)) return 'pkce';
  if (code === 'invalid_client' || code === 'unauthorized_client') return 'client';
  if (code === 'invalid_scope') return 'scope';
  if (code === 'invalid_request' || code === 'unsupported_response_type') return 'request';
  return 'generic';
}

function refusalPage(error: OAuthErrorView, status: number, lang: Lang, signedIn: boolean, path?: string) {
  return pageResponse(errorPage(error, lang, signedIn, path), status, lang);
}

export const page: AppRouteHandler<typeof routes.authorizePage> = async (c) => {
  const lang = chooseLanguage(c.req.raw);
  const here = pathWithoutLang(c.req.url);
  const api = await oauthApi(c.env);
  const user = await sessionUser(c);
  let request: Awaited<ReturnType<typeof api.parseAuthRequest>>;
  try {
    request = await api.parseAuthRequest(c.req.raw);
  } catch (error) {
    return (await pageRefusal(error, lang, user !== null, here)) as never;
  }
  // OB 3.0 § "Authorization Request": PKCE is required of every client, confidential ones too
  // (the library asks it of public clients only); `plain` was refused by the parse.
  if (!request.codeChallenge)
    return (await refusalPage(
      {
        kind: 'pkce',
        code: 'invalid_request',
        detail: 'PKCE is required: the application must send code_challenge with S256.',
      },
      400,
      lang,
      user !== null,
      here,
    )) as never;
  const client = await api.lookupClient(request.clientId);
  const badScope = scopeRefusal(request.scope, registeredScope(client));
  if (badScope)
    return (await refusalPage(
      { kind: 'scope', code: 'invalid_scope', detail: badScope },
      400,
      lang,
      user !== null,
      here,
    )) as never;
  if (!user) return (await pageResponse(signInPage(client?.clientName, lang, here), 200, lang)) as never;
  // A child cannot agree to a client's processing: the guardian would have to (not offered yet).
  const now = clock.now();
  if (isChild(user.dateOfBirth, now) || (await needsGuardianConsent(c.var.db, user, now)))
    return (await refusalPage({ kind: 'child', code: 'access_denied' }, 403, lang, true, here)) as never;
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
      lang,
      here,
    ),
    200,
    lang,
    new URL(request.redirectUri).origin,
    consent.headers,
  )) as never;
};

export const decide: AppRouteHandler<typeof routes.authorizeDecision> = async (c) => {
  const { handle, decision, lang: sent } = c.req.valid('form');
  // The page's language, which its form sends back (a refusal is shown in it).
  const lang = isLang(sent) ? sent : chooseLanguage(c.req.raw);
  const user = await sessionUser(c);
  if (!user) return (await refusalPage({ kind: 'signInFirst' }, 401, lang, false)) as never;
  try {
    assertSameSiteRequest(c);
  } catch (error) {
    if (error instanceof ProblemError)
      return (await refusalPage({ kind: 'notThisSite' }, 403, lang, true)) as never;
    throw error;
  }
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
      return (await refusalPage(
        { kind: 'expired', code: error.code, detail: error.description },
        400,
        lang,
        true,
      )) as never;
    return (await refusal(error, lang)) as never;
  }
};
