import { env } from 'cloudflare:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  type BriefView,
  consent,
  DEMO_BRIEF,
  type SubmissionView,
  signup,
  submitAndWait,
  verifyOrganisation,
} from './harness';
import { as, call, eventually, jsonInit } from './helpers';

describe('the whole journey', () => {
  it('brief → submissions → AI evaluations → blind ratings → certificate → verify → leaderboard → agreement', async () => {
    const employer = await signup('employer', 'Priya Recruiter', 'Acme Hiring');
    await verifyOrganisation(employer);
    const candidate = await signup('candidate', 'Ravi Kumar');
    for (const purpose of ['ai_evaluation', 'leaderboard', 'public_verification'])
      await consent(candidate, purpose);

    // The employer publishes a brief; the pillars give it a rubric and a playbook.
    const briefRes = await call('/api/briefs', jsonInit('POST', DEMO_BRIEF, as(employer)));
    expect(briefRes.status).toBe(201);
    const brief = await briefRes.json<BriefView>();
    const steps = brief.playbook.milestones;
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.at(-1)!.final).toBe(true);
    expect((await call(`/api/briefs/${brief.id}`)).status).toBe(200); // public once published

    // The candidate submits every milestone; each is AI-evaluated after the response.
    const submissions: SubmissionView[] = [];
    for (const step of steps) {
      const submitted = await submitAndWait(candidate, step.id);
      expect(submitted.aiEvaluation).toBe(true);
      submissions.push(submitted.view);
    }
    for (const s of submissions)
      expect(s.evaluation).toMatchObject({ state: 'completed', ai: { verdict: expect.any(String) } });

    // The employer sees the work but not the AI verdict until rating it.
    const listed = await (
      await call(`/api/briefs/${brief.id}/submissions?limit=100`, { headers: as(employer) })
    ).json<{
      items: { evaluationId: string; evaluation: { hiddenUntilRated: boolean; ai: unknown } }[];
    }>();
    expect(listed.items).toHaveLength(steps.length);
    for (const item of listed.items)
      expect(item.evaluation).toMatchObject({ hiddenUntilRated: true, ai: null });

    // Blind ratings; the final pass issues the certificate.
    let certificateNo = '';
    for (const [i, s] of submissions.entries()) {
      const res = await call(
        `/api/evaluations/${s.evaluation!.id}/employer-rating`,
        jsonInit('POST', { score: 4, verdict: 'pass', comment: 'Solid work' }, as(employer)),
      );
      expect(res.status).toBe(201);
      const rated = await res.json<{
        evaluation: { hiddenUntilRated: boolean; ai: { verdict: string } };
        certificate: { certificateNo: string } | null;
      }>();
      expect(rated.evaluation.hiddenUntilRated).toBe(false);
      expect(rated.evaluation.ai.verdict).toBe(s.evaluation!.ai!.verdict);
      if (i < submissions.length - 1) expect(rated.certificate).toBeNull();
      else certificateNo = rated.certificate!.certificateNo;
    }
    // Every state change is in the audit log.
    const evaluationIds = submissions.map((s) => s.evaluation!.id);
    const audited = await env.DB.prepare(
      `SELECT action FROM audit_log WHERE target_id IN (${evaluationIds.map(() => '?').join(',')}) OR action IN ('brief.created', 'certificate.issued')`,
    )
      .bind(...evaluationIds)
      .all<{ action: string }>();
    const actions = audited.results.map((r) => r.action);
    expect(actions.filter((a) => a === 'evaluation.completed')).toHaveLength(steps.length);
    expect(actions.filter((a) => a === 'evaluation.rated')).toHaveLength(steps.length);
    expect(actions).toEqual(expect.arrayContaining(['brief.created', 'certificate.issued']));

    expect(certificateNo).toMatch(/^VP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const mine = await (await call('/api/me/certificates', { headers: as(candidate) })).json<{
      items: { certificateNo: string }[];
    }>();
    expect(mine.items.map((c) => c.certificateNo)).toEqual([certificateNo]);

    // Public verification, with the signature checked by an independent JOSE library.
    const verify = await call(`/api/verify/${certificateNo}`);
    expect(verify.status).toBe(200);
    const verification = await verify.json<{
      status: string;
      holder: { name: string } | null;
      brief: { title: string };
      employer: { name: string };
      credential: { jwt: string };
    }>();
    expect(verification).toMatchObject({
      status: 'active',
      holder: { name: 'Ravi Kumar' },
      brief: { title: DEMO_BRIEF.title },
      employer: { name: 'Acme Hiring' },
    });
    const jwks = await (await call('/.well-known/jwks.json')).json<{
      keys: Parameters<typeof createLocalJWKSet>[0]['keys'];
    }>();
    const { payload, protectedHeader } = await jwtVerify(
      verification.credential.jwt,
      createLocalJWKSet({ keys: jwks.keys }),
      {
        algorithms: ['ES256'],
      },
    );
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.type).toEqual(expect.arrayContaining(['VerifiableCredential', 'OpenBadgeCredential']));
    expect(JSON.stringify(payload)).not.toContain('Ravi');

    // The leaderboard shows the consenting candidate in the brief's domain.
    // Ravi shows his own name, so his row links his certificate (issue 52).
    const board = await (await call(`/api/leaderboard?domain=${DEMO_BRIEF.domain}`)).json<{
      entries: {
        rank: number;
        alias: string;
        certificates: number;
        averageEmployerScore: number;
        certificateNo?: string;
      }[];
    }>();
    expect(board.entries).toContainEqual({
      rank: 1,
      alias: 'Ravi Kumar',
      certificates: 1,
      averageEmployerScore: 4,
      certificateNo,
    });

    // The agreement rate now counts the new pairs (refreshed after each rating).
    const rate = await eventually(async () => {
      const r = await (await call('/api/public/agreement-rate')).json<{ demo: boolean; total: number }>();
      return r.demo === false && r.total === steps.length ? r : undefined;
    });
    expect(rate.total).toBe(steps.length);
    const scoped = await (await call('/api/metrics/agreement-rate', { headers: as(employer) })).json<{
      scope: string;
      overall: { total: number };
      byDomain: { domain: string; total: number }[];
    }>();
    expect(scoped).toMatchObject({ scope: 'employer', overall: { total: steps.length } });
    expect(scoped.byDomain).toEqual([
      expect.objectContaining({ domain: DEMO_BRIEF.domain, total: steps.length }),
    ]);
  }, 30_000);
});
