import type { AuthRequest } from '@cloudflare/workers-oauth-provider';
import type { Database } from '../../db/client';
import { sha256Hex } from '../../domain/secrets';
import { recordAudit } from '../audit';
import { oauthApi, REFRESH_TOKEN_IDLE_TTL_SECONDS } from './oauth';

/**
 * A grant is a processing purpose the holder agreed to on the authorization page: this client may
 * read what the scopes name, until the holder revokes it (or is erased). The grants themselves are
 * the OAuth library's records in `OAUTH_KV`; the audit log keeps who granted and revoked what.
 */
export type GrantView = {
  id: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  scope: string[];
  grantedAt: string;
  /**
   * When the client last renewed its access with the refresh token (the library moves the grant's
   * expiry to that time plus the idle TTL); null when it never has. Reads with an access token are
   * not recorded anywhere, so this is the nearest "last used" that is known.
   */
  lastRefreshedAt: string | null;
};

/** Stores the grant and its authorization code; returns where to send the browser. */
export async function completeGrant(
  db: Database,
  env: Env,
  userId: string,
  request: AuthRequest,
): Promise<string> {
  const api = await oauthApi(env);
  const client = await api.lookupClient(request.clientId);
  const { redirectTo } = await api.completeAuthorization({
    request,
    userId,
    scope: request.scope,
    metadata: { clientName: client?.clientName ?? request.clientId },
    props: { userId },
  });
  await recordAudit(db, {
    actorId: userId,
    action: 'oauth.grant.created',
    targetType: 'oauth_client',
    targetId: request.clientId,
    details: { clientName: client?.clientName ?? null, scope: request.scope },
  });
  return redirectTo;
}

/** Why the authorization server ended a grant while answering its token endpoint. */
type EndedAtTokenEndpoint = 'revoked-by-client' | 'code-reused' | 'refresh-refused' | 'refresh-token-reused';

/**
 * A refresh token that was exchanged once is spent: its hash is kept (`refresh-spent:<hash>` in
 * `OAUTH_KV`, as long as a grant can live) so that presenting it again is recognised as reuse.
 */
const SPENT_PREFIX = 'refresh-spent:';

type StoredGrant = {
  clientId: string;
  scope: string[];
  metadata?: { clientName?: string };
  refreshTokenId?: string;
  previousRefreshTokenId?: string;
};

/**
 * RFC 9700 § 4.14.2, refresh token rotation with reuse detection: a refresh token of a live grant
 * that was already exchanged (the grant's previous token, or any earlier one) is presented by two
 * parties, one of whom stole it. The library would accept the previous one again (its retry
 * allowance) and refuse an older one while the grant lives on for whoever refreshed first; here
 * the whole grant is revoked instead, at once, its access tokens with it, and audited
 * (docs/decisions/0310). The answer is `invalid_grant`.
 */
async function refreshReused(env: Env, form: URLSearchParams, grant: StoredGrant): Promise<boolean> {
  const token = form.get('refresh_token');
  if (!token) return false;
  const hash = await sha256Hex(token);
  if (hash === grant.refreshTokenId) return false;
  return hash === grant.previousRefreshTokenId || (await env.OAUTH_KV.get(`${SPENT_PREFIX}${hash}`)) !== null;
}

/**
 * The grant a token-endpoint form names: the library's tokens and codes are `userId:grantId:secret`
 * (its `token` for RFC 7009, `code`, or `refresh_token`), and why that grant would end there.
 */
function grantNamedIn(
  form: URLSearchParams,
): { userId: string; grantId: string; why: EndedAtTokenEndpoint } | null {
  const grantType = form.get('grant_type');
  const [value, why]: [string | null, EndedAtTokenEndpoint] =
    grantType === null
      ? [form.get('token'), 'revoked-by-client']
      : grantType === 'authorization_code'
        ? [form.get('code'), 'code-reused']
        : [form.get('refresh_token'), 'refresh-refused'];
  const parts = value?.split(':');
  if (parts?.length !== 3 || !parts[0] || !parts[1]) return null;
  return { userId: parts[0], grantId: parts[1], why };
}

/**
 * Answers a token-endpoint request with `answer` (the OAuth library) and audits a grant it ended: a
 * client revoking its refresh token (RFC 7009), or an authorization code used twice (the library
 * then revokes the grant it issued). The holder's own revocation is audited by `revokeGrantOf`;
 * this records the ones the holder did not make, as `oauth.grant.revoked` on the holder's record
 * with `endedBy: "client"` and the reason (docs/decisions/0261). Two KV reads per request that
 * names a grant; nothing for any other.
 */
export async function auditGrantsEndedAtTokenEndpoint(
  db: Database,
  env: Env,
  request: Request,
  answer: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (request.method !== 'POST') return answer(request);
  const form = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  const named = grantNamedIn(form);
  if (!named) return answer(request);
  const key = `grant:${named.userId}:${named.grantId}`;
  const before = await env.OAUTH_KV.get<StoredGrant>(key, 'json');
  const audit = (why: EndedAtTokenEndpoint, grant: StoredGrant) =>
    recordAudit(db, {
      actorId: named.userId,
      action: 'oauth.grant.revoked',
      targetType: 'oauth_client',
      targetId: grant.clientId,
      details: {
        clientName: grant.metadata?.clientName ?? null,
        scope: grant.scope,
        endedBy: why === 'refresh-token-reused' ? 'server' : 'client',
        reason: why,
      },
    });
  const refreshing = form.get('grant_type') === 'refresh_token';
  if (refreshing && before && (await refreshReused(env, form, before))) {
    await (await oauthApi(env)).revokeGrant(named.grantId, named.userId);
    await audit('refresh-token-reused', before);
    return Response.json(
      {
        error: 'invalid_grant',
        error_description:
          'This refresh token was already used: the grant is revoked (RFC 9700 § 4.14.2). Ask the holder to authorise again.',
      },
      { status: 400, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  const response = await answer(request);
  if (refreshing && before?.refreshTokenId && response.status === 200) {
    const spent = await sha256Hex(form.get('refresh_token') ?? '');
    if (spent === before.refreshTokenId)
      await env.OAUTH_KV.put(`${SPENT_PREFIX}${spent}`, named.grantId, {
        expirationTtl: REFRESH_TOKEN_IDLE_TTL_SECONDS,
      });
  }
  if (before && (await env.OAUTH_KV.get(key)) === null) await audit(named.why, before);
  return response;
}

/** Every live grant of the holder, newest first, with its client's name and URIs. */
export async function grantsOf(env: Env, userId: string): Promise<GrantView[]> {
  // Most people have no grant: one KV list (the library keeps grants under `grant:<userId>:`)
  // spares loading and configuring the OAuth library (the data export calls this for everyone).
  if ((await env.OAUTH_KV.list({ prefix: `grant:${userId}:`, limit: 1 })).keys.length === 0) return [];
  const api = await oauthApi(env);
  const out: GrantView[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listUserGrants(userId, cursor ? { cursor, limit: 100 } : { limit: 100 });
    for (const grant of page.items) {
      const client = await api.lookupClient(grant.clientId);
      out.push({
        id: grant.id,
        clientId: grant.clientId,
        clientName: client?.clientName ?? grant.metadata?.clientName ?? grant.clientId,
        clientUri: client?.clientUri ?? null,
        redirectUris: client?.redirectUris ?? [],
        scope: grant.scope,
        grantedAt: new Date(grant.createdAt * 1000).toISOString(),
        lastRefreshedAt:
          grant.expiresAt !== undefined && grant.expiresAt - REFRESH_TOKEN_IDLE_TTL_SECONDS >= grant.createdAt
            ? new Date((grant.expiresAt - REFRESH_TOKEN_IDLE_TTL_SECONDS) * 1000).toISOString()
            : null,
      });
    }
    cursor = page.cursor;
  } while (cursor);
  return out.sort((a, b) => b.grantedAt.localeCompare(a.grantedAt) || a.id.localeCompare(b.id));
}

/** Revokes one grant of the holder (its access and refresh tokens end at once); false: no such grant. */
export async function revokeGrantOf(
  db: Database,
  env: Env,
  userId: string,
  grantId: string,
): Promise<boolean> {
  const grants = await grantsOf(env, userId);
  const grant = grants.find((g) => g.id === grantId);
  if (!grant) return false;
  await (await oauthApi(env)).revokeGrant(grantId, userId);
  await recordAudit(db, {
    actorId: userId,
    action: 'oauth.grant.revoked',
    targetType: 'oauth_client',
    targetId: grant.clientId,
    details: { clientName: grant.clientName, scope: grant.scope },
  });
  return true;
}

/**
 * Ends every grant of a person (erasure): each grant and its tokens are deleted from `OAUTH_KV`.
 * Idempotent: a redelivery finds nothing left. Returns how many were ended.
 */
export async function endAllGrants(env: Env, userId: string): Promise<number> {
  const api = await oauthApi(env);
  let ended = 0;
  for (;;) {
    const page = await api.listUserGrants(userId, { limit: 100 });
    if (page.items.length === 0) return ended;
    for (const grant of page.items) {
      await api.revokeGrant(grant.id, userId);
      ended += 1;
    }
  }
}
