import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import {
  briefs,
  employerRatings,
  evaluations,
  milestones,
  organisations,
  submissions,
  users,
} from '../src/db/schema';
import { runScheduled } from '../src/scheduled';
import {
  PUBLIC_AGREEMENT_KEY as PUBLIC_AGREEMENT_CACHE_KEY,
  payloadMemory,
} from '../src/services/cache-keys';
import { loginAdmin } from './harness';
import { as, call, jsonInit } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
type Verdict = 'pass' | 'fail';

async function seedRatingPairs(
  pairs: { ai: Verdict | null; employer: Verdict; ageDays: number }[],
  verification: 'verified' | 'unverified' | 'pending' | 'suspended' = 'verified',
): Promise<{ organisationId: string }> {
  const db = getDb(env.DB);
  const employerId = crypto.randomUUID();
  const candidateId = crypto.randomUUID();
  const briefId = crypto.randomUUID();
  const milestoneId = crypto.randomUUID();
  const account = { passwordHash: 'x', passwordSalt: 'x', passwordIterations: 100_000 };
  // Only a verified organisation's ratings count towards the public rate.
  const organisationId = crypto.randomUUID();
  await db.insert(organisations).values({
    id: organisationId,
    name: `${verification} Org ${organisationId.slice(0, 8)}`,
    domains: ['e.test'],
    verification,
  });
  await db.insert(users).values([
    {
      id: employerId,
      email: `${employerId}@e.test`,
      name: 'Employer',
      role: 'employer',
      organisationId,
      ...account,
    },
    { id: candidateId, email: `${candidateId}@c.test`, name: 'Candidate', role: 'candidate', ...account },
  ]);
  await db.insert(briefs).values({
    id: briefId,
    employerId,
    organisationId,
    title: 'Brief',
    domain: 'web',
    description: 'd',
    deliverables: ['a'],
    successCriteria: ['b'],
    durationDays: 7,
    state: 'published',
  });
  await db.insert(milestones).values({
    id: milestoneId,
    briefId,
    position: 1,
    day: 7,
    title: 'M',
    tasks: [],
    tutorialLinks: [],
    isFinal: true,
  });
  for (const pair of pairs) {
    const submissionId = crypto.randomUUID();
    const evaluationId = crypto.randomUUID();
    await db
      .insert(submissions)
      .values({ id: submissionId, candidateId, briefId, milestoneId, state: 'rated' });
    await db.insert(evaluations).values({
      id: evaluationId,
      submissionId,
      state: 'completed',
      aiEvaluated: pair.ai !== null,
      verdict: pair.ai,
    });
    await db.insert(employerRatings).values({
      evaluationId,
      employerId,
      organisationId,
      briefId,
      domain: 'web',
      score: pair.employer === 'pass' ? 4 : 2,
      verdict: pair.employer,
      aiVerdict: pair.ai,
      createdAt: new Date(Date.now() - pair.ageDays * DAY),
    });
  }
  return { organisationId };
}

describe('GET /api/public/agreement-rate', () => {
  beforeEach(async () => {
    // A cold cache: neither KV nor this isolate's memory holds the payload.
    await env.CACHE.delete(PUBLIC_AGREEMENT_CACHE_KEY);
    payloadMemory.clear();
    await env.DB.exec('DELETE FROM employer_ratings');
  });

  it('returns the demonstration payload, marked demo, when there are no pairs', async () => {
    const res = await call('/api/public/agreement-rate');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ demo: true, windowDays: 90, threshold: 30, sampleAdequate: true });
    expect(body.total).toBeGreaterThan(0);
    expect(body.agreed).toBeLessThanOrEqual(body.total as number);
    expect(body.agreementRate).toBeCloseTo((body.agreed as number) / (body.total as number), 4);
    expect(Number.isNaN(Date.parse(body.updatedAt as string))).toBe(false);
  });

  it('counts only AI/employer pairs inside the rolling 90-day window', async () => {
    await seedRatingPairs([
      { ai: 'pass', employer: 'pass', ageDays: 1 },
      { ai: 'fail', employer: 'fail', ageDays: 10 },
      { ai: 'pass', employer: 'fail', ageDays: 89 },
      { ai: 'pass', employer: 'pass', ageDays: 91 }, // outside the window
      { ai: null, employer: 'pass', ageDays: 2 }, // no AI evaluation (no consent): not a pair
    ]);
    const body = await (await call('/api/public/agreement-rate')).json<Record<string, unknown>>();
    expect(body).toMatchObject({
      demo: false,
      total: 3,
      agreed: 2,
      agreementRate: 0.6667,
      sampleAdequate: false,
      windowDays: 90,
      threshold: 30,
    });
    // kappa for [[1,1],[0,1]]: po=2/3, pe=(2/3·1/3 + 1/3·2/3)=4/9 → (2/3-4/9)/(5/9) = 0.4
    expect(body.kappa).toBeCloseTo(0.4, 4);
    expect(body.confidenceInterval).toMatchObject({ level: 0.95 });
  });

  it('leaves out the ratings of organisations that are not verified (unverified, pending, suspended)', async () => {
    await seedRatingPairs([{ ai: 'pass', employer: 'pass', ageDays: 1 }]);
    for (const verification of ['unverified', 'pending', 'suspended'] as const)
      await seedRatingPairs(
        [
          { ai: 'pass', employer: 'fail', ageDays: 1 },
          { ai: 'fail', employer: 'pass', ageDays: 2 },
        ],
        verification,
      );
    const body = await (await call('/api/public/agreement-rate')).json<Record<string, unknown>>();
    expect(body).toMatchObject({ demo: false, total: 1, agreed: 1, agreementRate: 1 });
  });

  it('follows an admin suspending or verifying an organisation at once, not at the next rating or cron', async () => {
    await seedRatingPairs([{ ai: 'pass', employer: 'pass', ageDays: 1 }]);
    const { organisationId } = await seedRatingPairs([
      { ai: 'pass', employer: 'fail', ageDays: 1 },
      { ai: 'fail', employer: 'pass', ageDays: 2 },
    ]);
    const total = async () =>
      (await (await call('/api/public/agreement-rate')).json<{ total: number }>()).total;
    expect(await total()).toBe(3); // now cached
    const admin = await loginAdmin();
    const review = (verification: string) =>
      call(
        `/api/admin/organisations/${organisationId}`,
        jsonInit('PATCH', { verification, reason: 'Checked by the agreement test' }, as(admin)),
      );
    expect((await review('suspended')).status).toBe(200);
    expect(await total()).toBe(1);
    expect((await review('verified')).status).toBe(200);
    expect(await total()).toBe(3);
  });

  it('serves from KV on a hit and shows new pairs only after invalidation', async () => {
    const first = await (await call('/api/public/agreement-rate')).json<{ demo: boolean }>();
    expect(first.demo).toBe(true);
    expect(await env.CACHE.get(PUBLIC_AGREEMENT_CACHE_KEY)).not.toBeNull();

    await seedRatingPairs([{ ai: 'pass', employer: 'pass', ageDays: 0 }]);
    const cached = await (await call('/api/public/agreement-rate')).json<{ demo: boolean }>();
    expect(cached.demo).toBe(true); // still the cached payload: D1 was not read

    await runScheduled(env); // the cron refresh
    const refreshed = await (await call('/api/public/agreement-rate')).json<{
      demo: boolean;
      total: number;
    }>();
    expect(refreshed).toMatchObject({ demo: false, total: 1 });
  });

  it('answers a matching If-None-Match with 304 and is cacheable and embeddable', async () => {
    const res = await call('/api/public/agreement-rate');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    expect(res.headers.get('cache-control')).toContain('public');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const again = await call('/api/public/agreement-rate', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });
});
