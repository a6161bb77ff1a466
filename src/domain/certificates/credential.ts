/**
 * Certificates as Open Badges 3.0 `OpenBadgeCredential`s (W3C Verifiable Credentials, data
 * model 2.0), secured as VC-JWT: a compact JWS signed with Ed25519 (`alg: "EdDSA"`).
 *
 * Follows the JSON Web Token proof format of Open Badges 3.0 (§ "Proofs"): the JOSE header holds
 * only `alg`, `kid` and `typ: "JWT"`; the JWT payload is the credential itself with the registered
 * claims `iss` (= issuer.id), `sub` (= credentialSubject.id), `jti` (= id) and `nbf` (= validFrom)
 * added. The older VC 1.1 style wrapped the credential in a `vc` claim; OB 3.0 with the VC 2.0
 * context puts it at the top level, so that is what is signed here.
 *
 * **No personal data is signed.** The holder's name and email are not in the credential: a signed
 * JWT cannot be edited or recalled once it has been handed out, so anything inside it would
 * outlive an erasure request or a withdrawn `public_verification` consent. The subject is an
 * opaque `urn:uuid:` of the certificate; the verification endpoint shows the holder's name beside
 * the credential, from the database, only while consent is active.
 *
 * The JWS mechanics (compact serialisation, key import, signing and verifying, JWK thumbprints)
 * are `jose`'s, which runs on WebCrypto (Ed25519 is supported by workerd and Node ≥ 20); the rules
 * of the credential format (what is signed, which header members and keys are accepted, the
 * registered claims and their leeway) are here. No bindings or Hono.
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

export const VC_CONTEXT_V2 = 'https://www.w3.org/ns/credentials/v2';
export const OB_CONTEXT_V3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/**
 * The JWS algorithms a credential may be signed with, and the key each one needs. Signing takes
 * the algorithm from the key, verifying from the header (among those the caller accepts), so
 * another algorithm (ES256 on P-256 keys, via jose's `importJWK`/`importPKCS8`) is an entry here
 * plus the parsing of its keys. Today every key is Ed25519.
 */
const ALGORITHMS = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
} as const satisfies Record<string, { kty: string; crv: string }>;

export type CredentialAlgorithm = keyof typeof ALGORITHMS;

/** The algorithm of Ed25519 keys in JOSE (RFC 8037). */
const JWS_ALG = 'EdDSA' satisfies CredentialAlgorithm;

/** What {@link verifyCredential} accepts unless told otherwise. */
const DEFAULT_ALGORITHMS: readonly CredentialAlgorithm[] = [JWS_ALG];

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

/** What a certificate contributes to its credential. Nothing here identifies the holder. */
export type CredentialInput = {
  /** The certificate's UUID; becomes `urn:uuid:<id>` for the credential id and the subject id. */
  certificateId: string;
  /** `VP-XXXX-XXXX-XXXX`; part of the achievement's verification URL. */
  certificateNo: string;
  /** The service's base URL (e.g. `PUBLIC_BASE_URL`): the issuer id and `iss`. */
  issuerUrl: string;
  issuerName: string;
  briefTitle: string;
  domain: string;
  /** Shown as the party whose rating earned the certificate; use an organisation name. */
  employerName: string;
  issuedAt: Date;
};

/** A public Ed25519 JWK as published in the JWKS. */
export type PublicJwk = JsonWebKey & {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
};

export type SigningKey = {
  /** Identifies the key in JWS headers and the JWKS: the RFC 7638 thumbprint unless the secret sets one. */
  kid: string;
  privateKey: CryptoKey;
  /** Also names the algorithm the key signs with (`alg`). */
  publicJwk: PublicJwk;
};

export type Jwks = { keys: JsonWebKey[] };

/** The Open Badges 3.0 credential, as it appears inside the JWT payload. */
export type OpenBadgeCredential = {
  '@context': string[];
  id: string;
  type: string[];
  issuer: { id: string; type: string[]; name: string };
  validFrom: string;
  name: string;
  credentialSubject: {
    id: string;
    type: string[];
    achievement: {
      id: string;
      type: string[];
      name: string;
      description: string;
      criteria: { narrative: string };
      achievementType?: string;
    };
  };
};

/** The JWT payload: the credential plus the registered claims that mirror it. */
export type CredentialPayload = OpenBadgeCredential & {
  iss: string;
  sub: string;
  jti: string;
  nbf: number;
  iat?: number;
  exp?: number;
};

export type CredentialVerificationFailure =
  | 'malformed' // not three base64url segments of JSON
  | 'header' // alg is not EdDSA, typ is not JWT, kid missing, or unsupported header members
  | 'unknown-kid' // no Ed25519 key with this kid in the JWKS
  | 'signature' // the signature does not verify
  | 'payload' // signed, but not an Open Badges 3.0 credential with consistent claims
  | 'not-yet-valid' // nbf / validFrom in the future
  | 'expired'; // exp in the past

export type CredentialVerification =
  | { valid: true; kid: string; payload: CredentialPayload }
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

function jwkKid(jwk: JsonWebKey): string | undefined {
  return 'kid' in jwk && typeof jwk.kid === 'string' && jwk.kid.length > 0 ? jwk.kid : undefined;
}

// ---------------------------------------------------------------------------------------------
// Keys

/**
 * RFC 7638 JWK thumbprint (SHA-256, base64url) of an OKP public key: a `kid` derived from the key
 * itself, so it is stable across deployments and cannot drift from the key it names.
 */
export function jwkThumbprint(jwk: { kty: string; crv: string; x: string }): Promise<string> {
  return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, 'sha256');
}

/**
 * A WebCrypto key from the key members of a JWK, for `alg`. Only the key material is passed: some
 * WebCrypto implementations reject JWK `alg`, `use` or `key_ops` values they do not expect, and
 * those members carry no key information. Private keys come out non-extractable.
 */
function importKey(
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d?: string },
  alg: CredentialAlgorithm,
): Promise<CryptoKey> {
  return importJWK(jwk, alg);
}

/** A 32-byte Ed25519 key member (`x` or `d`) encoded as base64url: 43 characters. */
function isKeyMember(value: unknown): value is string {
  return typeof value === 'string' && value.length === 43 && fromBase64Url(value)?.length === 32;
}

/**
 * Imports the Worker secret `CERT_SIGNING_KEY`: the JSON of a private OKP JWK
 * `{"kty":"OKP","crv":"Ed25519","d":…,"x":…,"kid"?:…}` (what `npm run dev` generates locally).
 *
 * Error messages never include the secret. The key pair is checked by signing and verifying a
 * probe, because a `d` pasted next to the wrong `x` would otherwise sign credentials that nobody
 * can verify with the published key.
 *
 * @throws Error when the secret is not such a JWK or `x` does not belong to `d`.
 */
export async function importSigningKey(secret: string): Promise<SigningKey> {
  let jwk: unknown;
  try {
    jwk = JSON.parse(secret);
  } catch {
    throw new Error('CERT_SIGNING_KEY is not JSON; expected a private Ed25519 JWK');
  }
  if (!isRecord(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
    throw new Error('CERT_SIGNING_KEY must be an Ed25519 JWK ({"kty":"OKP","crv":"Ed25519",…})');
  }
  if (!isKeyMember(jwk.d) || !isKeyMember(jwk.x)) {
    throw new Error(
      'CERT_SIGNING_KEY must contain the private key "d" and public key "x" (32 bytes, base64url)',
    );
  }
  if (jwk.kid !== undefined && !isNonEmptyString(jwk.kid)) {
    throw new Error('CERT_SIGNING_KEY "kid" must be a non-empty string when present');
  }

  const base = { kty: 'OKP', crv: 'Ed25519', x: jwk.x } as const;
  const privateKey = await importKey({ ...base, d: jwk.d }, JWS_ALG);
  const publicKey = await importKey(base, JWS_ALG);
  const probe = await new CompactSign(encoder.encode('CERT_SIGNING_KEY key-pair check'))
    .setProtectedHeader({ alg: JWS_ALG })
    .sign(privateKey);
  if (!(await verifiesWith(probe, publicKey, JWS_ALG))) {
    throw new Error('CERT_SIGNING_KEY "x" is not the public key of its "d"');
  }

  const kid = jwk.kid ?? (await jwkThumbprint(base));
  return { kid, privateKey, publicJwk: { ...base, kid, use: 'sig', alg: JWS_ALG } };
}

/**
 * Reads `CERT_PREVIOUS_PUBLIC_KEYS`: the public keys of retired signing keys, still published so
 * credentials signed before a rotation keep verifying. Accepts a JSON array of JWKs or a whole
 * JWKS (`{"keys":[…]}`, e.g. a saved copy of `/.well-known/jwks.json`). Unset or blank means none.
 *
 * @throws Error on malformed JSON, a non-Ed25519 key, a key without `kid`, or a key that contains
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
    if (!isRecord(entry) || entry.kty !== 'OKP' || entry.crv !== 'Ed25519' || !isKeyMember(entry.x)) {
      throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] is not a public Ed25519 JWK`);
    }
    if ('d' in entry) {
      throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] contains a private key ("d"); remove it`);
    }
    if (!isNonEmptyString(entry.kid)) throw new Error(`CERT_PREVIOUS_PUBLIC_KEYS[${i}] needs a "kid"`);
    return { kty: 'OKP', crv: 'Ed25519', x: entry.x, kid: entry.kid, use: 'sig', alg: JWS_ALG };
  });
}

/**
 * The body of `GET /.well-known/jwks.json`: the current public key first, then previous ones.
 *
 * Only public members are copied, whatever was passed in, so a private JWK can never be published
 * by mistake; keys without a `kid` are left out (nothing could select them), and a repeated `kid`
 * keeps its first occurrence.
 */
export function jwksFrom(keys: JsonWebKey[]): Jwks {
  const seen = new Set<string>();
  const published: PublicJwk[] = [];
  for (const key of keys) {
    const kid = jwkKid(key);
    if (kid === undefined || seen.has(kid) || key.kty !== 'OKP' || key.crv !== 'Ed25519') continue;
    if (!isKeyMember(key.x)) continue;
    seen.add(kid);
    published.push({ kty: 'OKP', crv: 'Ed25519', x: key.x, kid, use: 'sig', alg: JWS_ALG });
  }
  return { keys: published };
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

/** Builds the credential for a certificate; exported for previews and tests. */
export function buildCredential(input: CredentialInput): OpenBadgeCredential {
  if (!UUID.test(input.certificateId)) throw new RangeError('certificateId must be a UUID');
  const number = parseCertificateNumber(input.certificateNo);
  if (!number.ok) throw new RangeError('certificateNo is not a valid certificate number');
  if (Number.isNaN(input.issuedAt.getTime())) throw new RangeError('issuedAt is not a valid date');
  const issuer = new URL(input.issuerUrl); // throws on a relative or malformed URL
  const issuerId = issuer.href.replace(/\/$/, '');
  const credentialId = `urn:uuid:${input.certificateId.toLowerCase()}`;

  return {
    '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3],
    id: credentialId,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuerId, type: ['Profile'], name: input.issuerName },
    validFrom: toDateTime(toNumericDate(input.issuedAt)),
    name: input.briefTitle,
    credentialSubject: {
      // The credential's own id stands in for the holder: opaque, and unlinkable across a
      // holder's certificates, so the signed data says nothing about who the person is.
      id: credentialId,
      type: ['AchievementSubject'],
      achievement: {
        // The public verification URL: dereferenceable, and it shows the live status.
        id: `${issuerId}/api/verify/${number.normalised}`,
        type: ['Achievement'],
        achievementType: 'Certificate',
        name: input.briefTitle,
        description: `Completed the work brief "${input.briefTitle}" (${input.domain}) set by ${input.employerName}.`,
        criteria: {
          narrative:
            `Submit the work for every milestone of the brief "${input.briefTitle}"; the certificate is ` +
            `issued when ${input.employerName} rates the final milestone as a pass.`,
        },
      },
    },
  };
}

/**
 * Signs a certificate's credential as a VC-JWT (compact JWS, EdDSA over Ed25519).
 * `nbf` and `iat` are the issue time in whole seconds; there is no `exp` because certificates do
 * not expire (revocation is a status shown by the verification endpoint).
 */
export async function signCredential(input: CredentialInput, key: SigningKey): Promise<string> {
  const credential = buildCredential(input);
  const issuedAt = toNumericDate(input.issuedAt);
  const payload: CredentialPayload = {
    iss: credential.issuer.id,
    sub: credential.credentialSubject.id,
    jti: credential.id,
    nbf: issuedAt,
    iat: issuedAt,
    ...credential,
  };
  // OB 3.0 allows only these three header members.
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.publicJwk.alg, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
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
 */
function checkPayload(payload: unknown, now: number): CredentialPayload | CredentialVerificationFailure {
  if (!isRecord(payload)) return 'payload';
  const { issuer, credentialSubject: subject, validFrom, nbf, iat, exp } = payload;
  if (!isRecord(issuer) || !isRecord(subject) || !isRecord(subject.achievement)) return 'payload';
  const achievement = subject.achievement;
  const context = payload['@context'];
  const shapeOk =
    isStringArray(context) &&
    context[0] === VC_CONTEXT_V2 &&
    context.includes(OB_CONTEXT_V3) &&
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
    (exp === undefined || Number.isInteger(exp));
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
 * one of `options.algorithms` (EdDSA) on a key of its type (Ed25519), and the payload must be a
 * structurally valid Open Badges 3.0 credential whose registered claims match it.
 *
 * Revocation is not part of the signature; the caller combines this with the certificate's status.
 *
 * @param options.now the time to check `nbf`/`exp` against (defaults to the current time)
 * @param options.algorithms the JWS algorithms accepted (defaults to EdDSA)
 */
export async function verifyCredential(
  jwt: string,
  jwks: Jwks,
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

  const jwk = jwks.keys.find((k) => jwkKid(k) === kid);
  const { kty, crv } = ALGORITHMS[alg];
  if (
    jwk?.kty !== kty ||
    jwk.crv !== crv ||
    !isKeyMember(jwk.x) ||
    (jwk.alg !== undefined && jwk.alg !== alg) ||
    (jwk.use !== undefined && jwk.use !== 'sig')
  ) {
    return { valid: false, reason: 'unknown-kid' };
  }

  const publicKey = await importKey({ kty, crv, x: jwk.x }, alg);
  if (!(await verifiesWith(jwt, publicKey, alg))) return { valid: false, reason: 'signature' };

  const checked = checkPayload(decodeJson(payloadSegment), toNumericDate(options.now ?? new Date()));
  return typeof checked === 'string'
    ? { valid: false, reason: checked }
    : { valid: true, kid, payload: checked };
}
