import { describe, expect, it } from 'vitest';
import { scoreSubmission } from './evaluation';
import { CHURN_BRIEF, TODO_API_BRIEF } from './fixtures/briefs';
import { CHURN_GOOD, OFF_TOPIC, TODO_API_GOOD } from './fixtures/submissions';
import { extractRubric } from './rubric-extraction';
import type { Rubric, SubmissionScore } from './types';

const todoRubric = extractRubric(TODO_API_BRIEF.text, { domain: TODO_API_BRIEF.domain });
const churnRubric = extractRubric(CHURN_BRIEF.text, { domain: CHURN_BRIEF.domain });

function expectWellFormed(score: SubmissionScore, rubric: Rubric) {
  expect(score.criterionScores.map((s) => s.criterionId)).toEqual(rubric.criteria.map((c) => c.id));
  for (const s of score.criterionScores) {
    expect(Number.isInteger(s.score) && s.score >= 1 && s.score <= 5).toBe(true);
    expect(s.explanation.length).toBeGreaterThan(10);
  }
  expect(Number.isInteger(score.overallScore) && score.overallScore >= 1 && score.overallScore <= 5).toBe(
    true,
  );
}

const weightedMean = (score: SubmissionScore, rubric: Rubric) =>
  score.criterionScores.reduce((sum, s, i) => sum + s.score * (rubric.criteria[i]?.weight ?? 0), 0) / 100;

describe('scoreSubmission', () => {
  it('passes a submission that addresses the criteria and fails an off-topic one', () => {
    for (const [rubric, good] of [
      [todoRubric, TODO_API_GOOD],
      [churnRubric, CHURN_GOOD],
    ] as const) {
      const goodScore = scoreSubmission(rubric, good);
      const offTopic = scoreSubmission(rubric, OFF_TOPIC);
      expectWellFormed(goodScore, rubric);
      expectWellFormed(offTopic, rubric);
      expect(goodScore.verdict).toBe('pass');
      expect(offTopic.verdict).toBe('fail');
      expect(goodScore.overallScore).toBeGreaterThan(offTopic.overallScore);
      expect(goodScore.overallScore).toBeGreaterThanOrEqual(4);
      expect(offTopic.overallScore).toBeLessThanOrEqual(2);
    }
  });

  it('does not pass a good submission for a different brief', () => {
    expect(scoreSubmission(churnRubric, TODO_API_GOOD).verdict).toBe('fail');
    expect(scoreSubmission(todoRubric, CHURN_GOOD).verdict).toBe('fail');
  });

  it('scores a partial submission between the two, criterion by criterion', () => {
    const partial = scoreSubmission(todoRubric, {
      text: 'A REST API for todo lists and todo items with CRUD endpoints, written in Express. It returns JSON.',
      files: [{ path: 'src/app.js', content: "app.get('/todos', list);\napp.post('/todos', create);" }],
    });
    const byName = (name: string) =>
      partial.criterionScores.find(
        (s) => todoRubric.criteria.find((c) => c.id === s.criterionId)?.name === name,
      );
    expect(byName('Functionality & API design')?.score).toBeGreaterThanOrEqual(4);
    expect(byName('Testing & verification')?.score).toBeLessThanOrEqual(2);
    expect(byName('Security & privacy')?.score).toBeLessThanOrEqual(2);
    expect(partial.verdict).toBe('fail');
  });

  it('fails an empty submission with 1 everywhere', () => {
    for (const empty of [{}, { text: '' }, { text: '   ', files: [] }]) {
      const score = scoreSubmission(todoRubric, empty);
      expectWellFormed(score, todoRubric);
      expect(score.criterionScores.every((s) => s.score === 1)).toBe(true);
      expect(score).toMatchObject({ overallScore: 1, verdict: 'fail' });
    }
  });

  it('explains what was found and what was missing in concrete words', () => {
    const score = scoreSubmission(todoRubric, TODO_API_GOOD);
    const testing = todoRubric.criteria.find((c) => c.name === 'Testing & verification');
    const explanation = score.criterionScores.find((s) => s.criterionId === testing?.id)?.explanation ?? '';
    expect(explanation).toContain('test/todos.test.ts');
    expect(explanation).toMatch(/Found: .*"unit"/);
    const off = scoreSubmission(todoRubric, OFF_TOPIC).criterionScores.find(
      (s) => s.criterionId === testing?.id,
    );
    expect(off?.explanation).toMatch(/Missing: .*"unit"/);
  });

  it('rounds the weighted mean for the overall score and compares the unrounded mean for the verdict', () => {
    for (const submission of [TODO_API_GOOD, OFF_TOPIC, CHURN_GOOD]) {
      const score = scoreSubmission(todoRubric, submission);
      const mean = weightedMean(score, todoRubric);
      expect(score.overallScore).toBe(Math.min(5, Math.max(1, Math.round(mean))));
      expect(score.verdict).toBe(mean >= todoRubric.passThreshold ? 'pass' : 'fail');
    }
  });

  it('works on rubrics it did not write', () => {
    const rubric: Rubric = {
      passThreshold: 3,
      criteria: [
        {
          id: 'api',
          name: 'API correctness',
          description: 'Endpoints behave per spec.',
          weight: 60,
          levels: [],
          source: 'CRUD endpoints',
        },
        {
          id: 'docs',
          name: 'Docs',
          description: 'A README explains setup.',
          weight: 40,
          levels: [],
          source: 'README',
        },
      ],
    };
    const score = scoreSubmission(rubric, TODO_API_GOOD);
    expect(score.criterionScores.map((s) => s.criterionId)).toEqual(['api', 'docs']);
    expect(score.verdict).toBe('pass');
  });

  it('is deterministic', () => {
    expect(scoreSubmission(todoRubric, TODO_API_GOOD)).toEqual(scoreSubmission(todoRubric, TODO_API_GOOD));
    expect(scoreSubmission(churnRubric, OFF_TOPIC)).toEqual(scoreSubmission(churnRubric, OFF_TOPIC));
  });
});
