/**
 * Certificates as Open Badges 3.0 `OpenBadgeCredential`s (W3C Verifiable Credentials, data
 * model 2.0), secured as VC-JWT: a compact JWS signed with ES256 (ECDSA on P-256), the algorithm
 * the 1EdTech validator and most wallets accept. Credentials signed before with Ed25519
 * (`alg: "EdDSA"`) keep verifying: {@link verifyCredential} accepts both, each only on a key of
 * its own type.
 *
 * The JWS follows the JSON Web Token proof format of Open Badges 3.0 (§ "Proofs"): the JOSE
 * header holds only `alg`, `kid` and `typ: "JWT"`, and `kid` is a URL that dereferences to that
 * one public JWK. The JWT payload is the credential itself with the registered claims `iss`
 * (= issuer.id), `sub` (= credentialSubject.id), `jti` (= id), `nbf` (= validFrom) and, when it
 * expires, `exp` (= validUntil). The VC 2.0 context already defines (and protects) `iss`, `sub`,
 * `nbf`, `iat` and `exp`; only `jti` is missing from it, so a third `@context` entry
 * ({@link JWT_CLAIMS_CONTEXT}) defines that one name and nothing else, and a JSON-LD processor in
 * safe mode accepts the payload (docs/decisions/0120-jsonld-jwt-claims-context.md).
 *
 * **No personal data is signed.** Neither the holder's name nor their email is in the
 * credential: a signed JWT cannot be edited or recalled once handed out. The subject is the
 * holder's random per-person `urn:uuid:` (stored on the account, erased with it), so the
 * credential is bound to one holder and says nothing about who they are. Only when the holder
 * asks for it is a salted hash of their email added (`identifier`), which wallets use to match.
 *
 * The JWS mechanics (compact serialisation, key import, signing and verifying, JWK thumbprints)
 * are `jose`'s, on WebCrypto; the rules of the credential format are here. No bindings or Hono.
 */

import {
  base64url,
  CompactSign,
  calculateJwkThumbprint,
  compactVerify,
  errors,
  importJWK,
  SignJWT,
} from 'jose';
import { parseCertificateNumber } from './certificate-number';
import { type StatusPurpose, statusEntry } from './status-list';
import {
  achievementImageUrl,
  achievementUrl,
  criteriaUrl,
  issuerUrl,
  keyUrl,
  OB_ACHIEVEMENT_CREDENTIAL_SCHEMA,
  statusListUrl,
  verifyPageUrl,
  websiteIri,
} from './urls';

export const VC_CONTEXT_V2 = 'https://www.w3.org/ns/credentials/v2';
export const OB_CONTEXT_V3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/**
 * Defines the JWT registered claim that sits beside the credential's own properties and that
 * the VC 2.0 context does not define: `jti` (IRI from the IANA JSON Web Token Claims registry).
 * `iss`, `sub`, `nbf`, `iat` and `exp` are defined and `@protected` by the VC 2.0 context itself,
 * so defining them again here would make a JSON-LD processor refuse the document ("tried to
 * redefine a protected term").
 */
export const JWT_CLAIMS_CONTEXT = {
  jti: { '@id': 'https://www.iana.org/assignments/jwt#jti', '@type': '@id' },
  // The `credentialSchema` type OB 3.0 names, which only the OB extensions context defines
  // (https://purl.imsglobal.org/spec/ob/v3p0/extensions.json); the same IRI, so no conflict.
  '1EdTechJsonSchemaValidator2019':
    'https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019',
} as const;

/**
 * The JWS algorithms a credential may be signed with, and the key each one needs. New
 * credentials are signed with ES256; EdDSA is accepted for credentials issued before.
 */
const ALGORITHMS = {
  ES256: { kty: 'EC', crv: 'P-256' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
} as const satisfies Record<string, { kty: string; crv: string }>;

export type CredentialAlgorithm = keyof typeof ALGORITHMS;

/** What new credentials are signed with. */
export const SIGNING_ALGORITHM = 'ES256' satisfies CredentialAlgorithm;

/** What {@link verifyCredential} accepts unless told otherwise. */
const DEFAULT_ALGORITHMS: readonly CredentialAlgorithm[] = ['ES256', 'EdDSA'];

/**
 * Clock skew tolerated when checking `nbf`: credentials are verified by other Worker instances
 * (and by third parties) whose clocks may run slightly behind the signer's.
 */
const NBF_LEEWAY_SECONDS = 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

// ---------------------------------------------------------------------------------------------
// Types

/** A rubric criterion as the achievement describes it (`ResultDescription`). */
export type RubricCriterionInput = {
  id: string;
  name: string;
  description: string;
  /** Scores 1..5 in ascending order, each with what it means. */
  levels: { score: number; descriptor: string }[];
};

/** What a certificate contributes to its credential. Nothing here identifies the holder. */
export type CredentialInput = {
  /** The certificate's UUID; becomes `urn:uuid:<id>`, the credential id. */
  certificateId: string;
  /** `VP-XXXX-XXXX-XXXX`; part of the verification page's URL (the evidence). */
  certificateNo: string;
  /** The service's base URL (`PUBLIC_BASE_URL`): every URL in the credential is under it. */
  baseUrl: string;
  /**
   * The issuing organisation (null: the platform itself) and its name at issue. `id`: the
   * issuer's identifier when not its Profile URL (new credentials: its `did:web`, decision 0350).
   */
  issuer: { organisationId: string | null; name: string; url?: string | null; id?: string };
  /** The holder's per-person UUID (`users.credential_subject_id`); becomes `urn:uuid:<id>`. */
  subjectId: string;
  /**
   * Instead of `urn:uuid:<subjectId>`: the DID of the key a wallet proved it holds (OID4VCI
   * credential binding, `did:key:` or `did:jwk:`).
   */
  subjectDid?: string;
  brief: { id: string; title: string; domain: string };
  /** The brief's rubric: the achievement's `resultDescription`s. */
  rubric?: RubricCriterionInput[] | null;
  /** Per-criterion scores (1..5) of the final submission, and the organisation's rating (1..5). */
  results?: { criteria: { criterionId: string; score: number }[]; overall: number | null } | null;
  /** This credential's bit in the revocation status list (global index); none for legacy ones. */
  statusIndex?: number | null;
  /** Only when the holder asked for it: `sha256$<hex>` of email + salt, and the salt. */
  identity?: { identityHash: string; salt: string } | null;
  issuedAt: Date;
  /** When the certificate stops being valid (the brief's `validForMonths`), if ever. */
  validUntil?: Date | null;
};

type OkpPublic = { kty: 'OKP'; crv: 'Ed25519'; x: string };
type EcPublic = { kty: 'EC'; crv: 'P-256'; x: string; y: string };
type KeyMembers = OkpPublic | EcPublic;

/** A public JWK as published (JWKS, `/ob/keys/{thumbprint}`). */
export type PublicJwk = KeyMembers & { kid: string; use: 'sig'; alg: CredentialAlgorithm };

export type SigningKey = {
  /** The JWS header `kid`: `{base}/ob/keys/{thumbprint}`, a URL that answers the public JWK. */
  kid: string;
  /** RFC 7638 thumbprint of the public key. */
  thumbprint: string;
  privateKey: CryptoKey;
  /** Also names the algorithm the key signs with (`alg`). */
  publicJwk: PublicJwk;
};

export type Jwks = { keys: PublicJwk[] };

/** The JWT payload: the Open Badges 3.0 credential plus the registered claims that mirror it. */
export type CredentialPayload = {
  '@context': (string | Record<string, unknown>)[];
  id: string;
  type: string[];
  issuer: { id: string; type: string[]; name: string; url?: string };
  validFrom: string;
  validUntil?: string;
  name: string;
  credentialSubject: {
    id: string;
    type: string[];
    achievement: Record<string, unknown> & { id: string; name: string };
    [member: string]: unknown;
  };
  [member: string]: unknown;
  iss: string;
  sub: string;
  jti: string;
  nbf: number;
  iat?: number;
  exp?: number;
};

export type CredentialVerificationFailure =
  | 'malformed' // not three base64url segments of JSON
  | 'header' // alg not accepted, typ is not JWT, kid missing, or unsupported header members
  | 'unknown-kid' // no key of the header alg's type with this kid in the JWKS
  | 'signature' // the signature does not verify
  | 'payload' // signed, but not an Open Badges 3.0 credential with consistent claims
  | 'not-yet-valid' // nbf / validFrom in the future
  | 'expired'; // exp / validUntil in the past

export type CredentialVerification =
  | { valid: true; kid: string; alg: CredentialAlgorithm; payload: CredentialPayload }
  | { valid: false; reason: CredentialVerificationFailure };

// ---------------------------------------------------------------------------------------------
// Strict base64url

/**
 * Strict base64url: only the URL-safe alphabet, no padding, and only the canonical encoding
 * (unused trailing bits zero). Accepting variants would let anyone mint different JWT strings
 * for the same signature, so this is checked before jose (whose decoder is lenient) sees a token.
 */
function fromBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  let bytes: Uint8Array;
  try {
    bytes = base64url.decode(text);
  } catch {
    return null;
  }
  return base64url.encode(bytes) === text ? bytes : null;
}

function decodeJson(segment: string): unknown {
  const bytes = fromBase64Url(segment);
  if (bytes === null) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Small structural guards (the payload comes from outside once a credential is presented)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function hasTypes(value: unknown, ...types: string[]): boolean {
  return isStringArray(value) && types.every((t) => value.includes(t));
}

// ---------------------------------------------------------------------------------------------
// Keys

/** A 32-byte key member (`x`, `y` or `d` of Ed25519 and P-256) as base64url: 43 characters. */
function isKeyMember(value: unknown): value is string {
  return typeof value === 'string' && value.length === 43 && fromBase64Url(value)?.length === 32;
}

/** The public key members of a JWK of a supported type, or null. */
function publicMembers(jwk: unknown): KeyMembers | null {
  if (!isRecord(jwk)) return null;
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && isKeyMember(jwk.x)) {
    return { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
  }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && isKeyMember(jwk.x) && isKeyMember(jwk.y)) {
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  }
  return null;
}

function algorithmOf(key: KeyMembers): CredentialAlgorithm {
  return key.kty === 'EC' ? 'ES256' : 'EdDSA';
}

/**
 * RFC 7638 JWK thumbprint (SHA-256, base64url) of a public key: derived from the key itself, so
 * it is stable across deployments and cannot drift from the key it names.
 */
export function jwkThumbprint(jwk: KeyMembers): Promise<string> {
  const members = jwk.kty === 'EC' ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } : jwk;
  return calculateJwkThumbprint(
    jwk.kty === 'EC' ? members : { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    'sha256',
  );
}

/**
 * A WebCrypto key from the key members of a JWK, for `alg`. Only the key material is passed: some
 * WebCrypto implementations reject JWK `alg`, `use` or `key_ops` values they do not expect, and
 * those members carry no key information. Private keys come out non-extractable.
 */
function importKey(jwk: KeyMembers & { d?: string }, alg: CredentialAlgorithm): Promise<CryptoKey> {
  return importJWK(jwk, alg) as Promise<CryptoKey>;
}

/**
 * Imports the Worker secret `CERT_SIGNING_KEY`: the JSON of a private P-256 JWK
 * `{"kty":"EC","crv":"P-256","x":…,"y":…,"d":…}` (what `npm run dev` generates locally). The
 * `kid` is `{baseUrl}/ob/keys/{thumbprint}`; a `kid` member in the secret is ignored, since the
 * header `kid` must be the URL that answers the key.
 *
 * An Ed25519 key is refused with a message that says what to do: new credentials are ES256, and
 * the Ed25519 key's public half belongs in `CERT_PREVIOUS_PUBLIC_KEYS`.
 *
 * Error messages never include the secret. The key pair is checked by signing and verifying a
 * probe, because a `d` pasted next to the wrong `x`/`y` would otherwise sign credentials that
 * nobody can verify with the published key.
 *
 * @throws Error when the secret is not such a JWK or the public members do not belong to `d`.
 */
export async function importSigningKey(secret: string, baseUrl: string): Promise<SigningKey> {
  let jwk: unknown;
  try {
    jwk = JSON.parse(secret);
  } catch {
    throw new Error('CERT_SIGNING_KEY is not JSON; expected a private P-256 JWK');
  }
  if (isRecord(jwk) && jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    throw new Error(
      'CERT_SIGNING_KEY is an Ed25519 key: credentials are now signed with ES256. Generate a P-256 key and ' +
        'list the Ed25519 public key in CERT_PREVIOUS_PUBLIC_KEYS (docs/certificates.md, "Rotating the signing key")',
    );
  }
  if (!isRecord(jwk) || jwk.kty !== 'EC' || jwk.crv !== 'P-256') {
    throw new Error('CERT_SIGNING_KEY must be a P-256 JWK ({"kty":"EC","crv":"P-256",…})');
  }
  const members = publicMembers(jwk);
  if (!isKeyMember(jwk.d) || members?.kty !== 'EC') {
    throw new Error(
      'CERT_SIGNING_KEY must contain the private key "d" and public key "x", "y" (32 bytes each, base64url)',
    );
  }

  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  try {
    privateKey = await importKey({ ...members, d: jwk.d }, SIGNING_ALGORITHM);
    publicKey = await importKey(members, SIGNING_ALGORITHM);
  } catch {
    // workerd checks the point and the pair on import (messages without the secret).
    throw new Error('CERT_SIGNING_KEY "x"/"y" is not the public key of its "d" (or not a P-256 point)');
  }
  const probe = await new CompactSign(encoder.encode('CERT_SIGNING_KEY key-pair check'))
    .setProtectedHeader({ alg: SIGNING_ALGORITHM })
    .sign(privateKey);
  if (!(await verifiesWith(probe, publicKey, SIGNING_ALGORITHM))) {
    throw new Error('CERT_SIGNING_KEY "x"/"y" is not the public key of its "d"');
  }

  const thumbprint = await jwkThumbprint(members);
  const kid = keyUrl(baseUrl, thumbprint);
  return {
    kid,
    thumbprint,
    privateKey,
    publicJwk: { ...members, kid, use: 'sig', alg: SIGNING_ALGORITHM },
  };
}

/**
 * Reads `CERT_PREVIOUS_PUBLIC_KEYS`: the public keys of retired signing keys (Ed25519 or P-256),
 * still published so credentials signed before a rotation keep verifying. Accepts a JSON array of
 * JWKs or a whole JWKS (`{"keys":[…]}`, e.g. a saved copy of `/.well-known/jwks.json`). Each keeps
 * its `kid`: the one the credentials it signed carry in their header (a bare thumbprint for the
 * Ed25519 keys of before, a `…/ob/keys/…` URL for ES256 ones). Unset or blank means none.
 *
 * @throws Error on malformed JSON, an unsupported key, a key without `kid`, or a key that contains
 *   private material (`d`) — a misconfiguration to fix, never something to publish.
 */
export function parsePreviousKeys(secretOrVar?: string): PublicJwk[] {
  if (secretOrVar === undefined || secretOrVar.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretOrVar);
  } catch {
    throw new Error('CERT_PREVIOUS_PUBLIC_KEYS is not JSON; expected an array of public JWKs');
  }
  const list = isRecord(parsed) && Array.isArray(parsed.keys) ? parsed.keys : parsed;
  if (!Array.isArray(list)) throw new Error('CERT_PREVIOUS_PUBLIC_KEYS must be a JSON array of public JWKs');

  return list.map((entry, i) => {
    const members = publicMembers(entry);
    if (!isRecord(entry) || members === null) {
      throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] is not a public Ed25519 or P-256 JWK`);
    }
    if ('d' in entry) {
      throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] contains a private key ("d"); remove it`);
    }
    if (!isNonEmptyString(entry.kid)) throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] needs a "kid"`);
    return { ...members, kid: entry.kid, use: 'sig', alg: algorithmOf(members) };
  });
}

/**
 * The body of `GET /.well-known/jwks.json`: the current public key first, then previous ones.
 *
 * Only public members are copied, whatever was passed in, so a private JWK can never be published
 * by mistake; keys without a `kid` are left out (nothing could select them), and a repeated `kid`
 * keeps its first occurrence.
 */
export function jwksFrom(keys: unknown[]): Jwks {
  const seen = new Set<string>();
  const published: PublicJwk[] = [];
  for (const key of keys) {
    const members = publicMembers(key);
    const kid = isRecord(key) && isNonEmptyString(key.kid) ? key.kid : undefined;
    if (members === null || kid === undefined || seen.has(kid)) continue;
    seen.add(kid);
    published.push({ ...members, kid, use: 'sig', alg: algorithmOf(members) });
  }
  return { keys: published };
}

/** The published key whose RFC 7638 thumbprint is `thumbprint` (what a `kid` URL names). */
export async function keyByThumbprint(jwks: Jwks, thumbprint: string): Promise<PublicJwk | undefined> {
  for (const key of jwks.keys) {
    if ((await jwkThumbprint(key)) === thumbprint) return key;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The credential

/** Whole seconds: JWT NumericDates are seconds, and `nbf` must equal `validFrom` exactly. */
function toNumericDate(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function toDateTime(numericDate: number): string {
  return new Date(numericDate * 1000).toISOString().replace('.000Z', 'Z');
}

/** The brief's achievement, as signed and as `GET /ob/achievements/{briefId}` describes it. */
export function buildAchievement(input: {
  baseUrl: string;
  brief: { id: string; title: string; domain: string };
  issuerName: string;
  rubric?: RubricCriterionInput[] | null;
}) {
  const id = achievementUrl(input.baseUrl, input.brief.id);
  const { title, domain } = input.brief;
  const resultDescription = [
    ...(input.rubric ?? []).map((criterion) => ({
      id: `${id}#criterion-${criterion.id}`,
      type: ['ResultDescription'],
      name: criterion.name,
      resultType: 'RubricCriterionLevel',
      rubricCriterionLevel: criterion.levels.map((level) => ({
        id: `${id}#criterion-${criterion.id}-level-${level.score}`,
        type: ['RubricCriterionLevel'],
        name: `${level.score} of 5`,
        description: level.descriptor,
        points: String(level.score),
      })),
    })),
    {
      id: `${id}#rating`,
      type: ['ResultDescription'],
      name: `${input.issuerName}'s rating of the final work (1 to 5)`,
      resultType: 'RawScore',
      valueMin: '1',
      valueMax: '5',
    },
  ];
  return {
    id,
    type: ['Achievement'],
    achievementType: 'Certificate',
    name: title,
    description: `Completed the work brief "${title}" (${domain}) set by ${input.issuerName}.`,
    // A PNG of the badge (no credential baked in), named after the achievement.
    image: {
      id: achievementImageUrl(input.baseUrl, input.brief.id),
      type: 'Image' as const,
      caption: `Badge of the achievement "${title}"`,
    },
    criteria: {
      id: criteriaUrl(input.baseUrl, input.brief.id),
      narrative:
        `Submit the work for every milestone of the brief "${title}"; the certificate is ` +
        `issued when ${input.issuerName} rates the final milestone as a pass.`,
    },
    resultDescription,
  };
}

/** Builds the credential for a certificate (without the JWT claims); exported for previews and tests. */
export function buildCredential(input: CredentialInput) {
  if (!UUID.test(input.certificateId)) throw new RangeError('certificateId must be a UUID');
  if (!UUID.test(input.subjectId)) throw new RangeError('subjectId must be a UUID');
  const number = parseCertificateNumber(input.certificateNo);
  if (!number.ok) throw new RangeError('certificateNo is not a valid certificate number');
  if (Number.isNaN(input.issuedAt.getTime())) throw new RangeError('issuedAt is not a valid date');
  if (input.validUntil && !(input.validUntil.getTime() > input.issuedAt.getTime())) {
    throw new RangeError('validUntil must be after issuedAt');
  }
  const base = new URL(input.baseUrl).href.replace(/\/$/, ''); // throws on a relative URL
  const achievement = buildAchievement({
    baseUrl: base,
    brief: input.brief,
    issuerName: input.issuer.name,
    rubric: input.rubric,
  });
  const results = input.results;
  const known = new Set((input.rubric ?? []).map((c) => c.id));
  const result = results
    ? [
        ...results.criteria
          .filter((r) => known.has(r.criterionId))
          .map((r) => ({
            type: ['Result'],
            resultDescription: `${achievement.id}#criterion-${r.criterionId}`,
            achievedLevel: `${achievement.id}#criterion-${r.criterionId}-level-${r.score}`,
          })),
        ...(results.overall === null
          ? []
          : [
              {
                type: ['Result'],
                resultDescription: `${achievement.id}#rating`,
                value: String(results.overall),
                status: 'Completed',
              },
            ]),
      ]
    : undefined;
  const identifier = input.identity
    ? [
        {
          type: 'IdentityObject',
          identityType: 'emailAddress',
          hashed: true,
          identityHash: input.identity.identityHash,
          salt: input.identity.salt,
        },
      ]
    : undefined;
  const validFrom = toDateTime(toNumericDate(input.issuedAt));
  const issuer = {
    id: input.issuer.id ?? issuerUrl(base, input.issuer.organisationId),
    type: ['Profile'],
    name: input.issuer.name,
    ...(input.issuer.url ? { url: websiteIri(input.issuer.url) } : {}),
  };
  return {
    '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3, JWT_CLAIMS_CONTEXT],
    id: `urn:uuid:${input.certificateId.toLowerCase()}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer,
    validFrom,
    ...(input.validUntil ? { validUntil: toDateTime(toNumericDate(input.validUntil)) } : {}),
    name: input.brief.title,
    credentialSubject: {
      // The holder's own opaque id: the same on all their credentials, meaningless to anyone
      // without our database, and gone with their account.
      id: input.subjectDid ?? `urn:uuid:${input.subjectId.toLowerCase()}`,
      type: ['AchievementSubject'],
      achievement,
      ...(result && result.length > 0 ? { result } : {}),
      ...(identifier ? { identifier } : {}),
    },
    // The public verification page: never the submission's content.
    evidence: [
      {
        id: verifyPageUrl(base, number.normalised),
        type: ['Evidence'],
        name: `Public verification of certificate ${number.normalised}`,
        description: 'Shows whether the certificate is valid, revoked, suspended or expired, now.',
      },
    ],
    credentialSchema: [{ id: OB_ACHIEVEMENT_CREDENTIAL_SCHEMA, type: '1EdTechJsonSchemaValidator2019' }],
    ...(input.statusIndex === undefined || input.statusIndex === null
      ? {}
      : {
          credentialStatus: statusEntry(
            (list) => statusListUrl(base, 'revocation' satisfies StatusPurpose, list),
            'revocation',
            input.statusIndex,
          ),
        }),
  };
}

/**
 * Signs any payload as a compact JWS with the key's algorithm and its `kid` URL, header
 * `{alg, kid, typ: "JWT"}` (the only members OB 3.0 allows). Used for credentials and status lists.
 */
export function signJwt(payload: Record<string, unknown>, key: SigningKey): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.publicJwk.alg, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
}

/**
 * Signs a certificate's credential as a VC-JWT (compact JWS, ES256). `nbf` and `iat` are the
 * issue time in whole seconds; `exp` mirrors `validUntil` when the certificate expires.
 */
export async function signCredential(input: CredentialInput, key: SigningKey): Promise<string> {
  const credential = buildCredential(input);
  const issuedAt = toNumericDate(input.issuedAt);
  return signJwt(
    {
      ...credential,
      iss: credential.issuer.id,
      sub: credential.credentialSubject.id,
      jti: credential.id,
      nbf: issuedAt,
      iat: issuedAt,
      ...(input.validUntil ? { exp: toNumericDate(input.validUntil) } : {}),
    },
    key,
  );
}

/**
 * Whether the compact JWS verifies with `key` under `alg` (and only `alg`). A JWS that jose
 * refuses to read (say, a payload segment with characters outside ASCII) does not verify either;
 * any other error is a fault here, not a verdict on the token, and is thrown.
 */
async function verifiesWith(jws: string, key: CryptoKey, alg: CredentialAlgorithm): Promise<boolean> {
  try {
    await compactVerify(jws, key, { algorithms: [alg] });
    return true;
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWSInvalid) {
      return false;
    }
    throw error;
  }
}

const ALLOWED_HEADER_MEMBERS = new Set(['alg', 'kid', 'typ']);

/**
 * The payload as an Open Badges 3.0 credential with consistent registered claims, or why not.
 * Checks every member {@link CredentialPayload} promises, since a presented credential is input.
 * Credentials issued before ES256 (no status, no `validUntil`, the OB/VC contexts only) pass too.
 */
function checkPayload(payload: unknown, now: number): CredentialPayload | CredentialVerificationFailure {
  if (!isRecord(payload)) return 'payload';
  const { issuer, credentialSubject: subject, validFrom, validUntil, nbf, iat, exp } = payload;
  if (!isRecord(issuer) || !isRecord(subject) || !isRecord(subject.achievement)) return 'payload';
  const achievement = subject.achievement;
  const context = payload['@context'];
  const shapeOk =
    Array.isArray(context) &&
    context[0] === VC_CONTEXT_V2 &&
    context.includes(OB_CONTEXT_V3) &&
    context.every((c) => typeof c === 'string' || isRecord(c)) &&
    hasTypes(payload.type, 'VerifiableCredential', 'OpenBadgeCredential') &&
    isNonEmptyString(payload.id) &&
    isNonEmptyString(payload.name) &&
    isNonEmptyString(issuer.id) &&
    hasTypes(issuer.type, 'Profile') &&
    typeof issuer.name === 'string' &&
    isNonEmptyString(subject.id) &&
    hasTypes(subject.type, 'AchievementSubject') &&
    isNonEmptyString(achievement.id) &&
    hasTypes(achievement.type, 'Achievement') &&
    typeof achievement.name === 'string' &&
    typeof achievement.description === 'string' &&
    isRecord(achievement.criteria) &&
    typeof achievement.criteria.narrative === 'string';
  if (!shapeOk || typeof validFrom !== 'string' || typeof nbf !== 'number') return 'payload';

  // OB 3.0 § "Verify a Credential VC-JWT Signature": each claim must mirror its credential field.
  const claimsOk =
    payload.iss === issuer.id &&
    payload.sub === subject.id &&
    payload.jti === payload.id &&
    Number.isInteger(nbf) &&
    Date.parse(validFrom) === nbf * 1000 &&
    (iat === undefined || Number.isInteger(iat)) &&
    // `exp` mirrors `validUntil`: both or neither.
    (exp === undefined) === (validUntil === undefined) &&
    (exp === undefined || Number.isInteger(exp)) &&
    (validUntil === undefined ||
      (typeof validUntil === 'string' && Date.parse(validUntil) === Number(exp) * 1000));
  if (!claimsOk) return 'payload';

  if (nbf > now + NBF_LEEWAY_SECONDS) return 'not-yet-valid';
  if (typeof exp === 'number' && exp <= now) return 'expired';
  return payload as CredentialPayload;
}

function isAlgorithm(value: unknown, accepted: readonly CredentialAlgorithm[]): value is CredentialAlgorithm {
  return typeof value === 'string' && (accepted as readonly string[]).includes(value);
}

/**
 * Verifies a VC-JWT credential against a JWKS: the key is chosen by the header's `kid` (so
 * credentials signed before a key rotation verify with the previous key), the algorithm must be
 * one of `options.algorithms` (ES256 and EdDSA) on a key of its type (P-256, Ed25519), and the
 * payload must be a structurally valid Open Badges 3.0 credential whose registered claims match it.
 *
 * Revocation is not part of the signature; the caller combines this with the status list or the
 * certificate's status.
 *
 * @param options.now the time to check `nbf`/`exp` against (defaults to the current time)
 * @param options.algorithms the JWS algorithms accepted (defaults to ES256 and EdDSA)
 */
export async function verifyCredential(
  jwt: string,
  jwks: { keys: readonly unknown[] },
  options: { now?: Date; algorithms?: readonly CredentialAlgorithm[] } = {},
): Promise<CredentialVerification> {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { valid: false, reason: 'malformed' };
  const [headerSegment = '', payloadSegment = '', signatureSegment = ''] = parts;

  const header = decodeJson(headerSegment);
  const signature = fromBase64Url(signatureSegment);
  if (!isRecord(header) || signature === null) return { valid: false, reason: 'malformed' };
  // OB 3.0 allows no other JOSE headers; refusing them also refuses `crit`, `jku` and `x5u`,
  // which would otherwise ask a verifier to trust keys named by the token itself.
  const { alg, kid, typ } = header;
  const headerOk =
    isAlgorithm(alg, options.algorithms ?? DEFAULT_ALGORITHMS) &&
    (typ === undefined || typ === 'JWT') &&
    Object.keys(header).every((name) => ALLOWED_HEADER_MEMBERS.has(name));
  if (!headerOk || !isNonEmptyString(kid)) return { valid: false, reason: 'header' };

  const jwk: unknown = jwks.keys.find((k) => isRecord(k) && k.kid === kid);
  const members = publicMembers(jwk);
  const { kty, crv } = ALGORITHMS[alg];
  if (
    !isRecord(jwk) ||
    members?.kty !== kty ||
    members.crv !== crv ||
    (jwk.alg !== undefined && jwk.alg !== alg) ||
    (jwk.use !== undefined && jwk.use !== 'sig')
  ) {
    return { valid: false, reason: 'unknown-kid' };
  }

  const publicKey = await importKey(members, alg);
  if (!(await verifiesWith(jwt, publicKey, alg))) return { valid: false, reason: 'signature' };

  const checked = checkPayload(decodeJson(payloadSegment), toNumericDate(options.now ?? new Date()));
  return typeof checked === 'string'
    ? { valid: false, reason: checked }
    : { valid: true, kid, alg, payload: checked };
}

/** The JOSE header and payload of a compact JWS, unverified (for display and routing only). */
export function decodeJwt(
  jwt: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } | null {
  const [h = '', p = ''] = jwt.split('.');
  const header = decodeJson(h);
  const payload = decodeJson(p);
  return isRecord(header) && isRecord(payload) ? { header, payload } : null;
}
