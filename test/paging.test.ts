import { describe, expect, it } from 'vitest';
import { consent, seedBrief, seedCertifiedWork, signup } from './harness';
import { type Account, as, call, expectProblem } from './helpers';

/** Follows `nextCursor` from `first` until the last page; returns every page's items. */
async function allPages<T>(
  account: Account,
  first: string,
  items: (body: Record<string, unknown>) => T[],
): Promise<{ pages: T[][]; all: T[] }> {
  const pages: T[][] = [];
  let url: string | null = first;
  while (url) {
    const res = await call(url, { headers: as(account) });
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown> & { nextCursor: string | null }>();
    pages.push(items(body));
    const cursor: string | null = body.nextCursor;
    url = cursor ? `${first}&cursor=${encodeURIComponent(cursor)}` : null;
    if (pages.length > 20) throw new Error('the cursor never ends');
  }
  return { pages, all: pages.flat() };
}

describe('GET /api/me/consents: the history is paged', () => {
  it('walks every event exactly once, newest first, while the states reflect them all', async () => {
    const person = await signup('candidate');
    // Seven events, several in the same millisecond (ties are broken by insert order).
    for (const [purpose, action] of [
      ['ai_evaluation', 'grant'],
      ['leaderboard', 'grant'],
      ['public_verification', 'grant'],
      ['leaderboard', 'revoke'],
      ['ai_evaluation', 'revoke'],
      ['leaderboard', 'grant'],
      ['public_verification', 'revoke'],
    ] as const) {
      await consent(person, purpose, action);
    }
    const full = await (await call('/api/me/consents?limit=100', { headers: as(person) })).json<{
      history: { id: string }[];
      nextCursor: string | null;
    }>();
    expect(full.history).toHaveLength(7);
    expect(full.nextCursor).toBeNull();

    type Page = { id: string }[];
    const { pages, all } = await allPages<{ id: string }>(
      person,
      '/api/me/consents?limit=3',
      (body) => body.history as Page,
    );
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(all.map((e) => e.id)).toEqual(full.history.map((e) => e.id));

    const firstPage = await (await call('/api/me/consents?limit=3', { headers: as(person) })).json<{
      states: Record<string, { state: string }>;
    }>();
    expect(firstPage.states).toMatchObject({
      ai_evaluation: { state: 'revoked' },
      leaderboard: { state: 'granted' },
      public_verification: { state: 'revoked' },
    });
  });

  it('defaults to 50 and refuses a limit outside 1–100 or a cursor it did not issue', async () => {
    const person = await signup('candidate');
    await consent(person, 'leaderboard');
    const body = await (await call('/api/me/consents', { headers: as(person) })).json<{
      history: unknown[];
      nextCursor: string | null;
    }>();
    expect(body).toMatchObject({ nextCursor: null });
    expect(body.history).toHaveLength(1);
    // Only decimal digits: hex, exponents, signs, spaces and fractions are not page sizes.
    for (const bad of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'limit=0x10',
      'limit=1e1',
      'limit=%2B5',
      'limit=%2010',
      'limit=10.0',
      'limit=',
    ]) {
      const problem = await expectProblem(
        await call(`/api/me/consents?${bad}`, { headers: as(person) }),
        400,
        'invalid-parameters',
      );
      expect(problem.errors?.[0]?.pointer).toBe('#/query/limit');
    }
    // Garbage, an id of the wrong kind, and times no Date can hold or before the epoch.
    for (const cursor of ['not-base64!', btoa('123.not-a-rowid'), btoa('8640000000000001.1'), btoa('-5.1')]) {
      const problem = await expectProblem(
        await call(`/api/me/consents?cursor=${encodeURIComponent(cursor)}`, { headers: as(person) }),
        400,
        'invalid-parameters',
      );
      expect(problem.errors?.[0]?.pointer).toBe('#/query/cursor');
    }
  });
});

describe('GET /api/me/certificates: paged', () => {
  it('walks every certificate exactly once, newest issued first, and shows no one else’s', async () => {
    const employer = await signup('employer');
    const holder = await signup('candidate');
    const other = await signup('candidate');
    const brief = { ...(await seedBrief(employer.id)), employerId: employer.id };
    const issued: string[] = [];
    for (let i = 0; i < 5; i++) issued.push((await seedCertifiedWork(holder, brief)).certificateNo);
    await seedCertifiedWork(other, brief);

    const { pages, all } = await allPages<{ certificateNo: string; issuedAt: string }>(
      holder,
      '/api/me/certificates?limit=2',
      (body) => body.items as { certificateNo: string; issuedAt: string }[],
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(new Set(all.map((c) => c.certificateNo))).toEqual(new Set(issued));
    const times = all.map((c) => Date.parse(c.issuedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    await expectProblem(
      await call('/api/me/certificates?limit=101', { headers: as(holder) }),
      400,
      'invalid-parameters',
    );
  });
});
