/**
 * A failed evaluation says so in a sentence meant for people: the candidate (and the employer,
 * once they have rated) read `failureReason`, so it never carries the error itself, whose
 * database messages name tables and columns. Storage is isolated per file, so this file may break
 * the corpus on purpose.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { EVALUATION_FAILED } from '../src/services/workflow/submissions';
import { consent, publishedBrief, signup, verifiedEmployer } from './harness';
import { as, call, eventually, jsonInit } from './helpers';

describe('an evaluation that fails', () => {
  it('tells the candidate in a fixed sentence, with no internals (here: the corpus tables are gone)', async () => {
    const employer = await verifiedEmployer('Failure Test Employer');
    const brief = await publishedBrief(employer);
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    // The plagiarism check reads the corpus shards first: without their tables it throws.
    for (const shard of [env.FINGERPRINTS_0, env.FINGERPRINTS_1])
      await shard.exec('DROP TABLE IF EXISTS fingerprint_frequencies');

    const milestoneId = brief.playbook.milestones[0]!.id;
    const res = await call(
      '/api/submissions',
      jsonInit(
        'POST',
        {
          milestoneId,
          text: 'A health check page that polls every service each 30 seconds and shows its latency.',
        },
        as(candidate),
      ),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json<{ id: string }>();
    const evaluation = await eventually(async () => {
      const view = await (await call(`/api/submissions/${id}`, { headers: as(candidate) })).json<{
        evaluation: { state: string; failureReason: string | null } | null;
      }>();
      return view.evaluation?.state === 'failed' ? view.evaluation : undefined;
    }, 15_000);
    expect(evaluation.failureReason).toBe(EVALUATION_FAILED);
    expect(evaluation.failureReason).not.toMatch(/D1|SQLITE|table|fingerprint/i);
    const stored = await env.DB.prepare(
      'SELECT e.failure_reason AS reason FROM evaluations e JOIN submissions s ON s.id = e.submission_id WHERE s.id = ?',
    )
      .bind(id)
      .first<{ reason: string }>();
    expect(stored?.reason).toBe(EVALUATION_FAILED);
  });
});
