/**
 * The person a data-rights or consent request acts for: the signed-in caller, or a ward the
 * caller holds as guardian (DPDP Act s. 9; src/services/guardians.ts). The self routes
 * (`/api/me/consents`, `/api/consent`, `/api/dsr/*`) and the guardian's ward routes
 * (`/api/guardian/wards/{id}/*`) resolve their subject here and then do the same work.
 */

import type { Database } from '../db/client';
import { CURRENT_NOTICE_VERSION } from '../domain/consent-notices';
import { clock } from '../lib/clock';
import { decodeCursor, toPage } from '../lib/paging';
import type { SessionUser } from '../lib/principals';
import * as consent from '../services/consent';
import { correctPersonalData } from '../services/dsr/correction';
import { fileRequest } from '../services/dsr/requests';
import * as guardians from '../services/guardians';

/** Whose data: `person`; who asks: `actor` (the person, or their guardian: `guardianId`). */
export type DataSubject = { person: SessionUser; actor: SessionUser; guardianId: string | null };

/** The caller acting for themself. */
export const self = (user: SessionUser): DataSubject => ({ person: user, actor: user, guardianId: null });

/** The ward behind `wardId`, acted for by the caller; anyone who is not the caller's ward is a 404. */
export async function ward(db: Database, guardian: SessionUser, wardId: string): Promise<DataSubject> {
  const child = await guardians.wardOf(db, guardian.id, wardId, clock.now());
  return { person: guardians.wardAsUser(child), actor: guardian, guardianId: guardian.id };
}

/** The subject's consent states and a page of their consent history. */
export async function consentOverview(
  db: Database,
  subject: DataSubject,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
) {
  const [states, rows] = await Promise.all([
    consent.consentStates(db, subject.person.id),
    consent.consentHistoryPage(db, subject.person.id, limit, decodeCursor(cursor)),
  ]);
  const history = toPage(rows, limit, consent.historyPosition);
  return {
    currentNoticeVersion: CURRENT_NOTICE_VERSION,
    states: {
      ai_evaluation: consent.consentStateView(states.ai_evaluation),
      leaderboard: consent.consentStateView(states.leaderboard),
      public_verification: consent.consentStateView(states.public_verification),
      integrity_corpus: consent.consentStateView(states.integrity_corpus),
    },
    history: history.items.map(consent.consentReceiptView),
    nextCursor: history.nextCursor,
  };
}

/** Records a consent decision for the subject (a guardian's is recorded as given by them). */
export async function recordSubjectConsent(
  db: Database,
  env: Env,
  subject: DataSubject,
  input: Parameters<typeof consent.recordConsent>[3],
) {
  const receipt = await consent.recordConsent(
    db,
    env,
    subject.person.id,
    input,
    subject.guardianId,
    clock.now(),
  );
  return consent.consentReceiptView(receipt);
}

/** Corrects the subject's personal data. */
export const correctSubject = (
  db: Database,
  env: Env,
  subject: DataSubject,
  input: Parameters<typeof correctPersonalData>[3],
) => correctPersonalData(db, env, subject.person.id, input, subject.actor.id, subject.actor);

/** Files a grievance for the subject (marked `byGuardian` when a guardian files it). */
export const fileGrievance = (db: Database, subject: DataSubject, details: Record<string, unknown>) =>
  fileRequest(
    db,
    {
      userId: subject.person.id,
      kind: 'grievance',
      details: subject.guardianId ? { ...details, byGuardian: true } : details,
    },
    subject.actor.id,
  );

/** The headers of an access export's ZIP answer. */
export const zipHeaders = (filename: string) => ({
  'Content-Type': 'application/zip',
  'Content-Disposition': `attachment; filename="${filename}"`,
  'Cache-Control': 'no-store',
});
