/**
 * The platform as a DigiLocker issuer (API Setu issuer APIs; docs/digilocker.md, decision 0360):
 * DigiLocker calls Pull URI when a person searches for their certificate in the DigiLocker app
 * and Pull Doc when they open it. Each request is authenticated by `x-digilocker-hmac` (base64
 * HMAC-SHA256 of the raw body under the shared key) and a timestamp within 15 minutes; then the
 * certificate is found by its number (`UDF1`) with the holder's full name and date of birth, and
 * given only while it verifies (active, issuer not suspended, holder not erased), its holder's
 * consent to public verification stands, and they have not turned DigiLocker off for it. Every
 * request is audited; a repeated transaction id gets the first answer's outcome again.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { briefs, certificates, organisations, users } from '../../db/schema';
import { parseCertificateNumber } from '../../domain/certificates/certificate-number';
import { certificateDataXml } from '../../domain/digilocker/certificate-data';
import {
  certificateNoOfUri,
  DigiLockerRequestError,
  type Document,
  type DocumentFormat,
  documentUri,
  echoOf,
  isoDateOfBirth,
  namesMatch,
  type PullDocRequest,
  parsePullDocRequest,
  parsePullUriRequest,
  pullDocResponse,
  pullUriResponse,
  timestampFresh,
  wants,
} from '../../domain/digilocker/protocol';
import { log } from '../../lib/log';
import { ProblemError } from '../../lib/problem';
import { recordAudit } from '../audit';
import {
  certificatePdfDate,
  holderCertificateDocument,
  ISSUER_NAME,
  issuingOrganisationName,
  publicStatus,
  verifyPageUrl,
} from '../certificates';
import { hasConsent } from '../consent';
import { renderCertificatePdf } from '../renderers';
import { type DigiLockerConfig, digilockerConfig } from './config';

export type DigiLockerEnv = Pick<
  Env,
  'PUBLIC_BASE_URL' | 'CACHE' | 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'
>;

function requireConfig(env: DigiLockerEnv): DigiLockerConfig {
  const config = digilockerConfig(env);
  if (!config)
    throw new ProblemError(
      'not-configured',
      'This server is not registered as a DigiLocker issuer: DIGILOCKER_ORG_ID, DIGILOCKER_DOC_TYPE and ' +
        'DIGILOCKER_API_KEY must all be set (docs/digilocker.md).',
    );
  return config;
}

function base64ToBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return null;
  try {
    return Uint8Array.from(atob(value), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Whether `header` is base64(HMAC-SHA256(body, key)), compared in constant time. */
export async function hmacValid(body: Uint8Array, header: string | null | undefined, key: string) {
  const signature = header ? base64ToBytes(header.trim()) : null;
  if (signature?.length !== 32) return false;
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return crypto.subtle.verify(
    'HMAC',
    hmacKey,
    signature as Uint8Array<ArrayBuffer>,
    body as Uint8Array<ArrayBuffer>,
  );
}

/** What DigiLocker is answered: an HTTP status and the XML message. */
export type DigiLockerAnswer = { status: 200 | 401 | 409; xml: string };

type Endpoint = 'pull_uri' | 'pull_doc';

/** The outcome recorded for a transaction id: the certificate given, or the refusal. */
type Remembered = { fingerprint: string; certificateId: string | null };

/** How long a transaction id is remembered: past the 15-minute timestamp window on both sides. */
const TXN_TTL_SECONDS = 60 * 60;

const txnKey = (endpoint: Endpoint, orgId: string, txn: string) =>
  `digilocker:txn:${endpoint}:${orgId}:${txn}`;

async function fingerprintOf(body: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>);
  return bytesToBase64(new Uint8Array(digest));
}

/** A certificate as DigiLocker may be given it, with what matching needs. */
type Candidate = {
  id: string;
  certificateNo: string;
  holderId: string;
  holderName: string;
  holderDateOfBirth: string | null;
  holderDisabledAt: Date | null;
  status: 'active' | 'revoked' | 'pending_issuer';
  organisationVerification: string | null;
  validUntil: Date | null;
  credentialJwt: string | null;
  digilockerEnabled: boolean;
  issuedAt: Date;
  briefTitle: string;
  domain: string;
  signedOrganisationName: string | null;
  organisationName: string | null;
};

async function candidateByNumber(db: Database, input: string): Promise<Candidate | null> {
  // As people type it (lower case, spaces, O for 0): the number's own rules; a typo finds nothing.
  const parsed = parseCertificateNumber(input);
  if (!parsed.ok) return null;
  const [row] = await db
    .select({
      id: certificates.id,
      certificateNo: certificates.certificateNo,
      holderId: certificates.holderId,
      holderName: users.name,
      holderDateOfBirth: users.dateOfBirth,
      holderDisabledAt: users.disabledAt,
      status: certificates.status,
      organisationVerification: organisations.verification,
      validUntil: certificates.validUntil,
      credentialJwt: certificates.credentialJwt,
      digilockerEnabled: certificates.digilockerEnabled,
      issuedAt: certificates.issuedAt,
      briefTitle: briefs.title,
      domain: certificates.domain,
      signedOrganisationName: certificates.signedOrganisationName,
      organisationName: organisations.name,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.holderId))
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(eq(certificates.certificateNo, parsed.normalised))
    .limit(1);
  return row ?? null;
}

/**
 * Whether DigiLocker may be given `c` now: what verification shows as active (the same status
 * function, so a revocation, a suspension, an expiry or an erasure stops it at the same moment),
 * signed, its holder consenting to public verification, and DigiLocker not turned off for it.
 */
async function givable(db: Database, c: Candidate, now: Date): Promise<boolean> {
  if (c.holderDisabledAt) return false;
  if (publicStatus(c.status, c.organisationVerification, c.validUntil, now) !== 'active') return false;
  if (!c.credentialJwt || !c.digilockerEnabled) return false;
  return hasConsent(db, c.holderId, 'public_verification', now);
}

/** The person DigiLocker names is the holder: same full name, same date of birth. */
function samePerson(c: Candidate, fullName: string | null, dob: string | null): boolean {
  if (!fullName || !dob || !c.holderDateOfBirth) return false;
  return namesMatch(fullName, c.holderName) && isoDateOfBirth(dob) === c.holderDateOfBirth;
}

/** The PDF (the holder's own download, byte for byte) and the XML data, base64, as `format` asks. */
async function documentOf(
  db: Database,
  env: DigiLockerEnv,
  config: DigiLockerConfig,
  c: Candidate,
  format: DocumentFormat,
): Promise<Document> {
  const parts = wants(format);
  const document: Document = {};
  if (parts.pdf) {
    const printable = await holderCertificateDocument(db, env, c.certificateNo, c.holderId);
    if (printable) {
      // Heavy (pdf-lib, fonts, HarfBuzz): loaded on first use (../renderers).
      document.pdf = bytesToBase64(await renderCertificatePdf(printable, certificatePdfDate(printable)));
    }
  }
  if (parts.xml) {
    const xml = certificateDataXml({
      docType: config.docType,
      uri: documentUri(config.orgId, config.docType, c.certificateNo),
      certificateNo: c.certificateNo,
      holderName: c.holderName,
      achievement: { title: c.briefTitle, domain: c.domain },
      issuer: { name: issuingOrganisationName(c), platform: ISSUER_NAME },
      issuedAt: c.issuedAt,
      validUntil: c.validUntil,
      verifyUrl: verifyPageUrl(env, c.certificateNo),
      credentialJwt: c.credentialJwt ?? '',
    });
    document.xml = bytesToBase64(new TextEncoder().encode(xml));
  }
  return document;
}

type Audited = {
  endpoint: Endpoint;
  txn: string;
  outcome: 'issued' | 'not_found' | 'refused_hmac' | 'refused_timestamp' | 'txn_reused';
  certificate?: Candidate | null;
  /** Recorded only when the requester is the holder (DigiLocker's id of a stranger is theirs, not ours to keep). */
  digiLockerId?: string | null;
  uri?: string;
  format?: DocumentFormat;
  replay?: boolean;
};

/**
 * One audit entry per request: who (DigiLocker, and the DigiLocker account when it is the
 * holder's), which document, the outcome. About the certificate when one was named, so the holder
 * sees it in their access export (`audit-log.json`), failed attempts on their number included.
 */
function audit(db: Database, a: Audited): Promise<void> {
  const matched = a.outcome === 'issued';
  return recordAudit(db, {
    actorId: null,
    action: `digilocker.${a.endpoint}`,
    targetType: 'certificate',
    targetId: a.certificate?.id ?? null,
    details: {
      requester: 'DigiLocker',
      outcome: a.outcome,
      txn: a.txn.slice(0, 100),
      ...(a.certificate ? { certificateNo: a.certificate.certificateNo } : {}),
      ...(matched && a.uri ? { uri: a.uri } : {}),
      ...(matched && a.format ? { format: a.format } : {}),
      ...(matched && a.digiLockerId ? { digiLockerId: a.digiLockerId.slice(0, 64) } : {}),
      ...(a.replay ? { replay: true } : {}),
    },
  });
}

/**
 * Unauthenticated refusals (a bad HMAC) are audited too, but at most this many a minute per
 * isolate: anyone can send them, and each would otherwise be a database write. The rest are
 * logged (decision 0360).
 */
const UNAUTHENTICATED_AUDITS_PER_MINUTE = 60;
const unauthenticatedAudits = { minute: 0, count: 0 };

function auditUnauthenticated(db: Database, endpoint: Endpoint, txn: string, now: Date): Promise<void> {
  const minute = Math.floor(now.getTime() / 60_000);
  if (unauthenticatedAudits.minute !== minute) Object.assign(unauthenticatedAudits, { minute, count: 0 });
  unauthenticatedAudits.count += 1;
  if (unauthenticatedAudits.count <= UNAUTHENTICATED_AUDITS_PER_MINUTE)
    return audit(db, { endpoint, txn, outcome: 'refused_hmac' });
  log('warn', 'digilocker request refused: bad hmac (not audited: over the cap)', { endpoint });
  return Promise.resolve();
}

type Authenticated<R> = { config: DigiLockerConfig; request: R; fingerprint: string };

/**
 * Checks the configuration, the HMAC, the message and its timestamp. A refusal (bad HMAC, stale
 * timestamp) comes back as the answer to send; a body that is not the message throws
 * `malformed-xml` (400).
 */
async function authenticate<R extends { ts: string; txn: string }>(
  db: Database,
  env: DigiLockerEnv,
  endpoint: Endpoint,
  body: Uint8Array,
  hmac: string | null | undefined,
  parse: (text: string) => R,
  refusal: (echo: { ts: string; txn: string }) => string,
  now: Date,
): Promise<Authenticated<R> | DigiLockerAnswer> {
  const config = requireConfig(env);
  const text = new TextDecoder().decode(body);
  if (!(await hmacValid(body, hmac, config.apiKey))) {
    const echo = echoOf(text);
    await auditUnauthenticated(db, endpoint, echo.txn, now);
    return { status: 401, xml: refusal(echo) };
  }
  let request: R;
  try {
    request = parse(text);
  } catch (error) {
    if (error instanceof DigiLockerRequestError) throw new ProblemError('malformed-xml', error.message);
    throw error;
  }
  if (!timestampFresh(request.ts, now.getTime())) {
    await audit(db, { endpoint, txn: request.txn, outcome: 'refused_timestamp' });
    return { status: 401, xml: refusal(request) };
  }
  return { config, request, fingerprint: await fingerprintOf(body) };
}

/**
 * A transaction id seen before: the same request gets the first answer's outcome again (the
 * certificate it gave, if it still may be given; else the refusal), a different request with a
 * reused id is refused (409). Null: a new transaction.
 */
async function remembered(
  env: DigiLockerEnv,
  endpoint: Endpoint,
  config: DigiLockerConfig,
  txn: string,
  fingerprint: string,
): Promise<Remembered | 'reused' | null> {
  const seen = await env.CACHE.get<Remembered>(txnKey(endpoint, config.orgId, txn), 'json');
  if (!seen) return null;
  return seen.fingerprint === fingerprint ? seen : 'reused';
}

const remember = (
  env: DigiLockerEnv,
  endpoint: Endpoint,
  config: DigiLockerConfig,
  txn: string,
  r: Remembered,
) =>
  env.CACHE.put(txnKey(endpoint, config.orgId, txn), JSON.stringify(r), { expirationTtl: TXN_TTL_SECONDS });

/** `POST /api/digilocker/pull-uri`. */
export async function pullUri(
  db: Database,
  env: DigiLockerEnv,
  body: Uint8Array,
  hmac: string | null | undefined,
  now = new Date(),
): Promise<DigiLockerAnswer> {
  const endpoint = 'pull_uri';
  const refuse = (echo: { ts: string; txn: string }) => pullUriResponse('0', echo);
  const auth = await authenticate(db, env, endpoint, body, hmac, parsePullUriRequest, refuse, now);
  if ('xml' in auth) return auth;
  const { config, request, fingerprint } = auth;
  const seen = await remembered(env, endpoint, config, request.txn, fingerprint);
  if (seen === 'reused') {
    await audit(db, { endpoint, txn: request.txn, outcome: 'txn_reused' });
    return { status: 409, xml: refuse(request) };
  }
  const number = request.udf.UDF1;
  const ours = request.orgId === config.orgId && request.docType === config.docType;
  const candidate = ours && number ? await candidateByNumber(db, number) : null;
  const matched =
    candidate !== null &&
    (seen ? seen.certificateId === candidate.id : samePerson(candidate, request.fullName, request.dob));
  // Unknown number, another name, another date of birth: one answer, so nothing tells which.
  const found = matched && candidate && (await givable(db, candidate, now)) ? candidate : null;
  const uri = found ? documentUri(config.orgId, config.docType, found.certificateNo) : undefined;
  if (!seen)
    await remember(env, endpoint, config, request.txn, { fingerprint, certificateId: found?.id ?? null });
  await audit(db, {
    endpoint,
    txn: request.txn,
    outcome: found ? 'issued' : 'not_found',
    certificate: candidate,
    digiLockerId: request.digiLockerId,
    ...(uri ? { uri } : {}),
    format: request.format,
    replay: seen !== null,
  });
  if (!found || !uri) return { status: 200, xml: refuse(request) };
  const document = await documentOf(db, env, config, found, request.format);
  return { status: 200, xml: pullUriResponse('1', request, { request, uri, document }) };
}

/** `POST /api/digilocker/pull-doc`. */
export async function pullDoc(
  db: Database,
  env: DigiLockerEnv,
  body: Uint8Array,
  hmac: string | null | undefined,
  now = new Date(),
): Promise<DigiLockerAnswer> {
  const endpoint = 'pull_doc';
  const refuse = (echo: { ts: string; txn: string }) => pullDocResponse('0', echo);
  const auth = await authenticate<PullDocRequest>(
    db,
    env,
    endpoint,
    body,
    hmac,
    parsePullDocRequest,
    refuse,
    now,
  );
  if ('xml' in auth) return auth;
  const { config, request, fingerprint } = auth;
  const seen = await remembered(env, endpoint, config, request.txn, fingerprint);
  if (seen === 'reused') {
    await audit(db, { endpoint, txn: request.txn, outcome: 'txn_reused' });
    return { status: 409, xml: refuse(request) };
  }
  const number =
    request.orgId === config.orgId ? certificateNoOfUri(request.uri, config.orgId, config.docType) : null;
  const candidate = number ? await candidateByNumber(db, number) : null;
  // The specification (v1.12) no longer sends name and date of birth here; when DigiLocker does,
  // they must still be the holder's.
  const sentPerson = request.fullName !== null || request.dob !== null;
  const matched =
    candidate !== null &&
    (seen
      ? seen.certificateId === candidate.id
      : !sentPerson || samePerson(candidate, request.fullName, request.dob)) &&
    documentUri(config.orgId, config.docType, candidate.certificateNo) === request.uri;
  const found = matched && candidate && (await givable(db, candidate, now)) ? candidate : null;
  if (!seen)
    await remember(env, endpoint, config, request.txn, { fingerprint, certificateId: found?.id ?? null });
  await audit(db, {
    endpoint,
    txn: request.txn,
    outcome: found ? 'issued' : 'not_found',
    certificate: candidate,
    digiLockerId: request.digiLockerId,
    uri: request.uri,
    format: request.format,
    replay: seen !== null,
  });
  if (!found) return { status: 200, xml: refuse(request) };
  const document = await documentOf(db, env, config, found, request.format);
  return { status: 200, xml: pullDocResponse('1', request, document) };
}
