import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it, vi } from 'vitest';
import * as schema from '../src/db/schema';
import worker from '../src/index';
import {
  leaderboardKey,
  PAGE_LANGUAGES,
  PUBLIC_AGREEMENT_KEY,
  verificationKey,
  verificationPageKey,
} from '../src/services/cache-keys';
import { shardOf } from '../src/services/corpus';
import { tombstoneEmail } from '../src/services/dsr/erasure';
import { openConfirmationLink } from './confirm';
import {
  corpusShards,
  db,
  loginAdmin,
  seedBrief,
  seedCertifiedWork,
  shardPrints,
  signup,
  signupInvited,
} from './harness';
import { type Account, as, call, expectProblem, jsonInit, sessionCookieFrom } from './helpers';

/** Every table of the schema: a table added later is scanned without touching this test. */
const TABLES: SQLiteTable[] = Object.values(schema as Record<string, unknown>).filter((x): x is SQLiteTable =>
  is(x, SQLiteTable),
);

/** `table → rows` of every row in which any cell contains any of the needles (case-insensitive). */
async function rowsMentioning(needles: string[]): Promise<Record<string, number>> {
  const hits: Record<string, number> = {};
  for (const table of TABLES) {
    const { name, columns } = getTableConfig(table);
    const row = columns.map((c) => `coalesce(CAST("${c.name}" AS TEXT), '')`).join(' || char(31) || ');
    for (const needle of needles) {
      const found = await env.DB.prepare(
        `SELECT count(*) AS n FROM "${name}" WHERE instr(lower(${row}), lower(?)) > 0`,
      )
        .bind(needle)
        .first<{ n: number }>();
      if (found?.n) hits[name] = (hits[name] ?? 0) + found.n;
    }
  }
  return hits;
}

let messageNo = 0;

/** Delivers one message to the Worker's real `queue` handler and returns what it acked or retried. */
async function deliver(body: { jobId: string } | Record<string, unknown>, attempts = 1) {
  messageNo += 1;
  const id = `message-${messageNo}`;
  const batch = createMessageBatch('erasure', [{ id, timestamp: new Date(), attempts, body }]);
  const retry = vi.spyOn(batch.messages[0]!, 'retry');
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch, env, ctx);
  return { id, result: await getQueueResult(batch, ctx), retry };
}

async function requestErasure(account: Account) {
  const res = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(account) });
  expect(res.status).toBe(202);
  const body = await res.json<{ requestId: string; state: string }>();
  const [job] = await db()
    .select()
    .from(schema.jobs)
    .where(and(eq(schema.jobs.kind, 'erasure'), eq(schema.jobs.ref, body.requestId)));
  if (!job) throw new Error('no erasure job was written with the request');
  return { res, body, job, message: { jobId: job.id } };
}

const receiptOf = async (requestId: string) =>
  (await call(`/api/dsr/erasure/${requestId}`)).json<{
    requestId: string;
    state: string;
    deletedCounts: Record<string, number>;
    completedAt: string | null;
  }>();

/** A candidate with a record of every kind: work, certificates, consents, requests, audit entries, sessions, a key. */
async function candidateWithEverything() {
  const unique = crypto.randomUUID().slice(0, 8);
  const employer = await signup('employer', `Employer ${unique}`);
  const person = await signup('candidate', `Erasable ${unique}`);
  const admin = await loginAdmin();
  const brief = await seedBrief(employer.id);
  const works = [
    await seedCertifiedWork(person, { ...brief, employerId: employer.id }),
    await seedCertifiedWork(person, { ...brief, employerId: employer.id }),
  ];
  // A second session, from another device.
  await call('/api/auth/login', jsonInit('POST', { email: person.email, password: person.password }));
  const post = (path: string, body: unknown) => call(path, jsonInit('POST', body, as(person)));
  await post('/api/consent', { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' });
  await post('/api/consent', { purpose: 'public_verification', action: 'grant', noticeVersion: 'v2' });
  await post('/api/consent', { purpose: 'leaderboard', action: 'revoke', noticeVersion: 'v2' });
  const grievance = await (
    await post('/api/dsr/grievance', { subject: 'Score', description: 'Please look again.' })
  ).json<{ id: string }>();
  await post('/api/dsr/nomination', {
    nomineeName: 'Anita',
    nomineeEmail: 'anita@example.com',
    relationship: 'Sister',
  });
  const oldEmail = person.email;
  const newEmail = `erasable-${unique}@example.test`;
  await call('/api/dsr/correction', jsonInit('PATCH', { email: newEmail }, as(person)));
  await (await call('/api/dsr/access', { headers: as(person) })).arrayBuffer();
  // An administrator acts on their request, another writes an entry naming them, and a key they issued.
  await call(
    `/api/admin/dsr-requests/${grievance.id}`,
    jsonInit('PATCH', { state: 'in_progress' }, as(admin)),
  );
  await db()
    .insert(schema.auditLog)
    .values({
      actorId: admin.id,
      action: 'test.mention',
      targetType: 'note',
      details: { holderId: person.id },
    });
  await db().insert(schema.apiKeys).values({
    name: 'issued by them',
    prefix: 'vpk_test',
    keyHash: crypto.randomUUID(),
    scopes: [],
    createdBy: person.id,
  });
  // Cached public views that show them.
  for (const w of works) {
    await env.CACHE.put(verificationKey(w.certificateNo), '{"holderName":"Erasable"}');
    // The certificate's pages drawn from that payload for cold isolates (decision 0339).
    for (const lang of PAGE_LANGUAGES)
      await env.CACHE.put(verificationPageKey(w.certificateNo, lang), '<p>Erasable</p>');
  }
  await env.CACHE.put(leaderboardKey('web'), `{"entries":[{"alias":"Erasable ${unique}"}]}`);

  const needles = [
    person.id,
    oldEmail,
    newEmail,
    `Erasable ${unique}`,
    ...works.flatMap((w) => [w.submissionId, w.evaluationId, w.certificateId, w.certificateNo]),
  ];
  return { person: { ...person, email: newEmail }, employer, admin, brief, works, needles };
}

describe('erasure', { timeout: 30_000 }, () => {
  it('deletes every row about the person in every table, through the route and the real consumer', async () => {
    const { person, employer, brief, works, needles } = await candidateWithEverything();
    const bystander = await signup('candidate', 'Bystander');
    const theirs = await seedCertifiedWork(bystander, { ...brief, employerId: employer.id });

    const before = await rowsMentioning(needles);
    for (const table of [
      'users',
      'sessions',
      'consent_events',
      'dsr_requests',
      'audit_log',
      'submissions',
      'fingerprints',
      'evaluations',
      'employer_ratings',
      'certificates',
      'api_keys',
    ])
      expect(before[table], `the scan sees ${table} before erasure`).toBeGreaterThan(0);

    const { res, body, message } = await requestErasure(person);
    expect(body).toMatchObject({ state: 'in_progress' });
    expect(res.headers.get('location')).toBe(`/api/dsr/erasure/${body.requestId}`);
    expect(res.headers.get('set-cookie')).toMatch(/session=;.*Max-Age=0/);
    // Sessions end at once, and the account cannot sign in while the cascade runs.
    await expectProblem(await call('/api/me', { headers: as(person) }), 401, 'unauthenticated');
    const login = await call(
      '/api/auth/login',
      jsonInit('POST', { email: person.email, password: person.password }),
    );
    await expectProblem(login, 401, 'unauthenticated');
    expect(sessionCookieFrom(login)).toBeNull();

    const { id, result } = await deliver(message);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);

    expect(await rowsMentioning(needles)).toEqual({});
    const hashes = works.flatMap((w) => w.hashes);
    const frequencies = await env.DB.prepare(
      `SELECT count(*) AS n FROM fingerprint_frequencies WHERE hash IN (${hashes.map(() => '?').join(',')})`,
    )
      .bind(...hashes)
      .first<{ n: number }>();
    expect(frequencies?.n).toBe(0);
    // The sharded corpus: every shard held some of their fingerprints; none is left in any, nor
    // the frequencies of their hashes; the bystander's stay.
    for (const w of works) expect(await shardPrints(w.submissionId)).toEqual([0, 0]);
    for (const [n, d1] of corpusShards().entries()) {
      const theirHashes = works.flatMap((w) => w.shardHashes).filter((h) => shardOf(h, 2) === n);
      const left = await d1
        .prepare(
          `SELECT count(*) AS n FROM fingerprint_frequencies WHERE hash IN (${theirHashes.map(() => '?').join(',')})`,
        )
        .bind(...theirHashes)
        .first<{ n: number }>();
      expect(left?.n, `frequencies in shard ${n}`).toBe(0);
    }
    expect((await shardPrints(theirs.submissionId)).every((n) => n > 0)).toBe(true);

    const receipt = await receiptOf(body.requestId);
    expect(receipt).toMatchObject({
      requestId: body.requestId,
      state: 'completed',
      completedAt: expect.any(String),
    });
    expect(receipt.deletedCounts).toMatchObject({
      submissions: 2,
      evaluations: 2,
      employer_ratings: 2,
      certificates: 2,
      fingerprints: 4,
      fingerprint_shards: works.reduce((n, w) => n + w.shardHashes.length, 0),
      consent_events: 3,
      sessions: 0,
      api_keys_unlinked: 1,
      users: 1,
    });
    expect(receipt.deletedCounts.dsr_requests).toBe(5); // grievance, nomination, correction, access, erasure
    expect(receipt.deletedCounts.audit_log_pseudonymised).toBeGreaterThanOrEqual(9);

    // Caches built from their rows are gone; the public rate was recomputed.
    for (const w of works) {
      expect(await env.CACHE.get(verificationKey(w.certificateNo))).toBeNull();
      for (const lang of PAGE_LANGUAGES)
        expect(await env.CACHE.get(verificationPageKey(w.certificateNo, lang)), lang).toBeNull();
    }
    expect((await env.CACHE.list({ prefix: 'leaderboard:v1:' })).keys).toEqual([]);
    expect(await env.CACHE.get(PUBLIC_AGREEMENT_KEY)).not.toBeNull();

    // Nobody else's records were touched.
    const [kept] = await db()
      .select()
      .from(schema.certificates)
      .where(eq(schema.certificates.id, theirs.certificateId));
    expect(kept).toMatchObject({ holderId: bystander.id, employerId: employer.id });
    const [keptWork] = await db()
      .select()
      .from(schema.submissions)
      .where(eq(schema.submissions.id, theirs.submissionId));
    expect(keptWork?.candidateId).toBe(bystander.id);
    const [key] = await db().select().from(schema.apiKeys).where(eq(schema.apiKeys.name, 'issued by them'));
    expect(key?.createdBy).toBeNull();
  });

  it('is idempotent: a redelivered message of a completed request is acknowledged and changes nothing', async () => {
    const { person, needles } = await candidateWithEverything();
    const { body, message } = await requestErasure(person);
    await deliver(message);
    const first = await receiptOf(body.requestId);

    const again = await deliver(message, 2);
    expect(again.result.explicitAcks).toEqual([again.id]);
    expect(again.result.retryMessages).toEqual([]);
    expect(await receiptOf(body.requestId)).toEqual(first);
    expect(await rowsMentioning(needles)).toEqual({});
  });

  it('resumes after a failure midway: the failed attempt asks for a retry, the next completes with exact counts', async () => {
    const { person, needles } = await candidateWithEverything();
    const { body, message } = await requestErasure(person);

    // Inject a failure: deleting consent events aborts (the step after submissions).
    await env.DB.prepare(
      "CREATE TRIGGER fail_consent_erasure BEFORE DELETE ON consent_events BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    const failed = await deliver(message, 1);
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.result.retryMessages).toMatchObject([{ msgId: failed.id }]);
    // Exponential backoff: 20 s after the first attempt (then 40, 80, … up to 600).
    expect(failed.retry).toHaveBeenCalledWith({ delaySeconds: 20 });

    const midway = await receiptOf(body.requestId);
    expect(midway.state).toBe('in_progress');
    // Everything before the failing step committed and was counted; the failing chunk was
    // rolled back together with its count.
    expect(midway.deletedCounts).toMatchObject({
      submissions: 2,
      evaluations: 2,
      certificates: 2,
      fingerprints: 4,
    });
    expect(midway.deletedCounts).not.toHaveProperty('consent_events');
    expect(await rowsMentioning([person.id])).toHaveProperty('consent_events');

    await env.DB.prepare('DROP TRIGGER fail_consent_erasure').run();
    const retried = await deliver(message, 2);
    expect(retried.result.explicitAcks).toEqual([retried.id]);

    const done = await receiptOf(body.requestId);
    expect(done.state).toBe('completed');
    // Steps done before the failure were not run (or counted) twice.
    for (const [step, n] of Object.entries(midway.deletedCounts))
      expect(done.deletedCounts[step], step).toBe(n);
    expect(done.deletedCounts).toMatchObject({ consent_events: 3, users: 1 });
    expect(await rowsMentioning(needles)).toEqual({});
  });

  it("keeps other candidates' certificates and work when an employer is erased, under a tombstone employer", async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const employer = await signup('employer', `Hiring Manager ${unique}`);
    const candidate = await signup('candidate', 'Kept Candidate');
    const used = await seedBrief(employer.id, 'web');
    const unused = await seedBrief(employer.id, 'design');
    const work = await seedCertifiedWork(candidate, { ...used, employerId: employer.id });
    const revoked = await seedCertifiedWork(candidate, { ...used, employerId: employer.id });
    await db()
      .update(schema.certificates)
      .set({
        status: 'revoked',
        revokedAt: new Date(),
        revokedReason: 'issued in error',
        revokedBy: employer.id,
      })
      .where(eq(schema.certificates.id, revoked.certificateId));
    await env.CACHE.put(verificationKey(work.certificateNo), `{"employer":"Hiring Manager ${unique}"}`);

    const { body, message } = await requestErasure(employer);
    const { result } = await deliver(message);
    expect(result.retryMessages).toEqual([]);

    expect(
      await rowsMentioning([
        employer.id,
        employer.email,
        `Hiring Manager ${unique}`,
        unused.briefId,
        unused.milestoneId,
      ]),
    ).toEqual({});
    expect(await env.CACHE.get(verificationKey(work.certificateNo))).toBeNull();

    const [tombstone] = await db()
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, tombstoneEmail(body.requestId)));
    expect(tombstone).toMatchObject({ name: 'Former employer', role: 'employer' });
    expect(tombstone?.disabledAt).not.toBeNull();

    // The candidate's records survive, re-linked to the tombstone.
    const certs = await db()
      .select()
      .from(schema.certificates)
      .where(eq(schema.certificates.holderId, candidate.id));
    expect(certs.map((c) => c.id).sort()).toEqual([work.certificateId, revoked.certificateId].sort());
    for (const c of certs) expect(c.employerId).toBe(tombstone!.id);
    expect(certs.find((c) => c.id === revoked.certificateId)).toMatchObject({
      status: 'revoked',
      revokedBy: null,
    });
    const subs = await db()
      .select()
      .from(schema.submissions)
      .where(eq(schema.submissions.candidateId, candidate.id));
    expect(subs).toHaveLength(2);
    const [rating] = await db()
      .select()
      .from(schema.employerRatings)
      .where(eq(schema.employerRatings.evaluationId, work.evaluationId));
    expect(rating?.employerId).toBe(tombstone!.id);
    const [brief] = await db().select().from(schema.briefs).where(eq(schema.briefs.id, used.briefId));
    expect(brief).toMatchObject({ employerId: tombstone!.id, state: 'closed' });
    expect(brief?.closedAt).not.toBeNull();
    // The brief nobody worked on is gone, with its rubric and milestones.
    const counts = (await receiptOf(body.requestId)).deletedCounts;
    expect(counts).toMatchObject({
      briefs: 1,
      rubrics: 1,
      milestones: 1,
      briefs_reassigned: 1,
      certificates_reassigned: 2,
      employer_ratings_reassigned: 2,
      certificates_revoker_unlinked: 1,
      users: 1,
    });
    // The candidate can still export their data, certificates included.
    const exported = await call('/api/dsr/access', { headers: as(candidate) });
    expect(exported.status).toBe(200);
  });

  it('leaves no invitation addressed to the person, at their address or one they corrected away from', async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const inviter = await signup('employer', `Inviter ${unique}`);
    const firstEmail = `invitee-${unique}@example.test`;
    const invited = await call(
      '/api/me/organisation/invitations',
      jsonInit('POST', { email: firstEmail }, as(inviter)),
    );
    expect(invited.status).toBe(201);
    const { code } = await invited.json<{ code: string }>();
    const password = 'a-long-enough-password';
    const joined = await signupInvited(firstEmail, code, `Invitee ${unique}`, password);
    expect(joined.status).toBe(201);
    const person: Account = {
      cookie: `session=${sessionCookieFrom(joined)}`,
      id: (await joined.json<{ user: { id: string } }>()).user.id,
      email: firstEmail,
      password,
    };
    // They correct their email; an invitation to the new address also exists (made by another organisation).
    const secondEmail = `invitee-new-${unique}@example.test`;
    expect(
      (await call('/api/dsr/correction', jsonInit('PATCH', { email: secondEmail }, as(person)))).status,
    ).toBe(200);
    // The change takes effect once the new address is confirmed through its link (issue 41).
    const confirmedChange = await openConfirmationLink(person.id, 'change');
    expect(confirmedChange.status).toBe(200);
    const other = await signup('employer', 'Other Inviter');
    const [otherOrganisation] = await db()
      .select({ id: schema.users.organisationId })
      .from(schema.users)
      .where(eq(schema.users.id, other.id));
    await db()
      .insert(schema.organisationInvitations)
      .values({
        organisationId: otherOrganisation!.id!,
        email: secondEmail,
        tokenHash: crypto.randomUUID(),
        invitedBy: other.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    // A bystander's invitation stays.
    const bystanderEmail = `bystander-${unique}@example.test`;
    expect(
      (
        await call(
          '/api/me/organisation/invitations',
          jsonInit('POST', { email: bystanderEmail }, as(inviter)),
        )
      ).status,
    ).toBe(201);

    const needles = [person.id, firstEmail, secondEmail, `Invitee ${unique}`];
    expect((await rowsMentioning(needles)).organisation_invitations).toBe(2);

    const { body, message } = await requestErasure({ ...person, email: secondEmail });
    const { result } = await deliver(message);
    expect(result.retryMessages).toEqual([]);
    expect(await rowsMentioning(needles)).toEqual({});
    const { deletedCounts } = await receiptOf(body.requestId);
    expect(deletedCounts).toMatchObject({ organisation_invitations: 2 });
    // Their confirmation links (the change's at least) are an erasure step of their own, counted.
    expect(deletedCounts.email_confirmations).toBeGreaterThanOrEqual(1);
    expect((await rowsMentioning([bystanderEmail])).organisation_invitations).toBe(1);
  });

  it('acknowledges a message it does not understand instead of retrying it forever', async () => {
    const batch = createMessageBatch('erasure', [
      { id: 'junk', timestamp: new Date(), attempts: 1, body: { type: 'other' } },
    ]);
    const ctx = createExecutionContext();
    await (worker as ExportedHandler<Env>).queue!(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['junk']);
  });

  it('serves the receipt without a session, 404 for an unknown id; erasure itself needs a session', async () => {
    await expectProblem(await call(`/api/dsr/erasure/${crypto.randomUUID()}`), 404, 'not-found');
    await expectProblem(await call('/api/dsr/erasure', { method: 'DELETE' }), 401, 'unauthenticated');
    const person = await signup('candidate');
    await expectProblem(
      await call('/api/dsr/erasure', { method: 'DELETE', headers: { cookie: person.cookie } }),
      403,
      'forbidden',
    );
    expect((await call('/api/me', { headers: as(person) })).status).toBe(200);
  });
});
