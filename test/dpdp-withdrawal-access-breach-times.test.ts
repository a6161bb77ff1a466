/**
 * A withdrawal of `ai_evaluation` stops AI evaluation; the access export tells the person about
 * their own records and who has their work; breach times are possible and told; a DPO's refusal
 * says why. Each was a DPDP defect found by black-box testing, shown failing before its fix:
 *
 * - an AI evaluation that runs after the candidate withdrew `ai_evaluation` (§6(4), §6(6));
 * - the access export's audit log leaving out entries about the person's own records (§11(1)(a));
 * - `recipients.json` leaving out the organisation that has the person's work until it rates (§11(1)(b));
 * - breach records with impossible times, and a notice that does not say when it happened (Rule 7).
 */
import { env } from 'cloudflare:test';
import { BlobReader, configure, TextWriter, ZipReader } from '@zip.js/zip.js';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import { corpusFor } from '../src/services/corpus';
import { pillarEngine } from '../src/services/pillars';
import { createSubmission, evaluateSubmission, storageLimits } from '../src/services/workflow/submissions';
import {
  consent,
  db,
  GOOD_WORK,
  loginAdmin,
  publishedBrief,
  rate,
  signup,
  submitAndWait,
  verifiedEmployer,
} from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

configure({ useWebWorkers: false });

async function exportFiles(res: Response): Promise<Map<string, string>> {
  expect(res.status).toBe(200);
  const reader = new ZipReader(new BlobReader(new Blob([await res.arrayBuffer()])));
  const files = new Map<string, string>();
  for (const entry of await reader.getEntries())
    if (!entry.directory && entry.filename.endsWith('.json'))
      files.set(entry.filename, await entry.getData(new TextWriter()));
  return files;
}

const exportOf = async (person: Account) =>
  exportFiles(await call('/api/dsr/access', { headers: as(person) }));

type AuditEntry = { action: string; targetType: string; targetId: string | null; byYou: boolean };

/** A pending evaluation, as the route leaves it before its job runs (the isolate died, a backlog). */
async function pendingSubmission(candidate: Account, milestoneId: string) {
  const created = await createSubmission(
    db(),
    candidate.id,
    { milestoneId, text: GOOD_WORK },
    storageLimits(env),
    corpusFor(env),
  );
  expect(created?.jobId).toBeTruthy();
  return created!;
}

const evaluationRow = async (id: string) =>
  (await db().select().from(schema.evaluations).where(eq(schema.evaluations.id, id)))[0];

describe('AI evaluation after a withdrawal of ai_evaluation (DPDP §6(4), §6(6))', () => {
  it('a job that runs after the withdrawal does not evaluate: the work goes to the employer un-evaluated', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    const created = await pendingSubmission(candidate, brief.playbook.milestones[0]!.id);
    await consent(candidate, 'ai_evaluation', 'revoke');

    await evaluateSubmission(db(), pillarEngine(env), corpusFor(env), created.submissionId);

    expect(await evaluationRow(created.evaluationId)).toMatchObject({
      state: 'completed',
      aiEvaluated: false,
      overallScore: null,
      verdict: null,
      criterionScores: null,
      engine: null,
    });
    const view = await (
      await call(`/api/submissions/${created.submissionId}`, { headers: as(candidate) })
    ).json<{ state: string; evaluation: { aiEvaluated: boolean; ai: unknown } }>();
    expect(view.state).toBe('evaluated');
    expect(view.evaluation).toMatchObject({ aiEvaluated: false, ai: null });
    const audit = await db()
      .select({ action: schema.auditLog.action })
      .from(schema.auditLog)
      .where(eq(schema.auditLog.targetId, created.evaluationId));
    expect(audit.map((a) => a.action)).toEqual(['evaluation.not_evaluated']);
    // The employer can still rate it (blind, as always).
    expect((await rate(employer, created.evaluationId, 'pass', 4)).status).toBe(201);

    // A second run (a redelivery) changes nothing.
    await evaluateSubmission(db(), pillarEngine(env), corpusFor(env), created.submissionId);
    expect((await evaluationRow(created.evaluationId))?.aiEvaluated).toBe(false);
  });

  it('a result that arrives after a withdrawal made while the model was working is not kept', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    const created = await pendingSubmission(candidate, brief.playbook.milestones[0]!.id);

    await evaluateSubmission(db(), pillarEngine(env), corpusFor(env), created.submissionId, async (step) => {
      if (step === 'evaluating') await consent(candidate, 'ai_evaluation', 'revoke');
    });

    expect(await evaluationRow(created.evaluationId)).toMatchObject({
      state: 'completed',
      aiEvaluated: false,
      overallScore: null,
      verdict: null,
    });
    const [sub] = await db()
      .select({ state: schema.submissions.state })
      .from(schema.submissions)
      .where(eq(schema.submissions.id, created.submissionId));
    expect(sub?.state).toBe('evaluated');
  });

  it('still evaluates while the consent stands', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    const created = await pendingSubmission(candidate, brief.playbook.milestones[0]!.id);
    await evaluateSubmission(db(), pillarEngine(env), corpusFor(env), created.submissionId);
    const row = await evaluationRow(created.evaluationId);
    expect(row).toMatchObject({ state: 'completed', aiEvaluated: true });
    expect(row?.overallScore).not.toBeNull();
  });
});

describe('a completed AI evaluation after a withdrawal of ai_evaluation (DPDP §6(6))', () => {
  it('is no longer processed: the rating makes no agreement pair from it', async () => {
    const employer = await verifiedEmployer();
    const brief = await publishedBrief(employer);
    const milestoneId = brief.playbook.milestones[0]!.id;
    const pairOf = async (evaluationId: string) =>
      (
        await db()
          .select({ aiVerdict: schema.employerRatings.aiVerdict })
          .from(schema.employerRatings)
          .where(eq(schema.employerRatings.evaluationId, evaluationId))
      )[0]?.aiVerdict;

    const kept = await signup('candidate');
    await consent(kept, 'ai_evaluation');
    const withConsent = await submitAndWait(kept, milestoneId);
    expect((await rate(employer, withConsent.evaluationId, 'fail', 2)).status).toBe(201);
    expect(await pairOf(withConsent.evaluationId)).not.toBeNull();

    const withdrawn = await signup('candidate');
    await consent(withdrawn, 'ai_evaluation');
    const evaluated = await submitAndWait(withdrawn, milestoneId);
    await consent(withdrawn, 'ai_evaluation', 'revoke');
    expect((await rate(employer, evaluated.evaluationId, 'fail', 2)).status).toBe(201);
    expect(await pairOf(evaluated.evaluationId)).toBeNull();
  });
});

describe('GET /api/dsr/access → audit-log.json: entries about the person’s own records (DPDP §11(1)(a))', () => {
  it('has the evaluation, the employer’s rating, the issuance and an administrator’s revocation of their certificate, without naming who acted', async () => {
    const employer = await verifiedEmployer('Rating Recruiter');
    const candidate = await signup('candidate', 'Audit Subject');
    for (const purpose of ['ai_evaluation', 'public_verification']) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const work = await submitAndWait(candidate, brief.playbook.milestones.at(-1)!.id);
    const rated = await rate(employer, work.evaluationId, 'pass', 4);
    expect(rated.status).toBe(201);
    const { certificate } = await rated.json<{ certificate: { certificateNo: string } | null }>();
    expect(certificate).not.toBeNull();
    const admin = await loginAdmin();
    expect(
      (
        await call(
          `/api/certificates/${certificate!.certificateNo}/revoke`,
          jsonInit('POST', { reason: 'Issued in error' }, as(admin)),
        )
      ).status,
    ).toBe(200);

    const files = await exportOf(candidate);
    const entries = JSON.parse(files.get('audit-log.json')!) as AuditEntry[];
    const actions = entries.map((e) => `${e.action}${e.byYou ? '' : ' (not you)'}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'submission.created',
        'evaluation.completed (not you)',
        'evaluation.rated (not you)',
        'certificate.issued (not you)',
        'certificate.revoked (not you)',
      ]),
    );
    // Who else acted stays out: neither the recruiter's nor the administrator's account id.
    const text = files.get('audit-log.json')!;
    expect(text).not.toContain(employer.id);
    expect(text).not.toContain(admin.id);
    expect(text).not.toContain('actorId');
  });

  it('a ward’s export shows the consents their guardian gave for them', async () => {
    const guardian = await signup('candidate', 'Parent Person');
    const now = new Date();
    const dateOfBirth = `${now.getUTCFullYear() - 15}-01-01`;
    const child = await signup('candidate', 'Young Person', undefined, {
      dateOfBirth,
      guardianEmail: guardian.email,
    });
    const { items } = await (await call('/api/guardian/requests', { headers: as(guardian) })).json<{
      items: { id: string; child: { email: string } }[];
    }>();
    const request = items.find((i) => i.child.email === child.email)!;
    expect(
      (
        await call(
          `/api/guardian/requests/${request.id}/approve`,
          jsonInit('POST', { relationship: 'parent' }, as(guardian)),
        )
      ).status,
    ).toBe(200);
    const granted = await call(
      `/api/guardian/wards/${child.id}/consents`,
      jsonInit('POST', { purpose: 'ai_evaluation', action: 'grant', noticeVersion: 'v2' }, as(guardian)),
    );
    expect(granted.status).toBe(201);
    const receipt = await granted.json<{ id: string }>();

    const files = await exportOf(child);
    const entries = JSON.parse(files.get('audit-log.json')!) as AuditEntry[];
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'consent.grant', targetId: receipt.id, byYou: false }),
      ]),
    );
    expect(files.get('audit-log.json')).not.toContain(guardian.id);
  });

  it('has nothing about another person’s records', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const other = await signup('candidate', 'Someone Else');
    await consent(other, 'ai_evaluation');
    const theirs = await submitAndWait(other, brief.playbook.milestones[0]!.id);
    const person = await signup('candidate', 'Just Me');
    await consent(person, 'ai_evaluation');
    await submitAndWait(person, brief.playbook.milestones[0]!.id);
    const text = (await exportOf(person)).get('audit-log.json')!;
    expect(text).not.toContain(theirs.id);
    expect(text).not.toContain(theirs.evaluationId);
  });
});

describe('GET /api/dsr/access → recipients.json: the organisation that has the work (DPDP §11(1)(b))', () => {
  type Recipients = { sharedWith: { party: string; kind: string; what: string; when: string }[] };

  it('lists the organisation that set the brief from the moment the work is submitted, before any rating', async () => {
    const employer = await signup('employer', 'Quiet Recruiter', 'Initech Talent');
    const brief = await publishedBrief(employer);
    const person = await signup('candidate', 'Unrated Person');
    await consent(person, 'ai_evaluation');
    const work = await submitAndWait(person, brief.playbook.milestones[0]!.id);
    // The organisation already reads it, with the person's name.
    const seen = await call(`/api/briefs/${brief.id}/submissions`, { headers: as(employer) });
    expect(JSON.stringify(await seen.json())).toContain('Unrated Person');

    const before = JSON.parse((await exportOf(person)).get('recipients.json')!) as Recipients;
    const entry = before.sharedWith.find((s) => s.kind === 'employer');
    expect(entry).toMatchObject({ party: 'Initech Talent' });
    expect(entry?.what).toContain(work.id);
    expect(entry?.what).toContain('not rated it yet');
    expect(Date.parse(entry!.when)).not.toBeNaN();
    expect(JSON.stringify(before)).not.toContain('Quiet Recruiter');

    // Once rated: still one entry for the work, now saying so.
    expect((await rate(employer, work.evaluationId, 'fail', 2)).status).toBe(201);
    const after = JSON.parse((await exportOf(person)).get('recipients.json')!) as Recipients;
    const entries = after.sharedWith.filter((s) => s.kind === 'employer');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.what).toContain('rated it on');
  });
});

describe('POST /api/admin/breaches: possible times, and a notice that says when it happened (Rule 7)', () => {
  const HOUR = 3_600_000;
  const breach = (times: { foundAt: Date; occurredAt?: Date }, affected: unknown) => ({
    description: 'A misconfigured export bucket was readable for two hours.',
    foundAt: times.foundAt.toISOString(),
    ...(times.occurredAt ? { occurredAt: times.occurredAt.toISOString() } : {}),
    categories: ['name', 'email'],
    measures: 'The bucket was closed and its access logs reviewed.',
    consequences: 'Someone may send you messages that pretend to be from us.',
    ...(Array.isArray(affected) ? { affectedUserIds: affected } : { affected }),
  });
  const notices = async (person: Account) =>
    (await (await call('/api/me/notices', { headers: as(person) })).json<{ notices: { body: string }[] }>())
      .notices;

  it('refuses a foundAt in the future (it would push the Board’s 72-hour report out), and writes nothing', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const future = new Date(Date.now() + 24 * HOUR);
    for (const affected of [[person.id], { query: { all: true } }]) {
      const problem = await expectProblem(
        await call('/api/admin/breaches', jsonInit('POST', breach({ foundAt: future }, affected), as(admin))),
        422,
        'validation-failed',
      );
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#/foundAt' })]);
    }
    expect(await notices(person)).toEqual([]);
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM breaches WHERE found_at > ?')
      .bind(Date.now() + HOUR)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it('refuses an occurredAt after foundAt, or in the future', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const foundAt = new Date(Date.now() - 5 * 24 * HOUR);
    for (const occurredAt of [new Date(Date.now() - 3 * 24 * HOUR), new Date(Date.now() + 2 * HOUR)]) {
      const problem = await expectProblem(
        await call(
          '/api/admin/breaches',
          jsonInit('POST', breach({ foundAt, occurredAt }, [person.id]), as(admin)),
        ),
        422,
        'validation-failed',
      );
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#/occurredAt' })]);
    }
    expect(await notices(person)).toEqual([]);
  });

  it('tells each person when it happened, when that is known', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const occurredAt = new Date(Date.now() - 30 * HOUR);
    const foundAt = new Date(Date.now() - 2 * HOUR);
    const res = await call(
      '/api/admin/breaches',
      jsonInit('POST', breach({ foundAt, occurredAt }, [person.id]), as(admin)),
    );
    expect(res.status).toBe(201);
    const [notice] = await notices(person);
    expect(notice?.body).toContain(`It happened on ${occurredAt.toISOString()}.`);
    expect(notice?.body).toContain(`On ${foundAt.toISOString()} we found`);
  });
});

describe('PATCH /api/admin/dsr-requests/{id}: a refusal says why, a grievance is closed with an answer (§13)', () => {
  const resolve = (admin: Account, id: string, body: unknown) =>
    call(`/api/admin/dsr-requests/${id}`, jsonInit('PATCH', body, as(admin)));
  type Request = { id: string; state: string; details: Record<string, unknown> | null };

  it('422 at #/resolution for a rejection or a closed grievance without one; the request is unchanged', async () => {
    const admin = await loginAdmin();
    const person = await signup('candidate');
    const nomination = await (
      await call(
        '/api/dsr/nomination',
        jsonInit(
          'POST',
          { nomineeName: 'Asha', nomineeEmail: 'asha@example.test', relationship: 'sister' },
          as(person),
        ),
      )
    ).json<Request>();
    const grievance = await (
      await call(
        '/api/dsr/grievance',
        jsonInit('POST', { subject: 'My score', description: 'Why?' }, as(person)),
      )
    ).json<Request>();

    for (const [id, state] of [
      [nomination.id, 'rejected'],
      [grievance.id, 'rejected'],
      [grievance.id, 'completed'],
    ] as const) {
      const problem = await expectProblem(await resolve(admin, id, { state }), 422, 'validation-failed');
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#/resolution' })]);
    }
    const mine = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<{
      items: Request[];
    }>();
    expect(mine.items.map((r) => r.state)).toEqual(['received', 'received']);

    // Moving on, or confirming a nomination, needs no text; a rejection with its reason is fine.
    expect((await resolve(admin, grievance.id, { state: 'in_progress' })).status).toBe(200);
    expect((await resolve(admin, nomination.id, { state: 'completed' })).status).toBe(200);
    const answered = await resolve(admin, grievance.id, {
      state: 'rejected',
      resolution: 'The score stands: the rubric was applied as published.',
    });
    expect(answered.status).toBe(200);
    const after = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<{
      items: Request[];
    }>();
    expect(after.items.find((r) => r.id === grievance.id)).toMatchObject({
      state: 'rejected',
      details: { resolution: 'The score stands: the rubric was applied as published.' },
    });
  });
});
