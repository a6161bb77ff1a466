/**
 * The public documents a credential points to: its revocation status list (W3C Bitstring Status
 * List v1.0), its issuer's Open Badges `Profile` and its achievement. Status lists are built from
 * D1, signed, and cached in KV under a generation that every certificate change replaces
 * (`forgetVerifications` → {@link forgetStatusLists}), so a list never shows a revocation late
 * by more than KV's own propagation.
 */

import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { briefs, credentialStatuses, organisations } from '../db/schema';
import {
  buildAchievement,
  JWT_CLAIMS_CONTEXT,
  OB_CONTEXT_V3,
  signJwt,
  VC_CONTEXT_V2,
} from '../domain/certificates/credential';
import { platformTerms } from '../domain/certificates/jsonld-terms';
import {
  bitstring,
  encodeStatusList,
  STATUS_LIST_SIZE,
  type StatusPurpose,
  statusListCredential,
} from '../domain/certificates/status-list';
import { issuerUrl, PLATFORM_ISSUER, statusListUrl, websiteIri } from '../domain/certificates/urls';
import { publishedWebsite } from '../domain/organisations';
import { IsolateCache } from '../lib/isolate-cache';
import {
  forgetStatusListMemory,
  statusListGenerationMemory as generationMemory,
  STATUS_LIST_GENERATION_KEY,
} from './cache-keys';
import { briefCredentialFacts } from './credentials';
import { requireSigningKey } from './signing-key';

/** How long verifiers and caches may keep a status list (seconds). */
export const STATUS_LIST_MAX_AGE = 300;
/** Safety net in KV: every change replaces the generation at once. */
const STATUS_LIST_TTL_SECONDS = 60 * 60;
const listKey = (generation: string, purpose: StatusPurpose, list: number) =>
  `status-list:v2:${generation}:${purpose}:${list}`;

/** The name the platform issues under when no organisation does (credentials from before them). */
export const PLATFORM_NAME = 'Verification Platform';

/**
 * The isolate's memory of the status lists (issue 43: a hit answered with no I/O). The current
 * generation is re-read from KV at most every `STATUS_LIST_GENERATION_MEMORY_MS` (cache-keys.ts);
 * a list is kept under its generation's key, which no change ever rewrites (a change makes a new
 * generation), for the lists' own `max-age`.
 */
const listMemory = new IsolateCache<{ jwt: string; etag: string }>(STATUS_LIST_MAX_AGE * 1000, 64);

/** Makes every cached status list stale: the next request rebuilds it from D1. */
export async function forgetStatusLists(cache: KVNamespace): Promise<void> {
  forgetStatusListMemory();
  await cache.put(STATUS_LIST_GENERATION_KEY, crypto.randomUUID());
  forgetStatusListMemory();
}

/**
 * The bits set in a revocation list: indexes bound to a certificate that is revoked, erased
 * (deleted: `certificate_id` is null) or whose holder's erasure is pending (account disabled).
 * Reserved indexes (no credential was ever handed out with them) stay 0.
 */
async function revokedBits(db: Database, list: number): Promise<number[]> {
  const first = list * STATUS_LIST_SIZE;
  const rows = await db.all<{ status_index: number }>(
    sql`SELECT cs.status_index FROM credential_statuses cs
        LEFT JOIN certificates c ON c.id = cs.certificate_id
        LEFT JOIN users u ON u.id = c.holder_id
        WHERE cs.status_index >= ${first} AND cs.status_index < ${first + STATUS_LIST_SIZE}
          AND cs.state = 'bound'
          AND (c.id IS NULL OR c.status = 'revoked' OR u.disabled_at IS NOT NULL)`,
  );
  return rows.map((r) => r.status_index - first);
}

/** Whether list `list` exists: list 0 always, later ones once an index in them was reserved. */
async function listExists(db: Database, list: number): Promise<boolean> {
  if (list === 0) return true;
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(credentialStatuses)
    .where(sql`${credentialStatuses.statusIndex} >= ${list * STATUS_LIST_SIZE}`);
  return (row?.n ?? 0) > 0;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The signed status list credential (a VC-JWT) and its ETag, from KV or built from D1; null for
 * a list that does not exist. The list's issuer is the platform: one list serves every issuing
 * organisation, which is what makes it herd-private.
 */
export async function statusList(
  db: Database,
  env: Pick<Env, 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  purpose: StatusPurpose,
  list: number,
  now = new Date(),
): Promise<{ jwt: string; etag: string } | null> {
  const generation =
    generationMemory.peek(STATUS_LIST_GENERATION_KEY) ??
    (await generationMemory.get(
      STATUS_LIST_GENERATION_KEY,
      async () => (await env.CACHE.get(STATUS_LIST_GENERATION_KEY)) ?? '0',
    )) ??
    '0';
  const key = listKey(generation, purpose, list);
  const remembered = listMemory.peek(key);
  if (remembered) return remembered;
  return listMemory.get(key, () => loadStatusList(db, env, key, purpose, list, now));
}

/** The list from KV, else built from D1, signed and stored; null for a list that does not exist. */
async function loadStatusList(
  db: Database,
  env: Pick<Env, 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  key: string,
  purpose: StatusPurpose,
  list: number,
  now: Date,
): Promise<{ jwt: string; etag: string } | null> {
  const hit = await env.CACHE.getWithMetadata<{ etag: string }>(key);
  if (hit.value !== null && hit.metadata) return { jwt: hit.value, etag: hit.metadata.etag };
  if (!(await listExists(db, list))) return null;

  const signer = await requireSigningKey(env);
  const url = statusListUrl(env.PUBLIC_BASE_URL, purpose, list);
  const issuerId = issuerUrl(env.PUBLIC_BASE_URL, null);
  const encodedList = encodeStatusList(bitstring(await revokedBits(db, list)));
  const validFrom = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const credential = statusListCredential({
    url,
    issuerId,
    purpose,
    encodedList,
    validFrom: validFrom.toISOString().replace('.000Z', 'Z'),
    maxAgeSeconds: STATUS_LIST_MAX_AGE,
  });
  const nbf = validFrom.getTime() / 1000;
  const jwt = await signJwt(
    {
      ...credential,
      '@context': [...credential['@context'], JWT_CLAIMS_CONTEXT],
      iss: issuerId,
      sub: credential.credentialSubject.id,
      jti: url,
      nbf,
      iat: nbf,
    },
    signer,
  );
  // The ETag names the bits (and the key), not the signing time: a rebuild with nothing changed
  // still answers 304. Weak: a rebuild's bytes differ (its validFrom, and ES256 signatures are
  // randomised), and a strong tag promises the same bytes (RFC 9110 §8.8.1: a cache could join
  // ranges of two signings into a JWT that verifies as neither).
  const etag = `W/"${(await sha256Hex(`${signer.kid} ${encodedList}`)).slice(0, 32)}"`;
  await env.CACHE.put(key, jwt, { metadata: { etag }, expirationTtl: STATUS_LIST_TTL_SECONDS });
  return { jwt, etag };
}

/** `GET /ob/issuers/{id}`: the organisation's OB 3.0 Profile as it is now, or the platform's. */
export async function issuerProfile(db: Database, env: Pick<Env, 'PUBLIC_BASE_URL'>, id: string) {
  const base = env.PUBLIC_BASE_URL.replace(/\/+$/, '');
  // `verification` is ours, not Open Badges': defined here (as an opaque JSON value) so a JSON-LD
  // processor in safe mode accepts the Profile too.
  const context = [VC_CONTEXT_V2, OB_CONTEXT_V3, { verification: platformTerms(base).verification }];
  if (id === PLATFORM_ISSUER) {
    return {
      '@context': context,
      id: issuerUrl(base, null),
      type: ['Profile'],
      name: PLATFORM_NAME,
      url: base,
      description:
        'The platform itself: it signs every credential, and issues those earned before organisations.',
      verification: { state: 'platform' as const, method: null, domain: null, verifiedAt: null },
    };
  }
  const [row] = await db.select().from(organisations).where(eq(organisations.id, id)).limit(1);
  if (!row) return null;
  const states: Record<string, string> = {
    verified: 'verified by the platform',
    pending: 'awaiting verification',
    unverified: 'not verified',
    rejected: 'not verified (rejected)',
    suspended: 'suspended by the platform: its certificates are not valid while the suspension lasts',
  };
  return {
    '@context': context,
    id: issuerUrl(base, row.id),
    type: ['Profile'],
    name: row.name,
    // Only a website on the verified domain (`publishedWebsite`); any other stays private.
    ...(publishedWebsite(row) ? { url: websiteIri(row.websiteUrl!) } : {}),
    description: `An organisation issuing certificates on ${PLATFORM_NAME}; ${states[row.verification] ?? row.verification}.`,
    verification: {
      state: row.verification,
      method: row.verification === 'verified' ? row.verificationMethod : null,
      // The domain a DNS proof established, only while that proof is the verification.
      domain: row.verification === 'verified' && row.verificationMethod === 'dns' ? row.verifiedDomain : null,
      verifiedAt: row.verification === 'verified' ? (row.verifiedAt?.toISOString() ?? null) : null,
    },
  };
}

/** `GET /ob/achievements/{briefId}`: the achievement of a brief that is (or was) public; null for drafts. */
export async function achievementDocument(db: Database, env: Pick<Env, 'PUBLIC_BASE_URL'>, briefId: string) {
  const [row] = await db
    .select({ id: briefs.id, title: briefs.title, domain: briefs.domain, organisation: organisations.name })
    .from(briefs)
    .leftJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(and(eq(briefs.id, briefId), ne(briefs.state, 'draft')))
    .limit(1);
  if (!row) return null;
  const facts = await briefCredentialFacts(db, briefId);
  // `validForMonths` is ours, not Open Badges': defined inline so safe mode keeps it.
  const terms = facts.validForMonths
    ? [{ validForMonths: platformTerms(env.PUBLIC_BASE_URL).validForMonths }]
    : [];
  return {
    '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3, ...terms],
    ...buildAchievement({
      baseUrl: env.PUBLIC_BASE_URL,
      brief: row,
      issuerName: row.organisation ?? PLATFORM_NAME,
      rubric: facts.rubric,
    }),
    ...(facts.validForMonths ? { validForMonths: facts.validForMonths } : {}),
  };
}
