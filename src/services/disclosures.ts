/**
 * Who else has a person's data (DPDP Act 2023 §11(1)(b)): the Data Processors that process it
 * for us (a fixed list, `DATA_PROCESSORS`) and the parties it was shared with: the organisation
 * that set each brief they submitted work to (it reads the work, with their name, from submission,
 * whether or not it has rated it yet), and partners whose integrity checks matched their submissions
 * (`integrity_disclosures`, recorded here when a partner's check reports a match). Parties are
 * organisations, never a person: a recipient is a Data Fiduciary, and the name of the recruiter
 * who rated is that recruiter's personal data.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  apiKeys,
  auditLog,
  briefs,
  certificates,
  employerRatings,
  evaluations,
  integrityDisclosures,
  organisations,
  submissions,
} from '../db/schema';
import { DATA_PROCESSORS, NOTICE_RECIPIENTS } from '../domain/processors';
import type { ApiKeyPrincipal } from '../lib/principals';
import { FORMER_EMPLOYER } from './certificates';

const chunked = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Most rows of each kind listed in an export (the export's other files have every row). */
const LIMIT = 5000;

/**
 * Records that the partner's check disclosed a match with each stored submission whose
 * reference appears in what the partner was sent (`report`). One batch; nothing when none.
 */
export async function recordIntegrityDisclosures(
  db: Database,
  apiKey: ApiKeyPrincipal,
  sources: Map<string, string>,
  report: unknown,
): Promise<number> {
  const sent = JSON.stringify(report);
  const shown = [...new Set([...sources].filter(([ref]) => sent.includes(ref)).map(([, id]) => id))];
  if (shown.length === 0) return 0;
  // A sharded corpus has no join to `submissions`: a match may name a submission deleted since
  // its fingerprints were read (an erasure running meanwhile). Its person is gone, so there is
  // nobody to disclose to; record the others rather than fail the check on the foreign key.
  const existing = (
    await Promise.all(
      chunked(shown, 90).map((ids) =>
        db.select({ id: submissions.id }).from(submissions).where(inArray(submissions.id, ids)),
      ),
    )
  ).flat();
  if (existing.length === 0) return 0;
  await db
    .insert(integrityDisclosures)
    .values(existing.map(({ id }) => ({ submissionId: id, apiKeyId: apiKey.id, partner: apiKey.name })));
  return existing.length;
}

/**
 * How a partner whose key belongs to no organisation is named. The key's `name` is free text an
 * administrator gives the key ("LMS production", "http-bb-key"): a label for the key, which may
 * say nothing about the partner or something internal, so it is not shown; the key's id is, for
 * the DPO to say who the partner is.
 */
export const INTEGRITY_PARTNER = 'An integrity-check partner';

export type Recipients = {
  processors: typeof DATA_PROCESSORS;
  sharedWith: {
    party: string;
    kind: 'employer' | 'integrity_partner' | 'digilocker';
    what: string;
    when: string;
  }[];
};

/** The recipients section of the person's export (`recipients.json`). */
export async function recipientsOf(db: Database, userId: string): Promise<Recipients> {
  const ratingOrganisation = alias(organisations, 'rating_organisation');
  const briefOrganisation = alias(organisations, 'brief_organisation');
  const partnerOrganisation = alias(organisations, 'partner_organisation');
  const [shared, matched, fetched] = await Promise.all([
    // Every submission is shared with the organisation that set its brief from the moment it is
    // made (`GET /api/briefs/{id}/submissions` shows it with the person's name), rated or not.
    db
      .select({
        // The organisation the rating was given for (the brief's, for ratings from before
        // organisations were recorded on them, and for work not rated yet), never the person who
        // rated: the recipient is the organisation, and the recruiter's name is theirs, not the
        // candidate's.
        employer: sql<string>`coalesce(${ratingOrganisation.name}, ${briefOrganisation.name}, ${FORMER_EMPLOYER})`,
        brief: briefs.title,
        submissionId: submissions.id,
        submittedAt: submissions.createdAt,
        ratedAt: employerRatings.createdAt,
        aiEvaluated: evaluations.aiEvaluated,
      })
      .from(submissions)
      .innerJoin(briefs, eq(briefs.id, submissions.briefId))
      .leftJoin(evaluations, eq(evaluations.submissionId, submissions.id))
      .leftJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id))
      .leftJoin(ratingOrganisation, eq(ratingOrganisation.id, employerRatings.organisationId))
      .leftJoin(briefOrganisation, eq(briefOrganisation.id, briefs.organisationId))
      .where(eq(submissions.candidateId, userId))
      .orderBy(desc(submissions.createdAt), desc(submissions.id))
      .limit(LIMIT),
    db
      .select({
        // The partner's organisation when its key belongs to one; the key's own name is an
        // administrator's label for the key, not who the partner is (see `INTEGRITY_PARTNER`).
        organisation: partnerOrganisation.name,
        apiKeyId: integrityDisclosures.apiKeyId,
        submissionId: integrityDisclosures.submissionId,
        at: integrityDisclosures.createdAt,
      })
      .from(integrityDisclosures)
      .innerJoin(submissions, eq(submissions.id, integrityDisclosures.submissionId))
      .leftJoin(apiKeys, eq(apiKeys.id, integrityDisclosures.apiKeyId))
      .leftJoin(partnerOrganisation, eq(partnerOrganisation.id, apiKeys.organisationId))
      .where(eq(submissions.candidateId, userId))
      .orderBy(desc(integrityDisclosures.createdAt))
      .limit(LIMIT),
    // Certificates given to DigiLocker at the person's request (src/services/digilocker: each
    // request is audited against the certificate; `issued` is a document given).
    db
      .select({ action: auditLog.action, details: auditLog.details, at: auditLog.createdAt })
      .from(auditLog)
      .where(
        and(
          inArray(auditLog.action, ['digilocker.pull_uri', 'digilocker.pull_doc']),
          eq(auditLog.targetType, 'certificate'),
          inArray(
            auditLog.targetId,
            db.select({ id: certificates.id }).from(certificates).where(eq(certificates.holderId, userId)),
          ),
          sql`json_extract(${auditLog.details}, '$.outcome') = 'issued'`,
        ),
      )
      .orderBy(desc(auditLog.createdAt))
      .limit(LIMIT),
  ]);
  return {
    processors: DATA_PROCESSORS,
    sharedWith: [
      ...shared.map((r) => ({
        party: r.employer,
        kind: 'employer' as const,
        what:
          `Your name and your submission ${r.submissionId} to "${r.brief}" (submitted ${r.submittedAt.toISOString()}), ` +
          'readable by the organisation that set the brief from the moment you submitted it. ' +
          (r.ratedAt
            ? `They rated it on ${r.ratedAt.toISOString()}` +
              (r.aiEvaluated ? ' and then saw its AI evaluation.' : '.')
            : 'They have not rated it yet' +
              (r.aiEvaluated ? '; they see its AI evaluation only once they have.' : '.')),
        when: r.submittedAt.toISOString(),
      })),
      ...matched.map((m) => ({
        party: m.organisation ?? INTEGRITY_PARTNER,
        kind: 'integrity_partner' as const,
        what:
          `An opaque reference to your submission ${m.submissionId} and the overlapping passage, reported as a ` +
          'match by their integrity check (never your name).' +
          (m.organisation || !m.apiKeyId
            ? ''
            : ` To learn who the partner is, ask our Data Protection Officer (GET /api/dpo), quoting partner key ${m.apiKeyId}.`),
        when: m.at.toISOString(),
      })),
      ...fetched.map((f) => ({
        party: NOTICE_RECIPIENTS.en[0].name,
        kind: 'digilocker' as const,
        what:
          `Your certificate ${String(f.details?.certificateNo ?? '')} (${String(f.details?.format ?? 'pdf')}), ` +
          `fetched into your DigiLocker (${f.action === 'digilocker.pull_doc' ? 'Pull Doc' : 'Pull URI'}).`,
        when: f.at.toISOString(),
      })),
    ],
  };
}
