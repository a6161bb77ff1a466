/**
 * What one account can learn about other people: whether an address has an account (through an
 * invitation or an email change), and the work of a candidate who asked for erasure. Found by a
 * black-box round of the authorization matrix (every route with every low-privilege actor: two
 * candidates, two employers of different organisations, their partner keys, no account) and the
 * other party's ids:
 * - `POST /api/me/organisation/invitations` answered 409 "An account with this email already
 *   exists" for a registered address: any employer (a free signup) could ask, 60 times a minute,
 *   whether an address had an account, which the signup's own 409 allows 10 times an hour per network.
 * - `PATCH /api/dsr/correction` with a new email answered 409 for a taken address and 200 for a
 *   free one, 60 times a minute: the same oracle for anyone with an account. Email changes are now
 *   limited to 5 attempts per account per hour (429 `quota-exceeded`, policy `email-change`).
 * - A candidate who asked for erasure is disabled at once, but until the erasure cascade ran (a
 *   queued job, which a backlog delays) the employer still read their name and work in
 *   `GET /api/briefs/{id}/submissions` and `GET /api/evaluations/{id}`, although a rating already
 *   answered 404 ("as gone as it will be"). Both now leave the person out (404 like an unknown id).
 */
import { describe, expect, it } from 'vitest';
import { publishedBrief, signup, signupInvited, submitAndWait } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

const correct = (account: Parameters<typeof as>[0], email: string) =>
  call('/api/dsr/correction', jsonInit('PATCH', { email }, as(account)));

const invite = (employer: Parameters<typeof as>[0], email: string) =>
  call('/api/me/organisation/invitations', jsonInit('POST', { email }, as(employer)));

describe('invitations do not tell who has an account', () => {
  it('answers an address with an account exactly like a free one, and the invitation cannot take the account', async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const employer = await signup('employer', 'Prober', `Authz2 Prober ${unique}`);
    const candidate = await signup('candidate', 'Registered Person');

    const taken = await invite(employer, candidate.email);
    const free = await invite(employer, `nobody-${unique}@example.test`);
    expect(taken.status).toBe(201);
    expect(free.status).toBe(201);
    const takenBody = await taken.json<Record<string, unknown>>();
    const freeBody = await free.json<Record<string, unknown>>();
    expect(Object.keys(takenBody).sort()).toEqual(Object.keys(freeBody).sort());
    expect(takenBody.email).toBe(candidate.email);
    // In upper case: the same address, the same answer.
    expect((await invite(employer, candidate.email.toUpperCase())).status).toBe(201);

    // The code does not let anyone into the registered address: that signup is refused as taken,
    // and the candidate is still a candidate outside the organisation.
    const joined = await signupInvited(candidate.email, String(takenBody.code), 'Impostor');
    await expectProblem(joined, 409, 'conflict');
    const me = await call('/api/me', { headers: as(candidate) });
    expect(await me.json()).toMatchObject({ role: 'candidate', organisation: null });
  });
});

describe('email corrections do not probe for accounts', () => {
  it('counts every attempt to change the address, taken or free, and refuses the sixth in an hour', async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const registered = await signup('candidate', 'Registered');
    const prober = await signup('candidate', 'Prober');
    const outcomes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const target = i % 2 === 0 ? registered.email : `free-${i}-${unique}@example.test`;
      outcomes.push((await correct(prober, target)).status);
    }
    expect(outcomes).toEqual([409, 200, 409, 200, 409]);
    // Over the limit the answer no longer depends on the address.
    const taken = await expectProblem(await correct(prober, registered.email), 429, 'quota-exceeded');
    expect(taken.detail).toContain('email address');
    await expectProblem(await correct(prober, `free-9-${unique}@example.test`), 429, 'quota-exceeded');
    // A name correction is not an email change: it still goes through.
    const renamed = await call('/api/dsr/correction', jsonInit('PATCH', { name: 'Prober Two' }, as(prober)));
    expect(renamed.status).toBe(200);
    // Another account has its own count.
    expect((await correct(registered, `registered-new-${unique}@example.test`)).status).toBe(200);
  });
});

describe('a candidate who asked for erasure is gone for the employer at once', () => {
  it('leaves their work out of the brief and their evaluation unknown, before the cascade runs', async () => {
    const employer = await signup(
      'employer',
      'Recruiter',
      `Authz2 Erasure ${crypto.randomUUID().slice(0, 8)}`,
    );
    const brief = await publishedBrief(employer);
    const leaving = await signup('candidate', 'Leaving Person');
    const staying = await signup('candidate', 'Staying Person');
    const milestoneId = brief.playbook.milestones[0]!.id;
    const gone = await submitAndWait(leaving, milestoneId);
    const kept = await submitAndWait(staying, milestoneId);

    const listed = async () => {
      const res = await call(`/api/briefs/${brief.id}/submissions`, { headers: as(employer) });
      expect(res.status).toBe(200);
      const body = await res.json<{ items: { id: string; candidate: { name: string } }[] }>();
      return body.items.map((i) => i.id);
    };
    expect(await listed()).toEqual(expect.arrayContaining([gone.id, kept.id]));
    expect((await call(`/api/evaluations/${gone.evaluationId}`, { headers: as(employer) })).status).toBe(200);

    // The erasure is accepted; its cascade is a queued job (not delivered in this test).
    const erased = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(leaving) });
    expect(erased.status).toBe(202);

    expect(await listed()).toEqual([kept.id]);
    const unknown = await expectProblem(
      await call(`/api/evaluations/${crypto.randomUUID()}`, { headers: as(employer) }),
      404,
      'not-found',
    );
    const hidden = await expectProblem(
      await call(`/api/evaluations/${gone.evaluationId}`, { headers: as(employer) }),
      404,
      'not-found',
    );
    expect(hidden.detail).toBe(unknown.detail);
    await expectProblem(
      await call(
        `/api/evaluations/${gone.evaluationId}/employer-rating`,
        jsonInit('POST', { score: 4, verdict: 'pass' }, as(employer)),
      ),
      404,
      'not-found',
    );
    // The other candidate's work is untouched.
    expect((await call(`/api/evaluations/${kept.evaluationId}`, { headers: as(employer) })).status).toBe(200);
  });
});
