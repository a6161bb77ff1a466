/**
 * Wallet delivery: OpenID for Verifiable Credential Issuance 1.0, pre-authorized code flow
 * (docs/portability.md, decision 0352). The holder asks for an offer for one of their
 * certificates; a wallet resolves it, exchanges the pre-authorized code (and the transaction code,
 * when the offer has one) for an access token, proves possession of its key with a JWT over a
 * fresh `c_nonce`, and receives the certificate's credential with `credentialSubject.id` bound to
 * that key's DID, as a VC-JWT (`jwt_vc_json`) or with an embedded Data Integrity proof
 * (`ldp_vc`). An offer works once and expires in ten minutes; wrong transaction codes are counted
 * and the offer is spent at {@link TX_CODE_ATTEMPTS}. Codes and tokens are stored hashed.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { base64url, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import type { Database } from '../db/client';
import { briefs, certificates, credentialOffers, organisations } from '../db/schema';
import { VC_CONTEXT_V2 } from '../domain/certificates/credential';
import { didKeyJwk } from '../domain/open-badges/did';
import { type EarnedCertificate, signFor } from './issuance/sign';
import { requireSigningKey } from './signing-key';

export const OFFER_TTL_SECONDS = 600;
export const ACCESS_TOKEN_TTL_SECONDS = 300;
export const NONCE_TTL_SECONDS = 300;
export const TX_CODE_ATTEMPTS = 5;
export const TX_CODE_LENGTH = 6;

export const CONFIGURATION_JWT = 'OpenBadgeCredential_jwt_vc_json';
export const CONFIGURATION_LDP = 'OpenBadgeCredential_ldp_vc';
const OB_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';
const TYPES = ['VerifiableCredential', 'OpenBadgeCredential'];

const encoder = new TextEncoder();
const trim = (base: string) => base.replace(/\/+$/, '');

/** The OAuth authorization server of the pre-authorized code grant (its metadata, token endpoint). */
export const authorizationServerOf = (base: string) => `${trim(base)}/oid4vci`;

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** `GET /.well-known/openid-credential-issuer`. */
export function issuerMetadata(base: string) {
  const issuer = trim(base);
  const binding = {
    cryptographic_binding_methods_supported: ['did:key', 'did:jwk'],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256', 'EdDSA'] } },
  };
  // OID4VCI 1.0: what a wallet shows is under `credential_metadata`.
  const credential_metadata = { display: [{ name: 'Certificate (Open Badges 3.0)', locale: 'en' }] };
  return {
    credential_issuer: issuer,
    authorization_servers: [authorizationServerOf(issuer)],
    credential_endpoint: `${issuer}/oid4vci/credential`,
    nonce_endpoint: `${issuer}/oid4vci/nonce`,
    display: [{ name: 'Verification Platform', locale: 'en' }],
    credential_configurations_supported: {
      [CONFIGURATION_JWT]: {
        format: 'jwt_vc_json',
        credential_definition: { type: TYPES },
        credential_signing_alg_values_supported: ['ES256'],
        ...binding,
        credential_metadata,
      },
      [CONFIGURATION_LDP]: {
        format: 'ldp_vc',
        credential_definition: { '@context': [VC_CONTEXT_V2, OB_CONTEXT], type: TYPES },
        credential_signing_alg_values_supported: ['eddsa-rdfc-2022'],
        ...binding,
        credential_metadata,
      },
    },
  };
}

/** The authorization server's metadata (RFC 8414) for the pre-authorized code grant. */
export function authorizationServerMetadata(base: string) {
  const as = authorizationServerOf(base);
  return {
    issuer: as,
    token_endpoint: `${as}/token`,
    grant_types_supported: ['urn:ietf:params:oauth:grant-type:pre-authorized_code'],
    token_endpoint_auth_methods_supported: ['none'],
    'pre-authorized_grant_anonymous_access_supported': true,
    response_types_supported: [],
  };
}

export type OfferError = 'not-found' | 'not-active';

/**
 * A new offer for the holder's certificate: `{offerId, preAuthorizedCode, txCode?}`; the codes
 * are returned once and only their hashes kept. Refused unless the certificate is the holder's,
 * signed and active.
 */
export async function createOffer(
  db: Database,
  env: Pick<Env, 'CERT_SIGNING_KEY'>,
  holderId: string,
  certificateNo: string,
  options: { txCode: boolean },
  now = new Date(),
): Promise<
  { ok: true; offerId: string; txCode: string | null; expiresAt: Date } | { ok: false; error: OfferError }
> {
  const [row] = await db
    .select({ id: certificates.id, status: certificates.status, jwt: certificates.credentialJwt })
    .from(certificates)
    .where(and(eq(certificates.certificateNo, certificateNo), eq(certificates.holderId, holderId)))
    .limit(1);
  if (!row) return { ok: false, error: 'not-found' };
  if (row.status !== 'active' || !row.jwt) return { ok: false, error: 'not-active' };
  const offerId = randomToken(16);
  const txCode = options.txCode
    ? String(crypto.getRandomValues(new Uint32Array(1))[0]! % 10 ** TX_CODE_LENGTH).padStart(
        TX_CODE_LENGTH,
        '0',
      )
    : null;
  const expiresAt = new Date(now.getTime() + OFFER_TTL_SECONDS * 1000);
  await db.batch([
    // Offers a day past their expiry, anyone's, are cleared as new ones are made.
    db.delete(credentialOffers).where(lt(credentialOffers.expiresAt, new Date(now.getTime() - 86_400_000))),
    db.insert(credentialOffers).values({
      id: offerId,
      codeHash: await sha256Hex(await preAuthorizedCodeOf(env.CERT_SIGNING_KEY, offerId)),
      certificateId: row.id,
      holderId,
      txCodeHash: txCode ? await sha256Hex(txCode) : null,
      expiresAt,
    }),
  ]);
  return { ok: true, offerId, txCode, expiresAt };
}

/**
 * The pre-authorized code of an offer is a keyed hash of its id (HMAC with a key derived from
 * `CERT_SIGNING_KEY`), so the offer document can be served from the id alone while the database
 * holds only the code's hash.
 */
async function codeKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('oid4vci-pre-authorized-code-v1'),
    },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
}

/** The pre-authorized code of offer `offerId`. */
export async function preAuthorizedCodeOf(secret: string, offerId: string): Promise<string> {
  const key = await codeKey(secret);
  return base64url.encode(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(offerId))));
}

/** Where a wallet fetches the offer, and the `openid-credential-offer://` URI that names it. */
export function offerUris(base: string, offerId: string) {
  const offerUrl = `${trim(base)}/oid4vci/offers/${offerId}`;
  return {
    offerUrl,
    credentialOfferUri: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUrl)}`,
  };
}

/** The credential offer document of a live, unredeemed offer, or null. */
export async function offerDocument(
  db: Database,
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  offerId: string,
  now = new Date(),
) {
  const [offer] = await db
    .select()
    .from(credentialOffers)
    .where(
      and(
        eq(credentialOffers.id, offerId),
        isNull(credentialOffers.redeemedAt),
        gt(credentialOffers.expiresAt, now),
      ),
    )
    .limit(1);
  if (!offer) return null;
  const code = await preAuthorizedCodeOf(env.CERT_SIGNING_KEY, offer.id);
  return {
    credential_issuer: trim(env.PUBLIC_BASE_URL),
    credential_configuration_ids: [CONFIGURATION_JWT, CONFIGURATION_LDP],
    grants: {
      'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
        'pre-authorized_code': code,
        ...(offer.txCodeHash
          ? {
              tx_code: {
                length: TX_CODE_LENGTH,
                input_mode: 'numeric',
                description: 'The code shown beside the QR code where you asked for this offer.',
              },
            }
          : {}),
      },
    },
  };
}

export type TokenError = { error: 'invalid_grant' | 'invalid_request'; description: string };

/**
 * Exchanges a pre-authorized code (and transaction code) for an access token, once. A wrong
 * transaction code is counted; at {@link TX_CODE_ATTEMPTS} the offer is spent.
 */
export async function redeemPreAuthorizedCode(
  db: Database,
  input: { preAuthorizedCode: string; txCode?: string },
  now = new Date(),
): Promise<{ ok: true; accessToken: string; expiresIn: number } | ({ ok: false } & TokenError)> {
  // The code is the HMAC of the offer id: find the offer by the code's hash.
  const codeHash = await sha256Hex(input.preAuthorizedCode);
  const [offer] = await db
    .select()
    .from(credentialOffers)
    .where(eq(credentialOffers.codeHash, codeHash))
    .limit(1);
  const spent = { ok: false as const, error: 'invalid_grant' as const };
  if (!offer) return { ...spent, description: 'Unknown pre-authorized code.' };
  if (offer.redeemedAt) return { ...spent, description: 'This offer was already used.' };
  if (offer.expiresAt.getTime() <= now.getTime()) return { ...spent, description: 'This offer has expired.' };
  if (offer.failedAttempts >= TX_CODE_ATTEMPTS)
    return { ...spent, description: 'Too many wrong transaction codes: this offer is spent.' };
  if (offer.txCodeHash) {
    if (!input.txCode)
      return {
        ok: false,
        error: 'invalid_request',
        description: 'This offer needs its transaction code (tx_code).',
      };
    if ((await sha256Hex(input.txCode)) !== offer.txCodeHash) {
      const [counted] = await db
        .update(credentialOffers)
        .set({ failedAttempts: sql`${credentialOffers.failedAttempts} + 1` })
        .where(eq(credentialOffers.id, offer.id))
        .returning({ failedAttempts: credentialOffers.failedAttempts });
      const left = TX_CODE_ATTEMPTS - (counted?.failedAttempts ?? TX_CODE_ATTEMPTS);
      return {
        ...spent,
        description:
          left > 0
            ? `Wrong transaction code (${left} attempt${left === 1 ? '' : 's'} left).`
            : 'Wrong transaction code: this offer is spent.',
      };
    }
  }
  const accessToken = randomToken();
  // Once: only the update that finds the offer unredeemed and live wins.
  const [won] = await db
    .update(credentialOffers)
    .set({
      redeemedAt: now,
      accessTokenHash: await sha256Hex(accessToken),
      accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    })
    .where(
      and(
        eq(credentialOffers.id, offer.id),
        isNull(credentialOffers.redeemedAt),
        gt(credentialOffers.expiresAt, now),
        lt(credentialOffers.failedAttempts, TX_CODE_ATTEMPTS),
      ),
    )
    .returning({ id: credentialOffers.id });
  if (!won) return { ...spent, description: 'This offer was already used.' };
  return { ok: true, accessToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

// --- Nonces: stateless, an HMAC over their expiry.

async function nonceKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('oid4vci-c-nonce-v1') },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  );
}

/** A fresh `c_nonce`: random, its expiry, and an HMAC over both. */
export async function makeNonce(env: Pick<Env, 'CERT_SIGNING_KEY'>, now = new Date()): Promise<string> {
  const body = `${randomToken(12)}.${Math.floor(now.getTime() / 1000) + NONCE_TTL_SECONDS}`;
  const mac = await crypto.subtle.sign('HMAC', await nonceKey(env.CERT_SIGNING_KEY), encoder.encode(body));
  return `${body}.${base64url.encode(new Uint8Array(mac))}`;
}

async function nonceValid(env: Pick<Env, 'CERT_SIGNING_KEY'>, nonce: unknown, now: Date): Promise<boolean> {
  if (typeof nonce !== 'string') return false;
  const parts = nonce.split('.');
  if (parts.length !== 3) return false;
  const [random = '', expiry = '', mac = ''] = parts;
  if (!/^\d+$/.test(expiry) || Number(expiry) * 1000 <= now.getTime()) return false;
  let signature: Uint8Array;
  try {
    signature = base64url.decode(mac);
  } catch {
    return false;
  }
  return crypto.subtle.verify(
    'HMAC',
    await nonceKey(env.CERT_SIGNING_KEY),
    signature,
    encoder.encode(`${random}.${expiry}`),
  );
}

// --- The credential endpoint

export type CredentialError = {
  status: 400 | 401;
  error:
    | 'invalid_token'
    | 'invalid_proof'
    | 'invalid_nonce'
    | 'invalid_credential_request'
    | 'unknown_credential_configuration';
  description: string;
};

/** The DID and public JWK of the key a proof JWT's header names (`kid` did:key/did:jwk, or `jwk`). */
function holderKey(header: Record<string, unknown>): { did: string; jwk: Record<string, unknown> } | null {
  const kid = typeof header.kid === 'string' ? header.kid : null;
  if (kid?.startsWith('did:key:')) {
    const did = kid.split('#')[0] ?? '';
    const jwk = didKeyJwk(did);
    return jwk ? { did, jwk: { ...jwk } } : null;
  }
  if (kid?.startsWith('did:jwk:')) {
    const did = kid.split('#')[0] ?? '';
    try {
      const jwk = JSON.parse(new TextDecoder().decode(base64url.decode(did.slice('did:jwk:'.length))));
      return typeof jwk === 'object' && jwk !== null && !('d' in jwk) ? { did, jwk } : null;
    } catch {
      return null;
    }
  }
  const jwk = header.jwk;
  if (kid === null && typeof jwk === 'object' && jwk !== null && !('d' in jwk)) {
    const { kty, crv, x, y } = jwk as Record<string, unknown>;
    const members = { kty, crv, x, ...(y === undefined ? {} : { y }) };
    return { did: `did:jwk:${base64url.encode(encoder.encode(JSON.stringify(members)))}`, jwk: members };
  }
  return null;
}

/**
 * Issues the offer's credential to the wallet holding `accessToken`, bound to the key its proof
 * JWT proves (audience: this issuer; a live `c_nonce` of ours). Once per offer.
 */
export async function issueToWallet(
  db: Database,
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  accessToken: string,
  request: { credentialConfigurationId: unknown; proofJwt: unknown },
  now = new Date(),
): Promise<{ ok: true; credential: string | Record<string, unknown> } | ({ ok: false } & CredentialError)> {
  const [offer] = await db
    .select()
    .from(credentialOffers)
    .where(eq(credentialOffers.accessTokenHash, await sha256Hex(accessToken)))
    .limit(1);
  if (!offer?.accessExpiresAt || offer.accessExpiresAt.getTime() <= now.getTime())
    return {
      ok: false,
      status: 401,
      error: 'invalid_token',
      description: 'Unknown or expired access token.',
    };
  if (offer.issuedAt)
    return {
      ok: false,
      status: 401,
      error: 'invalid_token',
      description: 'This offer’s credential was already issued.',
    };
  const configuration = request.credentialConfigurationId;
  if (configuration !== CONFIGURATION_JWT && configuration !== CONFIGURATION_LDP)
    return {
      ok: false,
      status: 400,
      error: 'unknown_credential_configuration',
      description: `credential_configuration_id must be ${CONFIGURATION_JWT} or ${CONFIGURATION_LDP}.`,
    };
  if (typeof request.proofJwt !== 'string')
    return {
      ok: false,
      status: 400,
      error: 'invalid_proof',
      description: 'A jwt proof of possession is required.',
    };

  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(request.proofJwt) as Record<string, unknown>;
  } catch {
    return { ok: false, status: 400, error: 'invalid_proof', description: 'The proof is not a JWT.' };
  }
  if (header.typ !== 'openid4vci-proof+jwt' || (header.alg !== 'ES256' && header.alg !== 'EdDSA'))
    return {
      ok: false,
      status: 400,
      error: 'invalid_proof',
      description: 'The proof must be typ openid4vci-proof+jwt, signed with ES256 or EdDSA.',
    };
  const key = holderKey(header);
  if (!key)
    return {
      ok: false,
      status: 400,
      error: 'invalid_proof',
      description: 'The proof must name its key as a did:key or did:jwk kid, or a public jwk.',
    };
  let payload: Record<string, unknown>;
  try {
    const publicKey = await importJWK(key.jwk as Parameters<typeof importJWK>[0], header.alg as string);
    ({ payload } = await jwtVerify(request.proofJwt, publicKey, {
      audience: trim(env.PUBLIC_BASE_URL),
      algorithms: [header.alg as string],
      currentDate: now,
      clockTolerance: 60,
    }));
  } catch {
    return {
      ok: false,
      status: 400,
      error: 'invalid_proof',
      description: 'The proof does not verify (key, audience or time).',
    };
  }
  if (typeof payload.iat !== 'number')
    return { ok: false, status: 400, error: 'invalid_proof', description: 'The proof has no iat.' };
  if (!(await nonceValid(env, payload.nonce, now)))
    return {
      ok: false,
      status: 400,
      error: 'invalid_nonce',
      description: 'Ask the nonce endpoint for a fresh c_nonce.',
    };

  // Once per offer: claim it before signing.
  const [claimed] = await db
    .update(credentialOffers)
    .set({ issuedAt: now })
    .where(and(eq(credentialOffers.id, offer.id), isNull(credentialOffers.issuedAt)))
    .returning({ certificateId: credentialOffers.certificateId });
  if (!claimed)
    return {
      ok: false,
      status: 401,
      error: 'invalid_token',
      description: 'This offer’s credential was already issued.',
    };

  const [row] = await db
    .select({ certificate: certificates, briefTitle: briefs.title, organisationName: organisations.name })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(and(eq(certificates.id, claimed.certificateId), eq(certificates.status, 'active')))
    .limit(1);
  if (!row)
    return {
      ok: false,
      status: 401,
      error: 'invalid_token',
      description: 'The certificate is no longer active.',
    };
  const c = row.certificate;
  const earned: EarnedCertificate = {
    holderId: c.holderId,
    briefId: c.briefId,
    briefTitle: row.briefTitle,
    domain: c.domain,
    organisation: {
      id: c.organisationId ?? '',
      name: c.signedOrganisationName ?? row.organisationName ?? 'Former employer',
      verified: true,
    },
    ratedBy: c.employerId,
    submissionId: c.submissionId ?? '',
    earnedAt: c.earnedAt ?? c.issuedAt,
  };
  const signingKey = await requireSigningKey(env);
  const signed = await signFor(
    db,
    env,
    signingKey,
    earned,
    c.id,
    c.certificateNo,
    c.issuedAt,
    { validUntil: c.validUntil },
    key.did,
  );
  return {
    ok: true,
    credential:
      configuration === CONFIGURATION_JWT ? signed.credentialJwt : JSON.parse(signed.credentialDataIntegrity),
  };
}
