/**
 * The OAuth 2.0 authorization server of the Open Badges API (1EdTech OB 3.0 § "Open Badges API
 * Security"): dynamic client registration (RFC 7591), authorization code with PKCE (S256 only),
 * refresh tokens and revocation (RFC 7009). The protocol is `@cloudflare/workers-oauth-provider`'s
 * (state in the `OAUTH_KV` namespace, tokens and secrets stored only as hashes); this module
 * configures it for this deployment, and the application owns the authorization page
 * (src/routes/oauth/) and the protected routes (src/routes/ims/), which validate bearer tokens
 * here. docs/portability.md explains the whole flow.
 */
import type { OAuthAuthorizationServer, OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';

/** The Open Badges API's scopes (OB 3.0 § "Scopes"). */
export const OB_SCOPES = {
  credentialReadonly: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly',
  credentialUpsert: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert',
  profileReadonly: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly',
  profileUpdate: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.update',
} as const;

/** The CLR 2.0 API's scopes (CLR 2.0 § "Scopes"): the learner record, read only. */
export const CLR_SCOPES = {
  credentialReadonly: 'https://purl.imsglobal.org/spec/clr/v2p0/scope/credential.readonly',
} as const;

/** What each scope lets a client do, in the words the authorization page shows the holder. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [OB_SCOPES.credentialReadonly]: 'Read your certificates (your signed Open Badges credentials).',
  [OB_SCOPES.credentialUpsert]: 'Add or update Open Badges credentials in your account.',
  [OB_SCOPES.profileReadonly]: 'Read your profile: your name and the id your credentials name.',
  [OB_SCOPES.profileUpdate]: 'Update your profile.',
  [CLR_SCOPES.credentialReadonly]:
    'Read your learner record (one signed CLR 2.0 credential holding your active certificates).',
  offline_access: 'Keep this access while you are away (a refresh token), until you revoke it.',
};

/**
 * Every scope this server can grant. The two write scopes are the spec's, but this platform issues
 * its own credentials and keeps profiles behind the holder's own session: a client may ask for
 * them, the page shows them, and the routes that would need them are not offered (405).
 */
export const SCOPES_SUPPORTED = [...Object.values(OB_SCOPES), ...Object.values(CLR_SCOPES), 'offline_access'];

/** Where the authorization server's endpoints live, relative to `PUBLIC_BASE_URL`. */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  metadata: '/.well-known/oauth-authorization-server',
} as const;

/** Access tokens live an hour; a grant (its refresh token) 180 days from the last refresh. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_IDLE_TTL_SECONDS = 180 * 24 * 60 * 60;

const baseOf = (env: Pick<Env, 'PUBLIC_BASE_URL'>) => env.PUBLIC_BASE_URL.replace(/\/+$/, '');

/** The protected resource: every path under `/ims/` (OB 3.0 and CLR 2.0 APIs). Token audience. */
export const imsResource = (env: Pick<Env, 'PUBLIC_BASE_URL'>) => `${baseOf(env)}/ims`;

export const oauthUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, path: keyof typeof OAUTH_PATHS) =>
  `${baseOf(env)}${OAUTH_PATHS[path]}`;

/** The privacy notice a client's holder is shown (the current consent notice). */
export const privacyPolicyUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>) =>
  `${baseOf(env)}/api/consent/notices/${CURRENT_NOTICE_VERSION}`;

const servers = new Map<string, OAuthAuthorizationServer<Env>>();

/**
 * The OAuth library, loaded on first use: it imports `cloudflare:workers`, which the Node-side
 * tools that describe the API (`npm run openapi`) cannot load, and they never call it.
 */
export const oauthLibrary = () => import('@cloudflare/workers-oauth-provider');

/** The authorization server for this deployment's base URL (one per isolate and base URL). */
export async function authorizationServer(
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
): Promise<OAuthAuthorizationServer<Env>> {
  const base = baseOf(env);
  let server = servers.get(base);
  if (!server) {
    const { OAuthAuthorizationServer } = await oauthLibrary();
    server = new OAuthAuthorizationServer<Env>({
      issuer: base,
      resources: [imsResource(env)],
      authorizeEndpoint: oauthUrl(env, 'authorize'),
      tokenEndpoint: oauthUrl(env, 'token'),
      clientRegistrationEndpoint: oauthUrl(env, 'register'),
      scopesSupported: SCOPES_SUPPORTED,
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenIdleTTL: REFRESH_TOKEN_IDLE_TTL_SECONDS,
      // The holder must see who asks: a client without a name is refused (OB 3.0 requires it).
      clientRegistrationCallback: ({ clientMetadata }) => registrationPolicy(clientMetadata),
      // OAuth errors are the library's RFC 6749 JSON; nothing to log beyond what it says.
      onError: () => undefined,
    });
    servers.set(base, server);
  }
  return server;
}

/**
 * What this server asks of a registration beyond RFC 7591 (which the library checks, including
 * redirect URIs: https, or http on a loopback address per RFC 8252 § 7.3): a `client_name` of 1 to
 * 100 characters, since the authorization page names the client; scopes, when given, that this
 * server knows.
 */
export function registrationPolicy(metadata: Record<string, unknown>) {
  const name = metadata.client_name;
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)
    return { description: 'client_name is required (1 to 100 characters): the holder is shown it.' };
  const scope = metadata.scope;
  if (scope !== undefined) {
    if (typeof scope !== 'string') return { description: 'scope must be a space-separated string.' };
    const unknown = scope.split(' ').filter((s) => s && !SCOPES_SUPPORTED.includes(s));
    if (unknown.length > 0) return { description: `Unknown scope: ${unknown.join(' ')}.` };
  }
  return undefined;
}

/** Whether a request is for one of the endpoints the library serves (not the authorization page). */
export function isAuthorizationServerPath(pathname: string): boolean {
  return (
    pathname === OAUTH_PATHS.token || pathname === OAUTH_PATHS.register || pathname === OAUTH_PATHS.metadata
  );
}

export const oauthApi = async (env: Env): Promise<OAuthHelpers> =>
  (await authorizationServer(env)).getOAuthApi(env);

/** What a valid bearer token stands for. */
export type BearerGrant = { userId: string; clientId: string; scope: string[] };

/** The `Authorization: Bearer` token of a request, or null (absent or another scheme). */
export function bearerToken(header: string | undefined): string | null {
  // The library's tokens are `userId:grantId:secret`, so wider than RFC 6750's b64token.
  const match = /^Bearer[ ]+([\x21-\x7e]{1,2048})\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The grant behind an access token for the `/ims/` resource, or null (unknown, expired, revoked). */
export async function resolveBearer(env: Env, token: string): Promise<BearerGrant | null> {
  const validated = await (await authorizationServer(env)).validateToken(imsResource(env), token, env);
  if (!validated) return null;
  return { userId: validated.userId, clientId: validated.clientId, scope: validated.scope };
}
