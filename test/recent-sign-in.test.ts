/**
 * What cannot be undone needs a recent sign-in (15 minutes): erasing an account (one's own, or a
 * ward's by their guardian) and changing the email address an account signs in with. A session
 * taken from an unlocked laptop or a leaked cookie can still read, but not destroy or take over.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { openConfirmationLink } from './confirm';
import { signup } from './harness';
import { type Account, as, call, expectProblem, freshIp, jsonInit, sessionCookieFrom } from './helpers';

const MINUTE = 60_000;

/** Dates the sign-in of every session of `account` `minutes` ago. */
async function signedInAgo(account: Account, minutes: number) {
  await env.DB.prepare('UPDATE sessions SET created_at = ? WHERE user_id = ?')
    .bind(Date.now() - minutes * MINUTE, account.id)
    .run();
}

async function signInAgain(account: Account): Promise<Account> {
  const res = await call(
    '/api/auth/login',
    jsonInit('POST', { email: account.email, password: account.password }, { 'CF-Connecting-IP': freshIp() }),
  );
  expect(res.status).toBe(200);
  return { ...account, cookie: `session=${sessionCookieFrom(res)}` };
}

const disabled = async (id: string) =>
  (
    await env.DB.prepare('SELECT disabled_at FROM users WHERE id = ?')
      .bind(id)
      .first<{ disabled_at: number | null }>()
  )?.disabled_at ?? null;

const erase = (account: Account) => call('/api/dsr/erasure', { method: 'DELETE', headers: as(account) });

describe('erasure needs a recent sign-in', () => {
  it('a session signed in 16 minutes ago is refused (403, nothing erased, the session still works); a new sign-in erases', async () => {
    const person = await signup('candidate', 'Stale Session');
    await signedInAgo(person, 16);
    const problem = await expectProblem(await erase(person), 403, 'recent-sign-in-required');
    expect(problem.detail).toContain('Sign in again');
    expect(await disabled(person.id)).toBeNull();
    const pending = await env.DB.prepare(
      "SELECT count(*) AS n FROM dsr_requests WHERE user_id = ? AND kind = 'erasure'",
    )
      .bind(person.id)
      .first<{ n: number }>();
    expect(pending?.n).toBe(0);
    expect((await call('/api/me', { headers: as(person) })).status).toBe(200);

    const fresh = await signInAgain(person);
    expect((await erase(fresh)).status).toBe(202);
    expect(await disabled(person.id)).not.toBeNull();
  });

  it('a session signed in 14 minutes ago may erase; renewing a session does not make its sign-in recent', async () => {
    const recent = await signup('candidate', 'Recent Enough');
    await signedInAgo(recent, 14);
    expect((await erase(recent)).status).toBe(202);

    const renewed = await signup('candidate', 'Renewed Session');
    await signedInAgo(renewed, 60 * 24 * 20);
    // The session is renewed as it is used (its expiry moves), its sign-in stays where it was.
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() + MINUTE, renewed.id)
      .run();
    expect((await call('/api/me', { headers: as(renewed) })).status).toBe(200);
    await expectProblem(await erase(renewed), 403, 'recent-sign-in-required');
  });
});

describe('a new email address needs a recent sign-in; a new name does not', () => {
  it('with a session signed in an hour ago: email 403 and unchanged, name 200', async () => {
    const person = await signup('candidate', 'Old Name');
    await signedInAgo(person, 60);
    const newEmail = `taken-over-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await expectProblem(
      await call('/api/dsr/correction', jsonInit('PATCH', { email: newEmail }, as(person))),
      403,
      'recent-sign-in-required',
    );
    const row = await env.DB.prepare('SELECT email, name FROM users WHERE id = ?')
      .bind(person.id)
      .first<{ email: string; name: string }>();
    expect(row?.email).toBe(person.email);
    // The email given is the one on record: nothing changes, nothing is asked.
    expect(
      (await call('/api/dsr/correction', jsonInit('PATCH', { email: person.email }, as(person)))).status,
    ).toBe(200);
    const renamed = await call('/api/dsr/correction', jsonInit('PATCH', { name: 'New Name' }, as(person)));
    expect(renamed.status).toBe(200);
    expect((await renamed.json<{ profile: { name: string } }>()).profile.name).toBe('New Name');

    const fresh = await signInAgain(person);
    const changed = await call('/api/dsr/correction', jsonInit('PATCH', { email: newEmail }, as(fresh)));
    expect(changed.status).toBe(200);
    // Accepted; it takes effect once the new address is confirmed through its link (issue 41).
    expect((await changed.json<{ pendingEmail: string }>()).pendingEmail).toBe(newEmail);
    expect((await openConfirmationLink(person.id, 'change')).status).toBe(200);
    const me = await (await call('/api/me', { headers: as(fresh) })).json<{ email: string }>();
    expect(me.email).toBe(newEmail);
  });
});
