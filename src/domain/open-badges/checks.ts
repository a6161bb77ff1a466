/**
 * The checks of an Open Badges 3.0 credential from any issuer that need no network, in the order
 * of the 1EdTech validator (OB30Inspector): parse (the JOSE header and the payload, with or
 * without a `vc` claim), `@context` and `type`, the AchievementCredential JSON Schema, the JWT
 * claims against the credential, and its times. The signature, the status list and the issuer's
 * Profile need fetches: src/services/credential-verifier.ts. Plain TypeScript.
 */
import { Validator } from '@cfworker/json-schema';
import { base64url } from 'jose';
import achievementCredentialSchema from '../../assets/ob3/achievementcredential.json';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../json-depth';

export const VC_V2 = 'https://www.w3.org/ns/credentials/v2';
export const VC_V1 = 'https://www.w3.org/2018/credentials/v1';
/** The Open Badges 3.0 context URLs (3.0, 3.0.1, 3.0.2, 3.0.3, …). */
const OB_CONTEXT = /^https:\/\/purl\.imsglobal\.org\/spec\/ob\/v3p0\/context(-3\.0\.\d+)?\.json$/;

/** The CLR 2.0 context URLs (a learner record: `ClrCredential`). */
const CLR_CONTEXT = /^https:\/\/purl\.imsglobal\.org\/spec\/clr\/v2p0\/context(-2\.\d+\.\d+)?\.json$/;

/** Whether the credential is a CLR 2.0 learner record (`ClrCredential` with its context). */
export function isClrCredential(credential: Record<string, unknown>): boolean {
  return (
    asArray(credential.type).includes('ClrCredential') &&
    asArray(credential['@context']).some((c) => typeof c === 'string' && CLR_CONTEXT.test(c))
  );
}

/** Clock skew tolerated on `nbf`/`validFrom` and `exp`/`validUntil`. */
export const LEEWAY_SECONDS = 60;

/** The signature algorithms a credential may use (OB 3.0 names RS256 and ES256; EdDSA is common too). */
export const ACCEPTED_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
export type AcceptedAlgorithm = (typeof ACCEPTED_ALGORITHMS)[number];

/** The key type each algorithm needs. */
export const KEY_TYPE: Record<AcceptedAlgorithm, { kty: string; crv?: string }> = {
  RS256: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
};

/**
 * Header members that would let a token choose the key it is checked with, or demand processing
 * we do not do: refused outright, whatever the issuer.
 */
const REFUSED_HEADER_MEMBERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit'] as const;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asArray = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A base64url segment as JSON, or undefined (no padding, no other alphabet). */
function segmentJson(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    const text = strict.decode(base64url.decode(segment));
    // Depth first: the schema validator recurses once per level (a stack overflow near 300).
    if (jsonTooDeep(text)) return TOO_DEEP;
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const TOO_DEEP = Symbol('too deep');

/** The longest `kid` read (the same cap as every identifier: src/domain/open-badges/did.ts). */
const MAX_KID_LENGTH = 2048;

export type CheckOutcome = 'passed' | 'failed' | 'warning' | 'unverifiable' | 'skipped';
export type CheckName =
  | 'parse'
  | 'context'
  | 'schema'
  | 'signature'
  | 'claims'
  | 'times'
  | 'status'
  | 'issuer';
export type Check = { check: CheckName; outcome: CheckOutcome; detail: string };

export type ParsedJwt = {
  header: { alg: AcceptedAlgorithm; kid: string | null };
  payload: Record<string, unknown>;
  /** The credential: the `vc` claim when there is one, else the payload itself. */
  credential: Record<string, unknown>;
  /** Whether the credential was in a `vc` claim (the VC 1.1 JWT encoding). */
  vcClaim: boolean;
};

/**
 * The compact JWS's header and payload, with the header policy applied: `alg` one of
 * {@link ACCEPTED_ALGORITHMS} (so never `none` or an HMAC, which would let anyone holding the
 * public key sign), and none of `jwk`, `jku`, `x5u`, `x5c`, `crit`.
 */
export function parseJwt(jwt: string): { ok: true; value: ParsedJwt } | { ok: false; detail: string } {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { ok: false, detail: 'A compact JWS has three segments.' };
  const header = segmentJson(parts[0] ?? '');
  const payload = segmentJson(parts[1] ?? '');
  if (header === TOO_DEEP || payload === TOO_DEEP)
    return { ok: false, detail: `The JSON nests deeper than ${MAX_JSON_DEPTH} levels; not read.` };
  if (!isRecord(header)) return { ok: false, detail: 'The JOSE header is not base64url-encoded JSON.' };
  if (!isRecord(payload)) return { ok: false, detail: 'The payload is not base64url-encoded JSON.' };
  const { alg, kid } = header;
  if (alg === 'none' || (typeof alg === 'string' && alg.toLowerCase() === 'none'))
    return { ok: false, detail: 'alg "none": an unsigned token is never accepted.' };
  if (typeof alg === 'string' && /^HS/i.test(alg))
    return {
      ok: false,
      detail: `alg "${alg}" is an HMAC: anyone with the issuer's public key could make one; refused.`,
    };
  if (typeof alg !== 'string' || !(ACCEPTED_ALGORITHMS as readonly string[]).includes(alg))
    return { ok: false, detail: `alg "${String(alg)}" is not accepted (RS256, ES256 or EdDSA).` };
  for (const member of REFUSED_HEADER_MEMBERS)
    if (member in header)
      return {
        ok: false,
        detail:
          member === 'crit'
            ? 'The header has "crit": extensions we do not process; refused.'
            : `The header carries "${member}": a token may not name or embed its own key; refused.`,
      };
  if (kid !== undefined && (typeof kid !== 'string' || kid === ''))
    return { ok: false, detail: '"kid" must be a non-empty string.' };
  if (typeof kid === 'string' && kid.length > MAX_KID_LENGTH)
    return { ok: false, detail: `"kid" is over ${MAX_KID_LENGTH} characters; not read.` };
  const vcClaim = isRecord(payload.vc);
  return {
    ok: true,
    value: {
      header: { alg: alg as AcceptedAlgorithm, kid: (kid as string | undefined) ?? null },
      payload,
      credential: vcClaim ? (payload.vc as Record<string, unknown>) : payload,
      vcClaim,
    },
  };
}

/** `@context` and `type`: a VC (2.0, or 1.1) that is an Open Badges 3.0 AchievementCredential. */
export function checkContextAndType(credential: Record<string, unknown>): Check {
  const context = asArray(credential['@context']);
  const type = asArray(credential.type);
  if (context[0] !== VC_V2 && context[0] !== VC_V1)
    return {
      check: 'context',
      outcome: 'failed',
      detail: `The first @context must be ${VC_V2} (or ${VC_V1}).`,
    };
  // A learner record (such as the one this platform signs for a holder) is a genuine credential
  // of another kind: its own signature, times and issuer are checked like any other.
  if (isClrCredential(credential) && type.includes('VerifiableCredential'))
    return {
      check: 'context',
      outcome: 'passed',
      detail:
        'A CLR 2.0 learner record (ClrCredential), not a single Open Badges credential: its signature, times and issuer are checked here; the credentials it gathers are not (verify each on its own).',
    };
  if (!context.some((c) => typeof c === 'string' && OB_CONTEXT.test(c)))
    return {
      check: 'context',
      outcome: 'failed',
      detail: 'No Open Badges 3.0 @context (…/ob/v3p0/context-3.0.x.json).',
    };
  if (!type.includes('VerifiableCredential'))
    return { check: 'context', outcome: 'failed', detail: 'type does not include VerifiableCredential.' };
  if (!type.includes('OpenBadgeCredential') && !type.includes('AchievementCredential'))
    return {
      check: 'context',
      outcome: 'failed',
      detail: `type is ${JSON.stringify(type)}: not an OpenBadgeCredential or AchievementCredential.`,
    };
  return {
    check: 'context',
    outcome: 'passed',
    detail: `${context[0] === VC_V2 ? 'VC 2.0' : 'VC 1.1'} and Open Badges 3.0 contexts; type ${type.join(', ')}.`,
  };
}

let validator: Validator | undefined;

/**
 * The credential as the bundled schema reads it: `proof` as an array. The bundled copy (kept
 * verbatim, src/assets/ob3) types `proof` as an array, where the VC Data Model, the published
 * Data Integrity libraries and the credentials they make use one object; both are accepted by
 * wrapping a single proof (the credential's own, and any endorsement's) before validating.
 * Recursive, but only over a credential whose depth was bounded before it was parsed.
 */
function withProofArrays(value: Record<string, unknown>): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isRecord(node)) return node;
    const out: Record<string, unknown> = {};
    // defineProperty, not assignment: a member named "__proto__" stays a member.
    for (const [key, child] of Object.entries(node))
      Object.defineProperty(out, key, {
        value: key === 'proof' && isRecord(child) ? [walk(child)] : walk(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value) as Record<string, unknown>;
}

/** The official 1EdTech AchievementCredential schema (VC 2.0 form), src/assets/ob3. */
export function checkSchema(credential: Record<string, unknown>): Check {
  if (isClrCredential(credential))
    return {
      check: 'schema',
      outcome: 'warning',
      detail:
        'A CLR 2.0 ClrCredential: the Open Badges AchievementCredential schema does not apply; not validated.',
    };
  if (asArray(credential['@context'])[0] === VC_V1)
    return {
      check: 'schema',
      outcome: 'warning',
      detail: 'A VC 1.1 credential: the bundled 1EdTech schema is for the VC 2.0 form; not validated.',
    };
  validator ??= new Validator(achievementCredentialSchema as object, '2019-09', false);
  const result = validator.validate(withProofArrays(credential));
  if (result.valid)
    return {
      check: 'schema',
      outcome: 'passed',
      detail: 'Valid against the 1EdTech AchievementCredential schema.',
    };
  const errors = result.errors
    .filter((e) => e.keyword !== 'properties' && e.keyword !== '$ref' && e.keyword !== 'allOf')
    .slice(0, 3)
    .map((e) => `${e.instanceLocation}: ${e.error}`);
  return {
    check: 'schema',
    outcome: 'failed',
    detail: `Not valid against the 1EdTech AchievementCredential schema: ${(errors.length ? errors : [result.errors[0]?.error ?? 'invalid']).join('; ')}.`,
  };
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 / XML Schema `dateTimeStamp` (a time zone required) in whole seconds since the
 * epoch, or null when it is not one: nothing else is guessed at (`Date.parse` reads numbers,
 * local times and English dates). Second 60, a leap second (RFC 3339 § 5.7), is the last
 * instant of its minute: read as the minute's end.
 */
export function dateTimeSeconds(value: unknown): number | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = m[8] ? 0 : Number(m[10]);
  const offsetMinutes = m[8] ? 0 : Number(m[11]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  if (new Date(ms).getUTCDate() !== day) return null; // 31 April, 30 February, …
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60;
  return Math.floor(ms / 1000) + (second === 60 ? 1 : 0) - offset;
}

/** A date member: absent (null), a date-time (its seconds), or present and unreadable. */
const seconds = (value: unknown): number | null | 'unreadable' =>
  value === undefined ? null : (dateTimeSeconds(value) ?? 'unreadable');

/** The issuer's id (a string or `issuer.id`). */
export function issuerIdOf(credential: Record<string, unknown>): string | null {
  const issuer = credential.issuer;
  if (typeof issuer === 'string') return issuer;
  return isRecord(issuer) && typeof issuer.id === 'string' ? issuer.id : null;
}

/** The credential's dates: VC 2.0 `validFrom`/`validUntil`, or VC 1.1 `issuanceDate`/`expirationDate`. */
function datesOf(credential: Record<string, unknown>) {
  const fromName = credential.validFrom !== undefined ? 'validFrom' : 'issuanceDate';
  const untilName = credential.validUntil !== undefined ? 'validUntil' : 'expirationDate';
  const from = seconds(credential[fromName]);
  const until = seconds(credential[untilName]);
  const unreadable = [
    ...(from === 'unreadable' ? [fromName] : []),
    ...(until === 'unreadable' ? [untilName] : []),
  ];
  return {
    from: from === 'unreadable' ? null : from,
    until: until === 'unreadable' ? null : until,
    unreadable,
  };
}

/**
 * The JWT claims against the credential they mirror (OB 3.0 § "JWT Payload Format"): `iss` =
 * issuer id, `jti` = id, `sub` = credentialSubject.id, `nbf` = validFrom, `exp` = validUntil,
 * each when present.
 */
export function checkClaims(parsed: ParsedJwt): Check {
  const { payload, credential } = parsed;
  const problems: string[] = [];
  const subject = asArray(credential.credentialSubject)[0];
  const subjectId = isRecord(subject) && typeof subject.id === 'string' ? subject.id : undefined;
  const { from, until } = datesOf(credential);
  if (payload.iss !== undefined && payload.iss !== issuerIdOf(credential))
    problems.push('iss is not the issuer id');
  if (payload.jti !== undefined && credential.id !== undefined && payload.jti !== credential.id)
    problems.push('jti is not the credential id');
  if (payload.sub !== undefined && subjectId !== undefined && payload.sub !== subjectId)
    problems.push('sub is not credentialSubject.id');
  if (
    payload.nbf !== undefined &&
    (typeof payload.nbf !== 'number' || (from !== null && payload.nbf !== from))
  )
    problems.push('nbf is not validFrom');
  if (
    payload.exp !== undefined &&
    (typeof payload.exp !== 'number' || (until !== null && payload.exp !== until))
  )
    problems.push('exp is not validUntil');
  if (parsed.vcClaim && payload.iss === undefined) problems.push('a vc claim needs iss');
  return problems.length
    ? {
        check: 'claims',
        outcome: 'failed',
        detail: `The JWT claims contradict the credential: ${problems.join('; ')}.`,
      }
    : { check: 'claims', outcome: 'passed', detail: 'The JWT claims match the credential.' };
}

/** `nbf`/`validFrom` not in the future, `exp`/`validUntil` not past (60 s leeway). */
export function checkTimes(
  credential: Record<string, unknown>,
  payload: Record<string, unknown> | null,
  now: Date,
): Check & { expired?: boolean } {
  const at = Math.floor(now.getTime() / 1000);
  const { from, until, unreadable } = datesOf(credential);
  // A date that does not parse is not "no date": an expiry nobody can read never means "never
  // expires" (fail closed).
  if (unreadable.length > 0)
    return {
      check: 'times',
      outcome: 'failed',
      detail: `${unreadable.join(' and ')} ${unreadable.length > 1 ? 'are' : 'is'} not an RFC 3339 date-time with a time zone: the credential's validity cannot be read.`,
    };
  for (const claim of ['nbf', 'exp'] as const)
    if (payload?.[claim] !== undefined && !Number.isFinite(payload[claim]))
      return {
        check: 'times',
        outcome: 'failed',
        detail: `The JWT claim ${claim} is not a finite NumericDate: the credential's validity cannot be read.`,
      };
  const nbf = typeof payload?.nbf === 'number' ? payload.nbf : null;
  const exp = typeof payload?.exp === 'number' ? payload.exp : null;
  const start = Math.max(from ?? -Infinity, nbf ?? -Infinity);
  const end = Math.min(until ?? Infinity, exp ?? Infinity);
  if (from === null && nbf === null)
    return { check: 'times', outcome: 'failed', detail: 'No validFrom (or issuanceDate) and no nbf.' };
  if (start > at + LEEWAY_SECONDS)
    return {
      check: 'times',
      outcome: 'failed',
      detail: `Not valid before ${new Date(start * 1000).toISOString()}.`,
    };
  if (end <= at - LEEWAY_SECONDS)
    return {
      check: 'times',
      outcome: 'failed',
      expired: true,
      detail: `Expired on ${new Date(end * 1000).toISOString()}.`,
    };
  return {
    check: 'times',
    outcome: 'passed',
    detail:
      end === Infinity
        ? `Valid from ${new Date(start * 1000).toISOString()}; does not expire.`
        : `Valid from ${new Date(start * 1000).toISOString()} until ${new Date(end * 1000).toISOString()}.`,
  };
}

/** What a verifier shows of a credential: names, dates, never more than it says. */
export function summarise(credential: Record<string, unknown>) {
  const subject = asArray(credential.credentialSubject)[0];
  const achievement = isRecord(subject) && isRecord(subject.achievement) ? subject.achievement : {};
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 500) : null);
  const evidence = asArray(credential.evidence)
    .map((e) => (isRecord(e) && typeof e.id === 'string' ? e.id : null))
    .filter((e): e is string => e !== null);
  return {
    id: text(credential.id),
    type: asArray(credential.type).filter((t): t is string => typeof t === 'string'),
    name: text(credential.name),
    achievement: {
      id: text(achievement.id),
      name: text(achievement.name),
      description: text(achievement.description),
      achievementType: text(achievement.achievementType),
    },
    subjectId: isRecord(subject) ? text(subject.id) : null,
    validFrom: text(credential.validFrom ?? credential.issuanceDate),
    validUntil: text(credential.validUntil ?? credential.expirationDate),
    evidence: evidence.slice(0, 5),
  };
}
