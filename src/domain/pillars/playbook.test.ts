import { describe, expect, it } from 'vitest';
import { PLAYBOOK_BRIEFS } from './fixtures/briefs';
import { briefAsRequirementText, generatePlaybook } from './playbook';
import { extractRubric } from './rubric-extraction';
import { ALL_TUTORIAL_URLS } from './tutorial-catalogue';
import type { Playbook, PlaybookBrief } from './types';

function expectValid(playbook: Playbook, brief: PlaybookBrief) {
  const { milestones } = playbook;
  expect(milestones.length).toBeGreaterThanOrEqual(1);
  expect(milestones.length).toBeLessThanOrEqual(6);
  expect(milestones.map((m) => m.id)).toEqual(milestones.map((_, i) => `m${i + 1}`));
  milestones.forEach((m, i) => {
    expect(Number.isInteger(m.day), `${m.id} day is an integer`).toBe(true);
    expect(m.day).toBeGreaterThanOrEqual(1);
    expect(m.day).toBeLessThanOrEqual(brief.durationDays);
    if (i > 0) expect(m.day).toBeGreaterThan(milestones[i - 1]?.day ?? 0);
    expect(m.title.length).toBeGreaterThan(0);
    expect(m.tasks.length).toBeGreaterThan(0);
    expect(m.tasks.length).toBeLessThanOrEqual(30);
    expect(m.tutorial_links.length).toBeGreaterThan(0);
    for (const url of m.tutorial_links) expect(ALL_TUTORIAL_URLS.has(url), url).toBe(true);
  });
  const last = milestones[milestones.length - 1];
  expect(last?.day).toBe(brief.durationDays);
  for (const d of brief.deliverables) {
    expect(
      last?.tasks.some((t) => t.includes(d)),
      `last milestone delivers "${d}"`,
    ).toBe(true);
  }
  for (const c of brief.successCriteria) {
    expect(
      milestones.some((m) => m.tasks.some((t) => t.startsWith('Verify: ') && t.includes(c))),
      `"${c}" is verified`,
    ).toBe(true);
  }
  expect(playbook.rubric_preview.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100);
}

describe('generatePlaybook', () => {
  for (const brief of PLAYBOOK_BRIEFS) {
    it(`plans "${brief.title}" (${brief.durationDays} days)`, () => {
      const playbook = generatePlaybook(brief);
      expectValid(playbook, brief);
      expect(generatePlaybook(brief)).toEqual(playbook);
    });
  }

  it('holds its guarantees for every duration from 1 to 60 days and for a year', () => {
    const base = PLAYBOOK_BRIEFS[0] as PlaybookBrief;
    for (const durationDays of [...Array.from({ length: 60 }, (_, i) => i + 1), 90, 180, 365, 1000]) {
      expectValid(generatePlaybook({ ...base, durationDays }), { ...base, durationDays });
    }
  });

  it('plans a one-day brief as a single milestone that delivers everything', () => {
    const brief: PlaybookBrief = {
      title: 'Fix the login bug',
      domain: 'backend',
      durationDays: 1,
      deliverables: ['Patch with a regression test'],
      successCriteria: ['The bug no longer reproduces'],
    };
    const { milestones } = generatePlaybook(brief);
    expect(milestones).toHaveLength(1);
    expect(milestones[0]).toMatchObject({ id: 'm1', day: 1 });
    expect(milestones[0]?.tasks).toContain('Deliver: Patch with a regression test');
    expect(milestones[0]?.tasks).toContain('Verify: The bug no longer reproduces');
  });

  it('plans a 365-day brief with six milestones ending on day 365', () => {
    const brief: PlaybookBrief = {
      title: 'Platform build',
      domain: 'DevOps',
      durationDays: 365,
      deliverables: [
        'Terraform modules',
        'CI pipeline',
        'Monitoring dashboards',
        'Runbooks',
        'Kubernetes manifests',
      ],
      successCriteria: ['99.9% uptime over a month', 'Deploys take under 10 minutes'],
    };
    const playbook = generatePlaybook(brief);
    expectValid(playbook, brief);
    expect(playbook.milestones).toHaveLength(6);
    expect(playbook.milestones.flatMap((m) => m.tutorial_links)).toContain(
      'https://docs.github.com/en/actions',
    );
  });

  it('scales the number of milestones with duration and with the amount of work', () => {
    const base = PLAYBOOK_BRIEFS[0] as PlaybookBrief;
    const counts = [1, 3, 7, 14, 30, 90].map(
      (d) => generatePlaybook({ ...base, durationDays: d }).milestones.length,
    );
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[0]).toBe(1);
    expect(counts[counts.length - 1]).toBe(6);
    const small = generatePlaybook({
      ...base,
      durationDays: 90,
      deliverables: ['A landing page'],
      successCriteria: [],
    });
    expect(small.milestones.length).toBeLessThan(6);
  });

  it('keeps milestones to at most 30 tasks for the largest briefs the API accepts', () => {
    const items = (label: string) =>
      Array.from({ length: 20 }, (_, i) => `${label} ${i + 1}: ${'detail '.repeat(60).trim()}`);
    for (const durationDays of [1, 2, 5, 365]) {
      const brief: PlaybookBrief = {
        title: 'Big brief',
        domain: 'backend',
        durationDays,
        deliverables: items('Deliverable'),
        successCriteria: items('Criterion'),
      };
      expectValid(generatePlaybook(brief), brief);
    }
  });

  it('copes with no deliverables, no criteria and odd durations', () => {
    const brief: PlaybookBrief = {
      title: 'Explore',
      domain: 'unknown',
      durationDays: 0,
      deliverables: [],
      successCriteria: [],
    };
    const { milestones } = generatePlaybook(brief);
    expect(milestones).toHaveLength(1);
    expect(milestones[0]?.day).toBe(1);
    expect(milestones[0]?.tasks).toContain('Deliver: Explore');
    for (const url of milestones.flatMap((m) => m.tutorial_links))
      expect(ALL_TUTORIAL_URLS.has(url)).toBe(true);
  });

  it('links milestones to pages about their content', () => {
    const churn = PLAYBOOK_BRIEFS[1] as PlaybookBrief;
    const links = generatePlaybook(churn).milestones.flatMap((m) => m.tutorial_links);
    expect(links).toContain('https://scikit-learn.org/stable/modules/model_evaluation.html');
    const design = PLAYBOOK_BRIEFS[3] as PlaybookBrief;
    expect(generatePlaybook(design).milestones.flatMap((m) => m.tutorial_links)).toContain(
      'https://www.nngroup.com/articles/usability-testing-101/',
    );
  });

  it('uses the given rubric for the preview, else one extracted from the brief', () => {
    const brief = PLAYBOOK_BRIEFS[0] as PlaybookBrief;
    const rubric = extractRubric('- Must write tests.\n- Must document the API.\n- Should be fast.');
    expect(generatePlaybook(brief, rubric).rubric_preview).toEqual({
      criteria: rubric.criteria.map(({ id, name, weight }) => ({ id, name, weight })),
      passThreshold: rubric.passThreshold,
    });
    const extracted = extractRubric(briefAsRequirementText(brief), { domain: brief.domain });
    expect(generatePlaybook(brief).rubric_preview.criteria.map((c) => c.name)).toEqual(
      extracted.criteria.map((c) => c.name),
    );
  });

  it('turns the brief into requirement text', () => {
    const text = briefAsRequirementText({
      title: 'Todo API',
      domain: 'web',
      durationDays: 3,
      deliverables: ['REST API'],
      successCriteria: ['Write integration tests', 'All endpoints return JSON.'],
    });
    expect(text).toBe(
      '# Todo API\n\n- Must deliver REST API.\n- Must write integration tests.\n- Must ensure all endpoints return JSON.',
    );
  });
});
