/**
 * What this authorization server asks of a client beyond RFC 7591 and the OAuth library, at
 * dynamic registration and on the authorization page (docs/decisions/0311):
 *
 * - `client_name` is headlined on the consent page, so it follows the rules of every name shown
 *   publicly here (no control, bidirectional or invisible characters, no newline, no word mixing
 *   scripts the way a spoof does) and may not read as this platform's name or as a verified
 *   organisation's (the issuer-name confusable skeleton): `invalid_client_metadata`.
 * - A registered `scope` is kept with the client (the library does not keep it) and enforced on
 *   the authorization page: a scope this server does not support, or one outside the client's
 *   registered `scope`, is `invalid_scope`.
 * - `client_uri` is shown only when it is on the redirect host's domain.
 */
import type { ClientInfo } from '@cloudflare/workers-oauth-provider';
import type { Database } from '../../db/client';
import { hiddenCharacterReason, mixedScriptReason } from '../../domain/alias';
import { issuerScriptReason, organisationNameKey } from '../../domain/issuer-names';
import { ProblemError } from '../../lib/problem';
import { assertNameFree } from '../organisations/organisation';
import { PLATFORM_NAME } from '../status-lists';
import { SCOPES_SUPPORTED } from './oauth';

/** Why a `client_name` may not be shown on the consent page, or null when it may. */
export async function clientNameRefusal(db: Database, name: unknown): Promise<string | null> {
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)
    return 'client_name is required (1 to 100 characters): the holder is shown it.';
  const shown =
    hiddenCharacterReason(name) ??
    (/[\r\n\u2028\u2029]/.test(name) ? 'client_name may not contain line breaks.' : null) ??
    mixedScriptReason(name) ??
    issuerScriptReason(name);
  if (shown) return `client_name: ${shown}`;
  const key = organisationNameKey(name);
  const platform = organisationNameKey(PLATFORM_NAME);
  if (key.length === 0) return 'client_name must contain letters or digits.';
  if (key.includes(platform))
    return `client_name may not read as this platform’s own name (${PLATFORM_NAME}).`;
  try {
    await assertNameFree(db, name);
  } catch (error) {
    if (error instanceof ProblemError)
      return 'client_name reads as the name of an organisation verified on this platform; register under your own name.';
    throw error;
  }
  return null;
}

/** The scopes a client registered (`scope` at registration), or null when it registered none. */
export function registeredScope(client: ClientInfo | null): string[] | null {
  const scope = (client as (ClientInfo & { scope?: unknown }) | null)?.scope;
  return Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : null;
}

/** Why the scopes of an authorization request are refused (`invalid_scope`), or null. */
export function scopeRefusal(requested: string[], registered: string[] | null): string | null {
  const unknown = requested.filter((s) => !SCOPES_SUPPORTED.includes(s));
  if (unknown.length > 0)
    return `This server does not know the scope ${unknown.map((s) => `“${s.slice(0, 200)}”`).join(', ')}.`;
  if (registered) {
    const outside = requested.filter((s) => !registered.includes(s));
    if (outside.length > 0)
      return `The application did not register the scope ${outside.join(', ')}: it may ask only for what it registered.`;
  }
  return null;
}

/**
 * Whether `clientUri` is on the redirect host's domain: the same host, or one a subdomain of the
 * other, with at least two labels in common ("app.example.org" and "example.org", never
 * "evil.example" and "example"). Anything else is a claim the holder cannot check, so not shown.
 */
export function onRedirectDomain(clientUri: string, redirectUri: string): boolean {
  let client: string;
  let redirect: string;
  try {
    const c = new URL(clientUri);
    if (c.protocol !== 'https:' && c.protocol !== 'http:') return false;
    client = c.hostname.toLowerCase().replace(/\.$/, '');
    redirect = new URL(redirectUri).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (client === redirect) return true;
  const [longer, shorter] = client.length > redirect.length ? [client, redirect] : [redirect, client];
  return shorter.split('.').length >= 2 && longer.endsWith(`.${shorter}`);
}

const invalidMetadata = (description: string) =>
  Response.json(
    { error: 'invalid_client_metadata', error_description: description },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  );

/**
 * Dynamic registration (`POST /oauth/register`) around the library's `answer`: the name is
 * checked first (refused: 400 `invalid_client_metadata`, nothing stored); once registered, the
 * client's `scope` is written into its record, where `registeredScope` reads it.
 */
export async function registerClient(
  db: Database,
  env: Pick<Env, 'OAUTH_KV'>,
  request: Request,
  answer: (request: Request) => Promise<Response>,
): Promise<Response> {
  let metadata: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(await request.clone().text());
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      metadata = parsed as Record<string, unknown>;
  } catch {
    metadata = null;
  }
  // Not JSON or not an object: the library's refusal, in its words.
  if (!metadata) return answer(request);
  const refused = await clientNameRefusal(db, metadata.client_name);
  if (refused) return invalidMetadata(refused);
  const response = await answer(request);
  if (response.status !== 201 || typeof metadata.scope !== 'string') return response;
  const scope = metadata.scope.split(' ').filter(Boolean);
  const body = await response.clone().json<{ client_id?: unknown }>();
  if (typeof body.client_id === 'string') await keepScope(env, body.client_id, scope);
  return response;
}

/** Writes `scope` into the library's client record, under the record's own expiry. */
async function keepScope(env: Pick<Env, 'OAUTH_KV'>, clientId: string, scope: string[]) {
  const key = `client:${clientId}`;
  const record = await env.OAUTH_KV.get<Record<string, unknown>>(key, 'json');
  if (!record) return;
  const expiresAt = typeof record.registrationExpiresAt === 'number' ? record.registrationExpiresAt : null;
  const ttl = expiresAt === null ? null : expiresAt - Math.floor(Date.now() / 1000);
  await env.OAUTH_KV.put(
    key,
    JSON.stringify({ ...record, scope }),
    ttl !== null && ttl >= 60 ? { expirationTtl: ttl } : {},
  );
}
