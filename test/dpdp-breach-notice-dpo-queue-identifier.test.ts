/**
 * Three DPDP duties, each found missing by a black-box round and shown failing before its change:
 *
 * - a breach notice without the consequences likely for the person (DPDP Rules 2025, Rule 7(1)(b));
 * - the DPO's queue, where open grievances drown among the completed access requests every export
 *   makes, with no way to see what is overdue or falls due next (§13, Rule 14);
 * - the holder's credential `identifier` (a salted email hash) still served by public verification
 *   after `public_verification` is withdrawn, which lets anyone who knows the email tell whose
 *   certificate it is (F6; the notice says a verification without that consent does not).
 */
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { base64url, importJWK, type JWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { breaches, dsrRequests, jobs } from '../src/db/schema';
import { notifyBreachPage } from '../src/services/breaches';
import { CREDENTIAL_RESIGN_JOB, recordConsent } from '../src/services/consent';
import { runJob } from '../src/services/jobs/jobs';
import { candidateWithCertificate, consent, db, loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const notices = async (person: Account) =>
  (await (await call('/api/me/notices', { headers: as(person) })).json<{ notices: { body: string }[] }>())
    .notices;

describe('POST /api/admin/breaches: the notice says what the breach may mean for the person (Rule 7(1)(b))', () => {
  const CONSEQUENCES = 'Someone who has your email address may send you messages that pretend to be from us.';
  const breach = (affected: unknown, extra: Record<string, unknown> = {}) => ({
    description: 'A misconfigured export bucket was readable for two hours.',
    foundAt: new Date(Date.now() - HOUR).toISOString(),
    categories: ['name', 'email'],
    measures: 'The bucket was closed and its access logs reviewed.',
    consequences: CONSEQUENCES,
    ...(Array.isArray(affected) ? { affectedUserIds: affected } : { affected }),
    ...extra,
  });

  it('records the consequences, shows them on the breach and tells each person', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const res = await call('/api/admin/breaches', jsonInit('POST', breach([person.id]), as(admin)));
    expect(res.status).toBe(201);
    const created = await res.json<{ id: string; consequences: string }>();
    expect(created.consequences).toBe(CONSEQUENCES);
    const listed = await (await call('/api/admin/breaches', { headers: as(admin) })).json<{
      items: { id: string; consequences: string }[];
    }>();
    expect(listed.items.find((b) => b.id === created.id)?.consequences).toBe(CONSEQUENCES);
    const [notice] = await notices(person);
    expect(notice?.body).toContain(`What it may mean for you: ${CONSEQUENCES}`);
    // In the order a reader needs it: what happened and what data, then what it may mean, then what was done.
    expect(notice!.body.indexOf('The data concerned')).toBeLessThan(notice!.body.indexOf('What it may mean'));
    expect(notice!.body.indexOf('What it may mean')).toBeLessThan(notice!.body.indexOf('What we have done'));
  });

  it('is required (a notice without it is incomplete) and bounded like the other texts; nothing is written', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const { consequences: _, ...without } = breach([person.id]);
    for (const [body, pointer] of [
      [without, '#/consequences'],
      [breach([person.id], { consequences: '   ' }), '#/consequences'],
      [breach([person.id], { consequences: 'x'.repeat(2001) }), '#/consequences'],
      [breach({ query: { all: true } }, { consequences: undefined }), '#/consequences'],
    ] as const) {
      const problem = await expectProblem(
        await call('/api/admin/breaches', jsonInit('POST', body, as(admin))),
        422,
        'validation-failed',
      );
      expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
    }
    expect(await notices(person)).toEqual([]);
  });

  it('a breach recorded before it was asked has none (the migration default), and its notices leave the sentence out', async () => {
    const admin = await loginAdmin();
    const since = new Date();
    const person = await signup();
    const id = crypto.randomUUID();
    const now = new Date();
    // As a row from before the column existed: no consequences given.
    await db()
      .insert(breaches)
      .values({
        id,
        description: 'An old breach.',
        foundAt: new Date(now.getTime() - HOUR),
        categories: ['email'],
        measures: 'Closed.',
        affectedCount: 0,
        affectedQuery: { role: 'candidate', signedUpAfter: since.toISOString() },
        notification: 'notifying',
        boardIntimationDueAt: now,
        boardReportDueAt: new Date(now.getTime() + 71 * HOUR),
        createdAt: now,
      });
    await notifyBreachPage(db(), env, { breachId: id, after: null }, now);
    const [notice] = await notices(person);
    expect(notice?.body).toContain('An old breach.');
    expect(notice?.body).not.toContain('What it may mean for you');
    const listed = await (await call('/api/admin/breaches', { headers: as(admin) })).json<{
      items: { id: string; consequences: string }[];
    }>();
    expect(listed.items.find((b) => b.id === id)?.consequences).toBe('');
  });
});

type AdminRequest = {
  id: string;
  userId: string;
  kind: string;
  state: string;
  dueAt: string;
  overdue: boolean;
};
type Page = { items: AdminRequest[]; nextCursor: string | null };

describe('GET /api/admin/dsr-requests: what is overdue, and what falls due next', () => {
  /**
   * One person's requests: an overdue grievance and an overdue nomination in progress, an open
   * grievance not yet due, two open ones due at the same moment (ties), and completed access
   * requests (exports) long past their due date, which are not anyone's to answer any more.
   */
  async function queue() {
    const admin = await loginAdmin();
    const person = await signup();
    const now = Date.now();
    const row = (kind: 'grievance' | 'nomination' | 'access', state: string, dueIn: number) => ({
      id: crypto.randomUUID(),
      userId: person.id,
      kind,
      state: state as 'received' | 'in_progress' | 'completed',
      details: kind === 'access' ? null : { subject: 'A question' },
      dueAt: new Date(now + dueIn),
      createdAt: new Date(now - 100 * DAY + Math.abs(dueIn) / 1000),
      completedAt: state === 'completed' ? new Date(now - 99 * DAY) : null,
    });
    const tie = 40 * DAY;
    const rows = {
      overdueGrievance: row('grievance', 'received', -10 * DAY),
      overdueNomination: row('nomination', 'in_progress', -2 * DAY),
      notYetDue: row('grievance', 'received', 60 * DAY),
      tieA: row('grievance', 'received', tie),
      tieB: row('nomination', 'received', tie),
      exports: [1, 2, 3, 4, 5].map((n) => row('access', 'completed', -50 * DAY - n * HOUR)),
    };
    const all = [
      rows.overdueGrievance,
      rows.overdueNomination,
      rows.notYetDue,
      rows.tieA,
      rows.tieB,
      ...rows.exports,
    ];
    await db().insert(dsrRequests).values(all);
    const list = async (query: string) => {
      const res = await call(`/api/admin/dsr-requests?${query}`, { headers: as(admin) });
      expect(res.status).toBe(200);
      return res.json<Page>();
    };
    /** Every page of a listing, in order. */
    const pages = async (query: string) => {
      const seen: AdminRequest[] = [];
      let cursor: string | null = null;
      for (let n = 0; n < 100; n++) {
        const page: Page = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.items);
        cursor = page.nextCursor;
        if (!cursor) return seen;
      }
      throw new Error('paging did not end');
    };
    return {
      admin,
      person,
      rows,
      list,
      pages,
      mine: (items: AdminRequest[]) => items.filter((r) => r.userId === person.id),
    };
  }

  it('overdue=true keeps the open requests past their due date, not the completed exports', async () => {
    const { rows, pages, mine } = await queue();
    const overdue = mine(await pages('overdue=true&limit=100'));
    expect(overdue.map((r) => r.id).sort()).toEqual(
      [rows.overdueGrievance.id, rows.overdueNomination.id].sort(),
    );
    expect(overdue.every((r) => r.overdue)).toBe(true);
    // With the other filters.
    expect(mine(await pages('overdue=true&kind=grievance')).map((r) => r.id)).toEqual([
      rows.overdueGrievance.id,
    ]);
    expect(mine(await pages('overdue=true&state=in_progress')).map((r) => r.id)).toEqual([
      rows.overdueNomination.id,
    ]);
    // false (or absent) filters nothing: every request, exports included.
    expect(mine(await pages('overdue=false&limit=100'))).toHaveLength(10);
  });

  it('sort=due lists the open requests only, the oldest due first, and pages through them exactly once (ties by id)', async () => {
    const { rows, pages, mine } = await queue();
    for (const limit of [1, 2, 3, 100]) {
      const seen = await pages(`sort=due&limit=${limit}`);
      // Every page in due order, whoever's the requests are.
      const keys = seen.map((r) => [Date.parse(r.dueAt), r.id] as const);
      for (let i = 1; i < keys.length; i++) {
        const [a, b] = [keys[i - 1]!, keys[i]!];
        expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
      }
      expect(seen.every((r) => r.state === 'received' || r.state === 'in_progress')).toBe(true);
      const [tieFirst, tieSecond] = [rows.tieA.id, rows.tieB.id].sort();
      expect(mine(seen).map((r) => r.id)).toEqual([
        rows.overdueGrievance.id,
        rows.overdueNomination.id,
        tieFirst,
        tieSecond,
        rows.notYetDue.id,
      ]);
    }
    // Narrowed: only the overdue ones, or one open state, in the same order.
    expect(mine(await pages('sort=due&overdue=true&limit=1')).map((r) => r.id)).toEqual([
      rows.overdueGrievance.id,
      rows.overdueNomination.id,
    ]);
    expect(mine(await pages('sort=due&state=in_progress')).map((r) => r.id)).toEqual([
      rows.overdueNomination.id,
    ]);
  });

  it('a cursor belongs to its order, and a closed state with sort=due or overdue=true is a 400', async () => {
    const { admin, list } = await queue();
    const byCreated = await list('limit=1');
    const byDue = await list('sort=due&limit=1');
    expect(byCreated.nextCursor).toBeTruthy();
    expect(byDue.nextCursor).toBeTruthy();
    for (const query of [
      `sort=due&cursor=${byCreated.nextCursor}`,
      `cursor=${byDue.nextCursor}`,
      'sort=due&cursor=bm9wZQ',
    ]) {
      const problem = await expectProblem(
        await call(`/api/admin/dsr-requests?${query}`, { headers: as(admin) }),
        400,
        'invalid-parameters',
      );
      expect(problem.errors?.map((e) => e.pointer)).toEqual(['#/query/cursor']);
    }
    for (const query of [
      'sort=due&state=completed',
      'sort=due&state=rejected',
      'overdue=true&state=completed',
    ]) {
      const problem = await expectProblem(
        await call(`/api/admin/dsr-requests?${query}`, { headers: as(admin) }),
        400,
        'invalid-parameters',
      );
      expect(problem.errors?.map((e) => e.pointer)).toEqual(['#/query/state']);
    }
    for (const query of ['sort=oldest', 'overdue=yes']) {
      await expectProblem(
        await call(`/api/admin/dsr-requests?${query}`, { headers: as(admin) }),
        400,
        'invalid-parameters',
      );
    }
  });
});

type Subject = { id: string; identifier?: { identityHash: string; salt: string }[] };
type Verification = {
  status: string;
  valid: boolean;
  holder: { name: string } | null;
  credential: { jwt: string } | null;
};

const decode = (segment: string) =>
  JSON.parse(new TextDecoder().decode(base64url.decode(segment))) as Record<string, unknown>;

/** The credential public verification serves, its signature checked through its `kid` URL alone. */
async function publicCredential(certificateNo: string) {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  const verification = await res.json<Verification>();
  const jwt = verification.credential!.jwt;
  const header = decode(jwt.split('.')[0]!) as { alg: string; kid: string };
  const kid = await call(header.kid.slice(env.PUBLIC_BASE_URL.length));
  expect(kid.status).toBe(200);
  const key = await importJWK(await kid.json<JWK>(), header.alg);
  const { payload } = await jwtVerify(jwt, key, { algorithms: [header.alg], typ: 'JWT' });
  return { verification, jwt, payload, subject: payload.credentialSubject as Subject };
}

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const identifierState = async (holder: Account) =>
  (await call('/api/me/credential-identifier', { headers: as(holder) })).json<{
    enabled: boolean;
    included: boolean;
    note: string | null;
  }>();

describe('the holder identifier follows public_verification (F6)', () => {
  it('a withdrawal re-signs the credentials without the identifier (still valid, no hash, no salt); a grant puts it back', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Farah Identifier');
    const on = await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: true }, as(candidate)));
    expect(await on.json()).toEqual({ enabled: true, included: true, note: null, resigned: [certificateNo] });
    // Read (and cached) with the identifier and the name.
    const before = await publicCredential(certificateNo);
    const [identifier] = before.subject.identifier ?? [];
    const salt = identifier!.salt;
    expect(identifier!.identityHash).toBe(`sha256$${await sha256Hex(`${candidate.email}${salt}`)}`);
    expect(before.verification.holder?.name).toBe('Farah Identifier');

    await consent(candidate, 'public_verification', 'revoke');
    const withdrawn = await publicCredential(certificateNo);
    expect(withdrawn.verification).toMatchObject({ status: 'active', valid: true, holder: null });
    expect(withdrawn.subject.identifier).toBeUndefined();
    expect(withdrawn.subject.id).toBe(before.subject.id);
    expect(JSON.stringify(withdrawn.payload)).not.toContain(salt);
    expect(JSON.stringify(withdrawn.payload)).not.toContain(identifier!.identityHash);
    // The holder is told why it is left out; the setting stays.
    const state = await identifierState(candidate);
    expect(state).toMatchObject({ enabled: true, included: false });
    expect(state.note).toContain('public_verification');
    // Turning it on again while withdrawn keeps it out, and says so.
    const again = await call(
      '/api/me/credential-identifier',
      jsonInit('PUT', { enabled: true }, as(candidate)),
    );
    expect(await again.json()).toMatchObject({ enabled: true, included: false, resigned: [certificateNo] });
    expect((await publicCredential(certificateNo)).subject.identifier).toBeUndefined();

    await consent(candidate, 'public_verification', 'grant');
    const granted = await publicCredential(certificateNo);
    expect(granted.verification).toMatchObject({
      status: 'active',
      valid: true,
      holder: { name: 'Farah Identifier' },
    });
    expect(granted.subject.identifier?.[0]).toMatchObject({ identityHash: identifier!.identityHash, salt });
    expect(await identifierState(candidate)).toEqual({ enabled: true, included: true, note: null });

    // Both changes went through the durable job, done.
    const ran = await db()
      .select({ state: jobs.state })
      .from(jobs)
      .where(and(eq(jobs.kind, CREDENTIAL_RESIGN_JOB), eq(jobs.subjectId, candidate.id)));
    expect(ran.map((j) => j.state)).toEqual(['done', 'done']);
  });

  it('a revoked credential, which stays public, loses the identifier too', async () => {
    const { employer, candidate, certificateNo } = await candidateWithCertificate('Gita Revoked', {
      employerName: `Revoking Org ${crypto.randomUUID().slice(0, 6)}`,
    });
    expect(
      (await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: true }, as(candidate)))).status,
    ).toBe(200);
    const revoked = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Issued in error' }, as(employer)),
    );
    expect(revoked.status).toBe(200);
    expect((await publicCredential(certificateNo)).subject.identifier).toHaveLength(1);
    await consent(candidate, 'public_verification', 'revoke');
    const after = await publicCredential(certificateNo);
    expect(after.verification).toMatchObject({ status: 'revoked', valid: false, holder: null });
    expect(after.subject.identifier).toBeUndefined();
  });

  it('a holder without an identifier: a consent change re-signs nothing and leaves no job', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Hari Plain');
    const jwt = (await publicCredential(certificateNo)).jwt;
    await consent(candidate, 'public_verification', 'revoke');
    await consent(candidate, 'public_verification', 'grant');
    expect((await publicCredential(certificateNo)).jwt).toBe(jwt);
    expect(await db().select().from(jobs).where(eq(jobs.kind, CREDENTIAL_RESIGN_JOB))).not.toContainEqual(
      expect.objectContaining({ subjectId: candidate.id }),
    );
    expect(await identifierState(candidate)).toEqual({ enabled: false, included: false, note: null });
  });

  it('when re-signing fails, the withdrawal still stands and the job finishes it later', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Isha Later');
    expect(
      (await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: true }, as(candidate)))).status,
    ).toBe(200);
    // No signing key in this request (a misconfiguration): the consent is recorded all the same.
    const receipt = await recordConsent(db(), { ...env, CERT_SIGNING_KEY: '' }, candidate.id, {
      purpose: 'public_verification',
      action: 'revoke',
      noticeVersion: 'v2',
    });
    expect(receipt.action).toBe('revoke');
    const [job] = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, CREDENTIAL_RESIGN_JOB), eq(jobs.ref, receipt.id)));
    expect(job).toMatchObject({ state: 'pending', subjectId: candidate.id });
    expect(job!.lastError).toBeTruthy();
    // The queue's redelivery (here, by hand, with the key back).
    expect(await runJob(db(), env, job!.id)).toBe('done');
    const after = await publicCredential(certificateNo);
    expect(after.verification.holder).toBeNull();
    expect(after.subject.identifier).toBeUndefined();
  });
});
