/**
 * The right of access (DPDP Act 2023 §11): one ZIP of every record about the person, as JSON
 * (exact, machine-readable) plus PDFs (a readable summary and one document per certificate).
 *
 * **Memory is bounded.** The archive is streamed with fflate's streaming `Zip`: files are
 * written one after another, each JSON array is filled page by page from D1 (keyset pages of
 * at most `PAGE` rows, fewer for submissions, whose files can be large), each page is
 * compressed and handed to the response as soon as it is read, and PDFs are built one at a
 * time. At any moment the Worker holds one page of rows, the compressor's window and one PDF,
 * whatever the size of the person's history. The response is pulled by the client, so a slow
 * download does not make the Worker read ahead. The price: the export is not a point-in-time
 * snapshot (a record written during the download may or may not be in it), and a D1 failure
 * mid-stream truncates the download; the `access` request then stays `in_progress` in the
 * person's request list, visibly unfinished, and the error is logged.
 *
 * Nothing secret or about other people is exported: no password hash or salt, no session
 * token hash, no email confirmation link or its hash, no API key, no other candidate's work, and for ratings an employer gave only the
 * rating itself, not the candidate it was about.
 */
import { and, asc, eq, gt, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteSelect } from 'drizzle-orm/sqlite-core';
import { alias } from 'drizzle-orm/sqlite-core';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import type { Database } from '../../db/client';
import {
  auditLog,
  briefs,
  type ConsentPurpose,
  certificates,
  consentEvents,
  dsrRequests,
  emailConfirmations,
  employerRatings,
  evaluations,
  guardianRequests,
  organisations,
  sessions,
  submissions,
  userNotices,
  users,
} from '../../db/schema';
import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';
import { log } from '../../lib/log';
import type { SessionUser } from '../../lib/principals';
import { auditInsert } from '../audit';
import { consentHistory, consentStates } from '../consent';
import { recipientsOf } from '../disclosures';
import { type GrantView, grantsOf } from '../portability/grants';
import { renderCertificatePdf, renderSummaryPdf, type SummaryBlock } from '../renderers';
import { completeRequest, requestInsert } from './requests';

/** Bumped when a file's shape changes; recorded in `manifest.json`. */
export const EXPORT_FORMAT_VERSION = 1;
const PAGE = 100;
const SUBMISSION_PAGE = 10;
/** The summary PDF lists this many certificates; certificates.json has them all. */
const SUMMARY_CERTIFICATE_LINES = 50;

type Cursor = { at: Date; id: string };

/** Rows strictly after the cursor in (time, id) order. */
const after = (time: SQLiteColumn, id: SQLiteColumn, c: Cursor | undefined): SQL | undefined =>
  c ? or(gt(time, c.at), and(eq(time, c.at), gt(id, c.id))) : undefined;

/**
 * One source of the export: the person's rows of a query, read in keyset pages on a stable
 * (time, id) key, oldest first, until a short page. `columns` is what each record holds (its
 * `id` and `time` fields are the key); `from` selects them from the table and its joins; `whose`
 * picks the person's rows.
 */
async function* paged<
  C extends { id: SQLiteColumn } & Record<K, SQLiteColumn>,
  K extends string,
  Q extends SQLiteSelect,
>(
  columns: C,
  from: (columns: C) => Q,
  whose: SQL | undefined,
  { time, size = PAGE }: { time: K; size?: number },
): AsyncGenerator<Awaited<Q>> {
  const at = columns[time];
  let cursor: Cursor | undefined;
  for (;;) {
    const rows = await from(columns)
      .where(and(whose, after(at, columns.id, cursor)))
      .orderBy(asc(at), asc(columns.id))
      .limit(size);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1] as Record<string, unknown> | undefined;
    if (rows.length < size || !last) return;
    if (!(last[time] instanceof Date) || typeof last.id !== 'string')
      throw new Error(`export paging: (${time}, id) of the last row is not a (time, id) key`);
    cursor = { at: last[time], id: last.id };
  }
}

/** Rows per page: small for a streamed response; larger in the export job, to stay within D1's queries per invocation. */
export type ExportPages = { page: number; submissionPage: number };
const STREAM_PAGES: ExportPages = { page: PAGE, submissionPage: SUBMISSION_PAGE };

/** What each person-related table contributes, read page by page. */
function sources(db: Database, userId: string, email: string, pages: ExportPages = STREAM_PAGES) {
  const _employer = alias(users, 'employer');
  const child = alias(users, 'child');
  const ownSubmission = eq(submissions.candidateId, userId);
  const byCreation = { time: 'createdAt', size: pages.page } as const;
  const ratingColumns = {
    id: employerRatings.id,
    evaluationId: employerRatings.evaluationId,
    briefId: employerRatings.briefId,
    domain: employerRatings.domain,
    score: employerRatings.score,
    verdict: employerRatings.verdict,
    comment: employerRatings.comment,
    aiVerdict: employerRatings.aiVerdict,
    createdAt: employerRatings.createdAt,
  };
  const { id: ratingId, evaluationId, ...rating } = ratingColumns;

  return {
    certificates: () =>
      paged(
        {
          id: certificates.id,
          certificateNo: certificates.certificateNo,
          status: certificates.status,
          briefId: certificates.briefId,
          briefTitle: briefs.title,
          domain: certificates.domain,
          employerName: sql<string>`coalesce(${certificates.signedOrganisationName}, ${organisations.name}, 'Former employer')`,
          submissionId: certificates.submissionId,
          issuedAt: certificates.issuedAt,
          revokedAt: certificates.revokedAt,
          revokedReason: certificates.revokedReason,
          credentialJwt: certificates.credentialJwt,
          // The same credential with its embedded Data Integrity proof (JSON text), when it has one.
          credentialDataIntegrity: certificates.credentialDataIntegrity,
        },
        (columns) =>
          db
            .select(columns)
            .from(certificates)
            .innerJoin(briefs, eq(briefs.id, certificates.briefId))
            .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
            .$dynamic(),
        eq(certificates.holderId, userId),
        { time: 'issuedAt' },
      ),
    sessions: () =>
      paged(
        {
          id: sessions.id,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
        },
        (columns) => db.select(columns).from(sessions).$dynamic(),
        eq(sessions.userId, userId),
        byCreation,
      ),
    // The confirmation links sent to them (the addresses they name are theirs): never the token's hash.
    emailConfirmations: () =>
      paged(
        {
          id: emailConfirmations.id,
          email: emailConfirmations.email,
          purpose: emailConfirmations.purpose,
          createdAt: emailConfirmations.createdAt,
          expiresAt: emailConfirmations.expiresAt,
          usedAt: emailConfirmations.usedAt,
          correctionRequestId: emailConfirmations.requestId,
          invitationId: emailConfirmations.invitationId,
        },
        (columns) => db.select(columns).from(emailConfirmations).$dynamic(),
        eq(emailConfirmations.userId, userId),
        byCreation,
      ),
    // Submissions carry their files, which can be large: smaller pages.
    submissions: () =>
      paged(
        {
          id: submissions.id,
          briefId: submissions.briefId,
          milestoneId: submissions.milestoneId,
          state: submissions.state,
          text: submissions.text,
          files: submissions.files,
          repositoryUrl: submissions.repositoryUrl,
          commits: submissions.commits,
          createdAt: submissions.createdAt,
          updatedAt: submissions.updatedAt,
        },
        (columns) => db.select(columns).from(submissions).$dynamic(),
        ownSubmission,
        { ...byCreation, size: pages.submissionPage },
      ),
    evaluations: () =>
      paged(
        {
          id: evaluations.id,
          submissionId: evaluations.submissionId,
          state: evaluations.state,
          aiEvaluated: evaluations.aiEvaluated,
          criterionScores: evaluations.criterionScores,
          overallScore: evaluations.overallScore,
          verdict: evaluations.verdict,
          engine: evaluations.engine,
          integrity: evaluations.integrity,
          failureReason: evaluations.failureReason,
          createdAt: evaluations.createdAt,
          completedAt: evaluations.completedAt,
        },
        (columns) =>
          db
            .select(columns)
            .from(evaluations)
            .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
            .$dynamic(),
        ownSubmission,
        byCreation,
      ),
    // Ratings of the person's work; which employer account gave them is not theirs to see.
    ratingsReceived: () =>
      paged(
        { id: ratingId, evaluationId, submissionId: evaluations.submissionId, ...rating },
        (columns) =>
          db
            .select(columns)
            .from(employerRatings)
            .innerJoin(evaluations, eq(evaluations.id, employerRatings.evaluationId))
            .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
            .$dynamic(),
        ownSubmission,
        byCreation,
      ),
    // Ratings the person gave as an employer: the rating only, nothing about the candidate.
    ratingsGiven: () =>
      paged(
        ratingColumns,
        (columns) => db.select(columns).from(employerRatings).$dynamic(),
        eq(employerRatings.employerId, userId),
        byCreation,
      ),
    briefs: () =>
      paged(
        {
          id: briefs.id,
          title: briefs.title,
          domain: briefs.domain,
          description: briefs.description,
          deliverables: briefs.deliverables,
          successCriteria: briefs.successCriteria,
          durationDays: briefs.durationDays,
          state: briefs.state,
          createdAt: briefs.createdAt,
          publishedAt: briefs.publishedAt,
          closedAt: briefs.closedAt,
        },
        (columns) => db.select(columns).from(briefs).$dynamic(),
        eq(briefs.employerId, userId),
        byCreation,
      ),
    // In-app notices given to the person (breach, retention, majority…), with when each was emailed.
    notices: () =>
      paged(
        {
          id: userNotices.id,
          kind: userNotices.kind,
          title: userNotices.title,
          body: userNotices.body,
          emailedAt: userNotices.emailedAt,
          createdAt: userNotices.createdAt,
        },
        (columns) => db.select(columns).from(userNotices).$dynamic(),
        eq(userNotices.userId, userId),
        byCreation,
      ),
    // Guardianship (DPDP §9): as a child, who their guardian is or was and each decision; as a
    // guardian, the children who named them and what they decided. Of the child, only the id and
    // name the guardian was shown; of the guardian, the email the child gave.
    guardians: () =>
      paged(
        {
          id: guardianRequests.id,
          role: sql<
            'child' | 'guardian'
          >`case when ${guardianRequests.childId} = ${userId} then 'child' else 'guardian' end`,
          childId: guardianRequests.childId,
          childName: child.name,
          guardianEmail: guardianRequests.guardianEmail,
          relationship: guardianRequests.relationship,
          state: guardianRequests.state,
          createdAt: guardianRequests.createdAt,
          decidedAt: guardianRequests.decidedAt,
          endedAt: guardianRequests.endedAt,
        },
        (columns) =>
          db
            .select(columns)
            .from(guardianRequests)
            .innerJoin(child, eq(child.id, guardianRequests.childId))
            .$dynamic(),
        or(
          eq(guardianRequests.childId, userId),
          eq(guardianRequests.guardianId, userId),
          eq(guardianRequests.guardianEmail, email),
        ),
        byCreation,
      ),
    dsrRequests: () =>
      paged(
        {
          id: dsrRequests.id,
          kind: dsrRequests.kind,
          state: dsrRequests.state,
          details: dsrRequests.details,
          dueAt: dsrRequests.dueAt,
          createdAt: dsrRequests.createdAt,
          updatedAt: dsrRequests.updatedAt,
          completedAt: dsrRequests.completedAt,
        },
        (columns) => db.select(columns).from(dsrRequests).$dynamic(),
        eq(dsrRequests.userId, userId),
        byCreation,
      ),
    // Entries by the person, about their account, or about any of their records: requests (an
    // administrator's resolution), consent events (a guardian's grant for a child), submissions,
    // evaluations (the AI's, an employer's rating) and certificates (issued, re-signed, revoked):
    // the same records whose entries the erasure cascade treats as about them. Who else acted is
    // not theirs to see: only whether it was them.
    auditLog: () =>
      mapPages(
        paged(
          {
            id: auditLog.id,
            actorId: auditLog.actorId,
            action: auditLog.action,
            targetType: auditLog.targetType,
            targetId: auditLog.targetId,
            details: auditLog.details,
            createdAt: auditLog.createdAt,
          },
          (columns) => db.select(columns).from(auditLog).$dynamic(),
          or(
            eq(auditLog.actorId, userId),
            eq(auditLog.targetId, userId),
            and(
              eq(auditLog.targetType, 'dsr_request'),
              inArray(
                auditLog.targetId,
                db.select({ id: dsrRequests.id }).from(dsrRequests).where(eq(dsrRequests.userId, userId)),
              ),
            ),
            and(
              eq(auditLog.targetType, 'consent_event'),
              inArray(
                auditLog.targetId,
                db
                  .select({ id: consentEvents.id })
                  .from(consentEvents)
                  .where(eq(consentEvents.userId, userId)),
              ),
            ),
            and(
              eq(auditLog.targetType, 'submission'),
              inArray(
                auditLog.targetId,
                db.select({ id: submissions.id }).from(submissions).where(ownSubmission),
              ),
            ),
            and(
              eq(auditLog.targetType, 'evaluation'),
              inArray(
                auditLog.targetId,
                db
                  .select({ id: evaluations.id })
                  .from(evaluations)
                  .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
                  .where(ownSubmission),
              ),
            ),
            and(
              eq(auditLog.targetType, 'certificate'),
              or(
                inArray(
                  auditLog.targetId,
                  db
                    .select({ id: certificates.id })
                    .from(certificates)
                    .where(eq(certificates.holderId, userId)),
                ),
                inArray(
                  auditLog.targetId,
                  db
                    .select({ no: certificates.certificateNo })
                    .from(certificates)
                    .where(eq(certificates.holderId, userId)),
                ),
              ),
            ),
          ),
          byCreation,
        ),
        ({ actorId, ...entry }) => ({ ...entry, byYou: actorId === userId }),
      ),
  };
}

/** fflate's streaming ZIP, drained by the caller after each push. */
class ZipStream {
  private pending: Uint8Array[] = [];
  private readonly zip = new Zip((err, chunk) => {
    if (err) throw err;
    this.pending.push(chunk);
  });

  constructor(private readonly mtime: Date) {}

  open(name: string): ZipDeflate {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = this.mtime;
    this.zip.add(file);
    return file;
  }

  end(): void {
    this.zip.end();
  }

  /** The archive bytes produced since the last call, as one chunk (null when none). */
  drain(): Uint8Array | null {
    if (this.pending.length === 0) return null;
    const parts = this.pending;
    this.pending = [];
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

type ManifestFile = { name: string; description: string; records?: number; bytes: number };

const FILES = {
  'profile.json': 'Your account: name, email, role, public alias, dates.',
  'consents.json': 'The current state of each consent purpose and every grant and withdrawal, newest first.',
  'sessions.json': 'Your sign-in sessions (never the session secret).',
  'email-confirmations.json':
    'The links we sent to confirm an email address (at signup or for a new address): the address, why, when sent, until when it worked and when it was used; never the link itself.',
  'submissions.json': 'The work you submitted, with its files and commit history.',
  'evaluations.json': 'The AI evaluations of your submissions.',
  'ratings-received.json': 'The employer ratings of your submissions.',
  'ratings-given.json': 'The ratings you gave as an employer (the rating only, not the candidate).',
  'briefs.json': 'The briefs you published as an employer.',
  'certificates.json': 'Your certificates, with the signed credential of each.',
  'oauth-grants.json':
    'The applications you allowed to read your credentials (Open Badges API): the application, the scopes, when you allowed it and when it last renewed its access.',
  'recipients.json':
    'Who else has your data: the Data Processors that process it for us, and every party it was shared with (what and when).',
  'notices.json':
    'The notices we gave you in the app (a personal data breach, erasure for inactivity, coming of age, and copies of those given to a child you are guardian of), with when each was emailed.',
  'guardians.json':
    'Guardianship: as a child, each request to a parent or guardian and its outcome; as a guardian, each child who named you and what you decided.',
  'dsr-requests.json': 'Every data-rights request you made, this one included.',
  'audit-log.json':
    'Audit entries of actions by you or about your account, requests, consents, submissions, evaluations and certificates.',
  'data-summary.pdf': 'A readable summary of this export.',
  'manifest.json': 'This list of files, with counts.',
} as const;

type FileName = keyof typeof FILES;

const iso = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : 'never');

export type AccessExport = { requestId: string; filename: string; body: ReadableStream<Uint8Array> };

/**
 * Records the `access` request (in progress, with its audit entry) and returns the archive as
 * a stream. The request is marked completed once the last byte has been produced.
 */
export async function startAccessExport(
  db: Database,
  env: Env,
  user: SessionUser,
  now = new Date(),
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string = user.id,
): Promise<AccessExport> {
  const requestId = crypto.randomUUID();
  const byGuardian = actorId !== user.id ? { details: { byGuardian: true } } : {};
  await db.batch([
    requestInsert(
      db,
      { id: requestId, userId: user.id, kind: 'access', state: 'in_progress', ...byGuardian },
      now,
    ),
    auditInsert(db, {
      actorId,
      action: 'dsr.access',
      targetType: 'dsr_request',
      targetId: requestId,
    }),
  ]);
  // Read before the stream starts: the OAuth library's KV reads belong to this request's handler.
  const oauthGrants = await grantsOf(env, user.id);
  const chunks = archive(db, env.PUBLIC_BASE_URL, user, requestId, now, { oauthGrants });
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          log('error', 'access export failed', { requestId, error: String(err) });
          controller.error(err);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { requestId, filename: `personal-data-${now.toISOString().slice(0, 10)}.zip`, body };
}

export async function* archive(
  db: Database,
  baseUrl: string,
  user: Pick<SessionUser, 'id' | 'sessionId'>,
  requestId: string,
  now: Date,
  {
    pages = STREAM_PAGES,
    completeAtEnd = true,
    oauthGrants,
  }: {
    pages?: ExportPages;
    completeAtEnd?: boolean;
    /** The person's grants to Open Badges API clients (`OAUTH_KV`, src/services/portability/grants.ts). */
    oauthGrants: GrantView[];
  },
): AsyncGenerator<Uint8Array> {
  const zip = new ZipStream(now);
  const manifest: ManifestFile[] = [];
  const counts: Partial<Record<FileName, number>> = {};

  function* whole(name: FileName | `certificates/${string}.pdf`, data: Uint8Array, description: string) {
    const file = zip.open(name);
    file.push(data, true);
    manifest.push({ name, description, bytes: data.length });
    const out = zip.drain();
    if (out) yield out;
  }

  async function* array(name: FileName, rows: AsyncIterable<unknown[]>) {
    const file = zip.open(name);
    let records = 0;
    let bytes = 0;
    const push = (text: string, final = false) => {
      const data = strToU8(text);
      bytes += data.length;
      file.push(data, final);
    };
    push('[');
    for await (const page of rows) {
      push(page.map((r) => `${records++ === 0 ? '' : ','}\n  ${JSON.stringify(r)}`).join(''));
      const out = zip.drain();
      if (out) yield out;
    }
    push(records === 0 ? ']\n' : '\n]\n', true);
    counts[name] = records;
    manifest.push({ name, description: FILES[name], records, bytes });
    const out = zip.drain();
    if (out) yield out;
  }

  const [profile] = await db.select().from(users).where(eq(users.id, user.id)).limit(1);
  if (!profile) throw new Error('the account of an export vanished');
  const src = sources(db, user.id, profile.email, pages);
  const {
    passwordHash: _h,
    passwordSalt: _s,
    passwordIterations: _i,
    credentialIdentitySalt,
    ...publicProfile
  } = profile;
  // Whether their credentials carry an identifier (the salt itself is in those credentials).
  const exported = { ...publicProfile, credentialIdentifier: credentialIdentitySalt !== null };
  yield* whole('profile.json', json(exported), FILES['profile.json']);

  const [states, history] = await Promise.all([consentStates(db, user.id), consentHistory(db, user.id)]);
  yield* whole(
    'consents.json',
    json({ currentNoticeVersion: CURRENT_NOTICE_VERSION, states, history }),
    FILES['consents.json'],
  );

  yield* array(
    'sessions.json',
    mapPages(src.sessions(), (s) => ({ ...s, current: s.id === user.sessionId })),
  );
  yield* array('email-confirmations.json', src.emailConfirmations());
  yield* array('submissions.json', src.submissions());
  yield* array('evaluations.json', src.evaluations());
  yield* array('ratings-received.json', src.ratingsReceived());
  yield* array('ratings-given.json', src.ratingsGiven());
  yield* array('briefs.json', src.briefs());
  yield* array('certificates.json', src.certificates());
  yield* array('oauth-grants.json', onePage(oauthGrants));
  yield* whole('recipients.json', json(await recipientsOf(db, user.id)), FILES['recipients.json']);

  // A second pass for the PDFs: a ZIP entry must be finished before the next one starts.
  const certificateLines: SummaryBlock[] = [];
  for await (const page of src.certificates()) {
    for (const cert of page) {
      if (certificateLines.length < SUMMARY_CERTIFICATE_LINES)
        certificateLines.push({
          kind: 'pair',
          label: cert.certificateNo,
          value: `${cert.briefTitle} (${cert.domain}), ${cert.status}, issued ${iso(cert.issuedAt)}`,
        });
      const pdf = await renderCertificatePdf(
        {
          ...cert,
          holderName: profile.name,
          verifyUrl: `${baseUrl.replace(/\/$/, '')}/verify/${cert.certificateNo}`,
          note: 'A copy from your data export; the signed credential is in certificates.json.',
        },
        now,
      );
      yield* whole(`certificates/${cert.certificateNo}.pdf`, pdf, `Certificate ${cert.certificateNo}.`);
    }
  }

  yield* array('notices.json', src.notices());
  yield* array('guardians.json', src.guardians());
  yield* array('dsr-requests.json', src.dsrRequests());
  yield* array('audit-log.json', src.auditLog());

  const summary = await renderSummaryPdf(
    'Your personal data at Verification Platform',
    summaryBlocks(profile, states, counts, certificateLines, now),
    now,
  );
  yield* whole('data-summary.pdf', summary, FILES['data-summary.pdf']);

  const files = [...manifest, { name: 'manifest.json', description: FILES['manifest.json'] }];
  yield* whole(
    'manifest.json',
    json({ formatVersion: EXPORT_FORMAT_VERSION, generatedAt: now.toISOString(), requestId, counts, files }),
    FILES['manifest.json'],
  );
  zip.end();
  const tail = zip.drain();
  if (tail) yield tail;
  if (completeAtEnd) await completeRequest(db, requestId);
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

async function* onePage<T>(rows: T[]): AsyncGenerator<T[]> {
  if (rows.length > 0) yield rows;
}

async function* mapPages<T, U>(source: AsyncIterable<T[]>, f: (row: T) => U): AsyncGenerator<U[]> {
  for await (const page of source) yield page.map(f);
}

const PURPOSE_TITLES: Record<ConsentPurpose, string> = {
  ai_evaluation: 'AI evaluation of your submissions',
  leaderboard: 'Public leaderboard',
  public_verification: 'Your name on certificate verification',
  integrity_corpus: 'Your work in the integrity corpus',
};

function summaryBlocks(
  profile: typeof users.$inferSelect,
  states: Awaited<ReturnType<typeof consentStates>>,
  counts: Partial<Record<FileName, number>>,
  certificateLines: SummaryBlock[],
  now: Date,
): SummaryBlock[] {
  const n = (name: FileName) => String(counts[name] ?? 0);
  const certificateTotal = counts['certificates.json'] ?? 0;
  return [
    { kind: 'title', text: 'Your personal data at Verification Platform' },
    { kind: 'muted', text: `Prepared on ${now.toISOString()} in answer to your access request.` },
    { kind: 'heading', text: 'You' },
    { kind: 'pair', label: 'Name', value: profile.name },
    { kind: 'pair', label: 'Email', value: profile.email },
    { kind: 'pair', label: 'Role', value: profile.role },
    { kind: 'pair', label: 'Public alias', value: profile.publicAlias ?? 'none (your name is used)' },
    { kind: 'pair', label: 'Account created', value: iso(profile.createdAt) },
    { kind: 'heading', text: 'What we hold about you' },
    { kind: 'pair', label: 'Submissions', value: n('submissions.json') },
    { kind: 'pair', label: 'AI evaluations of your submissions', value: n('evaluations.json') },
    { kind: 'pair', label: 'Employer ratings of your submissions', value: n('ratings-received.json') },
    { kind: 'pair', label: 'Ratings you gave as an employer', value: n('ratings-given.json') },
    { kind: 'pair', label: 'Briefs you published', value: n('briefs.json') },
    { kind: 'pair', label: 'Certificates', value: n('certificates.json') },
    { kind: 'pair', label: 'Active sign-in sessions', value: n('sessions.json') },
    { kind: 'pair', label: 'Email confirmation links sent to you', value: n('email-confirmations.json') },
    { kind: 'pair', label: 'Notices we gave you', value: n('notices.json') },
    { kind: 'pair', label: 'Guardianship records', value: n('guardians.json') },
    { kind: 'pair', label: 'Data-rights requests', value: n('dsr-requests.json') },
    { kind: 'pair', label: 'Audit entries', value: n('audit-log.json') },
    { kind: 'muted', text: 'Each of these is in full in the JSON file of the same name in this archive.' },
    { kind: 'heading', text: 'Your consents' },
    ...(Object.entries(states) as [ConsentPurpose, (typeof states)[ConsentPurpose]][]).map(
      ([purpose, s]): SummaryBlock => ({
        kind: 'pair',
        label: PURPOSE_TITLES[purpose],
        value:
          s.state === 'never'
            ? 'never given'
            : `${s.state} since ${iso(s.since)} (notice ${s.noticeVersion ?? 'unknown'})`,
      }),
    ),
    { kind: 'heading', text: 'Your certificates' },
    ...(certificateLines.length > 0 ? certificateLines : [{ kind: 'text', text: 'None.' } as const]),
    ...(certificateTotal > certificateLines.length
      ? [
          {
            kind: 'muted',
            text: `and ${certificateTotal - certificateLines.length} more in certificates.json.`,
          } as const,
        ]
      : []),
    { kind: 'heading', text: 'Your rights' },
    {
      kind: 'text',
      text:
        'Correct your name or email with PATCH /api/dsr/correction. Withdraw any consent with POST /api/consent. ' +
        'Have all your data erased with DELETE /api/dsr/erasure. Nominate someone to act for you with ' +
        'POST /api/dsr/nomination. Complain to our Data Protection Officer with POST /api/dsr/grievance: we ' +
        'answer within 90 days, and you may then turn to the Data Protection Board of India.',
    },
  ];
}
