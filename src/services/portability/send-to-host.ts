/**
 * "Send to my host": the holder hands one of their certificates to their own Open Badges host
 * (backpack, wallet, ePortfolio), the OB 3.0 API's client side (docs/portability.md → "Send to my
 * host", decisions 0170–0173). Two requests:
 *
 * 1. `startSend` (`POST /api/me/certificates/{no}/send-to-host`, signed in): reads the host's
 *    Service Description Document, registers this service with it (RFC 7591, cached per host),
 *    and keeps the state, the PKCE verifier and a browser binding server-side (`OAUTH_KV`, 10
 *    minutes, single use). The holder's browser goes to the host's authorization URL.
 * 2. `finishSend` (`GET /api/send-to-host/callback`, where the host sends the browser back):
 *    takes the pending send (deleting it: a state works once), exchanges the code (PKCE S256) and
 *    upserts the compact JWS at the host (`POST /ims/ob/v3p0/credentials`, `text/plain`).
 *
 * Every OAuth step is `oauth4webapi`'s; every request goes through the outbound rules
 * (src/services/outbound-fetch.ts: https, public addresses after DNS, timeouts, size caps, no
 * cross-host redirect). Each refusal is its own problem type; nothing is stored here but the
 * pending send, the cached registration and, once the host accepted it, the audit record.
 */
import { and, eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { certificates, organisations } from '../../db/schema';
import { isChild } from '../../domain/age';
import { sha256Hex } from '../../domain/secrets';
import { checkTargetUrl } from '../../domain/webhooks/targets';
import { clock } from '../../lib/clock';
import type { SessionUser } from '../../lib/principals';
import { ProblemError, type ProblemType } from '../../lib/problem';
import { recordAudit } from '../audit';
import { publicStatus } from '../certificates';
import { needsGuardianConsent } from '../guardians';
import { AddressRefused, guardedFetch, OutboundRefused } from '../outbound-fetch';
import { allowHttpLocalhost } from '../webhooks/endpoints';
import { activeHolder } from './holder-credentials';
import { OB_SCOPES, privacyPolicyUrl } from './oauth';

/** How long a started send waits for the holder to come back from the host. */
export const SEND_TTL_SECONDS = 10 * 60;
/** How long a registration at a host is reused before registering again. */
export const HOST_CLIENT_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The cookie that binds a started send to the browser that started it. */
export const SEND_BINDING_COOKIE = 'send_to_host';
export const CALLBACK_PATH = '/api/send-to-host/callback';
const PENDING_PREFIX = 'ob-send:';
const CLIENT_PREFIX = 'ob-host-client:';
const USER_AGENT = 'verification-platform-ob-client';
/** Fetches one step may make (a redirect counts): generous, the host's answers are capped anyway. */
const STEP_BUDGET = 4;

type HostEnv = Pick<
  Env,
  'PUBLIC_BASE_URL' | 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'OAUTH_KV'
>;

/** What the host's Service Description Document says, resolved to absolute URLs. */
export type HostApi = {
  discoveryUrl: string;
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  registrationUrl: string;
  credentialsUrl: string;
};

/**
 * This service's registration at one host. `issuer` is the origin of the discovery document it was
 * registered through: the secret belongs to that origin and is only ever sent to its token URL.
 */
type HostClient = {
  clientId: string;
  clientSecret: string | null;
  authMethod: string;
  redirectUri: string;
  issuer: string;
};

type PendingSend = {
  userId: string;
  certificateId: string;
  certificateNo: string;
  host: HostApi;
  client: HostClient;
  verifier: string;
  binding: string;
  expiresAt: string;
};

const baseOf = (env: Pick<Env, 'PUBLIC_BASE_URL'>) => env.PUBLIC_BASE_URL.replace(/\/+$/, '');
export const callbackUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>) => `${baseOf(env)}${CALLBACK_PATH}`;

/** A sentence from a host, safe to quote: one line, bounded. */
const quoted = (text: unknown) =>
  typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 300) : '';

/** The outbound transport oauth4webapi uses: every request under the outbound rules. */
function transport(env: HostEnv, step: ProblemType) {
  return {
    [oauth.customFetch]: async (url: string, init: oauth.CustomFetchOptions<string, unknown>) => {
      try {
        const doc = await guardedFetch(env, url, {
          budget: { remaining: STEP_BUDGET },
          accept: init.headers.accept ?? 'application/json',
          method: init.method,
          headers: init.headers,
          ...(init.body === undefined || init.body === null
            ? {}
            : { body: init.body as string | URLSearchParams | Uint8Array }),
          userAgent: USER_AGENT,
        });
        return new Response(doc.status === 204 || doc.status === 304 ? null : doc.body, {
          status: doc.status,
          headers: doc.headers,
        });
      } catch (error) {
        throw outboundProblem(error, step);
      }
    },
    // Plain http is let through to the rules, which allow it to loopback only where the local
    // setting says so; everywhere else they refuse it.
    [oauth.allowInsecureRequests]: allowHttpLocalhost(env),
  };
}

function outboundProblem(error: unknown, step: ProblemType): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof AddressRefused) return new ProblemError('host-address-refused', error.message);
  if (error instanceof OutboundRefused) return new ProblemError(step, `The host: ${error.message}`);
  return new ProblemError(step);
}

const SddSchema = z.object({
  servers: z.array(z.object({ url: z.string().min(1).max(2048) })).min(1),
  components: z.object({
    securitySchemes: z.record(
      z.string(),
      z.looseObject({
        type: z.string(),
        'x-imssf-registrationUrl': z.string().min(1).max(2048).optional(),
        flows: z
          .looseObject({
            authorizationCode: z
              .object({
                authorizationUrl: z.string().min(1).max(2048),
                tokenUrl: z.string().min(1).max(2048),
                scopes: z.record(z.string(), z.unknown()),
              })
              .optional(),
          })
          .optional(),
      }),
    ),
  }),
});

/** The discovery URL for what the holder typed: a base URL, or the discovery URL itself. */
export function discoveryUrlOf(hostUrl: string): string {
  const invalid = (detail: string) =>
    new ProblemError('validation-failed', `hostUrl ${detail}`, {
      errors: [{ pointer: '#/hostUrl', detail }],
    });
  let url: URL;
  try {
    url = new URL(hostUrl.trim());
  } catch {
    throw invalid('is not a URL.');
  }
  // Any other scheme (javascript:, mailto:, data:, urn:, file:, gopher:) names no host to discover:
  // refused here by the address rule, as an http:// host is later, before any resolution against
  // an opaque URL can throw.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const detail = `must be an https URL of the host (not ${url.protocol}).`;
    throw new ProblemError('host-address-refused', `hostUrl ${detail}`, {
      errors: [{ pointer: '#/hostUrl', detail }],
    });
  }
  if (!url.hostname) throw invalid('names no host.');
  url.hash = '';
  url.search = '';
  if (url.pathname.endsWith('/ims/ob/v3p0/discovery')) return url.href;
  const base = url.pathname.endsWith('/') ? url.href : `${url.href}/`;
  return new URL('ims/ob/v3p0/discovery', base).href;
}

/**
 * An absolute URL the browser (or this service) will be sent to, under the same scheme rules, on
 * the discovery document's own origin: a document cannot name another host's registration, token,
 * authorization or API URL (one host's client secret would otherwise be sent to another).
 */
function hostEndpoint(env: HostEnv, raw: string, relativeTo: string, what: string): string {
  let url: URL;
  try {
    url = new URL(raw, relativeTo);
  } catch {
    throw new ProblemError('host-discovery-failed', `The host's ${what} is not a URL.`);
  }
  const check = checkTargetUrl(url.href, { allowHttpLocalhost: allowHttpLocalhost(env) });
  if (!check.ok)
    throw new ProblemError(
      'host-address-refused',
      `The host's ${what}: ${check.reason.replace('Webhook URLs', 'URLs')}`,
    );
  const origin = new URL(relativeTo).origin;
  if (url.origin !== origin)
    throw new ProblemError(
      'host-discovery-failed',
      `The host's ${what} (${url.origin}) is not on the origin of its discovery document (${origin}): every endpoint of one host must be on that host, so nothing was registered or sent.`,
    );
  return url.href;
}

/** Reads and checks the host's Service Description Document (OB 3.0 § "Service Discovery"). */
export async function readHostDiscovery(env: HostEnv, hostUrl: string): Promise<HostApi> {
  const discoveryUrl = discoveryUrlOf(hostUrl);
  const discoveryOrigin = new URL(discoveryUrl).origin;
  let doc: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    doc = await guardedFetch(env, discoveryUrl, {
      budget: { remaining: STEP_BUDGET },
      accept: 'application/json',
      userAgent: USER_AGENT,
    });
  } catch (error) {
    throw outboundProblem(error, 'host-discovery-failed');
  }
  if (doc.status !== 200)
    throw new ProblemError(
      'host-discovery-failed',
      `The host answered GET ${new URL(doc.url).pathname} with ${doc.status}: it offers no Open Badges API there.`,
    );
  // Redirects are followed on the same origin only; checked again, the binding below rests on it.
  if (new URL(doc.url).origin !== discoveryOrigin)
    throw new ProblemError('host-discovery-failed', 'The host’s discovery answer came from another origin.');
  let parsed: z.infer<typeof SddSchema>;
  try {
    parsed = SddSchema.parse(JSON.parse(doc.body));
  } catch {
    throw new ProblemError(
      'host-discovery-failed',
      'The host’s discovery answer is not a Service Description Document (servers, an OAuth 2.0 security scheme).',
    );
  }
  const scheme = Object.values(parsed.components.securitySchemes).find(
    (s) => s.type === 'oauth2' && s.flows?.authorizationCode && s['x-imssf-registrationUrl'],
  );
  const flow = scheme?.flows?.authorizationCode;
  if (!scheme || !flow)
    throw new ProblemError(
      'host-discovery-failed',
      'The host’s Service Description Document names no OAuth 2.0 authorization code flow with a registration URL.',
    );
  if (!(OB_SCOPES.credentialUpsert in flow.scopes))
    throw new ProblemError(
      'host-discovery-failed',
      `The host does not offer the scope ${OB_SCOPES.credentialUpsert}: it cannot receive credentials.`,
    );
  const apiBase = hostEndpoint(env, parsed.servers[0]!.url, doc.url, 'API server URL');
  const credentialsUrl = new URL('credentials', apiBase.endsWith('/') ? apiBase : `${apiBase}/`).href;
  return {
    discoveryUrl,
    issuer: discoveryOrigin,
    authorizationUrl: hostEndpoint(env, flow.authorizationUrl, doc.url, 'authorization URL'),
    tokenUrl: hostEndpoint(env, flow.tokenUrl, doc.url, 'token URL'),
    registrationUrl: hostEndpoint(env, scheme['x-imssf-registrationUrl']!, doc.url, 'registration URL'),
    credentialsUrl,
  };
}

const asOf = (host: HostApi): oauth.AuthorizationServer => ({
  issuer: host.issuer,
  authorization_endpoint: host.authorizationUrl,
  token_endpoint: host.tokenUrl,
  registration_endpoint: host.registrationUrl,
  code_challenge_methods_supported: ['S256'],
});

const clientOf = (client: HostClient): oauth.Client => ({
  client_id: client.clientId,
  token_endpoint_auth_method: client.authMethod,
});

function clientAuth(client: HostClient): oauth.ClientAuth {
  if (client.authMethod === 'none' || !client.clientSecret) return oauth.None();
  if (client.authMethod === 'client_secret_post') return oauth.ClientSecretPost(client.clientSecret);
  return oauth.ClientSecretBasic(client.clientSecret);
}

/**
 * Where a registration is cached: per discovery origin AND registration URL (and our callback), so
 * a document on one origin can never be handed a registration made through another's.
 */
const clientKey = async (env: HostEnv, host: HostApi) =>
  `${CLIENT_PREFIX}${await sha256Hex(`${host.issuer} ${host.registrationUrl} ${callbackUrl(env)}`)}`;

/** Whether a registration may be used with this host: made through its origin, all on that origin. */
export function clientBelongsTo(client: HostClient, host: HostApi): boolean {
  const origin = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return null;
    }
  };
  return (
    client.issuer === host.issuer &&
    origin(host.tokenUrl) === host.issuer &&
    origin(host.registrationUrl) === host.issuer &&
    origin(host.credentialsUrl) === host.issuer &&
    origin(host.authorizationUrl) === host.issuer
  );
}

/** This service's registration at the host: reused while it lasts, else made (RFC 7591). */
export async function hostClient(env: HostEnv, host: HostApi): Promise<HostClient> {
  const key = await clientKey(env, host);
  const known = await env.OAUTH_KV.get<HostClient>(key, 'json');
  if (known && clientBelongsTo(known, host)) return known;
  const base = baseOf(env);
  let registered: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>;
  try {
    registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        asOf(host),
        {
          client_name: 'Verification Platform',
          client_uri: base,
          policy_uri: privacyPolicyUrl(env),
          tos_uri: privacyPolicyUrl(env),
          software_id: 'verification-platform',
          software_version: '1',
          redirect_uris: [callbackUrl(env)],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
          scope: OB_SCOPES.credentialUpsert,
        },
        transport(env, 'host-registration-refused'),
      ),
    );
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    const detail =
      error instanceof oauth.ResponseBodyError
        ? `The host refused the registration (${error.status} ${error.error}${error.error_description ? `: ${quoted(error.error_description)}` : ''}).`
        : `The host’s registration answer is not RFC 7591: ${quoted(error instanceof Error ? error.message : '')}`;
    throw new ProblemError('host-registration-refused', detail);
  }
  const secret = typeof registered.client_secret === 'string' ? registered.client_secret : null;
  const method =
    typeof registered.token_endpoint_auth_method === 'string'
      ? registered.token_endpoint_auth_method
      : secret
        ? 'client_secret_basic'
        : 'none';
  const client: HostClient = {
    clientId: registered.client_id,
    clientSecret: secret,
    authMethod: method,
    redirectUri: callbackUrl(env),
    issuer: host.issuer,
  };
  const expiresAt = Number(registered.client_secret_expires_at ?? 0);
  const ttl =
    expiresAt > 0
      ? Math.min(HOST_CLIENT_TTL_SECONDS, expiresAt - Math.floor(Date.now() / 1000) - 60)
      : HOST_CLIENT_TTL_SECONDS;
  if (ttl >= 60) await env.OAUTH_KV.put(key, JSON.stringify(client), { expirationTtl: ttl });
  return client;
}

/** The holder's certificate that may be sent (active, signed, issuer not suspended), or a problem. */
async function sendableCertificate(db: Database, userId: string, certificateNo: string) {
  const [row] = await db
    .select({
      id: certificates.id,
      certificateNo: certificates.certificateNo,
      status: certificates.status,
      jwt: certificates.credentialJwt,
      validUntil: certificates.validUntil,
      organisationVerification: organisations.verification,
    })
    .from(certificates)
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(and(eq(certificates.certificateNo, certificateNo), eq(certificates.holderId, userId)))
    .limit(1);
  if (!row) throw new ProblemError('not-found', 'You hold no certificate with this number.');
  const status = publicStatus(row.status, row.organisationVerification ?? null, row.validUntil, clock.now());
  if (status === 'revoked')
    throw new ProblemError(
      'certificate-revoked',
      'This certificate was revoked: it cannot be sent to a host.',
    );
  if (status === 'suspended')
    throw new ProblemError(
      'conflict',
      'The issuer of this certificate is suspended: the certificate cannot be sent while it is.',
    );
  if (status === 'pending_issuer' || !row.jwt)
    throw new ProblemError(
      'conflict',
      'This certificate is not signed yet: it can be sent once it is issued.',
    );
  return { id: row.id, certificateNo: row.certificateNo, jwt: row.jwt };
}

/** A child cannot hand their credentials to an application: the rule of the authorization page. */
async function assertMaySend(db: Database, user: Pick<SessionUser, 'id' | 'dateOfBirth'>) {
  const now = clock.now();
  if (isChild(user.dateOfBirth, now) || (await needsGuardianConsent(db, user, now)))
    throw new ProblemError(
      'forbidden',
      'This account belongs to a child: its credentials cannot be handed to applications (as on the authorization page).',
    );
}

export type StartedSend = { authorizationUrl: string; expiresAt: string; binding: string };

export async function startSend(
  db: Database,
  env: HostEnv,
  user: Pick<SessionUser, 'id' | 'dateOfBirth'>,
  certificateNo: string,
  hostUrl: string,
): Promise<StartedSend> {
  await assertMaySend(db, user);
  const certificate = await sendableCertificate(db, user.id, certificateNo);
  const host = await readHostDiscovery(env, hostUrl);
  const client = await hostClient(env, host);
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  const binding = oauth.generateRandomState();
  const expiresAt = new Date(clock.now().getTime() + SEND_TTL_SECONDS * 1000).toISOString();
  const pending: PendingSend = {
    userId: user.id,
    certificateId: certificate.id,
    certificateNo: certificate.certificateNo,
    host,
    client,
    verifier,
    binding: await sha256Hex(binding),
    expiresAt,
  };
  await env.OAUTH_KV.put(`${PENDING_PREFIX}${await sha256Hex(state)}`, JSON.stringify(pending), {
    expirationTtl: SEND_TTL_SECONDS,
  });
  const url = new URL(host.authorizationUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', client.redirectUri);
  url.searchParams.set('scope', OB_SCOPES.credentialUpsert);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.href, expiresAt, binding };
}

/** Takes the pending send of `state` (once: it is deleted whatever follows), or a problem. */
async function takePending(env: HostEnv, state: string | undefined, binding: string | undefined) {
  const invalid = (detail: string) => new ProblemError('send-state-invalid', detail);
  if (!state || state.length > 512) throw invalid('The host sent no usable state back.');
  const key = `${PENDING_PREFIX}${await sha256Hex(state)}`;
  const pending = await env.OAUTH_KV.get<PendingSend>(key, 'json');
  if (!pending) throw invalid('This send is unknown, expired or already finished: start it again.');
  await env.OAUTH_KV.delete(key);
  if (Date.parse(pending.expiresAt) <= clock.now().getTime())
    throw invalid('This send expired (10 minutes): start it again.');
  if (!binding || (await sha256Hex(binding)) !== pending.binding)
    throw invalid(
      'This send was started in another browser: finish it where it was started, or start again.',
    );
  return pending;
}

export type FinishedSend = {
  certificateNo: string;
  host: string;
  result: 'created' | 'replaced';
  sentAt: string;
};

export async function finishSend(
  db: Database,
  env: HostEnv,
  callback: URL,
  binding: string | undefined,
): Promise<FinishedSend> {
  const pending = await takePending(env, callback.searchParams.get('state') ?? undefined, binding);
  const error = callback.searchParams.get('error');
  if (error === 'access_denied')
    throw new ProblemError(
      'host-access-denied',
      'The authorization was declined at the host: nothing was sent.',
    );
  const holder = await activeHolder(db, pending.userId);
  if (!holder)
    throw new ProblemError('send-state-invalid', 'The account that started this send no longer acts.');
  const certificate = await sendableCertificate(db, pending.userId, pending.certificateNo);
  // The secret goes only to the token URL of the host that issued it (checked again here: the
  // pending send was written by this service, but the rule must not rest on one code path).
  if (!clientBelongsTo(pending.client, pending.host))
    throw new ProblemError(
      'host-token-failed',
      'The host’s token URL is not on the origin this service registered with: nothing was sent.',
    );
  const as = asOf(pending.host);
  const client = clientOf(pending.client);
  let tokens: oauth.TokenEndpointResponse;
  try {
    const params = oauth.validateAuthResponse(as, client, callback.searchParams, oauth.skipStateCheck);
    tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth(pending.client),
        params,
        pending.client.redirectUri,
        pending.verifier,
        transport(env, 'host-token-failed'),
      ),
    );
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    if (error instanceof oauth.AuthorizationResponseError)
      throw new ProblemError(
        'host-token-failed',
        `The host answered the authorization with ${quoted(error.error)}${error.error_description ? `: ${quoted(error.error_description)}` : ''}.`,
      );
    if (error instanceof oauth.ResponseBodyError) {
      if (error.error === 'invalid_client') await forgetHostClient(env, pending.host);
      throw new ProblemError(
        'host-token-failed',
        `The host refused the code exchange (${error.status} ${quoted(error.error)}${error.error_description ? `: ${quoted(error.error_description)}` : ''}).`,
      );
    }
    throw new ProblemError(
      'host-token-failed',
      `The host’s token answer is not OAuth 2.0: ${quoted(error instanceof Error ? error.message : '')}`,
    );
  }
  if (typeof tokens.scope === 'string' && !tokens.scope.split(' ').includes(OB_SCOPES.credentialUpsert))
    throw new ProblemError(
      'host-token-failed',
      `The host did not grant ${OB_SCOPES.credentialUpsert}: the credential cannot be sent.`,
    );
  let res: Response;
  try {
    res = await oauth.protectedResourceRequest(
      tokens.access_token,
      'POST',
      new URL(pending.host.credentialsUrl),
      new Headers({ 'content-type': 'text/plain', accept: 'application/json, text/plain' }),
      certificate.jwt,
      transport(env, 'host-upsert-refused'),
    );
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    if (error instanceof oauth.WWWAuthenticateChallengeError)
      throw new ProblemError(
        'host-upsert-refused',
        `The host refused the access token it issued (${error.status}${error.cause[0]?.parameters.error ? ` ${quoted(error.cause[0].parameters.error)}` : ''}).`,
      );
    throw new ProblemError('host-upsert-refused');
  }
  if (res.status !== 200 && res.status !== 201) {
    const body = await res.text().catch(() => '');
    let said = '';
    try {
      said = quoted((JSON.parse(body) as { imsx_description?: unknown }).imsx_description);
    } catch {
      said = '';
    }
    throw new ProblemError(
      'host-upsert-refused',
      `The host answered POST /ims/ob/v3p0/credentials with ${res.status}${said ? `: ${said}` : ''}.`,
    );
  }
  const result = res.status === 201 ? 'created' : 'replaced';
  const sentAt = clock.now().toISOString();
  await recordAudit(db, {
    actorId: pending.userId,
    action: 'certificate.sent_to_host',
    targetType: 'certificate',
    targetId: certificate.id,
    details: {
      certificateNo: certificate.certificateNo,
      host: pending.host.issuer,
      clientId: pending.client.clientId,
      result,
    },
  });
  return { certificateNo: certificate.certificateNo, host: pending.host.issuer, result, sentAt };
}

async function forgetHostClient(env: HostEnv, host: HostApi) {
  await env.OAUTH_KV.delete(await clientKey(env, host));
}
