/** Rule 8(3): processing logs outlive erasure pseudonymised, for a year, then go. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pseudonym, pseudonymKey } from '../src/domain/pseudonym';
import { runScheduled } from '../src/scheduled';
import { purgePseudonymisedLogs } from '../src/services/dsr/erasure';
import { runErasureJob } from './erasure-run';
import { consent, db, signup } from './harness';
import { as, call, jsonInit } from './helpers';

const DAY = 86_400_000;

async function erase(person: { id: string; cookie: string }) {
  const res = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(person as never) });
  expect(res.status).toBe(202);
  const { requestId } = await res.json<{ requestId: string }>();
  await runErasureJob(requestId);
  return requestId;
}

const entriesOf = async (actorPseudonym: string) =>
  (
    await env.DB.prepare(
      'SELECT actor_id, actor_pseudonym, target_id, details, ip, pseudonymised_at FROM audit_log WHERE actor_pseudonym = ?',
    )
      .bind(actorPseudonym)
      .all<{
        actor_id: string | null;
        actor_pseudonym: string;
        target_id: string | null;
        details: string | null;
        ip: string | null;
        pseudonymised_at: number | null;
      }>()
  ).results;

describe('audit entries after erasure (Rule 8(3))', { timeout: 30_000 }, () => {
  it('keeps the person’s processing log pseudonymised: keyed hash for their id, no details, nothing identifying', async () => {
    const person = await signup('candidate', 'Meera Log-Subject');
    await consent(person, 'leaderboard');
    await call(
      '/api/dsr/grievance',
      jsonInit('POST', { subject: 'About my data', description: 'Please check.' }, as(person)),
    );
    await erase(person);

    const key = await pseudonymKey(env.CERT_SIGNING_KEY);
    const kept = await entriesOf(await pseudonym(key, person.id));
    expect(kept.length).toBeGreaterThanOrEqual(3); // consent.grant, dsr.grievance, dsr.erasure
    for (const e of kept) {
      expect(e.actor_id).toBeNull();
      expect(e.details).toBeNull();
      expect(e.ip).toBeNull();
      expect(e.pseudonymised_at).not.toBeNull();
      expect(e.target_id === null || /^psn_[0-9a-f]{32}$/.test(e.target_id)).toBe(true);
    }
    const mentions = await env.DB.prepare(
      `SELECT count(*) AS n FROM audit_log WHERE instr(coalesce(actor_id,'') || coalesce(target_id,'') || coalesce(details,''), ?) > 0
         OR instr(lower(coalesce(details,'')), lower(?)) > 0`,
    )
      .bind(person.id, person.email)
      .first<{ n: number }>();
    expect(mentions?.n).toBe(0);
  });

  it('deletes pseudonymised entries a year after they were written, not before (moved clock, through the cron)', async () => {
    const person = await signup('candidate');
    await consent(person, 'leaderboard');
    await erase(person);
    const key = await pseudonymKey(env.CERT_SIGNING_KEY);
    const mine = await pseudonym(key, person.id);
    const before = (await entriesOf(mine)).length;
    expect(before).toBeGreaterThan(0);

    expect(await purgePseudonymisedLogs(db(), new Date(Date.now() + 364 * DAY))).toBeGreaterThanOrEqual(0);
    expect((await entriesOf(mine)).length).toBe(before);

    await runScheduled(env, new Date(Date.now() + 366 * DAY));
    expect(await entriesOf(mine)).toEqual([]);
  });

  it('keeps the DPO’s records of grievances, nominations and corrections pseudonymised, without free text, for a year', async () => {
    const person = await signup('candidate', 'Arjun Record-Subject');
    await call(
      '/api/dsr/grievance',
      jsonInit('POST', { subject: 'Wrong score', description: 'My secret reason.' }, as(person)),
    );
    await call(
      '/api/dsr/nomination',
      jsonInit(
        'POST',
        { nomineeName: 'Nominee Person', nomineeEmail: 'nominee-x@example.test', relationship: 'sibling' },
        as(person),
      ),
    );
    await erase(person);
    const subject = await pseudonym(await pseudonymKey(env.CERT_SIGNING_KEY), person.id);
    const records = (
      await env.DB.prepare('SELECT * FROM dpo_records WHERE subject_pseudonym = ? ORDER BY kind')
        .bind(subject)
        .all<Record<string, unknown>>()
    ).results;
    expect(records.map((r) => r.kind)).toEqual(['grievance', 'nomination']);
    for (const r of records) {
      expect(r.id).toMatch(/^psn_[0-9a-f]{32}$/);
      expect(typeof r.due_at).toBe('number');
      expect(JSON.stringify(r)).not.toMatch(/secret reason|Nominee Person|nominee-x|Arjun/);
    }
    await purgePseudonymisedLogs(db(), new Date(Date.now() + 364 * DAY));
    const kept = await env.DB.prepare('SELECT count(*) AS n FROM dpo_records WHERE subject_pseudonym = ?')
      .bind(subject)
      .first<{ n: number }>();
    expect(kept?.n).toBe(2);
    await purgePseudonymisedLogs(db(), new Date(Date.now() + 366 * DAY));
    const gone = await env.DB.prepare('SELECT count(*) AS n FROM dpo_records WHERE subject_pseudonym = ?')
      .bind(subject)
      .first<{ n: number }>();
    expect(gone?.n).toBe(0);
  });

  it('leaves entries of people who were not erased alone', async () => {
    const person = await signup('candidate');
    await consent(person, 'leaderboard');
    await purgePseudonymisedLogs(db(), new Date(Date.now() + 800 * DAY));
    const own = await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE actor_id = ?')
      .bind(person.id)
      .first<{ n: number }>();
    expect(own?.n).toBeGreaterThan(0);
  });
});
