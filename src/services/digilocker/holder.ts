/**
 * The holder's side of DigiLocker: whether a certificate can be fetched into DigiLocker and how
 * (the document type to search for and the number to enter), and their switch to turn fetching
 * off for one certificate. The pages (the certificate page, /me) show `digilockerHolderView`.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLog, certificates } from '../../db/schema';
import { documentUri } from '../../domain/digilocker/protocol';
import { auditInsert } from '../audit';
import { type HolderCertificate, holderCertificate, publicStatus } from '../certificates';
import { digilockerConfig } from './config';

export type DigiLockerHolderView = {
  /** The holder's switch (on unless they turned it off). */
  enabled: boolean;
  /** Whether DigiLocker would be given it now: switched on, valid, and public verification consented. */
  available: boolean;
  /** Why not, when `available` is false. */
  reason: 'disabled' | 'not_valid' | 'no_public_verification_consent' | null;
  /** What to search for in the DigiLocker app: the issuer's document type… */
  documentType: string;
  /** …and the number to enter (its registered search field). */
  certificateNumber: string;
  issuerId: string;
  uri: string;
};

/**
 * What the holder is told about DigiLocker for `cert`; null when this server is not a DigiLocker
 * issuer (nothing to say).
 */
export function digilockerHolderView(
  cert: Pick<
    HolderCertificate,
    | 'certificateNo'
    | 'status'
    | 'organisationVerification'
    | 'validUntil'
    | 'credentialJwt'
    | 'digilockerEnabled'
  >,
  env: Partial<Pick<Env, 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'>>,
  publicVerificationConsented: boolean,
  now = new Date(),
): DigiLockerHolderView | null {
  const config = digilockerConfig(env);
  if (!config) return null;
  const valid =
    publicStatus(cert.status, cert.organisationVerification, cert.validUntil, now) === 'active' &&
    cert.credentialJwt !== null;
  const reason = !cert.digilockerEnabled
    ? 'disabled'
    : !valid
      ? 'not_valid'
      : !publicVerificationConsented
        ? 'no_public_verification_consent'
        : null;
  return {
    enabled: cert.digilockerEnabled,
    available: reason === null,
    reason,
    documentType: config.docType,
    certificateNumber: cert.certificateNo,
    issuerId: config.orgId,
    uri: documentUri(config.orgId, config.docType, cert.certificateNo),
  };
}

/**
 * Turns DigiLocker fetching on or off for one of the holder's certificates; null when they hold
 * no such certificate. The change and its audit entry commit together; a change to the same value
 * writes nothing. Verification does not change (DigiLocker reads the database, not the caches).
 */
export async function setDigilockerEnabled(
  db: Database,
  holderId: string,
  certificateNo: string,
  enabled: boolean,
): Promise<HolderCertificate | null> {
  const current = await holderCertificate(db, certificateNo);
  if (!current || current.holderId !== holderId) return null;
  if (current.digilockerEnabled === enabled) return current;
  await db.batch([
    db
      .update(certificates)
      .set({ digilockerEnabled: enabled })
      .where(and(eq(certificates.id, current.id), eq(certificates.holderId, holderId))),
    auditInsert(db, {
      actorId: holderId,
      action: enabled ? 'certificate.digilocker_enabled' : 'certificate.digilocker_disabled',
      targetType: 'certificate',
      targetId: current.id,
    }),
  ]);
  return { ...current, digilockerEnabled: enabled };
}

export type DigiLockerActivity = {
  at: string;
  request: 'pull_uri' | 'pull_doc';
  outcome: string;
  certificateNo: string | null;
  /** Whether the request was answered with the document (DigiLocker was given it). */
  given: boolean;
};

/**
 * What DigiLocker asked about the holder's certificates, newest first: every request that named
 * one of them (given, refused for another name or date of birth, refused while off or invalid),
 * from the audit log, so it is the same record the access export lists.
 */
export async function digilockerActivityOf(
  db: Database,
  holderId: string,
  limit = 50,
): Promise<DigiLockerActivity[]> {
  const rows = await db
    .select({ action: auditLog.action, details: auditLog.details, at: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.action, ['digilocker.pull_uri', 'digilocker.pull_doc']),
        eq(auditLog.targetType, 'certificate'),
        inArray(
          auditLog.targetId,
          db.select({ id: certificates.id }).from(certificates).where(eq(certificates.holderId, holderId)),
        ),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => {
    const outcome = String(r.details?.outcome ?? 'unknown');
    return {
      at: r.at.toISOString(),
      request: r.action === 'digilocker.pull_doc' ? 'pull_doc' : 'pull_uri',
      outcome,
      certificateNo: typeof r.details?.certificateNo === 'string' ? r.details.certificateNo : null,
      given: outcome === 'issued',
    };
  });
}
