import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { briefs, milestones, submissions, users } from '../src/db/schema';
import {
  BRIEF_TEXT,
  EDITED_COPY,
  INDEPENDENT_ESSAY,
  ORIGINAL_ESSAY,
} from '../src/domain/integrity/fixtures/prose';
import { KNOWN_LICENCE_TEXTS } from '../src/domain/integrity/known-licences';
import { ALL_TUTORIAL_URLS } from '../src/domain/pillars/tutorial-catalogue';
import { corpusFor } from '../src/services/corpus';
import { checkIntegrity, storeFingerprints } from '../src/services/integrity';
import { type AiRunner, workersAiEngine } from '../src/services/pillars/workers-ai-engine';
import { issueKey, loginAdmin } from './harness';
import { call, expectProblem, jsonInit } from './helpers';

let keys: { playbooks: string; rubrics: string; integrity: string };

beforeAll(async () => {
  const admin = await loginAdmin();
  keys = {
    playbooks: (await issueKey(admin, ['playbooks:generate'])).key,
    rubrics: (await issueKey(admin, ['rubrics:generate'])).key,
    integrity: (await issueKey(admin, ['integrity:check'])).key,
  };
});

const post = (path: string, key: string, body: unknown) =>
  call(path, jsonInit('POST', body, { 'X-Service-Key': key }));

const BRIEF = {
  title: 'Build a REST API for a todo app',
  deliverables: ['A deployed REST API', 'An OpenAPI description', 'A test suite'],
  successCriteria: ['Every endpoint returns RFC 9457 errors', 'Tests cover every endpoint'],
  durationDays: 14,
  domain: 'web-development',
};

type Playbook = {
  milestones: { id: string; day: number; title: string; tasks: string[]; tutorial_links: string[] }[];
  rubric_preview: { criteria: { id: string; name: string; weight: number }[]; passThreshold: number };
  engine: string;
};

describe('POST /api/v1/playbooks/generate', () => {
  it('returns the seed’s Playbook: days within 1..durationDays, every deliverable in a task, catalogue links', async () => {
    const res = await post('/api/v1/playbooks/generate', keys.playbooks, BRIEF);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"apikey";q=600;w=60');
    const playbook = await res.json<Playbook>();
    expect(playbook.engine).toBe('local');
    expect(playbook.milestones.length).toBeGreaterThan(0);
    for (const m of playbook.milestones) {
      expect(m.day).toBeGreaterThanOrEqual(1);
      expect(m.day).toBeLessThanOrEqual(BRIEF.durationDays);
      expect(m.id).toEqual(expect.any(String));
      for (const url of m.tutorial_links) expect(ALL_TUTORIAL_URLS.has(url)).toBe(true);
    }
    const last = playbook.milestones.at(-1)!;
    for (const d of BRIEF.deliverables) expect(last.tasks.join('\n')).toContain(d);
    expect(playbook.rubric_preview.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100);
  });

  it('works for a one-day brief', async () => {
    const res = await post('/api/v1/playbooks/generate', keys.playbooks, { ...BRIEF, durationDays: 1 });
    const playbook = await res.json<Playbook>();
    expect(playbook.milestones.every((m) => m.day === 1)).toBe(true);
  });

  it.each([
    ['title', { title: undefined }],
    ['deliverables', { deliverables: undefined }],
    ['successCriteria', { successCriteria: undefined }],
    ['durationDays', { durationDays: undefined }],
    ['domain', { domain: undefined }],
  ])('refuses a brief without %s with a 422 pointing at it', async (field, patch) => {
    const res = await post('/api/v1/playbooks/generate', keys.playbooks, { ...BRIEF, ...patch });
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors).toContainEqual({ pointer: `#/${field}`, detail: 'Required' });
  });

  it.each([
    ['#/title', { title: '   ' }],
    ['#/deliverables/1', { deliverables: ['ok', ''] }],
    ['#/durationDays', { durationDays: 0 }],
    ['#/durationDays', { durationDays: 366 }],
    ['#/durationDays', { durationDays: 2.5 }],
    ['#/successCriteria', { successCriteria: Array.from({ length: 21 }, (_, i) => `criterion ${i}`) }],
    ['#/successCriteria', { successCriteria: [] }],
  ])('refuses %s out of bounds with a 422', async (pointer, patch) => {
    const problem = await expectProblem(
      await post('/api/v1/playbooks/generate', keys.playbooks, { ...BRIEF, ...patch }),
      422,
      'validation-failed',
    );
    expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
  });

  it('needs the playbooks:generate scope', async () => {
    await expectProblem(await post('/api/v1/playbooks/generate', keys.rubrics, BRIEF), 403, 'forbidden');
    await expectProblem(
      await call('/api/v1/playbooks/generate', jsonInit('POST', BRIEF)),
      401,
      'unauthenticated',
    );
  });
});

describe('POST /api/rubrics/generate', () => {
  const text =
    'We are hiring for a data analyst role. Candidates must clean the provided sales dataset and document every assumption. ' +
    'The analysis should include a monthly revenue trend chart. We expect a short written summary for executives. ' +
    'The notebook must run from top to bottom without errors. Nice to have: a forecast for the next quarter.';

  it('extracts weighted criteria that quote the brief', async () => {
    const res = await post('/api/rubrics/generate', keys.rubrics, { brief: text, domain: 'data-science' });
    expect(res.status).toBe(200);
    const rubric = await res.json<{
      criteria: { weight: number; source: string; levels: unknown[] }[];
      passThreshold: number;
      engine: string;
    }>();
    expect(rubric.engine).toBe('local');
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(3);
    expect(rubric.criteria.length).toBeLessThanOrEqual(8);
    expect(rubric.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100);
    for (const c of rubric.criteria) {
      expect(text).toContain(c.source);
      expect(c.levels).toHaveLength(5);
    }
  });

  it('refuses an empty brief and unknown fields with 422, and needs the rubrics:generate scope', async () => {
    await expectProblem(
      await post('/api/rubrics/generate', keys.rubrics, { brief: '' }),
      422,
      'validation-failed',
    );
    await expectProblem(
      await post('/api/rubrics/generate', keys.rubrics, { brief: text, extra: 1 }),
      422,
      'validation-failed',
    );
    await expectProblem(
      await post('/api/rubrics/generate', keys.playbooks, { brief: text }),
      403,
      'forbidden',
    );
  });
});

/** The stored platform submission the v1 check compares against (in the sharded corpus, as live). */
const SUB_INT = { id: 'sub-int', candidateId: 'cand-int' };

describe('POST /api/v1/integrity/check', () => {
  beforeAll(async () => {
    // A stored platform submission: the corpus the check compares against.
    const db = getDb(env.DB);
    const account = { passwordHash: 'x', passwordSalt: 'x', passwordIterations: 100_000 };
    await db.insert(users).values([
      { id: 'emp-int', email: 'emp-int@e.test', name: 'E', role: 'employer', ...account },
      { id: 'cand-int', email: 'cand-int@c.test', name: 'C', role: 'candidate', ...account },
    ]);
    await db.insert(briefs).values({
      id: 'brief-int',
      employerId: 'emp-int',
      title: 'Bike share report',
      domain: 'data-science',
      description: BRIEF_TEXT,
      deliverables: ['A report'],
      successCriteria: ['Explains the cause'],
      durationDays: 7,
      state: 'published',
    });
    await db.insert(milestones).values({
      id: 'ms-int',
      briefId: 'brief-int',
      position: 1,
      day: 7,
      title: 'M',
      tasks: ['t'],
      tutorialLinks: [],
      isFinal: true,
    });
    await db.insert(submissions).values({
      id: 'sub-int',
      candidateId: 'cand-int',
      briefId: 'brief-int',
      milestoneId: 'ms-int',
      text: ORIGINAL_ESSAY,
    });
    await storeFingerprints(corpusFor(env), SUB_INT, { text: ORIGINAL_ESSAY });
  });

  type Report = {
    score: number;
    verdict: string;
    engine: string;
    signals: {
      plagiarism: {
        risk: number;
        evidence: { overlapShare: number; matchedSpans: { start: number; end: number; sourceRef: string }[] };
      };
      aiContent: { risk: number; evidence: { soft: true } };
      vcsHistory: { risk: number; evidence: { findings: { code: string }[] } };
    };
  };

  it('catches a lightly edited copy of stored work, with spans and an opaque source', async () => {
    const res = await post('/api/v1/integrity/check', keys.integrity, {
      text: EDITED_COPY,
      briefId: 'brief-int',
    });
    expect(res.status).toBe(200);
    const report = await res.json<Report>();
    expect(report.signals.plagiarism.risk).toBeGreaterThanOrEqual(0.6);
    expect(report.verdict).toBe('flagged');
    const span = report.signals.plagiarism.evidence.matchedSpans[0]!;
    expect(span.sourceRef).toMatch(/^src_[0-9a-f]{16}$/);
    expect(JSON.stringify(report)).not.toContain('sub-int');
    expect(JSON.stringify(report)).not.toContain('cand-int');
    expect(EDITED_COPY.slice(span.start, span.end).length).toBeGreaterThan(0);
  });

  it('does not flag an independent text on the same topic', async () => {
    const report = await (
      await post('/api/v1/integrity/check', keys.integrity, { text: INDEPENDENT_ESSAY, briefId: 'brief-int' })
    ).json<Report>();
    expect(report.signals.plagiarism.risk).toBeLessThanOrEqual(0.15);
    expect(report.verdict).not.toBe('flagged');
    expect(report.signals.aiContent.evidence.soft).toBe(true);
    expect(report.signals.vcsHistory.evidence.findings.map((f) => f.code)).toEqual(['not_supplied']);
  });

  it('scores a steady history by the candidate above one bulk commit by someone else', async () => {
    const steady = Array.from({ length: 6 }, (_, i) => ({
      sha: `a${i}bcdef`,
      authorEmail: 'me@example.com',
      authoredAt: new Date(Date.UTC(2026, 10, 1 + i, 10)).toISOString(),
      message: `step ${i}`,
      additions: 40,
      deletions: 5,
    }));
    const bulk = [
      {
        sha: 'ffff0000',
        authorEmail: 'someone-else@example.com',
        authoredAt: '2026-11-07T23:50:00Z',
        message: 'everything',
        additions: 2400,
        deletions: 0,
      },
    ];
    const text = INDEPENDENT_ESSAY;
    const a = await (
      await post('/api/v1/integrity/check', keys.integrity, { text, commits: steady })
    ).json<Report>();
    const b = await (
      await post('/api/v1/integrity/check', keys.integrity, { text, commits: bulk })
    ).json<Report>();
    expect(b.signals.vcsHistory.risk).toBeGreaterThan(a.signals.vcsHistory.risk);
    expect(b.score).toBeLessThan(a.score);
    expect(b.signals.vcsHistory.evidence.findings.map((f) => f.code)).toContain('bulk_first_commit');
  });

  it('never counts a standard licence, and takes the partner template as a base file', async () => {
    const mit = KNOWN_LICENCE_TEXTS.MIT as string;
    const stored = `Ferry timetable scraper. Pulls the harbour board every minute.\n\n${mit}`;
    await storeFingerprints(corpusFor(env), SUB_INT, { text: stored });
    const mine = `Allotment waiting list tracker for the parish council.\n\n${mit}`;
    const report = await (
      await post('/api/v1/integrity/check', keys.integrity, { text: mine })
    ).json<Report>();
    expect(report.signals.plagiarism.risk).toBe(0);
    expect(report.verdict).not.toBe('flagged');
    const template = 'Answer each question in full sentences. Say what you tried, what failed and why.';
    await storeFingerprints(corpusFor(env), SUB_INT, {
      text: `${template}\nWe polled the API with a queue.`,
    });
    const plain = await (
      await post('/api/v1/integrity/check', keys.integrity, { text: `${template}\nI tried a cron job.` })
    ).json<Report>();
    expect(plain.signals.plagiarism.risk).toBeGreaterThan(0);
    const withTemplate = await (
      await post('/api/v1/integrity/check', keys.integrity, {
        text: `${template}\nI tried a cron job.`,
        template: { text: template },
      })
    ).json<Report>();
    expect(withTemplate.signals.plagiarism.risk).toBe(0);
  });

  it('checks history against the deadline and the candidate identities it is given', async () => {
    const commits = [
      {
        sha: 'aa11bb22',
        authorEmail: 'me@example.com',
        authoredAt: '2026-11-02T10:00:00Z',
        message: 'scaffold',
        additions: 40,
        deletions: 0,
      },
      {
        sha: 'aa11bb23',
        authorEmail: 'me@example.com',
        authoredAt: '2026-11-04T10:00:00Z',
        message: 'model',
        additions: 30,
        deletions: 5,
      },
      {
        sha: 'aa11bb24',
        authorEmail: 'me@example.com',
        authoredAt: '2026-11-05T10:00:00Z',
        message: 'tests',
        additions: 25,
        deletions: 5,
      },
      {
        sha: 'aa11bb25',
        authorEmail: 'pro@agency.example',
        authoredAt: '2026-11-06T17:52:00Z',
        message: 'final',
        additions: 900,
        deletions: 10,
      },
      {
        sha: 'aa11bb26',
        authorEmail: 'me@example.com',
        authoredAt: '2026-11-08T09:00:00Z',
        message: 'late fix',
        additions: 20,
        deletions: 2,
      },
    ];
    const without = await (
      await post('/api/v1/integrity/check', keys.integrity, { text: INDEPENDENT_ESSAY, commits })
    ).json<Report>();
    const res = await post('/api/v1/integrity/check', keys.integrity, {
      text: INDEPENDENT_ESSAY,
      commits,
      dueAt: '2026-11-06T18:00:00Z',
      authorEmails: ['ME@example.com'],
    });
    expect(res.status).toBe(200);
    const report = await res.json<Report>();
    const codes = report.signals.vcsHistory.evidence.findings.map((f) => f.code);
    expect(codes).toEqual(
      expect.arrayContaining(['after_deadline', 'other_author_bulk_near_deadline', 'author_mismatch']),
    );
    expect(report.signals.vcsHistory.risk).toBeGreaterThan(without.signals.vcsHistory.risk);
    expect(report.verdict).toBe('review');
    await expectProblem(
      await post('/api/v1/integrity/check', keys.integrity, { text: 'x', dueAt: 'next friday' }),
      422,
      'validation-failed',
    );
  });

  it('refuses an empty check (422), an unknown brief (404) and a wrong scope (403)', async () => {
    await expectProblem(await post('/api/v1/integrity/check', keys.integrity, {}), 422, 'validation-failed');
    await expectProblem(
      await post('/api/v1/integrity/check', keys.integrity, { text: 'x', briefId: 'nope' }),
      404,
      'not-found',
    );
    await expectProblem(await post('/api/v1/integrity/check', keys.rubrics, { text: 'x' }), 403, 'forbidden');
  });
});

// What a partner meets at the documented limits: output inside the documented schema, rubric
// descriptions an employer would sign, the reason the local engine answered, and Workers AI
// evaluations checked against their own evidence.

/** A partner's key with every pillar's scope, as an integrator holds one. */
let partnerKey: string;

beforeAll(async () => {
  const admin = await loginAdmin();
  partnerKey = (await issueKey(admin, ['playbooks:generate', 'rubrics:generate', 'integrity:check'])).key;
});

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

describe('POST /api/v1/playbooks/generate at the documented limits', () => {
  /** `n` items of exactly `length` characters, each told apart by its number. */
  const items = (label: string, n: number, length: number) =>
    Array.from({ length: n }, (_, i) =>
      `${label} ${i + 1} ${'lorem ipsum '.repeat(50)}`.slice(0, length).trim(),
    );

  it('keeps every milestone within 30 tasks of at most 1,000 characters, and hands over every deliverable', async () => {
    const deliverables = items('Deliverable', 20, 500);
    for (const durationDays of [1, 2, 5]) {
      const res = await post('/api/v1/playbooks/generate', partnerKey, {
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
    const res = await post('/api/v1/rubrics/generate', partnerKey, {
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
    const res = await post('/api/v1/rubrics/generate', partnerKey, {
      brief: `${repeated} Tests should cover every endpoint. ${repeated} Deployment must use a Dockerfile. ${repeated}`,
    });
    expect(res.status).toBe(200);
    const { criteria } = await res.json<Rubric>();
    const paging = criteria.find((c) => c.description.includes('paginated'));
    expect(paging?.description.split('paginated with cursors').length).toBe(2);

    const hindi = await post('/api/v1/rubrics/generate', partnerKey, {
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
