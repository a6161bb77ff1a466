/**
 * Black-box round 2 on the /api/v1 AI pillars, as a partner with an API key uses them: output at
 * the documented limits stays inside the documented schema, rubric descriptions read as an
 * employer would sign them, integrity reports say why the local engine answered, and Workers AI
 * evaluations are checked against their own evidence.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusFor } from '../src/services/corpus';
import { checkIntegrity } from '../src/services/integrity';
import { type AiRunner, workersAiEngine } from '../src/services/pillars/workers-ai-engine';
import { issueKey, loginAdmin } from './harness';
import { call, jsonInit } from './helpers';

let key: string;

beforeAll(async () => {
  const admin = await loginAdmin();
  key = (await issueKey(admin, ['playbooks:generate', 'rubrics:generate', 'integrity:check'])).key;
});

const post = (path: string, body: unknown) => call(path, jsonInit('POST', body, { 'X-Service-Key': key }));

/** A fake `AI` binding answering from a script (the last answer repeats), recording each call. */
function scriptedAi(...answers: (unknown | Error)[]): AiRunner & { calls: number } {
  const ai = {
    calls: 0,
    async run() {
      const answer = answers[Math.min(ai.calls, answers.length - 1)];
      ai.calls++;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return ai;
}

const options = { model: '@cf/test/model', timeoutMs: 200 };

type Playbook = { milestones: { day: number; tasks: string[] }[] };

describe('POST /api/v1/playbooks/generate at the documented limits', () => {
  /** `n` items of exactly `length` characters, each told apart by its number. */
  const items = (label: string, n: number, length: number) =>
    Array.from({ length: n }, (_, i) =>
      `${label} ${i + 1} ${'lorem ipsum '.repeat(50)}`.slice(0, length).trim(),
    );

  it('keeps every milestone within 30 tasks of at most 1,000 characters, and hands over every deliverable', async () => {
    const deliverables = items('Deliverable', 20, 500);
    for (const durationDays of [1, 2, 5]) {
      const res = await post('/api/v1/playbooks/generate', {
        title: 'T'.repeat(200),
        deliverables,
        successCriteria: items('Criterion that must hold', 20, 500),
        durationDays,
        domain: 'backend',
      });
      expect(res.status).toBe(200);
      const { milestones } = await res.json<Playbook>();
      for (const m of milestones) {
        expect(m.tasks.length).toBeLessThanOrEqual(30);
        for (const t of m.tasks) expect(t.length).toBeLessThanOrEqual(1000);
      }
      const last = milestones.at(-1)!.tasks.join('\n');
      for (const d of deliverables) expect(last).toContain(d);
      // Criteria too long to list within the budget are counted, not silently dropped.
      const tasks = milestones.flatMap((m) => m.tasks).join('\n');
      const listed = items('Criterion that must hold', 20, 500).filter((c) => tasks.includes(c)).length;
      const counted = Number(tasks.match(/Check the other (\d+) success criteria/)?.[1] ?? 0);
      expect(listed + counted).toBe(20);
    }
  });
});

type Rubric = { criteria: { name: string; description: string; weight: number }[] };

describe('POST /api/v1/rubrics/generate descriptions', () => {
  it('does not repeat a label the strength already says ("Nice to have: Nice to have: …")', async () => {
    const res = await post('/api/v1/rubrics/generate', {
      brief:
        'We need a dashboard of 12 months of sales data. The analysis must identify the top 5 products by revenue ' +
        'per region. We expect a short written summary for managers. Nice to have: a forecast of next quarter’s sales.',
    });
    expect(res.status).toBe(200);
    const { criteria } = await res.json<Rubric>();
    const forecast = criteria.find((c) => c.description.includes('forecast'));
    expect(forecast?.description).toContain('Nice to have: a forecast of next quarter’s sales.');
    for (const c of criteria) expect(c.description).not.toMatch(/Nice to have: Nice to have/);
  });

  it('lists an ask repeated word for word once, and ends a Hindi ask without a doubled stop', async () => {
    const repeated = 'Endpoints must be paginated with cursors.';
    const res = await post('/api/v1/rubrics/generate', {
      brief: `${repeated} Tests should cover every endpoint. ${repeated} Deployment must use a Dockerfile. ${repeated}`,
    });
    expect(res.status).toBe(200);
    const { criteria } = await res.json<Rubric>();
    const paging = criteria.find((c) => c.description.includes('paginated'));
    expect(paging?.description.split('paginated with cursors').length).toBe(2);

    const hindi = await post('/api/v1/rubrics/generate', {
      brief: 'हमें एक लैंडिंग पेज बनाना है। सभी छवियों में वैकल्पिक टेक्स्ट अनिवार्य है। कोड GitHub पर साझा करना ज़रूरी है।',
    });
    expect(hindi.status).toBe(200);
    for (const c of (await hindi.json<Rubric>()).criteria) expect(c.description).not.toContain('।.');
  });
});

describe('POST /api/v1/integrity/check when Workers AI fails', () => {
  it('says why the local engine answered, as the other pillars do', async () => {
    const engine = workersAiEngine(scriptedAi(new Error('AI binding unavailable')), options);
    const text = 'An essay about caching strategies for a content delivery network. '.repeat(60);
    const report = await checkIntegrity(corpusFor(env), engine, { text });
    expect(report.engine).toBe('local');
    expect(report.fallbackReason).toBe('AI binding unavailable');

    const answered = await checkIntegrity(
      corpusFor(env),
      workersAiEngine(scriptedAi({ response: { likelihood: 0.1, reasons: [] } }), options),
      { text },
    );
    expect(answered.engine).toBe('workers-ai');
    expect(answered).not.toHaveProperty('fallbackReason');
  });
});

describe('Workers AI evaluations follow their own evidence', () => {
  const rubric = {
    criteria: [
      {
        id: 'c1',
        name: 'Pagination',
        description: 'Cursor pagination.',
        weight: 60,
        levels: [1, 2, 3, 4, 5].map((score) => ({ score, descriptor: `Level ${score} of pagination.` })),
        source: 'Endpoints must be paginated with cursors.',
      },
      {
        id: 'c2',
        name: 'Tests',
        description: 'Automated tests.',
        weight: 40,
        levels: [1, 2, 3, 4, 5].map((score) => ({ score, descriptor: `Level ${score} of tests.` })),
        source: 'Tests should cover every endpoint.',
      },
    ],
    passThreshold: 3,
  };
  const answer = (explanations: [number, string][]) => ({
    response: {
      criterionScores: explanations.map(([score, explanation], i) => ({
        criterionId: `c${i + 1}`,
        score,
        explanation,
      })),
      overallScore: 5,
      verdict: 'pass',
    },
  });
  const work = { text: 'Cursor pagination on every list endpoint, with a test per endpoint in the suite.' };

  it('does not ask the model about an empty submission: every criterion scores 1 and it fails', async () => {
    const ai = scriptedAi(
      answer([
        [5, 'Excellent pagination work throughout.'],
        [5, 'A complete and thorough test suite.'],
      ]),
    );
    const out = await workersAiEngine(ai, options).scoreSubmission(rubric, { text: '   ', files: [] });
    expect(ai.calls).toBe(0);
    expect(out.result.criterionScores.map((s) => s.score)).toEqual([1, 1]);
    expect(out.result).toMatchObject({ overallScore: 1, verdict: 'fail' });
  });

  it('rejects scores without evidence ("Good."), then answers locally with the reason', async () => {
    const ai = scriptedAi(
      answer([
        [5, 'Good.'],
        [4, ' '],
      ]),
    );
    const out = await workersAiEngine(ai, options).scoreSubmission(rubric, work);
    expect(ai.calls).toBe(2);
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/explain every score/);
  });

  it('rejects an explanation that states another score than the one given', async () => {
    const ai = scriptedAi(
      answer([
        [5, '2/5: only one endpoint is paginated, the others return everything.'],
        [4, 'Most endpoints have a test; two do not.'],
      ]),
      answer([
        [2, '2/5: only one endpoint is paginated, the others return everything (5/5 needs all of them).'],
        [4, 'Most endpoints have a test; two do not.'],
      ]),
    );
    const out = await workersAiEngine(ai, options).scoreSubmission(rubric, work);
    expect(ai.calls).toBe(2);
    expect(out.engine).toBe('workers-ai');
    expect(out.result.criterionScores.map((s) => s.score)).toEqual([2, 4]);
    // 0.6·2 + 0.4·4 = 2.8: below the threshold of 3, whatever the model claimed.
    expect(out.result).toMatchObject({ overallScore: 3, verdict: 'fail' });
  });
});
