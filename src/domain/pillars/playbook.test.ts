import { describe, expect, it } from 'vitest';
import { PLAYBOOK_BRIEFS } from './fixtures/briefs';
import { detectField } from './knowledge/detect';
import { echoTaskShare, sharedTaskShare } from './knowledge/specificity';
import { briefAsRequirementText, generatePlaybook } from './playbook';
import { extractRubric } from './rubric-extraction';
import { ALL_TUTORIAL_URLS, catalogueFor } from './tutorial-catalogue';
import type { Playbook, PlaybookBrief } from './types';

function expectValid(playbook: Playbook, brief: PlaybookBrief) {
  const { milestones } = playbook;
  const field = detectField(brief).field.key;
  const ownLinks = new Set(catalogueFor(field).map((e) => e.url));
  expect(milestones.length).toBeGreaterThanOrEqual(1);
  expect(milestones.length).toBeLessThanOrEqual(6);
  expect(milestones.map((m) => m.id)).toEqual(milestones.map((_, i) => `m${i + 1}`));
  milestones.forEach((m, i) => {
    expect(Number.isInteger(m.day), `${m.id} day is an integer`).toBe(true);
    expect(m.day).toBeGreaterThanOrEqual(1);
    expect(m.day).toBeLessThanOrEqual(Math.max(1, brief.durationDays));
    if (i > 0) expect(m.day).toBeGreaterThan(milestones[i - 1]?.day ?? 0);
    expect(m.title.length).toBeGreaterThan(0);
    expect(m.tasks.length).toBeGreaterThan(0);
    expect(m.tasks.length).toBeLessThanOrEqual(30);
    for (const t of m.tasks) expect(t.length).toBeLessThanOrEqual(1000);
    for (const url of m.tutorial_links) {
      expect(ALL_TUTORIAL_URLS.has(url), url).toBe(true);
      expect(ownLinks.has(url), `${url} belongs to ${field}`).toBe(true);
    }
  });
  const last = milestones[milestones.length - 1];
  expect(last?.day).toBe(Math.max(1, brief.durationDays));
  for (const d of brief.deliverables)
    expect(
      last?.tasks.some((t) => t.includes(d)),
      `last milestone hands over "${d}"`,
    ).toBe(true);
  for (const c of brief.successCriteria)
    expect(
      milestones.some((m) =>
        m.tasks.some((t) => t.startsWith('Check') && t.includes(c.replace(/[.;:!]+$/, ''))),
      ),
      `"${c}" is checked`,
    ).toBe(true);
  expect(playbook.rubric_preview.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100);
}

const COPYWRITING: PlaybookBrief = {
  title: 'Launch copy for a meal-kit brand',
  domain: 'Marketing',
  durationDays: 7,
  deliverables: ['A three-email welcome sequence', 'Landing page copy', 'Instagram launch posts'],
  successCriteria: ['Open rate above 35% in the test send', 'Copy matches the brand voice guide'],
};
const ANDROID: PlaybookBrief = {
  title: 'Offline expense tracker',
  domain: 'Android',
  durationDays: 7,
  deliverables: ['An Android app that records expenses offline', 'An accessibility audit of the app'],
  successCriteria: ['Every screen works with TalkBack', 'Data survives a restart'],
};
const FINANCE: PlaybookBrief = {
  title: 'Café expansion model',
  domain: 'Finance',
  durationDays: 7,
  deliverables: ['A three-statement financial model in Excel', 'A one-page investment memo'],
  successCriteria: ['The balance sheet balances in every month', 'NPV and IRR under three scenarios'],
};

describe('generatePlaybook', () => {
  for (const brief of [...PLAYBOOK_BRIEFS, COPYWRITING, ANDROID, FINANCE]) {
    it(`plans "${brief.title}" (${brief.durationDays} days)`, () => {
      const playbook = generatePlaybook(brief);
      expectValid(playbook, brief);
      expect(generatePlaybook(brief)).toEqual(playbook);
    });
  }

  it('holds its guarantees for every duration from 1 to 60 days and for a year', () => {
    for (const base of [PLAYBOOK_BRIEFS[0] as PlaybookBrief, COPYWRITING, FINANCE])
      for (const durationDays of [...Array.from({ length: 60 }, (_, i) => i + 1), 90, 180, 365, 1000])
        expectValid(generatePlaybook({ ...base, durationDays }), { ...base, durationDays });
    // Nearly 200 plans: a correctness sweep, not a speed test (speed lives in `npm run bench`).
  }, 60_000);

  it('keeps milestones to at most 30 tasks for the largest briefs the API accepts', () => {
    const items = (label: string) =>
      Array.from({ length: 20 }, (_, i) => `${label} ${i + 1}: ${'detail '.repeat(60).trim()}`);
    for (const durationDays of [1, 2, 5, 365]) {
      const brief: PlaybookBrief = {
        title: 'Big brief',
        domain: 'backend',
        durationDays,
        deliverables: items('API endpoint'),
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
    const playbook = generatePlaybook(brief);
    expect(playbook.milestones).toHaveLength(1);
    expect(playbook.milestones[0]?.day).toBe(1);
    expect(playbook.milestones[0]?.tasks.some((t) => t.includes('Explore'))).toBe(true);
    expect(playbook.confidence).toBe('low');
  });

  it('uses the given rubric for the preview, else one extracted from the brief', () => {
    const brief = PLAYBOOK_BRIEFS[0] as PlaybookBrief;
    const rubric = extractRubric('- Must write tests.\n- Must document the API.\n- Should be fast.');
    expect(generatePlaybook(brief, rubric).rubric_preview).toEqual({
      criteria: rubric.criteria.map(({ id, name, weight }) => ({ id, name, weight })),
      passThreshold: rubric.passThreshold,
    });
    expect(generatePlaybook(brief).rubric_preview.criteria.length).toBeGreaterThanOrEqual(3);
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

describe('playbooks from knowledge, not from echo', () => {
  it('does not wrap the brief in "Build …", "Deliver: …", "Verify: …" templates', () => {
    for (const brief of [COPYWRITING, ANDROID, FINANCE, ...PLAYBOOK_BRIEFS]) {
      const tasks = generatePlaybook(brief).milestones.flatMap((m) => m.tasks);
      expect(tasks.filter((t) => /^(Build a working first version of|Deliver:|Verify:)/.test(t))).toEqual([]);
      expect(echoTaskShare(generatePlaybook(brief), brief), brief.title).toBeLessThan(0.15);
    }
  });

  it('shares under 30 % of its tasks with an unrelated brief of the same shape', () => {
    const pairs: [PlaybookBrief, PlaybookBrief][] = [
      [COPYWRITING, { ...FINANCE, deliverables: [...FINANCE.deliverables, 'A board slide'] }],
      [ANDROID, FINANCE],
      [FINANCE, ANDROID],
    ];
    for (const [a, b] of pairs) {
      const share = sharedTaskShare(generatePlaybook(a), a, generatePlaybook(b), b);
      expect(share, `${a.title} vs ${b.title}`).toBeLessThan(0.3);
    }
  });

  it('speaks the field: a copywriting plan never sets up a repository', () => {
    const tasks = generatePlaybook(COPYWRITING)
      .milestones.flatMap((m) => m.tasks)
      .join('\n');
    expect(tasks).not.toMatch(/repositor|commit|version control|test runner/i);
    expect(tasks).toMatch(/creative brief/);
    expect(tasks).toMatch(/subject lines/);
    const finance = generatePlaybook(FINANCE)
      .milestones.flatMap((m) => m.tasks)
      .join('\n');
    expect(finance).toMatch(/balance sheet balances|check cell/);
    expect(finance).not.toMatch(/repositor|unit test/i);
  });

  it('spreads a 7-day plan: each deliverable is worked on in its own milestone before hand-over', () => {
    const { milestones } = generatePlaybook(COPYWRITING);
    // Build milestones are titled by their deliverable, and their steps name it.
    const workedOn = COPYWRITING.deliverables.map((d) =>
      milestones.findIndex(
        (m) => m.title === d && m.tasks.filter((t) => t.toLowerCase().includes(d.toLowerCase())).length >= 2,
      ),
    );
    expect(new Set(workedOn).size).toBe(COPYWRITING.deliverables.length);
    expect(workedOn.every((i) => i >= 0 && i < milestones.length - 1)).toBe(true);
    expect(new Set(milestones.map((m) => m.day)).size).toBe(milestones.length);
    const last = milestones[milestones.length - 1];
    expect(
      last?.tasks.filter((t) => !t.startsWith('Hand over') && !t.startsWith('Check')).length,
    ).toBeGreaterThan(0);
  });

  it('gives links from the right field or none: no Apple pages for Android, no semver or git for marketing', () => {
    const android = generatePlaybook(ANDROID).milestones.flatMap((m) => m.tutorial_links);
    expect(android.length).toBeGreaterThan(0);
    expect(android.some((u) => u.includes('apple.com'))).toBe(false);
    expect(android.some((u) => u.includes('android'))).toBe(true);
    const marketing = generatePlaybook(COPYWRITING).milestones.flatMap((m) => m.tutorial_links);
    expect(marketing.some((u) => /semver|git-scm|docs\.github|conventionalcommits/.test(u))).toBe(false);
    const churn = generatePlaybook(PLAYBOOK_BRIEFS[1] as PlaybookBrief).milestones.flatMap(
      (m) => m.tutorial_links,
    );
    expect(churn).toContain('https://scikit-learn.org/stable/modules/model_evaluation.html');
  });

  it('gives an unrecognised brief an honest general plan: confidence low, no links', () => {
    const brief: PlaybookBrief = {
      title: 'Wedding seating plan',
      domain: 'Events',
      durationDays: 5,
      deliverables: ['A seating chart for 120 guests', 'Place cards'],
      successCriteria: ['No feuding relatives share a table'],
    };
    const playbook = generatePlaybook(brief);
    expect(playbook.confidence).toBe('low');
    expect(playbook.milestones.flatMap((m) => m.tutorial_links)).toEqual([]);
    expectValid(playbook, brief);
    expect(generatePlaybook(ANDROID).confidence).toBe('high');
  });
});
