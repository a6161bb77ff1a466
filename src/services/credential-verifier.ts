/**
 * Verifies an Open Badges 3.0 credential from any issuer (docs/credential-verification.md): the
 * one core behind `POST /api/v1/credentials/verify`, `POST /api/credentials/verify` and the
 * `/verify` page. The checks that need no network are src/domain/open-badges/checks.ts; this adds
 * what does: the key (the `kid` URL, or a did:web / did:key issuer's), the Bitstring Status List
 * (fetched, its own signature checked, the bit read) and the issuer's Profile. Every outside fetch
 * goes through {@link guardedFetch}; keys, DID documents and status lists are cached in KV for the
 * lifetime their answer states. Documents of this site are read directly, never fetched.
 */
import { and, eq, sql } from 'drizzle-orm';
import { compactVerify, importJWK } from 'jose';
import type { Database } from '../db/client';
import { organisations } from '../db/schema';
import { keyByThumbprint } from '../domain/certificates/credential';
import { issuerOfDid } from '../domain/certificates/did-web';
import { issuerUrl, PLATFORM_ISSUER } from '../domain/certificates/urls';
import { jsonTooDeep } from '../domain/json-depth';
import { readStatus } from '../domain/open-badges/bitstring';
import {
  type AcceptedAlgorithm,
  type Check,
  checkClaims,
  checkContextAndType,
  checkSchema,
  checkTimes,
  isRecord,
  issuerIdOf,
  KEY_TYPE,
  type ParsedJwt,
  parseJwt,
  summarise,
} from '../domain/open-badges/checks';
import {
  didKeyJwk,
  didOf,
  didWebUrl,
  isWellFormedDidKey,
  keyFromDidDocument,
  MAX_IDENTIFIER_LENGTH,
  multikeyToJwk,
  type PublicJwk,
} from '../domain/open-badges/did';
import { type Declared, readPresented } from '../domain/open-badges/presented';
import { type StatusFinding, type Verdict, verdictOf, verdictSentence } from '../domain/open-badges/verdict';
import { type FetchBudget, guardedFetch, maxAgeOf, OutboundRefused } from './outbound-fetch';
import { publishedKeys } from './signing-key';
import { issuerProfile, STATUS_LIST_MAX_AGE, statusList } from './status-lists';
import { verifyEmbeddedProof } from './verifier/embedded-proof';

/** Fetches one verification may make in all (key, DID document, status list and its key, Profile). */
export const FETCH_BUDGET = 6;
const KEY_CACHE_DEFAULT_SECONDS = 3600;
/** KV's minimum TTL: shorter lifetimes are not cached at all. */
const KV_MIN_TTL = 60;

export type IssuerFinding = {
  id: string | null;
  name: string | null;
  url: string | null;
  /** Whether the issuer is an organisation verified on this platform. */
  verifiedHere: boolean;
  /** Its standing here when it is one of ours (or its domain is): `verified`, `suspended`, … */
  standing: string | null;
};

export type VerificationReport = {
  verdict: Verdict;
  summary: string;
  checks: Check[];
  issuer: IssuerFinding;
  credential: ReturnType<typeof summarise> | null;
  format: 'vc-jwt' | 'json' | null;
  container: 'text' | 'png' | 'svg' | null;
  /**
   * Exactly the credential these checks are about, as read from what was sent (the compact
   * VC-JWT, or the JSON text): for a baked badge, the one credential in the image.
   */
  verifiedCredential: string | null;
  algorithm: string | null;
  kid: string | null;
  checkedAt: string;
  /** What was fetched when the credential was named by URL (src/services/verifier/credential-url.ts). */
  fetched: FetchedCredential | null;
};

/** The answer a credential named by URL came in. */
export type FetchedCredential = {
  /** The URL as it was given. */
  url: string;
  /** Where the answer came from (the same origin: only same-origin redirects are followed). */
  finalUrl: string;
  /** The answer's `Content-Type` essence, null when it named none. */
  mediaType: string | null;
  /** The answer's size in bytes. */
  size: number;
};

type Env_ = Pick<
  Env,
  'CACHE' | 'PUBLIC_BASE_URL' | 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'CERT_SIGNING_KEY'
> &
  Partial<Pick<Env, 'CERT_PREVIOUS_PUBLIC_KEYS'>>;

type Context = {
  env: Env_;
  db: Database;
  budget: FetchBudget;
  base: string;
  now: Date;
  /** Foreign issuer Profiles fetched during this verification (each at most once). */
  profiles: Map<string, Promise<ProfileRead>>;
};

/** A foreign issuer's Profile as fetched: the document when it answered one with this id. */
type ProfileRead = { profile: Record<string, unknown> } | { problem: string };

class Unverifiable extends Error {}
class Failed extends Error {}

const ownUrl = (ctx: Context, url: string) => url.startsWith(`${ctx.base}/`);

/** An issuer id of this site's as its Profile URL: its `did:web` maps to `/ob/issuers/{id}`. */
function ownIssuerProfileOf(base: string, issuerId: string | null): string | null {
  if (issuerId === null || !issuerId.startsWith('did:web:')) return issuerId;
  const id = issuerOfDid(base, issuerId);
  return id === null ? issuerId : issuerUrl(base, id);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A foreign document, from KV or fetched (then kept for the lifetime its answer states). */
async function fetchCached(
  ctx: Context,
  kind: 'key' | 'did' | 'status',
  url: string,
  accept: string,
  defaultSeconds: number,
  lifetime?: (body: string) => number | null,
): Promise<string> {
  const cacheKey = `ob-verify:v1:${kind}:${await sha256Hex(url)}`;
  const hit = await ctx.env.CACHE.get(cacheKey);
  if (hit !== null) return hit;
  let doc: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    doc = await guardedFetch(ctx.env, url, { budget: ctx.budget, accept });
  } catch (error) {
    if (error instanceof OutboundRefused) throw new Unverifiable(`${url}: ${error.message}`);
    throw error;
  }
  if (doc.status !== 200) throw new Unverifiable(`${url} answered ${doc.status}.`);
  const seconds = Math.min(
    lifetime?.(doc.body) ?? maxAgeOf(doc.headers, defaultSeconds),
    maxAgeOf(doc.headers, 86_400),
  );
  if (seconds >= KV_MIN_TTL) await ctx.env.CACHE.put(cacheKey, doc.body, { expirationTtl: seconds });
  return doc.body;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Unverifiable(`${what} is not JSON.`);
  }
}

/** Whether a key found at `kid` may speak for `issuerId`: a DID's own key, or a URL on the issuer's origin. */
function keyBelongsToIssuer(kid: string, issuerId: string): boolean {
  if (kid.startsWith('did:')) return didOf(kid) === didOf(issuerId);
  let keyUrl: URL;
  try {
    keyUrl = new URL(kid);
  } catch {
    return false;
  }
  if (issuerId.startsWith('did:web:')) {
    const doc = didWebUrl(issuerId);
    return doc !== null && new URL(doc).host === keyUrl.host;
  }
  try {
    return new URL(issuerId).origin === keyUrl.origin;
  } catch {
    return false;
  }
}

/** The key of a DID issuer (did:key: in the identifier; did:web: its document, cached). */
async function didKey(ctx: Context, did: string, kid: string | null): Promise<PublicJwk> {
  if (did.startsWith('did:key:')) {
    // The shape first (z + base58btc, the exact length of an Ed25519 or P-256 key): nothing
    // else is decoded, whatever its length.
    if (!isWellFormedDidKey(did))
      throw new Failed(
        `${short(did)} is not a well-formed did:key (z and the base58btc of an Ed25519 or P-256 public key, 48 or 49 characters).`,
      );
    const jwk = didKeyJwk(did);
    if (!jwk) throw new Failed(`${did} is not a did:key of an Ed25519 or P-256 key.`);
    if (kid !== null && didOf(kid) !== did && !kid.startsWith('#'))
      throw new Failed('The kid is not a key of this did:key.');
    return jwk;
  }
  const url = didWebUrl(did);
  if (!url) throw new Failed(`${short(did)} is neither a did:key nor a well-formed did:web.`);
  const body = await fetchCached(
    ctx,
    'did',
    url,
    'application/did+json, application/json',
    KEY_CACHE_DEFAULT_SECONDS,
  );
  const jwk = keyFromDidDocument(parseJson(body, `The DID document of ${did}`), did, kid);
  if (!jwk)
    throw new Failed(
      `The DID document of ${did} lists no such key${kid ? ` (${kid})` : ''} controlled by ${did}.`,
    );
  return jwk;
}

/** An identifier cut for a message (the whole one may be 2,048 characters). */
const short = (id: string) => (id.length > 120 ? `${id.slice(0, 117)}…` : id);

/**
 * A resolved key and who it says controls it: `bound` when the key is the issuer's by
 * construction (a did:key, a DID document's method of that DID, this site's key), else the
 * `controller` its document names (null: none; then the issuer's Profile must list it).
 */
type ResolvedKey =
  | { jwk: PublicJwk; bound: true }
  | { jwk: PublicJwk; bound: false; controller: string | null };

/** The public key the credential names, and only one its issuer may speak with. */
async function resolveKey(ctx: Context, kid: string | null, issuerId: string | null): Promise<ResolvedKey> {
  if (!issuerId) throw new Failed('The credential names no issuer.');
  if (issuerId.length > MAX_IDENTIFIER_LENGTH || (kid?.length ?? 0) > MAX_IDENTIFIER_LENGTH)
    throw new Failed(`An identifier over ${MAX_IDENTIFIER_LENGTH} characters is not read.`);
  if (issuerId.startsWith('did:')) {
    if (kid?.startsWith('did:') && didOf(kid) !== didOf(issuerId))
      throw new Failed(`The kid ${kid} is not a key of the issuer ${issuerId}.`);
    if (kid === null || kid.startsWith('did:') || kid.startsWith('#'))
      return { jwk: await didKey(ctx, didOf(issuerId), kid), bound: true };
  }
  if (kid === null)
    throw new Failed('The header has no kid and the issuer is not a DID: no key to check with.');
  // This site's own keys (a `…/ob/keys/…` URL, or the bare thumbprint of a retired key).
  if (ownUrl(ctx, kid) || (!/^[a-z][a-z0-9+.-]*:/i.test(kid) && ownUrl(ctx, issuerId))) {
    const jwks = await publishedKeys(ctx.env as Env);
    const thumbprint = kid.startsWith(`${ctx.base}/ob/keys/`)
      ? kid.slice(`${ctx.base}/ob/keys/`.length)
      : null;
    const found =
      jwks.keys.find((k) => k.kid === kid) ??
      (thumbprint ? await keyByThumbprint(jwks, thumbprint) : undefined);
    if (!found) throw new Failed('No key of this site has this kid.');
    if (!ownUrl(ctx, issuerId))
      throw new Failed(`The key is this site's, but the issuer ${issuerId} is not.`);
    return { jwk: found as unknown as PublicJwk, bound: true };
  }
  if (!/^https?:\/\//i.test(kid))
    throw new Failed('The kid is neither a URL nor a DID URL: no key to check with.');
  if (!keyBelongsToIssuer(kid, issuerId))
    throw new Failed(
      `The key ${kid} is not on the issuer's own site (${issuerId}); a key elsewhere cannot speak for it.`,
    );
  const body = await fetchCached(
    ctx,
    'key',
    kid,
    'application/jwk+json, application/json',
    KEY_CACHE_DEFAULT_SECONDS,
  );
  const document = parseJson(body, `The key at ${kid}`);
  // A JWK, a JWKS (pick by kid), or a verification method with `publicKeyJwk` or
  // `publicKeyMultibase` (and its `controller`).
  const method = isRecord(document) && ('publicKeyJwk' in document || 'publicKeyMultibase' in document);
  const candidate =
    isRecord(document) && Array.isArray(document.keys)
      ? document.keys.find((k) => isRecord(k) && k.kid === kid)
      : method && isRecord(document.publicKeyJwk)
        ? document.publicKeyJwk
        : method
          ? multikeyToJwk(document.publicKeyMultibase)
          : document;
  if (!isRecord(candidate) || typeof candidate.kty !== 'string')
    throw new Failed(`${short(kid)} does not answer a JWK (or a well-formed publicKeyMultibase).`);
  const controller =
    isRecord(document) && typeof document.controller === 'string'
      ? document.controller
      : typeof candidate.controller === 'string'
        ? candidate.controller
        : null;
  return { jwk: candidate as PublicJwk, bound: false, controller };
}

/** A foreign issuer's Profile (fetched once per verification, only once a signature held). */
function readProfile(ctx: Context, issuerId: string): Promise<ProfileRead> {
  let read = ctx.profiles.get(issuerId);
  if (!read) {
    read = (async (): Promise<ProfileRead> => {
      try {
        const doc = await guardedFetch(ctx.env, issuerId, {
          budget: ctx.budget,
          accept: 'application/ld+json, application/json',
        });
        if (doc.status !== 200) return { problem: `HTTP ${doc.status}` };
        const profile = doc.body.length > 0 && !jsonTooDeep(doc.body) ? JSON.parse(doc.body) : null;
        return isRecord(profile) && profile.id === issuerId
          ? { profile }
          : { problem: 'not a Profile with this id' };
      } catch (error) {
        return { problem: error instanceof Error ? error.message : 'error' };
      }
    })();
    ctx.profiles.set(issuerId, read);
  }
  return read;
}

/** The ids of the keys a Profile lists as its own (`verificationMethod`, `assertionMethod`, `publicKey`). */
function profileKeyIds(profile: Record<string, unknown>, issuerId: string): string[] {
  const ids: string[] = [];
  for (const member of ['verificationMethod', 'assertionMethod', 'publicKey']) {
    const value = profile[member];
    for (const entry of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      if (typeof entry === 'string') ids.push(entry);
      else if (
        isRecord(entry) &&
        typeof entry.id === 'string' &&
        (entry.controller === undefined || entry.controller === issuerId)
      )
        ids.push(entry.id);
    }
  }
  return ids;
}

/**
 * Whether a key found at a URL (on the issuer's origin) is the issuer's and not another
 * tenant's of the same host: its document's `controller` is the issuer id, or, when it names
 * none, the issuer's Profile lists it. Only ever called once the signature held.
 */
async function keyProvenance(
  ctx: Context,
  kid: string,
  issuerId: string,
  controller: string | null,
): Promise<string> {
  if (controller !== null) {
    if (controller !== issuerId)
      throw new Failed(
        `The key ${short(kid)} is controlled by ${short(controller)}, not by the issuer ${short(issuerId)}: another party's key cannot speak for it.`,
      );
    return ' Its controller is the issuer.';
  }
  if (!/^https:\/\//i.test(issuerId))
    throw new Failed(`The key ${short(kid)} names no controller, and the issuer has no Profile to list it.`);
  const read = await readProfile(ctx, issuerId);
  if ('problem' in read)
    throw new Unverifiable(
      `the key ${short(kid)} names no controller and the issuer's Profile, which would list it, could not be read (${read.problem}).`,
    );
  if (!profileKeyIds(read.profile, issuerId).includes(kid))
    throw new Failed(
      `The key ${short(kid)} names no controller and the issuer's Profile does not list it: a key on the same host is not the issuer's by that alone.`,
    );
  return ' The issuer’s Profile lists the key.';
}

const PUBLIC_MEMBERS: Record<string, string[]> = {
  RSA: ['kty', 'n', 'e'],
  EC: ['kty', 'crv', 'x', 'y'],
  OKP: ['kty', 'crv', 'x'],
};

/** Checks the JWS with the key: the key's type must be the algorithm's, and public only. */
async function verifySignature(jwt: string, alg: AcceptedAlgorithm, jwk: PublicJwk): Promise<void> {
  const expected = KEY_TYPE[alg];
  if ('d' in jwk || 'p' in jwk) throw new Failed('The key document contains private key material; refused.');
  if (jwk.kty !== expected.kty || (expected.crv && jwk.crv !== expected.crv))
    throw new Failed(
      `The key is ${String(jwk.kty)}${jwk.crv ? ` ${String(jwk.crv)}` : ''}, not a key for ${alg}.`,
    );
  if (typeof jwk.alg === 'string' && jwk.alg !== alg)
    throw new Failed(`The key is for ${jwk.alg}, not ${alg}.`);
  if (alg === 'RS256' && (typeof jwk.n !== 'string' || jwk.n.length < 342))
    throw new Failed('RSA keys must be at least 2048 bits.');
  const members = Object.fromEntries((PUBLIC_MEMBERS[jwk.kty] ?? []).map((m) => [m, jwk[m]]));
  let key: CryptoKey | Uint8Array;
  try {
    key = (await importJWK(members, alg)) as CryptoKey;
  } catch {
    throw new Failed('The key does not import (not a valid public key).');
  }
  try {
    await compactVerify(jwt, key, { algorithms: [alg] });
  } catch {
    throw new Failed(
      'The signature does not verify with the issuer’s key: the credential was altered or not signed by it.',
    );
  }
}

async function signatureCheck(
  ctx: Context,
  jwt: string,
  parsed: ParsedJwt,
  issuerId: string | null,
): Promise<Check> {
  try {
    const key = await resolveKey(ctx, parsed.header.kid, issuerId);
    await verifySignature(jwt, parsed.header.alg, key.jwk);
    // The signature holds: now whether the key is the issuer's, not merely on its host.
    const provenance = key.bound
      ? ''
      : await keyProvenance(ctx, parsed.header.kid ?? '', issuerId ?? '', key.controller);
    return {
      check: 'signature',
      outcome: 'passed',
      detail: `${parsed.header.alg} signature verified with ${parsed.header.kid ?? `the key of ${issuerId}`}.${provenance}`,
    };
  } catch (error) {
    if (error instanceof Failed) return { check: 'signature', outcome: 'failed', detail: error.message };
    if (error instanceof Unverifiable)
      return {
        check: 'signature',
        outcome: 'unverifiable',
        detail: `The issuer's key could not be obtained: ${error.message}`,
      };
    throw error;
  }
}

/**
 * A status list as served: a VC-JWT (its signature checked like a credential's), or a JSON
 * `BitstringStatusListCredential` with an embedded Data Integrity proof (what Data Integrity
 * issuers publish; checked by the same seam as a credential's proof). `refuse` says first whether
 * the list's issuer may speak for the credential (a detail when not): nothing is verified, or
 * fetched, for a list that could not count anyway.
 */
async function signedStatusList(
  ctx: Context,
  body: string,
  refuse: (listIssuer: string | null) => string | null,
): Promise<{ list: Record<string, unknown> } | { detail: string }> {
  let list: Record<string, unknown>;
  let verifySignature: (listIssuer: string) => Promise<Check>;
  if (body.startsWith('{')) {
    let json: unknown;
    try {
      json = jsonTooDeep(body) ? null : JSON.parse(body);
    } catch {
      json = null;
    }
    if (!isRecord(json)) return { detail: 'The status list is neither a VC-JWT nor a JSON credential.' };
    list = json;
    verifySignature = (listIssuer) => verifyEmbeddedProof(ctx.env, json, listIssuer, ctx.budget);
  } else {
    const parsed = parseJwt(body);
    if (!parsed.ok) return { detail: `The status list is not a VC-JWT we accept: ${parsed.detail}` };
    list = parsed.value.credential;
    verifySignature = (listIssuer) => signatureCheck(ctx, body, parsed.value, listIssuer);
  }
  const listIssuer = issuerIdOf(list);
  const refused = refuse(listIssuer);
  if (refused !== null || listIssuer === null) return { detail: refused ?? 'The list names no issuer.' };
  const signature = await verifySignature(listIssuer);
  if (signature.outcome !== 'passed') return { detail: `The status list's signature: ${signature.detail}` };
  return { list };
}

/** One `credentialStatus` entry: the list fetched, its signature checked, the bit read. */
async function statusEntryCheck(
  ctx: Context,
  entry: Record<string, unknown>,
  credentialIssuer: string,
  credentialId: unknown,
): Promise<{ finding: StatusFinding; detail: string }> {
  const type = entry.type;
  if (type === '1EdTechRevocationList')
    return revocationListCheck(ctx, entry, credentialIssuer, credentialId);
  if (type !== 'BitstringStatusListEntry' && type !== 'StatusList2021Entry')
    return {
      finding: 'unknown',
      detail: `A status of type ${JSON.stringify(type)}, which is not checked here.`,
    };
  const url = entry.statusListCredential;
  const purpose = entry.statusPurpose;
  const index = Number(entry.statusListIndex);
  if (typeof url !== 'string' || typeof purpose !== 'string' || !/^\d+$/.test(String(entry.statusListIndex)))
    return {
      finding: 'unknown',
      detail: 'The status entry lacks statusListCredential, statusPurpose or statusListIndex.',
    };
  let body: string;
  try {
    if (ownUrl(ctx, url)) {
      const match = /\/ob\/status-lists\/revocation\/(\d+)$/.exec(url);
      const own = match ? await statusList(ctx.db, ctx.env as Env, 'revocation', Number(match[1])) : null;
      if (!own) return { finding: 'unknown', detail: `${url}: no such status list here.` };
      body = own.jwt;
    } else {
      body = (
        await fetchCached(
          ctx,
          'status',
          url,
          'application/vc+jwt, application/jwt, application/vc+ld+json, application/json',
          STATUS_LIST_MAX_AGE,
          (text) => {
            const p = parseJwt(text.trim());
            const ttl =
              p.ok && isRecord(p.value.credential.credentialSubject)
                ? Number(p.value.credential.credentialSubject.ttl)
                : NaN;
            return Number.isFinite(ttl) && ttl > 0 ? Math.floor(ttl / 1000) : null;
          },
        )
      ).trim();
    }
  } catch (error) {
    if (error instanceof Unverifiable)
      return { finding: 'unknown', detail: `The status list could not be fetched: ${error.message}` };
    throw error;
  }
  // The list must be the credential issuer's own (not another tenant's on the same host); this
  // site's lists are the platform's and serve every organisation's credentials.
  const read = await signedStatusList(ctx, body, (listIssuer) => {
    const ours =
      ownUrl(ctx, url) && listIssuer !== null && ownUrl(ctx, listIssuer) && ownUrl(ctx, credentialIssuer);
    return listIssuer && (listIssuer === credentialIssuer || ours)
      ? null
      : `The status list's issuer (${short(listIssuer ?? 'none')}) is not the credential's (${short(credentialIssuer)}).`;
  });
  if ('detail' in read) return { finding: 'unknown', detail: read.detail };
  const { list } = read;
  const subject = isRecord(list.credentialSubject) ? list.credentialSubject : {};
  if (subject.statusPurpose !== purpose)
    return {
      finding: 'unknown',
      detail: `The list's statusPurpose is ${String(subject.statusPurpose)}, not ${purpose}.`,
    };
  const status = readStatus(
    subject.encodedList,
    index,
    entry.statusSize === undefined ? 1 : Number(entry.statusSize),
  );
  if (!status.ok) return { finding: 'unknown', detail: status.detail };
  if (status.value === 0) return { finding: 'active', detail: `${purpose} bit ${index}: 0 (not set).` };
  if (purpose === 'revocation')
    return { finding: 'revoked', detail: `Revocation bit ${index} is set: revoked.` };
  if (purpose === 'suspension')
    return { finding: 'suspended', detail: `Suspension bit ${index} is set: suspended.` };
  return {
    finding: 'active',
    detail: `${purpose} bit ${index} is set (a purpose that does not decide validity).`,
  };
}

/**
 * A `1EdTechRevocationList` status (1EdTech Revocation List Status Method 1.0, what the OB 3.0
 * displayer tests use): the list at the entry's `id` (on the issuer's own site, naming the same
 * issuer when it names one) lists the revoked credentials' ids in `revokedCredential` (each
 * revoked unless `revoked` is false). The list is not signed: its origin is the issuer's.
 */
async function revocationListCheck(
  ctx: Context,
  entry: Record<string, unknown>,
  credentialIssuer: string,
  credentialId: unknown,
): Promise<{ finding: StatusFinding; detail: string }> {
  const url = entry.id;
  if (typeof url !== 'string' || url.length > MAX_IDENTIFIER_LENGTH || !/^https:\/\//i.test(url))
    return { finding: 'unknown', detail: 'The 1EdTechRevocationList entry has no https id to fetch.' };
  if (typeof credentialId !== 'string')
    return { finding: 'unknown', detail: 'The credential has no id to look up in its revocation list.' };
  if (!keyBelongsToIssuer(url, credentialIssuer))
    return {
      finding: 'unknown',
      detail: `The 1EdTechRevocationList ${short(url)} is not on the issuer's own site; a list elsewhere cannot speak for it.`,
    };
  let body: string;
  try {
    body = await fetchCached(ctx, 'status', url, 'application/json', STATUS_LIST_MAX_AGE);
  } catch (error) {
    if (error instanceof Unverifiable)
      return {
        finding: 'unknown',
        detail: `The 1EdTechRevocationList could not be fetched: ${error.message}`,
      };
    throw error;
  }
  let list: unknown;
  try {
    list = jsonTooDeep(body) ? null : JSON.parse(body);
  } catch {
    list = null;
  }
  if (!isRecord(list))
    return { finding: 'unknown', detail: 'The 1EdTechRevocationList is not a JSON object.' };
  const listIssuer = issuerIdOf(list);
  if (listIssuer !== null && listIssuer !== credentialIssuer)
    return {
      finding: 'unknown',
      detail: `The revocation list's issuer (${short(listIssuer)}) is not the credential's.`,
    };
  const items = list.revokedCredential ?? list.revokedCredentials;
  if (items !== undefined && !Array.isArray(items))
    return { finding: 'unknown', detail: 'The revocation list’s revokedCredential is not an array.' };
  const hit = (items ?? []).find(
    (item: unknown) => isRecord(item) && item.id === credentialId && item.revoked !== false,
  );
  if (hit)
    return {
      finding: 'revoked',
      detail: `The issuer's 1EdTech revocation list names this credential: revoked${isRecord(hit) && typeof hit.revocationReason === 'string' ? ` (${hit.revocationReason.slice(0, 200)})` : ''}.`,
    };
  return { finding: 'active', detail: 'The issuer’s 1EdTech revocation list does not name this credential.' };
}

async function statusCheck(ctx: Context, credential: Record<string, unknown>, issuerId: string | null) {
  const entries = (
    Array.isArray(credential.credentialStatus) ? credential.credentialStatus : [credential.credentialStatus]
  ).filter(isRecord);
  if (entries.length === 0)
    return {
      finding: 'none' as StatusFinding,
      check: {
        check: 'status',
        outcome: 'passed',
        detail: 'No credentialStatus: the issuer offers no revocation.',
      } as Check,
    };
  const results = await Promise.all(
    entries.slice(0, 2).map((e) => statusEntryCheck(ctx, e, issuerId ?? '', credential.id)),
  );
  const rank: StatusFinding[] = ['revoked', 'suspended', 'unknown', 'active', 'none'];
  const finding = rank.find((f) => results.some((r) => r.finding === f)) ?? 'active';
  const outcome = finding === 'active' ? 'passed' : finding === 'unknown' ? 'unverifiable' : 'failed';
  return {
    finding,
    check: { check: 'status', outcome, detail: results.map((r) => r.detail).join(' ') } as Check,
  };
}

/** The issuer as the credential names it, its Profile (a fetch failure is a warning), and its standing here. */
async function issuerCheck(
  ctx: Context,
  credential: Record<string, unknown>,
  issuerId: string | null,
  signed: boolean,
) {
  const named = signed_(credential);
  const finding: IssuerFinding = {
    id: issuerId,
    name: typeof named.name === 'string' ? named.name : null,
    url: typeof named.url === 'string' ? named.url : null,
    verifiedHere: false,
    standing: null,
  };
  if (!issuerId || issuerId.length > MAX_IDENTIFIER_LENGTH)
    return {
      finding: { ...finding, id: issuerId === null ? null : short(issuerId) },
      suspended: false,
      check: {
        check: 'issuer',
        outcome: 'failed',
        detail: issuerId
          ? `An issuer id over ${MAX_IDENTIFIER_LENGTH} characters is not read.`
          : 'No issuer.',
      } as Check,
    };
  const ownPrefix = `${ctx.base}/ob/issuers/`;
  if (issuerId.startsWith(ownPrefix)) {
    const id = issuerId.slice(ownPrefix.length);
    const profile = /^(platform|[0-9a-f-]{36})$/.test(id) ? await issuerProfile(ctx.db, ctx.env, id) : null;
    if (!profile)
      return {
        finding,
        suspended: false,
        check: { check: 'issuer', outcome: 'failed', detail: 'No issuer of this site has this id.' } as Check,
      };
    const state = profile.verification.state;
    finding.name = profile.name;
    finding.url = profile.url ?? finding.url;
    finding.standing = state;
    finding.verifiedHere = state === 'verified' || id === PLATFORM_ISSUER;
    // Certificates are signed only for verified organisations: one that is not verified now
    // (suspended, or rejected after a review) is no longer recognised.
    const suspended = state !== 'verified' && id !== PLATFORM_ISSUER;
    const detail = suspended
      ? `${profile.name} is ${state === 'suspended' ? 'suspended' : `${state}`} on this platform: it is no longer recognised, and its credentials are not valid while that lasts.`
      : state === 'verified' || id === PLATFORM_ISSUER
        ? `${profile.name}, an organisation verified on this platform.`
        : `${profile.name} is not verified on this platform (${state}).`;
    return {
      finding,
      suspended,
      check: {
        check: 'issuer',
        outcome: suspended ? 'failed' : state === 'verified' || id === PLATFORM_ISSUER ? 'passed' : 'warning',
        detail,
      } as Check,
    };
  }
  // A foreign issuer: is its domain one an organisation proved here?
  const host = issuerHost(issuerId);
  if (host) {
    const [org] = await ctx.db
      .select({
        name: organisations.name,
        verification: organisations.verification,
        domain: organisations.verifiedDomain,
      })
      .from(organisations)
      .where(
        and(
          eq(organisations.verification, 'verified'),
          sql`(${organisations.verifiedDomain} = ${host} OR ${host} LIKE '%.' || ${organisations.verifiedDomain})`,
        ),
      )
      .limit(1);
    if (org) {
      finding.verifiedHere = true;
      finding.standing = 'verified';
    }
    // Shown beside "verified on this platform", the name is the verified organisation's own,
    // never the one a credential (or a Profile) on its domain claims.
    if (org) finding.name = org.name;
  }
  const claimed = typeof named.name === 'string' ? named.name : null;
  let detail = finding.verifiedHere
    ? `${finding.name}: an issuer whose domain an organisation verified here owns${claimed && claimed !== finding.name ? ` (the credential calls it “${claimed.slice(0, 200)}”)` : ''}.`
    : `${finding.name ?? issuerId}: an issuer not registered on this platform.`;
  let outcome: Check['outcome'] = 'passed';
  if (!signed) {
    // What an unverified credential's issuer is called is not looked up: its Profile is fetched
    // only for a credential whose signature held.
    outcome = 'warning';
    detail += ' Its Profile was not read: the signature did not verify.';
  } else if (/^https?:\/\//i.test(issuerId)) {
    const read = await readProfile(ctx, issuerId);
    if ('profile' in read) {
      if (typeof read.profile.name === 'string' && !finding.verifiedHere) finding.name = read.profile.name;
      if (typeof read.profile.url === 'string' && !finding.verifiedHere) finding.url = read.profile.url;
      detail += ' Its Profile was read.';
    } else {
      outcome = 'warning';
      detail += ` Its Profile could not be read (${read.problem}).`;
    }
  }
  return { finding, suspended: false, check: { check: 'issuer', outcome, detail } as Check };
}

const signed_ = (credential: Record<string, unknown>) =>
  isRecord(credential.issuer) ? credential.issuer : {};

function issuerHost(issuerId: string): string | null {
  if (issuerId.startsWith('did:web:')) {
    const url = didWebUrl(issuerId);
    return url ? new URL(url).hostname : null;
  }
  try {
    const url = new URL(issuerId);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.hostname : null;
  } catch {
    return null;
  }
}

function report(
  checks: Check[],
  facts: Parameters<typeof verdictOf>[1],
  rest: Omit<VerificationReport, 'verdict' | 'summary' | 'checks' | 'fetched'>,
): Omit<VerificationReport, 'fetched'> {
  const verdict = verdictOf(checks, facts);
  const failing = checks.find((c) => c.outcome === 'failed' || c.outcome === 'unverifiable');
  return {
    verdict,
    summary:
      verdict === 'valid'
        ? verdictSentence(verdict)
        : `${verdictSentence(verdict)}${failing ? ` ${failing.detail}` : ''}`,
    checks,
    ...rest,
  };
}

/**
 * Verifies the credential in `bytes` (a VC-JWT, a JSON credential, or a baked PNG or SVG).
 * `declared`: the bytes were sent as `image/png` or `image/svg+xml` and must be that image, or
 * were fetched as a media type. `fetched`: the credential was named by URL; its fetch spent part
 * of `budget`, which the verification's own fetches share (one request, one budget).
 */
export async function verifyPresentedCredential(
  db: Database,
  env: Env_,
  bytes: Uint8Array,
  now = new Date(),
  declared?: Declared,
  fetched?: { budget: FetchBudget; answer: FetchedCredential },
): Promise<VerificationReport> {
  const report = await verifyBytes(db, env, bytes, now, declared, fetched?.budget);
  return { ...report, fetched: fetched?.answer ?? null };
}

async function verifyBytes(
  db: Database,
  env: Env_,
  bytes: Uint8Array,
  now: Date,
  declared: Declared | undefined,
  budget: FetchBudget | undefined,
): Promise<Omit<VerificationReport, 'fetched'>> {
  const ctx: Context = {
    env,
    db,
    budget: budget ?? { remaining: FETCH_BUDGET },
    base: env.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    now,
    profiles: new Map(),
  };
  const empty = {
    issuer: { id: null, name: null, url: null, verifiedHere: false, standing: null },
    credential: null,
    verifiedCredential: null,
    algorithm: null,
    kid: null,
    checkedAt: now.toISOString(),
  };
  const presented = readPresented(bytes, declared);
  if ('error' in presented)
    return report(
      [{ check: 'parse', outcome: 'failed', detail: presented.error }],
      { expired: false, status: 'none', issuerSuspended: false },
      { ...empty, format: null, container: null },
    );

  let parsed: ParsedJwt | null = null;
  let credential: Record<string, unknown>;
  const checks: Check[] = [];
  if (presented.form === 'jwt') {
    const result = parseJwt(presented.jwt);
    if (!result.ok)
      return report(
        [{ check: 'parse', outcome: 'failed', detail: result.detail }],
        { expired: false, status: 'none', issuerSuspended: false },
        { ...empty, format: 'vc-jwt', container: presented.container, verifiedCredential: presented.jwt },
      );
    parsed = result.value;
    credential = parsed.credential;
    checks.push({
      check: 'parse',
      outcome: 'passed',
      detail: `A VC-JWT (${parsed.header.alg})${parsed.vcClaim ? ' with a vc claim' : ''}${presented.container === 'text' ? '' : `, baked in a ${presented.container.toUpperCase()}`}.`,
    });
  } else {
    credential = presented.credential;
    checks.push({ check: 'parse', outcome: 'passed', detail: 'A JSON credential (embedded proof).' });
  }
  // Our own issuers' did:web (decision 0350) is checked as the Profile it names (`alsoKnownAs`).
  const issuerId = ownIssuerProfileOf(ctx.base, issuerIdOf(credential));
  const rest = {
    credential: summarise(credential),
    verifiedCredential: presented.form === 'jwt' ? presented.jwt : presented.text,
    format: presented.form === 'jwt' ? ('vc-jwt' as const) : ('json' as const),
    container: presented.container,
    algorithm: parsed?.header.alg ?? null,
    kid: parsed?.header.kid ?? null,
    checkedAt: now.toISOString(),
  };
  const skippedFrom = (from: Check['check'][]) =>
    from.map((check) => ({
      check,
      outcome: 'skipped' as const,
      detail: 'Not checked: an earlier check failed.',
    }));

  const context = checkContextAndType(credential);
  checks.push(context);
  const schema = context.outcome === 'passed' ? checkSchema(credential) : null;
  if (schema) checks.push(schema);
  if (context.outcome === 'failed' || schema?.outcome === 'failed') {
    checks.push(
      ...skippedFrom(
        context.outcome === 'failed'
          ? ['schema', 'signature', 'claims', 'times', 'status', 'issuer']
          : ['signature', 'claims', 'times', 'status', 'issuer'],
      ),
    );
    return report(
      checks,
      { expired: false, status: 'none', issuerSuspended: false },
      { ...rest, issuer: { ...empty.issuer, id: issuerId } },
    );
  }

  if (parsed && presented.form === 'jwt') {
    checks.push(await signatureCheck(ctx, presented.jwt, parsed, issuerId));
    checks.push(checkClaims(parsed));
  } else {
    // The one seam for embedded (Data Integrity) proofs: src/services/verifier/embedded-proof.ts.
    checks.push(await verifyEmbeddedProof(env, credential, issuerIdOf(credential), ctx.budget));
    checks.push({ check: 'claims', outcome: 'skipped', detail: 'No JWT claims.' });
  }
  const times = checkTimes(credential, parsed?.payload ?? null, now);
  const { expired = false, ...timesCheck } = times;
  checks.push(timesCheck);

  const signed = checks.find((c) => c.check === 'signature')?.outcome === 'passed';
  const status = signed
    ? await statusCheck(ctx, credential, issuerId)
    : {
        finding: 'none' as StatusFinding,
        check: {
          check: 'status',
          outcome: 'skipped',
          detail: 'Not checked: the signature did not verify.',
        } as Check,
      };
  checks.push(status.check);
  const issuer = await issuerCheck(ctx, credential, issuerId, signed);
  checks.push(issuer.check);
  return report(
    checks,
    { expired, status: status.finding, issuerSuspended: issuer.suspended },
    { ...rest, issuer: issuer.finding },
  );
}
