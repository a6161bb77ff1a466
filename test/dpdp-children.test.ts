/**
 * Children (DPDP Act 2023 §9, DPDP Rules 2025 Rule 10): a date of birth at signup, verifiable
 * consent of a parent or lawful guardian before anything else, no leaderboard, public name or
 * integrity corpus for children, AI evaluation only with the guardian's grant, the guardian
 * exercising the child's rights, and what changes at 18 (a moved clock).
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { consentEvents, users } from '../src/db/schema';
import { clock, resetClock } from '../src/lib/clock';
import { hasConsent } from '../src/services/consent';
import { endGuardianshipsAtMajority } from '../src/services/guardians';
import { computeLeaderboard } from '../src/services/leaderboard';
import {
  completedErasure,
  db,
  GOOD_WORK,
  publishedBrief,
  seedBrief,
  seedCertifiedWork,
  signup,
  verifiedEmployer,
} from './harness';
import { type Account, as, call, expectProblem, freshIp, jsonInit } from './helpers';

const DAY = 86_400_000;

/** An ISO date `years` years and `days` days before now (real clock). */
function bornAgo(years: number, days = 0): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return new Date(d.getTime() - days * DAY).toISOString().slice(0, 10);
}

/** A 15-year-old naming `guardian` (an email). */
async function childSignup(guardianEmail: string, dateOfBirth = bornAgo(15)): Promise<Account> {
  return signup('candidate', 'Young Person', undefined, { dateOfBirth, guardianEmail });
}

type GuardianRequest = { id: string; state: string; child: { email: string } };

async function pendingFor(guardian: Account, child: Account): Promise<GuardianRequest> {
  const res = await call('/api/guardian/requests', { headers: as(guardian) });
  expect(res.status).toBe(200);
  const { items } = await res.json<{ items: GuardianRequest[] }>();
  const found = items.find((i) => i.child.email === child.email);
  if (!found) throw new Error('no pending request for the child');
  return found;
}

const approve = (guardian: Account, id: string, relationship = 'parent') =>
  call(`/api/guardian/requests/${id}/approve`, jsonInit('POST', { relationship }, as(guardian)));

/** A child approved by a fresh adult guardian. */
async function approvedChild(dateOfBirth?: string) {
  const guardian = await signup('candidate', 'Parent Person');
  const child = await childSignup(guardian.email, dateOfBirth);
  const request = await pendingFor(guardian, child);
  expect((await approve(guardian, request.id)).status).toBe(200);
  return { guardian, child };
}

const consentBody = (purpose: string, action = 'grant') => ({ purpose, action, noticeVersion: 'v2' });

afterEach(() => resetClock());

describe('signup records a date of birth (§9)', { timeout: 60_000 }, () => {
  const base = () => ({
    email: `dob-${crypto.randomUUID().slice(0, 8)}@example.test`,
    password: 'a-long-enough-password',
    name: 'Asha',
    role: 'candidate',
  });
  const post = (body: Record<string, unknown>) =>
    call('/api/auth/signup', jsonInit('POST', body, { 'CF-Connecting-IP': freshIp() }));

  it('requires a real, past date of birth', async () => {
    for (const [dateOfBirth, pointer] of [
      [undefined, '#/dateOfBirth'],
      ['2007-02-29', '#/dateOfBirth'],
      ['17/04/1998', '#/dateOfBirth'],
      ['2999-01-01', '#/dateOfBirth'],
    ] as const) {
      const problem = await expectProblem(await post({ ...base(), dateOfBirth }), 422, 'validation-failed');
      expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
    }
    const ok = await post({ ...base(), dateOfBirth: '1998-04-17' });
    expect(ok.status).toBe(201);
    expect((await ok.json<{ user: { dateOfBirth: string } }>()).user.dateOfBirth).toBe('1998-04-17');
  });

  it('a child must name a guardian (not themselves); an adult must not; employers are adults', async () => {
    const child = { ...base(), dateOfBirth: bornAgo(15) };
    const missing = await expectProblem(await post(child), 422, 'validation-failed');
    expect(missing.errors?.[0]?.pointer).toBe('#/guardianEmail');
    const self = await expectProblem(
      await post({ ...child, guardianEmail: child.email }),
      422,
      'validation-failed',
    );
    expect(self.errors?.[0]?.pointer).toBe('#/guardianEmail');
    const adult = await expectProblem(
      await post({ ...base(), dateOfBirth: '1990-01-01', guardianEmail: 'p@example.test' }),
      422,
      'validation-failed',
    );
    expect(adult.errors?.[0]?.pointer).toBe('#/guardianEmail');
    const employer = await expectProblem(
      await post({ ...base(), role: 'employer', dateOfBirth: bornAgo(16), guardianEmail: 'p@example.test' }),
      422,
      'validation-failed',
    );
    expect(employer.errors?.[0]?.pointer).toBe('#/dateOfBirth');
    // The day before the 18th birthday is still a child; the birthday itself is an adult.
    expect((await post({ ...base(), dateOfBirth: bornAgo(18, -1) })).status).toBe(422);
    expect((await post({ ...base(), dateOfBirth: bornAgo(18) })).status).toBe(201);
  });
});

describe("a child's account before the guardian consents", { timeout: 60_000 }, () => {
  it('can read its profile and status, log out and ask for erasure; everything else is 403', async () => {
    const child = await childSignup('someone@example.test');
    const me = await call('/api/me', { headers: as(child) });
    expect(me.status).toBe(200);
    const status = await (await call('/api/me/guardian', { headers: as(child) })).json<{
      child: boolean;
      consent: string;
      request: { guardianEmail: string; state: string };
    }>();
    expect(status).toMatchObject({ child: true, consent: 'pending' });
    expect(status.request).toMatchObject({ guardianEmail: 'someone@example.test', state: 'pending' });

    for (const [path, init] of [
      ['/api/consent', jsonInit('POST', consentBody('ai_evaluation'), as(child))],
      ['/api/me/consents', { headers: as(child) }],
      ['/api/submissions', { headers: as(child) }],
      ['/api/dsr/access', { headers: as(child) }],
      ['/api/dsr/grievance', jsonInit('POST', { subject: 'x', description: 'y' }, as(child))],
      ['/api/dsr/correction', jsonInit('PATCH', { name: 'Other' }, as(child))],
      ['/api/guardian/requests', { headers: as(child) }],
    ] as const) {
      const problem = await expectProblem(await call(path, init), 403, 'guardian-consent-required');
      expect(problem.detail).toContain('guardian');
    }
    // The problem type is documented where its URI points.
    expect((await call('/problems/guardian-consent-required')).status).toBe(200);

    // Their notices are about their own data: readable whatever the gate's state (test/dpdp-user-notices.test.ts).
    expect((await call('/api/me/notices', { headers: as(child) })).status).toBe(200);
    expect((await call('/api/auth/logout', jsonInit('POST', {}, as(child)))).status).toBe(204);
    const again = await childSignup('someone-else@example.test');
    const erased = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(again) });
    expect(erased.status).toBe(202);
  });

  it('a refused child stays limited and may name another guardian', async () => {
    const first = await signup('candidate', 'First Adult');
    const child = await childSignup(first.email);
    const request = await pendingFor(first, child);
    const refused = await call(
      `/api/guardian/requests/${request.id}/refuse`,
      jsonInit('POST', {}, as(first)),
    );
    expect(refused.status).toBe(200);
    expect((await refused.json<{ state: string }>()).state).toBe('refused');
    await expectProblem(
      await call('/api/me/consents', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
    const status = await (await call('/api/me/guardian', { headers: as(child) })).json<{ consent: string }>();
    expect(status.consent).toBe('refused');

    const second = await signup('candidate', 'Second Adult');
    const renamed = await call(
      '/api/me/guardian',
      jsonInit('POST', { guardianEmail: second.email }, as(child)),
    );
    expect(renamed.status).toBe(201);
    expect((await renamed.json<{ consent: string }>()).consent).toBe('pending');
    const next = await pendingFor(second, child);
    expect((await approve(second, next.id, 'lawful_guardian')).status).toBe(200);
    expect((await call('/api/me/consents', { headers: as(child) })).status).toBe(200);
    // Approved: another guardian cannot be named over it.
    await expectProblem(
      await call('/api/me/guardian', jsonInit('POST', { guardianEmail: first.email }, as(child))),
      409,
      'conflict',
    );
    // An adult needs no guardian.
    await expectProblem(
      await call('/api/me/guardian', jsonInit('POST', { guardianEmail: second.email }, as(first))),
      409,
      'conflict',
    );
  });
});

describe('who may consent for a child (Rule 10)', { timeout: 60_000 }, () => {
  it('only the adult named, signed in, with a date of birth on record at least 18 years ago', async () => {
    const named = await signup('candidate', 'Named Adult');
    const child = await childSignup(named.email);
    const request = await pendingFor(named, child);
    // Someone else: the request does not exist for them.
    const stranger = await signup('candidate', 'Stranger');
    expect((await call('/api/guardian/requests', { headers: as(stranger) })).status).toBe(200);
    await expectProblem(await approve(stranger, request.id), 404, 'not-found');
    // The named account without a date of birth on record (an account from before it was asked).
    await db().update(users).set({ dateOfBirth: null }).where(eq(users.id, named.id));
    await expectProblem(await approve(named, request.id), 403, 'guardian-not-eligible');
    // Nothing changed: the child is still waiting.
    await expectProblem(
      await call('/api/me/consents', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
    await db().update(users).set({ dateOfBirth: '1980-05-05' }).where(eq(users.id, named.id));
    const ok = await approve(named, request.id);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ state: 'approved', relationship: 'parent' });
    // Decided once: a second decision finds no pending request.
    await expectProblem(await approve(named, request.id), 404, 'not-found');
    const audit = await env.DB.prepare(
      "SELECT actor_id FROM audit_log WHERE action = 'guardian.approved' AND target_id = ?",
    )
      .bind(child.id)
      .first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(named.id);
    const wards = await (await call('/api/guardian/wards', { headers: as(named) })).json<{
      items: { id: string }[];
    }>();
    expect(wards.items.map((w) => w.id)).toEqual([child.id]);
  });
});

describe('rules for children after approval (§9(3))', { timeout: 90_000 }, () => {
  it('consents: the guardian grants AI evaluation only; the child may withdraw but not grant', async () => {
    const { guardian, child } = await approvedChild();
    await expectProblem(
      await call('/api/consent', jsonInit('POST', consentBody('ai_evaluation'), as(child))),
      403,
      'guardian-consent-required',
    );
    for (const purpose of ['leaderboard', 'public_verification', 'integrity_corpus']) {
      const problem = await expectProblem(
        await call(
          `/api/guardian/wards/${child.id}/consents`,
          jsonInit('POST', consentBody(purpose), as(guardian)),
        ),
        422,
        'validation-failed',
      );
      expect(problem.errors?.[0]?.pointer).toBe('#/purpose');
    }
    const granted = await call(
      `/api/guardian/wards/${child.id}/consents`,
      jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
    );
    expect(granted.status).toBe(201);
    expect(await hasConsent(db(), child.id, 'ai_evaluation')).toBe(true);
    const states = await (
      await call(`/api/guardian/wards/${child.id}/consents`, { headers: as(guardian) })
    ).json<{
      states: { ai_evaluation: { state: string } };
    }>();
    expect(states.states.ai_evaluation.state).toBe('granted');
    const [event] = await db()
      .select({ grantedBy: consentEvents.grantedBy })
      .from(consentEvents)
      .where(eq(consentEvents.userId, child.id));
    expect(event?.grantedBy).toBe(guardian.id);

    // The child withdraws: withdrawing is never harder than granting.
    expect(
      (await call('/api/consent', jsonInit('POST', consentBody('ai_evaluation', 'revoke'), as(child))))
        .status,
    ).toBe(201);
    expect(await hasConsent(db(), child.id, 'ai_evaluation')).toBe(false);
  });

  it('AI evaluation runs only with the guardian’s grant; the work never enters the integrity corpus', async () => {
    const employer = await verifiedEmployer();
    const brief = await publishedBrief(employer);
    const milestone = brief.playbook.milestones[0]!.id;
    const { guardian, child } = await approvedChild();
    // Even a grant written straight into the ledger by the child (a bypass) counts for nothing.
    await db()
      .insert(consentEvents)
      .values([
        { userId: child.id, purpose: 'integrity_corpus', action: 'grant', noticeVersion: 'v2' },
        { userId: child.id, purpose: 'ai_evaluation', action: 'grant', noticeVersion: 'v2' },
      ]);
    const before = await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId: milestone, text: GOOD_WORK }, as(child)),
    );
    expect(before.status).toBe(201);
    const first = await before.json<{ id: string; aiEvaluation: boolean }>();
    expect(first.aiEvaluation).toBe(false);

    await call(
      `/api/guardian/wards/${child.id}/consents`,
      jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
    );
    const after = await call(
      '/api/submissions',
      jsonInit(
        'POST',
        { milestoneId: brief.playbook.milestones[1]?.id ?? milestone, text: `${GOOD_WORK} v2` },
        as(child),
      ),
    );
    expect(after.status).toBe(201);
    const second = await after.json<{ id: string; aiEvaluation: boolean }>();
    expect(second.aiEvaluation).toBe(true);
    const stored = await env.DB.prepare(
      'SELECT count(*) AS n FROM fingerprints WHERE submission_id IN (?, ?)',
    )
      .bind(first.id, second.id)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it('never on a leaderboard or named on verification, whatever the ledger says; an adult is', async () => {
    const employer = await signup('employer', 'Seeding Employer');
    const domain = `children-${crypto.randomUUID().slice(0, 6)}`;
    const brief = await seedBrief(employer.id, domain);
    const { child } = await approvedChild();
    const adult = await signup('candidate', 'Grown Up');
    const work = {
      child: await seedCertifiedWork(child, { ...brief, employerId: employer.id, domain }),
      adult: await seedCertifiedWork(adult, { ...brief, employerId: employer.id, domain }),
    };
    for (const person of [child, adult])
      await db()
        .insert(consentEvents)
        .values(
          ['leaderboard', 'public_verification'].map((purpose) => ({
            userId: person.id,
            purpose: purpose as 'leaderboard',
            action: 'grant' as const,
            noticeVersion: 'v2',
          })),
        );
    const board = await computeLeaderboard(db(), domain);
    expect(board.entries.map((e) => e.alias)).toEqual(['Grown Up']);
    const verify = async (no: string) =>
      (await (await call(`/api/verify/${no}`)).json<{ holder: { name: string } | null }>()).holder;
    expect(await verify(work.child.certificateNo)).toBeNull();
    expect(await verify(work.adult.certificateNo)).toEqual({ name: 'Grown Up' });
  });
});

describe("the guardian exercises the child's rights", { timeout: 90_000 }, () => {
  it('access, correction, grievance and erasure for their ward; 404 for anyone else’s child', async () => {
    const { guardian, child } = await approvedChild();
    const other = await approvedChild();

    const exported = await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
    const profile = JSON.parse(new TextDecoder().decode(files['profile.json']));
    expect(profile.id ?? profile.profile?.id).toBe(child.id);

    const corrected = await call(
      `/api/guardian/wards/${child.id}/correction`,
      jsonInit('PATCH', { name: 'Corrected Name' }, as(guardian)),
    );
    expect(corrected.status).toBe(200);
    expect((await corrected.json<{ profile: { name: string } }>()).profile.name).toBe('Corrected Name');

    const grievance = await call(
      `/api/guardian/wards/${child.id}/grievance`,
      jsonInit(
        'POST',
        { subject: 'On behalf of my child', description: 'Please explain the evaluation.' },
        as(guardian),
      ),
    );
    expect(grievance.status).toBe(201);
    const kinds = await env.DB.prepare('SELECT kind FROM dsr_requests WHERE user_id = ? ORDER BY kind')
      .bind(child.id)
      .all<{ kind: string }>();
    expect(kinds.results.map((r) => r.kind)).toEqual(['access', 'correction', 'grievance']);

    // Not their ward: every route is a 404, and nothing is written.
    for (const [path, init] of [
      [`/api/guardian/wards/${other.child.id}/access`, { headers: as(guardian) }],
      [`/api/guardian/wards/${other.child.id}/consents`, { headers: as(guardian) }],
      [
        `/api/guardian/wards/${other.child.id}/consents`,
        jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
      ],
      [
        `/api/guardian/wards/${other.child.id}/correction`,
        jsonInit('PATCH', { name: 'Hijack' }, as(guardian)),
      ],
      [
        `/api/guardian/wards/${other.child.id}/grievance`,
        jsonInit('POST', { subject: 's', description: 'd' }, as(guardian)),
      ],
      [`/api/guardian/wards/${other.child.id}/erasure`, { method: 'DELETE', headers: as(guardian) }],
      [`/api/guardian/wards/${other.child.id}`, { method: 'DELETE', headers: as(guardian) }],
    ] as const)
      await expectProblem(await call(path, init), 404, 'not-found');
    const untouched = await env.DB.prepare('SELECT count(*) AS n FROM dsr_requests WHERE user_id = ?')
      .bind(other.child.id)
      .first<{ n: number }>();
    expect(untouched?.n).toBe(0);

    const erased = await call(`/api/guardian/wards/${child.id}/erasure`, {
      method: 'DELETE',
      headers: as(guardian),
    });
    expect(erased.status).toBe(202);
    await expectProblem(await call('/api/me', { headers: as(child) }), 401, 'unauthenticated');
    expect((await call('/api/me', { headers: as(guardian) })).status).toBe(200);
  });

  it("erasing the child's account needs the guardian's recent sign-in (403 and nothing erased with an hour-old one)", async () => {
    const { guardian, child } = await approvedChild();
    await env.DB.prepare('UPDATE sessions SET created_at = ? WHERE user_id = ?')
      .bind(Date.now() - 60 * 60_000, guardian.id)
      .run();
    await expectProblem(
      await call(`/api/guardian/wards/${child.id}/erasure`, { method: 'DELETE', headers: as(guardian) }),
      403,
      'recent-sign-in-required',
    );
    expect((await call('/api/me', { headers: as(child) })).status).toBe(200);
  });

  it('withdrawing consent altogether limits the child again and withdraws the guardian’s grants', async () => {
    const { guardian, child } = await approvedChild();
    await call(
      `/api/guardian/wards/${child.id}/consents`,
      jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
    );
    const res = await call(`/api/guardian/wards/${child.id}`, { method: 'DELETE', headers: as(guardian) });
    expect(res.status).toBe(204);
    await expectProblem(
      await call('/api/me/consents', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
    expect(await hasConsent(db(), child.id, 'ai_evaluation')).toBe(false);
    const latest = await env.DB.prepare(
      "SELECT action FROM consent_events WHERE user_id = ? AND purpose = 'ai_evaluation' ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
      .bind(child.id)
      .first<{ action: string }>();
    expect(latest?.action).toBe('revoke');
    await expectProblem(
      await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) }),
      404,
      'not-found',
    );
  });
});

describe("a guardian's erasure", { timeout: 60_000 }, () => {
  it('withdraws the grants they gave, so the ward and the next guardian read what holds', async () => {
    const { guardian, child } = await approvedChild();
    expect(
      (
        await call(
          `/api/guardian/wards/${child.id}/consents`,
          jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
        )
      ).status,
    ).toBe(201);
    const erased = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(guardian) });
    expect(erased.status).toBe(202);
    const { requestId } = await erased.json<{ requestId: string }>();
    const receipt = await completedErasure(requestId);
    expect(receipt.deletedCounts).toMatchObject({ consents_given_withdrawn: 1, consents_given_unlinked: 1 });

    // The ledger: the grant keeps only that a guardian gave it, and a withdrawal follows it.
    const events = await env.DB.prepare(
      "SELECT action, granted_by FROM consent_events WHERE user_id = ? AND purpose = 'ai_evaluation' ORDER BY created_at, rowid",
    )
      .bind(child.id)
      .all<{ action: string; granted_by: string | null }>();
    expect(events.results).toEqual([
      { action: 'grant', granted_by: 'erased-guardian' },
      { action: 'revoke', granted_by: null },
    ]);

    // A new guardian approves: both they and the child read "revoked", not a grant nobody stands behind.
    const next = await signup('candidate', 'Next Parent');
    expect(
      (await call('/api/me/guardian', jsonInit('POST', { guardianEmail: next.email }, as(child)))).status,
    ).toBe(201);
    expect((await approve(next, (await pendingFor(next, child)).id)).status).toBe(200);
    type States = { states: Record<string, { state: string }> };
    const seenByGuardian = await (
      await call(`/api/guardian/wards/${child.id}/consents`, { headers: as(next) })
    ).json<States>();
    expect(seenByGuardian.states.ai_evaluation?.state).toBe('revoked');
    const seenByChild = await (await call('/api/me/consents', { headers: as(child) })).json<States>();
    expect(seenByChild.states.ai_evaluation?.state).toBe('revoked');
    expect(await hasConsent(db(), child.id, 'ai_evaluation')).toBe(false);
  });
});

describe('turning 18 (a moved clock)', { timeout: 60_000 }, () => {
  it('the guardian link ends, their grants lapse, and the person gives their own consents', async () => {
    // 18 in ten days.
    const { guardian, child } = await approvedChild(bornAgo(18, -10));
    await call(
      `/api/guardian/wards/${child.id}/consents`,
      jsonInit('POST', consentBody('ai_evaluation'), as(guardian)),
    );
    expect(await hasConsent(db(), child.id, 'ai_evaluation')).toBe(true);

    const birthday = new Date(Date.now() + 11 * DAY);
    clock.now = () => birthday;
    // The guardian's grant no longer counts, even before the cron has run.
    expect(await hasConsent(db(), child.id, 'ai_evaluation', birthday)).toBe(false);
    // The guardian can no longer act for them.
    await expectProblem(
      await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) }),
      404,
      'not-found',
    );
    // The person grants for themselves now.
    const status = await (await call('/api/me/guardian', { headers: as(child) })).json<{
      child: boolean;
      consent: string;
    }>();
    expect(status).toMatchObject({ child: false, consent: 'not_needed' });

    // The cron records it: the link ends, the guardian's grants are withdrawn, a notice asks for their own.
    expect(await endGuardianshipsAtMajority(db(), birthday)).toBeGreaterThanOrEqual(1);
    const state = await env.DB.prepare('SELECT state FROM guardian_requests WHERE child_id = ?')
      .bind(child.id)
      .first<{ state: string }>();
    expect(state?.state).toBe('ended');
    const notices = await (await call('/api/me/notices', { headers: as(child) })).json<{
      notices: { kind: string }[];
    }>();
    expect(notices.notices.map((n) => n.kind)).toContain('majority');
    const own = await call('/api/consent', jsonInit('POST', consentBody('leaderboard'), as(child)));
    expect(own.status).toBe(201);
    expect(await hasConsent(db(), child.id, 'leaderboard', birthday)).toBe(true);
    // Running again finds nothing more for this person.
    await endGuardianshipsAtMajority(db(), birthday);
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM user_notices WHERE user_id = ? AND kind = 'majority'",
    )
      .bind(child.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it('an unapproved child who turns 18 is no longer limited', async () => {
    const child = await childSignup('absent-parent@example.test', bornAgo(18, -3));
    await expectProblem(
      await call('/api/me/consents', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
    clock.now = () => new Date(Date.now() + 4 * DAY);
    expect((await call('/api/me/consents', { headers: as(child) })).status).toBe(200);
  });
});
