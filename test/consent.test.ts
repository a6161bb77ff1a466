import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CONSENT_PURPOSES } from '../src/db/schema';
import { CURRENT_NOTICE_VERSION } from '../src/domain/consent-notices';
import { leaderboardKey, verificationKey } from '../src/services/cache-keys';
import { consentStates, hasConsent, recordConsent } from '../src/services/consent';
import { db, seedBrief, seedCertifiedWork, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

type Receipt = { id: string; purpose: string; action: string; noticeVersion: string; createdAt: string };
type Consents = {
  currentNoticeVersion: string;
  states: Record<string, { state: string; since: string | null; noticeVersion: string | null }>;
  history: Receipt[];
};

const consent = (account: Account, body: unknown) =>
  call('/api/consent', jsonInit('POST', body, as(account)));
const myConsents = async (account: Account) =>
  (await call('/api/me/consents', { headers: as(account) })).json<Consents>();

describe('POST /api/consent', () => {
  it('grants and revokes, returning a receipt, and GET /api/me/consents shows state and history newest first', async () => {
    const person = await signup('candidate');
    const before = await myConsents(person);
    expect(before.currentNoticeVersion).toBe(CURRENT_NOTICE_VERSION);
    for (const purpose of CONSENT_PURPOSES)
      expect(before.states[purpose]).toEqual({ state: 'never', since: null, noticeVersion: null });
    expect(before.history).toEqual([]);

    const grant = await consent(person, { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' });
    expect(grant.status).toBe(201);
    const granted = await grant.json<Receipt>();
    expect(granted).toMatchObject({ purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' });
    expect(grant.headers.get('RateLimit')).toMatch(/^"user";r=\d+;t=\d+$/);

    await consent(person, { purpose: 'ai_evaluation', action: 'grant', noticeVersion: 'v2' });
    const revoke = await consent(person, { purpose: 'leaderboard', action: 'revoke', noticeVersion: 'v2' });
    expect(revoke.status).toBe(201);
    const revoked = await revoke.json<Receipt>();

    const after = await myConsents(person);
    expect(after.states.leaderboard).toEqual({
      state: 'revoked',
      since: revoked.createdAt,
      noticeVersion: 'v2',
    });
    expect(after.states.ai_evaluation?.state).toBe('granted');
    expect(after.states.public_verification?.state).toBe('never');
    expect(after.history.map((h) => `${h.purpose}:${h.action}`)).toEqual([
      'leaderboard:revoke',
      'ai_evaluation:grant',
      'leaderboard:grant',
    ]);
    expect(after.history[2]).toEqual(granted);
  });

  it('never updates the ledger in place: every change is a new row', async () => {
    const person = await signup('candidate');
    for (const action of ['grant', 'revoke', 'grant'])
      await consent(person, { purpose: 'public_verification', action, noticeVersion: 'v2' });
    const rows = await env.DB.prepare('SELECT action FROM consent_events WHERE user_id = ? ORDER BY rowid')
      .bind(person.id)
      .all<{ action: string }>();
    expect(rows.results.map((r) => r.action)).toEqual(['grant', 'revoke', 'grant']);
    const audit = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE actor_id = ? AND action LIKE 'consent.%'",
    )
      .bind(person.id)
      .all();
    expect(audit.results).toHaveLength(3);
  });

  it('resolves events in the same millisecond by insert order', async () => {
    const person = await signup('candidate');
    const at = Date.now();
    // Three events with one timestamp: the last inserted is the state.
    for (const action of ['grant', 'revoke', 'grant', 'revoke'])
      await env.DB.prepare(
        "INSERT INTO consent_events (id, user_id, purpose, action, notice_version, created_at) VALUES (?, ?, 'leaderboard', ?, 'v1', ?)",
      )
        .bind(crypto.randomUUID(), person.id, action, at)
        .run();
    expect(await hasConsent(db(), person.id, 'leaderboard')).toBe(false);
    expect((await consentStates(db(), person.id)).leaderboard.state).toBe('revoked');
    const listed = await myConsents(person);
    expect(listed.history.map((h) => h.action)).toEqual(['revoke', 'grant', 'revoke', 'grant']);
  });

  it('refuses an unknown purpose, action or notice version, and unknown fields, with 422 pointers', async () => {
    const person = await signup('candidate');
    const purpose = await expectProblem(
      await consent(person, { purpose: 'marketing', action: 'grant', noticeVersion: 'v2' }),
      422,
      'validation-failed',
    );
    expect(purpose.errors?.map((e) => e.pointer)).toEqual(['#/purpose']);
    const version = await expectProblem(
      await consent(person, { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v0' }),
      422,
      'validation-failed',
    );
    expect(version.errors).toEqual([
      { pointer: '#/noticeVersion', detail: expect.stringContaining('Unknown') },
    ]);
    const extra = await expectProblem(
      await consent(person, { purpose: 'leaderboard', action: 'allow', noticeVersion: 'v2', userId: 'x' }),
      422,
      'validation-failed',
    );
    expect(extra.errors?.map((e) => e.pointer).sort()).toEqual(['#/action', '#/userId']);
    const missing = await expectProblem(
      await consent(person, { purpose: 'leaderboard' }),
      422,
      'validation-failed',
    );
    expect(missing.errors?.map((e) => e.pointer).sort()).toEqual(['#/action', '#/noticeVersion']);
    expect((await myConsents(person)).history).toEqual([]);
  });

  it('accepts a withdrawal citing an earlier notice only if that notice described the purpose', async () => {
    const person = await signup('candidate');
    expect(
      (await consent(person, { purpose: 'integrity_corpus', action: 'grant', noticeVersion: 'v2' })).status,
    ).toBe(201);
    // v1 never described the integrity corpus (it came with v2): a receipt citing it would say nothing.
    const problem = await expectProblem(
      await consent(person, { purpose: 'integrity_corpus', action: 'revoke', noticeVersion: 'v1' }),
      422,
      'validation-failed',
    );
    expect(problem.errors).toEqual([
      { pointer: '#/noticeVersion', detail: expect.stringContaining('does not describe integrity_corpus') },
    ]);
    expect((await myConsents(person)).states.integrity_corpus?.state).toBe('granted');
    // The current notice always does; an earlier one that described the purpose is still accepted.
    expect(
      (await consent(person, { purpose: 'integrity_corpus', action: 'revoke', noticeVersion: 'v2' })).status,
    ).toBe(201);
    expect(
      (await consent(person, { purpose: 'leaderboard', action: 'revoke', noticeVersion: 'v1' })).status,
    ).toBe(201);
    expect((await myConsents(person)).history.map((h) => [h.purpose, h.noticeVersion])).toEqual([
      ['leaderboard', 'v1'],
      ['integrity_corpus', 'v2'],
      ['integrity_corpus', 'v2'],
    ]);
  });

  it('needs a session (401) and an allowed origin (403)', async () => {
    await expectProblem(
      await call(
        '/api/consent',
        jsonInit('POST', { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' }),
      ),
      401,
      'unauthenticated',
    );
    await expectProblem(await call('/api/me/consents'), 401, 'unauthenticated');
    const person = await signup('candidate');
    const foreign = await call(
      '/api/consent',
      jsonInit(
        'POST',
        { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' },
        { cookie: person.cookie, origin: 'https://evil.example' },
      ),
    );
    await expectProblem(foreign, 403, 'forbidden');
  });

  it('takes effect at once: a revoke drops the cached leaderboards and the verification of their certificates', async () => {
    const employer = await signup('employer');
    const person = await signup('candidate');
    const other = await signup('candidate');
    const brief = await seedBrief(employer.id);
    const mine = await seedCertifiedWork(person, { ...brief, employerId: employer.id });
    const theirs = await seedCertifiedWork(other, { ...brief, employerId: employer.id });
    await consent(person, { purpose: 'public_verification', action: 'grant', noticeVersion: 'v2' });

    await env.CACHE.put(leaderboardKey('*'), '{"entries":[{"alias":"Test Person"}]}');
    await env.CACHE.put(leaderboardKey('web'), '{"entries":[{"alias":"Test Person"}]}');
    await env.CACHE.put(leaderboardKey('data'), '{"entries":[]}');
    await env.CACHE.put(verificationKey(mine.certificateNo), '{"holderName":"Test Person"}');
    await env.CACHE.put(verificationKey(theirs.certificateNo), '{"holderName":"Someone Else"}');

    const res = await consent(person, {
      purpose: 'public_verification',
      action: 'revoke',
      noticeVersion: 'v2',
    });
    expect(res.status).toBe(201);
    expect(await env.CACHE.get(verificationKey(mine.certificateNo))).toBeNull();
    // The boards the person can appear on (all domains, and their certificates' domain) are
    // dropped by name; a board they cannot be on is left alone (no listing of every board).
    const leaderboards = await env.CACHE.list({ prefix: 'leaderboard:v1:' });
    expect(leaderboards.keys.map((k) => k.name)).toEqual([leaderboardKey('data')]);
    await env.CACHE.delete(leaderboardKey('data'));
    // Someone else's certificate was not touched.
    expect(await env.CACHE.get(verificationKey(theirs.certificateNo))).not.toBeNull();
    expect(await hasConsent(db(), person.id, 'public_verification')).toBe(false);
  });

  it('recordConsent, as other services call it, returns the receipt and changes the state', async () => {
    const person = await signup('candidate');
    const receipt = await recordConsent(db(), env, person.id, {
      purpose: 'ai_evaluation',
      action: 'grant',
      noticeVersion: CURRENT_NOTICE_VERSION,
    });
    expect(receipt.createdAt).toBeInstanceOf(Date);
    expect(await hasConsent(db(), person.id, 'ai_evaluation')).toBe(true);
  });
});

describe('GET /api/consent/notices/{version}', () => {
  it('serves the notice publicly, explaining each purpose, withdrawal and the grievance route', async () => {
    const res = await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('public');
    const notice = await res.json<{
      version: string;
      current: boolean;
      purposes: { purpose: string; data: string; use: string; withdraw: string }[];
      grievance: string;
    }>();
    expect(notice).toMatchObject({ version: CURRENT_NOTICE_VERSION, current: true });
    expect(notice.purposes.map((p) => p.purpose).sort()).toEqual([...CONSENT_PURPOSES].sort());
    for (const p of notice.purposes) {
      expect(p.data.length).toBeGreaterThan(20);
      expect(p.withdraw).toContain('POST /api/consent');
    }
    expect(notice.grievance).toContain('/api/dsr/grievance');
    expect(notice.grievance).toContain('Data Protection Board');
  });

  it('answers 404 for an unknown version', async () => {
    await expectProblem(await call('/api/consent/notices/v999'), 404, 'not-found');
  });
});
