import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { verificationKey } from '../src/services/cache-keys';
import {
  type BriefView,
  candidateWithCertificate,
  consent,
  DEMO_BRIEF,
  draftBrief,
  GOOD_WORK,
  loginAdmin,
  publishedBrief,
  rate,
  signup,
  submitAndWait,
} from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

/** A candidate with one certificate from a one-milestone brief. */
const certified = (name: string, domain = 'data-science') => candidateWithCertificate(name, { domain });

describe('briefs', () => {
  it('enforces draft → published → closed, and hides drafts from the public', async () => {
    const employer = await signup('employer');
    const draft = await draftBrief(employer);
    expect(draft.state).toBe('draft');
    await expectProblem(await call(`/api/briefs/${draft.id}`), 404, 'not-found');
    expect((await call(`/api/me/briefs/${draft.id}`, { headers: as(employer) })).status).toBe(200);

    const candidate = await signup('candidate');
    const toDraft = await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId: draft.playbook.milestones[0]!.id, text: 'x' }, as(candidate)),
    );
    await expectProblem(toDraft, 404, 'not-found');

    const patch = (state: string, who = employer) =>
      call(`/api/briefs/${draft.id}`, jsonInit('PATCH', { state }, as(who)));
    await expectProblem(await patch('closed'), 409, 'conflict');
    expect((await patch('published')).status).toBe(200);
    expect((await call(`/api/briefs/${draft.id}`)).status).toBe(200);
    await expectProblem(await patch('published'), 409, 'conflict');
    await expectProblem(await patch('closed', await signup('employer')), 404, 'not-found');
    expect((await patch('closed')).status).toBe(200);

    const toClosed = await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId: draft.playbook.milestones[0]!.id, text: 'x' }, as(candidate)),
    );
    await expectProblem(toClosed, 409, 'conflict');
  });

  it('lets only employers create briefs and lists published ones publicly', async () => {
    const candidate = await signup('candidate');
    await expectProblem(
      await call('/api/briefs', jsonInit('POST', DEMO_BRIEF, as(candidate))),
      403,
      'forbidden',
    );
    const employer = await signup('employer');
    const brief = await publishedBrief(employer, { domain: 'listing-test' });
    const list = await (await call('/api/briefs?domain=listing-test')).json<{ items: { id: string }[] }>();
    expect(list.items.map((b) => b.id)).toEqual([brief.id]);
    await expectProblem(await call('/api/briefs?limit=500'), 400, 'invalid-parameters');
  });
});

describe('submissions', () => {
  let employer: Account;
  let alice: Account;
  let bob: Account;
  let brief: BriefView;
  let aliceSubmission: { id: string; evaluationId: string };

  beforeAll(async () => {
    employer = await signup('employer');
    alice = await signup('candidate', 'Alice');
    bob = await signup('candidate', 'Bob');
    await consent(alice, 'ai_evaluation');
    brief = await publishedBrief(employer);
    aliceSubmission = await submitAndWait(alice, brief.playbook.milestones[0]!.id);
  });

  it("lists only the caller's own, and another candidate's submission is 404", async () => {
    const mine = await (await call('/api/submissions', { headers: as(alice) })).json<{
      items: { id: string }[];
    }>();
    expect(mine.items.map((s) => s.id)).toEqual([aliceSubmission.id]);
    const theirs = await (await call('/api/submissions', { headers: as(bob) })).json<{ items: unknown[] }>();
    expect(theirs.items).toEqual([]);
    await expectProblem(
      await call(`/api/submissions/${aliceSubmission.id}`, { headers: as(bob) }),
      404,
      'not-found',
    );
    await expectProblem(await call('/api/submissions/no-such-id', { headers: as(alice) }), 404, 'not-found');
  });

  it('filters by brief and state and pages newest first', async () => {
    const second = await submitAndWait(alice, brief.playbook.milestones[0]!.id);
    const page1 = await (await call('/api/submissions?limit=1', { headers: as(alice) })).json<{
      items: { id: string }[];
      nextCursor: string;
    }>();
    expect(page1.items.map((s) => s.id)).toEqual([second.id]);
    const page2 = await (
      await call(`/api/submissions?limit=1&cursor=${page1.nextCursor}`, { headers: as(alice) })
    ).json<{ items: { id: string }[] }>();
    expect(page2.items.map((s) => s.id)).toEqual([aliceSubmission.id]);
    const byState = await (await call('/api/submissions?state=rated', { headers: as(alice) })).json<{
      items: unknown[];
    }>();
    expect(byState.items).toEqual([]);
    await expectProblem(
      await call('/api/submissions?state=bogus', { headers: as(alice) }),
      400,
      'invalid-parameters',
    );
  });

  it('without ai_evaluation consent goes straight to the employer, with no AI verdict and no agreement pair', async () => {
    const res = await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId: brief.playbook.milestones[0]!.id, text: GOOD_WORK }, as(bob)),
    );
    const created = await res.json<{ state: string; aiEvaluation: boolean; evaluationId: string }>();
    expect(created).toMatchObject({ state: 'evaluated', aiEvaluation: false });
    const rated = await (await rate(employer, created.evaluationId, 'fail', 2)).json<{
      evaluation: { aiEvaluated: boolean; ai: unknown };
    }>();
    expect(rated.evaluation).toMatchObject({ aiEvaluated: false, ai: null });
    const row = await env.DB.prepare('SELECT ai_verdict FROM employer_ratings WHERE evaluation_id = ?')
      .bind(created.evaluationId)
      .first();
    expect(row?.ai_verdict).toBeNull();
  });

  it('validates the body: at least one of text, files or repository URL; URLs are http(s)', async () => {
    const milestoneId = brief.playbook.milestones[0]!.id;
    await expectProblem(
      await call('/api/submissions', jsonInit('POST', { milestoneId }, as(alice))),
      422,
      'validation-failed',
    );
    const bad = await call(
      '/api/submissions',
      jsonInit('POST', { milestoneId, repositoryUrl: 'file:///etc/passwd' }, as(alice)),
    );
    expect((await expectProblem(bad, 422, 'validation-failed')).errors?.[0]?.pointer).toBe('#/repositoryUrl');
    await expectProblem(
      await call('/api/submissions', jsonInit('POST', { milestoneId: 'nope', text: 'x' }, as(alice))),
      404,
      'not-found',
    );
    await expectProblem(
      await call('/api/submissions', jsonInit('POST', { milestoneId, text: 'x' }, as(employer))),
      403,
      'forbidden',
    );
  });
});

describe('blind employer rating', () => {
  it('hides the AI verdict until rated, refuses others, a candidate, a second rating and a pending evaluation', async () => {
    const employer = await signup('employer');
    const other = await signup('employer');
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    const brief = await publishedBrief(employer);
    const { evaluationId } = await submitAndWait(candidate, brief.playbook.milestones[0]!.id);

    const before = await (await call(`/api/evaluations/${evaluationId}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(before).toMatchObject({ hiddenUntilRated: true, ai: null, state: 'completed' });
    await expectProblem(
      await call(`/api/evaluations/${evaluationId}`, { headers: as(other) }),
      404,
      'not-found',
    );
    await expectProblem(await rate(other, evaluationId), 404, 'not-found');
    await expectProblem(
      await call(`/api/briefs/${brief.id}/submissions`, { headers: as(other) }),
      404,
      'not-found',
    );
    await expectProblem(await rate(candidate, evaluationId), 403, 'forbidden');
    const invalid = await call(
      `/api/evaluations/${evaluationId}/employer-rating`,
      jsonInit('POST', { score: 6, verdict: 'maybe' }, as(employer)),
    );
    const problem = await expectProblem(invalid, 422, 'validation-failed');
    expect(problem.errors?.map((e) => e.pointer).sort()).toEqual(['#/score', '#/verdict']);

    expect((await rate(employer, evaluationId)).status).toBe(201);
    await expectProblem(await rate(employer, evaluationId), 409, 'conflict');
    const after = await (await call(`/api/evaluations/${evaluationId}`, { headers: as(employer) })).json<{
      hiddenUntilRated: boolean;
      ai: { verdict: string };
    }>();
    expect(after.hiddenUntilRated).toBe(false);
    expect(after.ai.verdict).toMatch(/pass|fail/);

    // A rating while the AI evaluation is still running is refused.
    const pending = await submitAndWait(candidate, brief.playbook.milestones[0]!.id);
    await env.DB.prepare("UPDATE evaluations SET state = 'pending' WHERE id = ?")
      .bind(pending.evaluationId)
      .run();
    await expectProblem(await rate(employer, pending.evaluationId), 409, 'conflict');
  });

  it('issues no certificate for a pass on a non-final milestone or a fail on the final one', async () => {
    const employer = await signup('employer');
    const candidate = await signup('candidate');
    const brief = await publishedBrief(employer, { durationDays: 30 });
    const [first, ...rest] = brief.playbook.milestones;
    expect(rest.length).toBeGreaterThan(0);
    const early = await submitAndWait(candidate, first!.id);
    expect(
      (await (await rate(employer, early.evaluationId, 'pass')).json<{ certificate: unknown }>()).certificate,
    ).toBeNull();
    const final = await submitAndWait(candidate, rest.at(-1)!.id);
    expect(
      (await (await rate(employer, final.evaluationId, 'fail', 2)).json<{ certificate: unknown }>())
        .certificate,
    ).toBeNull();
    const certs = await (await call('/api/me/certificates', { headers: as(candidate) })).json<{
      items: unknown[];
    }>();
    expect(certs.items).toEqual([]);
  });
});

describe('certificates and public verification', () => {
  it('refuses a mistyped number before any lookup (400) and an unknown one with 404', async () => {
    const { certificateNo } = await certified('Mistype');
    const chars = certificateNo.split('');
    chars[4] = chars[4] === 'A' ? 'B' : 'A'; // one symbol changed
    const typo = await expectProblem(await call(`/api/verify/${chars.join('')}`), 400, 'invalid-parameters');
    expect(typo.errors?.[0]).toEqual({ pointer: '#/path/certificateNo', detail: 'Check character mismatch' });
    await expectProblem(await call('/api/verify/not-a-number'), 400, 'invalid-parameters');
    // Well-formed, valid check character, never issued:
    const unknown = await call('/api/verify/VP-7K3M-Q9TD-2XWV');
    const notFound = await expectProblem(unknown, 404, 'not-found');
    expect(notFound).toMatchObject({
      instance: '/api/verify/VP-7K3M-Q9TD-2XWV',
      detail: 'No certificate has this number.',
    });
    expect(notFound.requestId).toBe(unknown.headers.get('X-Request-Id'));
    // Lower case and missing hyphens are accepted.
    expect((await call(`/api/verify/${certificateNo.toLowerCase().replaceAll('-', '')}`)).status).toBe(200);
  });

  it('serves verification from KV (one read) and answers If-None-Match with 304', async () => {
    const { certificateNo } = await certified('Cache');
    const first = await call(`/api/verify/${certificateNo}`);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(await env.CACHE.get(verificationKey(certificateNo))).not.toBeNull();
    await env.DB.prepare(
      'UPDATE briefs SET title = ? WHERE id = (SELECT brief_id FROM certificates WHERE certificate_no = ?)',
    )
      .bind('Changed behind the cache', certificateNo)
      .run();
    const cached = await (await call(`/api/verify/${certificateNo}`)).json<{ brief: { title: string } }>();
    expect(cached.brief.title).toBe(DEMO_BRIEF.title);
    const again = await call(`/api/verify/${certificateNo}`, {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('revokes: by the issuing employer or an admin only, once, and verification shows it at once', async () => {
    const { certificateNo, employer, candidate } = await certified('Revoked');
    await call(`/api/verify/${certificateNo}`); // warm the cache
    const revoke = (who: Account) =>
      call(
        `/api/certificates/${certificateNo}/revoke`,
        jsonInit('POST', { reason: 'Plagiarised work' }, as(who)),
      );
    await expectProblem(await revoke(candidate), 403, 'forbidden');
    await expectProblem(await revoke(await signup('employer')), 404, 'not-found');
    await expectProblem(
      await call(`/api/certificates/${certificateNo}/revoke`, jsonInit('POST', {}, as(employer))),
      422,
      'validation-failed',
    );
    const res = await revoke(employer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'revoked', certificateNo });
    await expectProblem(await revoke(await loginAdmin()), 409, 'conflict');
    const verified = await (await call(`/api/verify/${certificateNo}`)).json<{
      status: string;
      revokedAt: string | null;
    }>();
    expect(verified.status).toBe('revoked');
    expect(verified.revokedAt).not.toBeNull();
  });

  it('lets an admin revoke any certificate', async () => {
    const { certificateNo } = await certified('AdminRevoked');
    const res = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Issued in error' }, as(await loginAdmin())),
    );
    expect(res.status).toBe(200);
  });

  it('publishes the signing key (ES256) first in the JWKS, then the retired Ed25519 key', async () => {
    const jwks = await (await call('/.well-known/jwks.json')).json<{
      keys: { kty: string; crv: string; kid: string; d?: string }[];
    }>();
    expect(jwks.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      kid: expect.stringContaining('/ob/keys/'),
    });
    expect(jwks.keys[1]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
  });
});

describe('consent withdrawal takes effect at once', () => {
  it('removes the name from verification and the entry from the leaderboard', async () => {
    const { candidate, certificateNo } = await certified('Withdrawn Person', 'consent-domain');
    const verify = async () =>
      (await call(`/api/verify/${certificateNo}`)).json<{ holder: { name: string } | null }>();
    const board = async () =>
      (await call('/api/leaderboard?domain=consent-domain')).json<{ entries: { alias: string }[] }>();
    expect((await verify()).holder).toEqual({ name: 'Withdrawn Person' });
    expect((await board()).entries.map((e) => e.alias)).toEqual(['Withdrawn Person']);

    await consent(candidate, 'public_verification', 'revoke');
    await consent(candidate, 'leaderboard', 'revoke');
    expect((await verify()).holder).toBeNull();
    expect((await board()).entries).toEqual([]);
  });
});

describe('GET /api/leaderboard', () => {
  it('ranks consenting candidates, uses the public alias, and bounds limit (1–100, default 10)', async () => {
    const a = await certified('Asha', 'rank-domain');
    await certified('Bilal', 'rank-domain');
    await call('/api/me', jsonInit('PATCH', { publicAlias: 'asha.codes' }, as(a.candidate)));
    const res = await call('/api/leaderboard?domain=rank-domain', {
      headers: { 'CF-Connecting-IP': '203.0.113.7' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('ratelimit-policy')).toBe('"ip";q=60;w=60');
    const board = await res.json<{ entries: { rank: number; alias: string }[] }>();
    expect(board.entries.map((e) => e.alias).sort()).toEqual(['Bilal', 'asha.codes']);
    expect(board.entries.map((e) => e.rank)).toEqual([1, 1]); // same certificates and score: tied
    const one = await (await call('/api/leaderboard?domain=rank-domain&limit=1')).json<{
      entries: unknown[];
    }>();
    expect(one.entries).toHaveLength(1);
    for (const bad of ['0', '101', 'abc', '2.5']) {
      const problem = await expectProblem(
        await call(`/api/leaderboard?limit=${bad}`),
        400,
        'invalid-parameters',
      );
      expect(problem.errors?.[0]?.pointer).toBe('#/query/limit');
    }
    const etag = res.headers.get('etag')!;
    expect(
      (await call('/api/leaderboard?domain=rank-domain', { headers: { 'If-None-Match': etag } })).status,
    ).toBe(304);
  });

  it('allows 60 requests per minute per IP', async () => {
    const ip = { 'CF-Connecting-IP': '198.51.100.99' };
    const burst = await Promise.all(
      Array.from({ length: 65 }, () => call('/api/leaderboard', { headers: ip })),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(60);
    await expectProblem(burst.find((r) => r.status === 429)!, 429, 'quota-exceeded');
    expect(
      (await call('/api/leaderboard', { headers: { 'CF-Connecting-IP': '198.51.100.100' } })).status,
    ).toBe(200);
  }, 30_000);
});
