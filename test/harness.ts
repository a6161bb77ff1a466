/**
 * The test fixtures, in one place: accounts, briefs, submitted and evaluated work, certified
 * candidates. Two ways in:
 *
 * - **through the API** (`signup`, `publishedBrief`, `submitAndWait`, `rate`, `certify`,
 *   `candidateWithCertificate`), as real users would, so the workflow itself leaves the records;
 * - **straight into D1** (`seedBrief`, `seedCertifiedWork`), for tests that need many records
 *   or records the API would not make quickly (the data-rights, erasure and paging tests).
 *
 * The request helpers (`call`, `jsonInit`, `as`, `expectProblem`, `eventually`) are in
 * test/helpers.ts. A fixture that cannot be made throws with the response, so a test fails at
 * the step that broke; the fixtures assert nothing about the behaviour under test.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { getDb } from '../src/db/client';
import {
  briefs,
  certificates,
  consentEvents,
  employerRatings,
  evaluations,
  fingerprintFrequencies,
  fingerprints,
  milestones,
  organisations,
  rubrics,
  submissions,
  users,
} from '../src/db/schema';
import { generateCertificateNumber } from '../src/domain/certificates/certificate-number';
import { corpusFor, shardOf } from '../src/services/corpus';
import { rememberIssued } from '../src/services/verification-filter';
import { confirmEmail, markConfirmed } from './confirm';
import demo from './demo-brief.json';
import { type Account, as, call, eventually, freshIp, jsonInit, sessionCookieFrom } from './helpers';

/** Throws unless the response has the expected status; the fixture's response otherwise. */
async function expectStatus(res: Response, status: number, what: string): Promise<Response> {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
  return res;
}

// --- Accounts

export type Role = 'candidate' | 'employer';

let counter = 0;

/** The date of birth the fixtures sign up with: an adult (DPDP §9 rules apply under 18). */
export const ADULT_BIRTH_DATE = '1990-01-01';

/** Signs up a fresh account of the given role and returns its session. */
export async function signup(
  role: Role = 'candidate',
  name = 'Test Person',
  organisationName = `Organisation ${crypto.randomUUID().slice(0, 8)}`,
  /** Adults by default; a child's signup passes a recent `dateOfBirth` and a `guardianEmail`. */
  extra: { dateOfBirth?: string; guardianEmail?: string } = {},
): Promise<Account> {
  counter += 1;
  const email = `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = 'a-long-enough-password';
  const res = await expectStatus(
    await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email,
          password,
          name,
          role,
          dateOfBirth: ADULT_BIRTH_DATE,
          ...extra,
          ...(role === 'employer' ? { organisation: { name: organisationName } } : {}),
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    ),
    201,
    'signup',
  );
  const body = await res.json<{ user: { id: string } }>();
  // Fixture accounts have confirmed addresses (they may approve guardian requests, prove domains…).
  await markConfirmed(body.user.id);
  return { cookie: `session=${sessionCookieFrom(res)}`, id: body.user.id, email, password };
}

export { confirmEmail, markConfirmed };

/** Signs up as an employer with an invitation `code` (the response, whatever its status). */
export async function signupInvited(
  email: string,
  code: string,
  name: string,
  password = 'a-long-enough-password',
) {
  const res = await call(
    '/api/auth/signup',
    jsonInit(
      'POST',
      { email, password, name, role: 'employer', dateOfBirth: ADULT_BIRTH_DATE, invitationCode: code },
      { 'CF-Connecting-IP': freshIp() },
    ),
  );
  // The invitation is accepted when the invited address is confirmed: open the link it was sent.
  if (res.status === 201) await confirmEmail((await res.clone().json<{ user: { id: string } }>()).user);
  return res;
}

/**
 * An employer whose email is at `domain`, in a new organisation called `organisation` (by
 * default "<domain> Ltd"), signed up through the API: the organisation starts `unverified`.
 */
export async function employerAt(domain: string, organisation = `${domain} Ltd`): Promise<Account> {
  const email = `recruiter-${crypto.randomUUID().slice(0, 8)}@${domain}`;
  const password = 'a-long-enough-password';
  const res = await call(
    '/api/auth/signup',
    jsonInit(
      'POST',
      {
        email,
        password,
        name: 'Priya Recruiter',
        role: 'employer',
        dateOfBirth: '1990-01-01',
        organisation: { name: organisation },
      },
      { 'CF-Connecting-IP': freshIp() },
    ),
  );
  if (res.status !== 201) throw new Error(`signup at ${domain} failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{
    user: { id: string; organisation: { name: string; verification: string } };
  }>();
  if (body.user.organisation.name !== organisation || body.user.organisation.verification !== 'unverified')
    throw new Error(`signup at ${domain}: unexpected organisation ${JSON.stringify(body.user.organisation)}`);
  const cookie = /session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  await markConfirmed(body.user.id);
  return { cookie: `session=${cookie}`, id: body.user.id, email, password };
}

/** Logs in as the first admin (the ADMIN_EMAIL / ADMIN_PASSWORD test bindings). */
export async function loginAdmin(): Promise<Account> {
  const email = 'admin@test.local';
  const password = 'test-admin-password-123';
  const res = await expectStatus(
    await call('/api/auth/login', jsonInit('POST', { email, password })),
    200,
    'admin login',
  );
  const body = await res.json<{ user: { id: string } }>();
  return { cookie: `session=${sessionCookieFrom(res)}`, id: body.user.id, email, password };
}

/** Issues an API key through the admin API; returns the secret and its id. */
export async function issueKey(
  admin: Account,
  scopes: string[],
  name = 'test key',
): Promise<{ key: string; id: string }> {
  const res = await expectStatus(
    await call('/api/admin/api-keys', jsonInit('POST', { name, scopes }, as(admin))),
    201,
    'key issue',
  );
  return res.json<{ key: string; id: string }>();
}

/** Every consent purpose: what a candidate who is shown everywhere has granted. */
export const ALL_CONSENTS = ['ai_evaluation', 'leaderboard', 'public_verification', 'integrity_corpus'];

/** Grants (or revokes) a consent purpose through the API. */
export async function consent(
  account: Account,
  purpose: string,
  action: 'grant' | 'revoke' = 'grant',
): Promise<void> {
  await expectStatus(
    await call('/api/consent', jsonInit('POST', { purpose, action, noticeVersion: 'v2' }, as(account))),
    201,
    'consent',
  );
}

// --- Briefs and work, through the API

/** A brief the pillars can build a rubric and playbook for (shared with test/e2e/seed.mjs). */
export const DEMO_BRIEF = demo.brief;

/** Work that meets DEMO_BRIEF's criteria, so the local engine passes it. */
export const GOOD_WORK = demo.work;

export type BriefView = {
  id: string;
  state: string;
  playbook: { milestones: { id: string; final: boolean; day: number; tutorial_links: string[] }[] };
};

/** Creates a brief as the employer, published unless `overrides` says `publish: false`. */
export async function publishedBrief(
  employer: Account,
  overrides: Record<string, unknown> = {},
): Promise<BriefView> {
  const res = await expectStatus(
    await call('/api/briefs', jsonInit('POST', { ...DEMO_BRIEF, ...overrides }, as(employer))),
    201,
    'brief creation',
  );
  return res.json<BriefView>();
}

/** A draft brief of the employer's (not public, takes no submissions). */
export const draftBrief = (employer: Account, overrides: Record<string, unknown> = {}) =>
  publishedBrief(employer, { ...overrides, publish: false });

/** The candidate's view of one submission (GET /api/submissions/{id}). */
export type SubmissionView = {
  id: string;
  state: string;
  evaluation: { id: string; state: string; ai: { verdict: string } | null } | null;
};

export type Submitted = {
  id: string;
  evaluationId: string;
  /** Whether the work went to AI evaluation (the candidate's `ai_evaluation` consent). */
  aiEvaluation: boolean;
  /** The submission once evaluated. */
  view: SubmissionView;
};

/**
 * Submits GOOD_WORK (or `extra` over it) for a milestone and waits until it is evaluated (at
 * once when it goes straight to the employer, without AI evaluation).
 */
export async function submitAndWait(
  candidate: Account,
  milestoneId: string,
  extra: Record<string, unknown> = {},
): Promise<Submitted> {
  const res = await expectStatus(
    await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId, text: GOOD_WORK, ...extra }, as(candidate)),
    ),
    201,
    'submission',
  );
  const { id, evaluationId, aiEvaluation } = await res.json<{
    id: string;
    evaluationId: string;
    aiEvaluation: boolean;
  }>();
  const view = await eventually(async () => {
    const s = await (await call(`/api/submissions/${id}`, { headers: as(candidate) })).json<SubmissionView>();
    return s.state === 'evaluated' ? s : undefined;
  });
  return { id, evaluationId, aiEvaluation, view };
}

/** The employer's rating of an evaluation (the response, whatever its status). */
export const rate = (employer: Account, evaluationId: string, verdict: 'pass' | 'fail' = 'pass', score = 4) =>
  call(
    `/api/evaluations/${evaluationId}/employer-rating`,
    jsonInit('POST', { score, verdict }, as(employer)),
  );

export type CertifyOptions = {
  /** The brief's domain (and so the leaderboard it counts on). */
  domain?: string;
  /** The brief's title (DEMO_BRIEF's by default). */
  title?: string;
  /** The purposes the candidate consents to first (all of them by default). */
  consents?: string[];
};

/** The id of the employer's organisation (from `GET /api/me`). */
export async function organisationOf(employer: Account): Promise<string> {
  const me = await expectStatus(await call('/api/me', { headers: as(employer) }), 200, 'profile');
  const { organisation } = await me.json<{ organisation: { id: string } | null }>();
  if (!organisation) throw new Error('the employer has no organisation');
  return organisation.id;
}

let admin: Promise<Account> | undefined;

/** Forgets the memoised admin session (test/setup.ts: each file starts on empty storage). */
export function forgetAdminSession(): void {
  admin = undefined;
}

/** The admin's verdict on the employer's organisation (`verified` by default), through the API. */
export async function reviewOrganisation(
  employer: Account,
  verification: 'verified' | 'rejected' | 'suspended' = 'verified',
  reason = 'Checked by the test harness',
): Promise<Response> {
  admin ??= loginAdmin();
  const id = await organisationOf(employer);
  return call(`/api/admin/organisations/${id}`, jsonInit('PATCH', { verification, reason }, as(await admin)));
}

/** Makes the employer's organisation verified (an admin's review); already verified is fine. */
export async function verifyOrganisation(employer: Account): Promise<void> {
  const res = await reviewOrganisation(employer);
  if (res.status === 200) return;
  const body = await res.text();
  // 409 is fine when it says the organisation is verified already, not when its name is taken.
  if (res.status !== 409 || !body.includes('already verified'))
    throw new Error(`verification failed: ${res.status} ${body}`);
}

/** An employer whose organisation is verified, so its passing ratings issue certificates. */
export async function verifiedEmployer(name = 'Test Employer'): Promise<Account> {
  const employer = await signup('employer', name);
  await verifyOrganisation(employer);
  return employer;
}

/**
 * Every milestone of the brief submitted by the candidate and rated `pass` by the employer, in
 * order; returns the last rating's response body (with any certificate it issued).
 */
export async function passEveryMilestone(employer: Account, candidate: Account, brief: BriefView) {
  const submissions: Submitted[] = [];
  let last: { certificate: { certificateNo: string; status?: string } | null } = { certificate: null };
  for (const milestone of brief.playbook.milestones) {
    const submission = await submitAndWait(candidate, milestone.id);
    submissions.push(submission);
    const rated = await expectStatus(await rate(employer, submission.evaluationId), 201, 'rating');
    last = await rated.json();
  }
  return { submissions, certificate: last.certificate };
}

/**
 * The candidate's certificate from the employer: the employer's organisation verified, a new
 * brief, the candidate's consents, their work on every milestone evaluated, and the employer's
 * passing ratings. `submission` is the final milestone's.
 */
export async function certify(employer: Account, candidate: Account, options: CertifyOptions = {}) {
  const { domain = DEMO_BRIEF.domain, title = DEMO_BRIEF.title, consents = ALL_CONSENTS } = options;
  await verifyOrganisation(employer);
  for (const purpose of consents) await consent(candidate, purpose);
  const brief = await publishedBrief(employer, { title, domain, durationDays: 1 });
  const { submissions, certificate } = await passEveryMilestone(employer, candidate, brief);
  if (!certificate) throw new Error('passing every milestone issued no certificate');
  return { brief, submission: submissions.at(-1)!, certificateNo: certificate.certificateNo };
}

/** A new candidate with one certificate from a new employer (`<name>'s employer` by default). */
export async function candidateWithCertificate(
  name: string,
  options: CertifyOptions & { employerName?: string } = {},
) {
  const { employerName = `${name}'s employer`, ...rest } = options;
  const employer = await signup('employer', 'Recruiter', employerName);
  const candidate = await signup('candidate', name);
  return { employer, candidate, ...(await certify(employer, candidate, rest)) };
}

// --- Records straight into D1

export const db = () => getDb(env.DB);

/** A published brief with its rubric and one (final) milestone, as the pillars would leave them. */
export async function seedBrief(employerId: string, domain = 'web') {
  const briefId = crypto.randomUUID();
  const milestoneId = crypto.randomUUID();
  const organisationId = await seededOrganisation(employerId);
  await db().batch([
    db()
      .insert(briefs)
      .values({
        id: briefId,
        employerId,
        organisationId,
        title: `Build a status page (${domain})`,
        domain,
        description: 'A public status page for three services.',
        deliverables: ['status page'],
        successCriteria: ['shows outages within a minute'],
        durationDays: 7,
        state: 'published',
        publishedAt: new Date(),
      }),
    db()
      .insert(rubrics)
      .values({
        briefId,
        criteria: [
          {
            id: 'c1',
            name: 'Works',
            description: 'It works',
            weight: 100,
            levels: [{ score: 5, descriptor: 'All of it' }],
            source: 'shows outages within a minute',
          },
        ],
        passThreshold: 3,
        engine: 'local',
      }),
    db()
      .insert(milestones)
      .values({
        id: milestoneId,
        briefId,
        position: 1,
        day: 7,
        title: 'Ship it',
        tasks: ['ship'],
        tutorialLinks: [],
        isFinal: true,
      }),
  ]);
  return { briefId, milestoneId };
}

/** The employer's organisation, made verified (as if an admin had reviewed it). */
async function seededOrganisation(employerId: string): Promise<string> {
  const [row] = await db()
    .select({ organisationId: users.organisationId })
    .from(users)
    .where(eq(users.id, employerId));
  const organisationId = row?.organisationId ?? crypto.randomUUID();
  if (!row?.organisationId) {
    await db().insert(organisations).values({ id: organisationId, name: 'Seeded organisation', domains: [] });
    await db().update(users).set({ organisationId }).where(eq(users.id, employerId));
  }
  await db()
    .update(organisations)
    .set({ verification: 'verified', verificationMethod: 'admin', verifiedAt: new Date() })
    .where(eq(organisations.id, organisationId));
  return organisationId;
}

/** The corpus shards the test Worker is configured with (FINGERPRINT_SHARDS = 2). */
export const corpusShards = (): D1Database[] => [env.FINGERPRINTS_0, env.FINGERPRINTS_1];

/** Fingerprint rows of `submissionId` in each corpus shard (index = shard). */
export async function shardPrints(submissionId: string): Promise<number[]> {
  return Promise.all(
    corpusShards().map(
      async (d1) =>
        (
          await d1
            .prepare('SELECT count(*) AS n FROM fingerprints WHERE submission_id = ?')
            .bind(submissionId)
            .first<{ n: number }>()
        )?.n ?? 0,
    ),
  );
}

/** Fingerprint rows of `submissionId` in all corpus shards together. */
export const shardPrintTotal = async (submissionId: string) =>
  (await shardPrints(submissionId)).reduce((a, b) => a + b, 0);

/**
 * A rated, certified submission of the candidate on the employer's brief, with fingerprints,
 * evaluation, employer rating and certificate, as the verification workflow would leave them.
 */
export async function seedCertifiedWork(
  candidate: { id: string; email: string },
  brief: { briefId: string; milestoneId: string; employerId: string; domain?: string },
) {
  const submissionId = crypto.randomUUID();
  const evaluationId = crypto.randomUUID();
  const certificateId = crypto.randomUUID();
  const certificateNo = generateCertificateNumber();
  const hashes = [Math.floor(Math.random() * 2 ** 40), Math.floor(Math.random() * 2 ** 40)];
  const domain = brief.domain ?? 'web';
  const organisationId = await seededOrganisation(brief.employerId);
  const [organisation] = await db()
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  const organisationName = organisation?.name ?? 'Seeded organisation';
  await db().batch([
    db()
      .insert(submissions)
      .values({
        id: submissionId,
        candidateId: candidate.id,
        briefId: brief.briefId,
        milestoneId: brief.milestoneId,
        text: 'My status page polls each service every 30 seconds.',
        files: [{ path: 'README.md', content: '# Status page' }],
        repositoryUrl: 'https://git.example.com/status',
        commits: [
          {
            sha: 'a1b2c3d',
            authorEmail: candidate.email,
            authoredAt: new Date().toISOString(),
            message: 'first',
            additions: 10,
            deletions: 0,
          },
        ],
        state: 'rated',
      }),
    db()
      .insert(fingerprints)
      .values(hashes.map((hash, position) => ({ hash, submissionId, position }))),
    db()
      .insert(fingerprintFrequencies)
      .values(hashes.map((hash) => ({ hash, submissions: 1 }))),
    db()
      .insert(evaluations)
      .values({
        id: evaluationId,
        submissionId,
        state: 'completed',
        aiEvaluated: true,
        criterionScores: [{ criterionId: 'c1', score: 4, explanation: 'Solid' }],
        overallScore: 4,
        verdict: 'pass',
        engine: 'local',
        completedAt: new Date(),
      }),
    db().insert(employerRatings).values({
      evaluationId,
      employerId: brief.employerId,
      organisationId,
      briefId: brief.briefId,
      domain,
      score: 4,
      verdict: 'pass',
      comment: 'Good work',
      aiVerdict: 'pass',
    }),
    db().insert(certificates).values({
      id: certificateId,
      certificateNo,
      holderId: candidate.id,
      briefId: brief.briefId,
      employerId: brief.employerId,
      organisationId,
      signedOrganisationName: organisationName,
      submissionId,
      domain,
      credentialJwt: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln',
      issuedAt: new Date(),
    }),
  ]);
  // As the issuing instance would: it verifies its new number at once, filter or not.
  rememberIssued([certificateNo]);
  // And in the sharded corpus the live paths use, with rows in every shard (the two rows above in
  // the main database stand for work stored before the corpus was sharded).
  const shardHashes: number[] = [];
  while (new Set(shardHashes.map((h) => shardOf(h, corpusShards().length))).size < corpusShards().length)
    shardHashes.push(Math.floor(Math.random() * 2 ** 40));
  await corpusFor(env).store(
    submissionId,
    candidate.id,
    shardHashes.map((hash, position) => ({ hash, position, start: position, end: position + 1 })),
  );
  return { submissionId, evaluationId, certificateId, certificateNo, hashes, shardHashes };
}

/**
 * A candidate and an employer inserted directly (no sign-up, so no rate limit), the candidate
 * consenting to evaluation and public verification, with a certified piece of work.
 */
export async function certifiedPerson(namePrefix: string) {
  const employerId = crypto.randomUUID();
  const id = crypto.randomUUID();
  for (const [uid, role] of [
    [employerId, 'employer'],
    [id, 'candidate'],
  ] as const)
    await db()
      .insert(users)
      .values({
        id: uid,
        email: `${uid}@example.test`,
        name: `${namePrefix} ${uid.slice(0, 8)}`,
        role,
        passwordHash: 'x',
        passwordSalt: 'x',
        passwordIterations: 1,
      });
  await db()
    .insert(consentEvents)
    .values([
      { userId: id, purpose: 'ai_evaluation', action: 'grant', noticeVersion: 'v2' },
      { userId: id, purpose: 'public_verification', action: 'grant', noticeVersion: 'v2' },
    ]);
  const brief = await seedBrief(employerId);
  const work = await seedCertifiedWork({ id, email: `${id}@example.test` }, { ...brief, employerId });
  return { id, employerId, brief, work };
}

/** The receipt of an erasure once its cascade has completed (`GET /api/dsr/erasure/{id}`). */
export async function completedErasure(requestId: string) {
  return eventually(async () => {
    const r = await (await call(`/api/dsr/erasure/${requestId}`)).json<{
      state: string;
      deletedCounts: Record<string, number>;
    }>();
    return r.state === 'completed' ? r : undefined;
  }, 20_000);
}
