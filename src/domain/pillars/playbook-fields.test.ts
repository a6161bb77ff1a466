/**
 * Playbooks as a practitioner of each field would write them (black-box findings LOW 4 and
 * LOW 5): sales, content writing and cross-platform mobile briefs get their own field; a
 * deliverable its field does not know borrows another field's archetype; criteria are checked
 * the way their subject calls for; analysis briefs get no modelling steps; the schedule puts
 * the kick-off in the first week; repeated deliverables and criteria are planned once.
 */
import { describe, expect, it } from 'vitest';
import { PLAYBOOK_BRIEFS } from './fixtures/briefs';
import { briefWords, checkFor, detectField, fieldForDomain, planArchetype } from './knowledge/detect';
import { FIELDS, fieldFor } from './knowledge/fields';
import { briefAsRequirementText, distinctItems, generatePlaybook } from './playbook';
import { catalogueFor, TUTORIAL_CATALOGUE } from './tutorial-catalogue';
import type { Playbook, PlaybookBrief } from './types';

const CHURN_ANALYSIS: PlaybookBrief = {
  title: 'Customer churn analysis for a telecom operator',
  deliverables: [
    'A cleaned dataset with a data dictionary',
    'A Jupyter notebook with exploratory analysis',
    'A slide deck of findings for the marketing team',
  ],
  successCriteria: [
    'Identifies the top three drivers of churn with evidence',
    'Charts are labelled and readable',
    'Recommendations are quantified',
  ],
  durationDays: 10,
  domain: 'data analysis',
};
const ONBOARDING_DESIGN: PlaybookBrief = {
  title: 'Redesign the onboarding flow of a banking app',
  deliverables: [
    'User research summary from five interviews',
    'Wireframes of the new flow',
    'A clickable Figma prototype',
    'A style guide',
  ],
  successCriteria: ['Meets WCAG 2.2 AA contrast', 'Reduces steps from 9 to 5', 'Usability test with 5 users'],
  durationDays: 21,
  domain: 'design',
};
const BLOG_SERIES: PlaybookBrief = {
  title: 'Write a long-form blog series on personal finance for young professionals',
  deliverables: ['Three 1500-word articles', 'An SEO keyword plan', 'Social media snippets for each article'],
  successCriteria: [
    'Plagiarism free',
    'Flesch reading ease above 60',
    'Each article cites at least three sources',
  ],
  durationDays: 7,
  domain: 'writing',
};
const OUTBOUND_SALES: PlaybookBrief = {
  title: 'Build an outbound sales plan for a B2B SaaS product',
  deliverables: [
    'An ideal customer profile',
    'A cold email sequence of 4 emails',
    'A call script with objection handling',
    'A 30-day pipeline forecast',
  ],
  successCriteria: [
    'Targets at least 200 qualified accounts',
    'Email sequence personalised per segment',
    'Forecast ties to conversion assumptions',
  ],
  durationDays: 5,
  domain: 'sales',
};
const REACT_NATIVE: PlaybookBrief = {
  title: 'Build a React Native expense tracker',
  deliverables: ['An Android and iOS app', 'Offline storage with sync', 'Unit tests'],
  successCriteria: ['Works offline', 'Syncs within 5 seconds when online'],
  durationDays: 3,
  domain: 'software',
};
const FLUTTER: PlaybookBrief = {
  title: 'Habit tracker in Flutter',
  deliverables: ['An iOS and Android app', 'Offline storage with sync', 'Widget tests'],
  successCriteria: ['Works offline', 'Every screen works with TalkBack and VoiceOver'],
  durationDays: 14,
  domain: 'mobile',
};
const ONE_DAY_MARKETING: PlaybookBrief = {
  title: 'One day task',
  deliverables: ['A landing page', 'A logo', 'A pitch deck', 'A budget spreadsheet', 'A press release'],
  successCriteria: ['Done'],
  durationDays: 1,
  domain: 'marketing',
};

const tasksOf = (p: Playbook) => p.milestones.flatMap((m) => m.tasks);
const allTasks = (brief: PlaybookBrief) => tasksOf(generatePlaybook(brief)).join('\n');
/** The tasks that name a deliverable (its steps, its check and its hand-over). */
const tasksFor = (brief: PlaybookBrief, deliverable: string) =>
  tasksOf(generatePlaybook(brief)).filter((t) => t.toLowerCase().includes(deliverable.toLowerCase()));
const checkOf = (brief: PlaybookBrief, criterion: string) =>
  tasksOf(generatePlaybook(brief)).find((t) => t.startsWith(`Check “${criterion}”`)) ?? '';

/** The API's guarantees, for the distinct deliverables and criteria of a brief. */
function expectGuarantees(brief: PlaybookBrief) {
  const playbook = generatePlaybook(brief);
  const { milestones } = playbook;
  const days = Math.max(1, brief.durationDays);
  const own = new Set(catalogueFor(detectField(brief).field.key).map((e) => e.url));
  expect(milestones.map((m) => m.id)).toEqual(milestones.map((_, i) => `m${i + 1}`));
  milestones.forEach((m, i) => {
    expect(Number.isInteger(m.day) && m.day >= 1 && m.day <= days, `${m.id} day ${m.day}`).toBe(true);
    if (i > 0) expect(m.day).toBeGreaterThan(milestones[i - 1]?.day ?? 0);
    expect(m.tasks.length).toBeLessThanOrEqual(30);
    for (const t of m.tasks) expect(t.length).toBeLessThanOrEqual(1000);
    for (const url of m.tutorial_links) expect(own.has(url), url).toBe(true);
  });
  const last = milestones.at(-1);
  expect(last?.day).toBe(days);
  for (const d of distinctItems(brief.deliverables))
    expect(
      last?.tasks.some((t) => t.startsWith('Hand over') && t.includes(d)),
      d,
    ).toBe(true);
  for (const c of distinctItems(brief.successCriteria))
    expect(
      tasksOf(playbook).some((t) => t.startsWith('Check') && t.includes(c.replace(/[.;:!]+$/, ''))),
      c,
    ).toBe(true);
  expect(generatePlaybook(brief)).toEqual(playbook);
}

describe('LOW 4: tasks an expert in the field would give', () => {
  const briefs = [
    CHURN_ANALYSIS,
    ONBOARDING_DESIGN,
    BLOG_SERIES,
    OUTBOUND_SALES,
    REACT_NATIVE,
    FLUTTER,
    ONE_DAY_MARKETING,
  ];

  it('keeps every guarantee for the briefs of the findings, at every duration', () => {
    for (const brief of briefs)
      for (const durationDays of [1, 2, 3, 5, 7, 10, 21, 60, 365])
        expectGuarantees({ ...brief, durationDays });
  });

  it('plans an outbound sales brief as sales, not as marketing copy', () => {
    expect(fieldForDomain('sales')).toBe('sales');
    expect(fieldForDomain('Business development')).toBe('sales');
    expect(detectField(OUTBOUND_SALES)).toMatchObject({ field: { key: 'sales' }, confidence: 'high' });
    const tasks = allTasks(OUTBOUND_SALES);
    expect(tasks).not.toMatch(/creative brief|for one named audience|readers from the audience/);
    expect(tasks).toMatch(/closed-won/);
    expect(tasksFor(OUTBOUND_SALES, 'an ideal customer profile').join('\n')).toMatch(/firmographic/);
    expect(tasksFor(OUTBOUND_SALES, 'a call script with objection handling').join('\n')).toMatch(
      /discovery questions[\s\S]*objections/,
    );
    expect(tasksFor(OUTBOUND_SALES, 'a 30-day pipeline forecast').join('\n')).toMatch(/conversion rates/);
    expect(checkOf(OUTBOUND_SALES, 'Targets at least 200 qualified accounts')).toMatch(/ICP criterion/);
    expect(checkOf(OUTBOUND_SALES, 'Forecast ties to conversion assumptions')).toMatch(/conversion rate/);
    expect(checkOf(OUTBOUND_SALES, 'Email sequence personalised per segment')).toMatch(/per segment/);
  });

  it('gives visual and numeric deliverables of a marketing brief their own steps, not copywriting', () => {
    const tasks = allTasks(ONE_DAY_MARKETING);
    expect(tasks).not.toMatch(/Write a logo|Test a logo|Write a budget spreadsheet|Write a pitch deck/);
    expect(tasks).not.toMatch(/(logo|budget spreadsheet) (for one named audience|with five readers)/);
    expect(tasksFor(ONE_DAY_MARKETING, 'a logo').join('\n')).toMatch(/vector masters/);
    expect(tasksFor(ONE_DAY_MARKETING, 'a budget spreadsheet').join('\n')).toMatch(
      /cost line[\s\S]*check cell/,
    );
    expect(tasksFor(ONE_DAY_MARKETING, 'a pitch deck').join('\n')).toMatch(/one headline per slide/);
    expect(tasksFor(ONE_DAY_MARKETING, 'a press release').join('\n')).toMatch(/spokesperson/);
    // Links stay the brief's own field's, whatever field lent the steps.
    const marketing = new Set(catalogueFor('marketing').map((e) => e.url));
    for (const url of generatePlaybook(ONE_DAY_MARKETING).milestones.flatMap((m) => m.tutorial_links))
      expect(marketing.has(url), url).toBe(true);
  });

  it('borrows an archetype from another field only when that field clearly names the deliverable', () => {
    const marketing = fieldFor('marketing');
    const words = briefWords(ONE_DAY_MARKETING);
    expect(planArchetype(marketing, 'A logo', words)).toMatchObject({ from: 'visual-design' });
    expect(planArchetype(marketing, 'A budget spreadsheet', words)).toMatchObject({ from: 'finance' });
    expect(planArchetype(marketing, 'A landing page', words)).toMatchObject({ from: 'marketing' });
    // "Report" is a word of many fields and names none of them: no borrowing, the field's fallback.
    expect(planArchetype(marketing, 'A report', words)).toBeNull();
    // A word an archetype matches that is not its field's vocabulary lends nothing.
    expect(
      planArchetype(fieldFor('finance'), 'A chart of accounts', briefWords(ONE_DAY_MARKETING)),
    ).toBeNull();
    // The general plan stays general.
    expect(planArchetype(fieldFor('unknown'), 'A logo', words)).toBeNull();
    expect(
      planArchetype(fieldFor('visual-design'), 'User research summary from five interviews', []),
    ).toMatchObject({
      from: 'ux-research',
    });
  });

  it('checks a data-analysis brief by what each criterion is about, without modelling steps', () => {
    const playbook = generatePlaybook(CHURN_ANALYSIS);
    const tasks = tasksOf(playbook).join('\n');
    expect(tasks).not.toMatch(/held-out|train and test|baseline|what the model must not/);
    expect(checkOf(CHURN_ANALYSIS, 'Charts are labelled and readable')).toMatch(
      /each chart .*axes with units/,
    );
    expect(checkOf(CHURN_ANALYSIS, 'Recommendations are quantified')).toMatch(
      /each recommendation carries a number/,
    );
    expect(checkOf(CHURN_ANALYSIS, 'Identifies the top three drivers of churn with evidence')).toMatch(
      /effect/,
    );
    expect(tasksFor(CHURN_ANALYSIS, 'a cleaned dataset with a data dictionary').join('\n')).toMatch(
      /each column's meaning/,
    );
    expect(detectField(CHURN_ANALYSIS).field.guidance).toMatch(/only when a predictive model is asked for/);
  });

  it('keeps the modelling steps for a brief that asks for a model', () => {
    const churnModel = PLAYBOOK_BRIEFS[1] as PlaybookBrief;
    const tasks = allTasks(churnModel);
    expect(tasks).toMatch(/train and test sets/);
    expect(checkOf(churnModel, 'Model beats the baseline on ROC AUC')).toMatch(/held-out test set/);
    expect(tasks).toMatch(/what the model must not be used for/);
  });

  it('plans research deliverables as research and checks a usability criterion by running the test', () => {
    const research = tasksFor(ONBOARDING_DESIGN, 'user research summary from five interviews').join('\n');
    expect(research).toMatch(/screener/);
    expect(research).toMatch(/interview guide/);
    expect(research).toMatch(/affinity map/);
    expect(research).toMatch(/quotes/);
    expect(research).not.toMatch(/Explore options for user research/);
    expect(checkOf(ONBOARDING_DESIGN, 'Usability test with 5 users')).toMatch(
      /running the usability test.*task success rate, time on task.*severity/,
    );
    expect(checkOf(ONBOARDING_DESIGN, 'Meets WCAG 2.2 AA contrast')).toMatch(/contrast checker/);
    expect(checkOf(ONBOARDING_DESIGN, 'Reduces steps from 9 to 5')).toMatch(
      /counting the screens and actions/,
    );
  });

  it('plans a writing brief with keyword research, sourced and edited articles, and tool-based checks', () => {
    expect(detectField(BLOG_SERIES)).toMatchObject({ field: { key: 'content-writing' }, confidence: 'high' });
    const keywords = tasksFor(BLOG_SERIES, 'an SEO keyword plan').join('\n');
    expect(keywords).toMatch(/seed terms/);
    expect(keywords).toMatch(/search volume and keyword difficulty/);
    expect(keywords).toMatch(/search intent/);
    expect(keywords).toMatch(/map one primary/);
    expect(allTasks(BLOG_SERIES)).not.toMatch(/budget split|KPI targets|creative brief/);
    const articles = tasksFor(BLOG_SERIES, 'three 1500-word articles').join('\n');
    for (const step of [/Research/, /Outline/, /Draft/, /readability/, /plagiarism checker/])
      expect(articles).toMatch(step);
    expect(checkOf(BLOG_SERIES, 'Flesch reading ease above 60')).toMatch(/readability checker/);
    expect(checkOf(BLOG_SERIES, 'Plagiarism free')).toMatch(/plagiarism checker/);
    expect(checkOf(BLOG_SERIES, 'Each article cites at least three sources')).toMatch(/counting the sources/);
  });

  it('recognises React Native and gives it cross-platform steps, never native-only ones', () => {
    for (const domain of ['software', 'mobile', 'android', 'iOS', 'web', 'React Native']) {
      const brief = { ...REACT_NATIVE, domain };
      expect(detectField(brief), domain).toMatchObject({
        field: { key: 'mobile-cross-platform' },
        confidence: 'high',
      });
      const tasks = allTasks(brief);
      expect(tasks, domain).not.toMatch(
        /Jetpack Compose|ViewModel|Room|Kotlin|SwiftUI|SwiftData|XCTest|Xcode project/,
      );
      expect(tasks, domain).toMatch(/Expo/);
      expect(tasks, domain).toMatch(/React Native Testing Library/);
      expect(tasks, domain).toMatch(/SQLite/);
      expect(tasks, domain).toMatch(/conflict rule/);
      expect(tasks, domain).toMatch(/both platforms/);
    }
    expect(checkOf(REACT_NATIVE, 'Works offline')).toMatch(/airplane mode/);
    expect(checkOf(REACT_NATIVE, 'Syncs within 5 seconds when online')).toMatch(/timing sync/);
    const links = generatePlaybook(REACT_NATIVE).milestones.flatMap((m) => m.tutorial_links);
    expect(links.length).toBeGreaterThan(0);
    expect(links.some((u) => /developer\.android\.com|developer\.apple\.com/.test(u))).toBe(false);
  });

  it('plans a Flutter brief with Flutter tools, not React Native ones', () => {
    expect(detectField(FLUTTER).field.key).toBe('mobile-cross-platform');
    const tasks = allTasks(FLUTTER);
    expect(tasks).toMatch(/flutter create/);
    expect(tasks).toMatch(/flutter_test/);
    expect(tasks).not.toMatch(/Jest|AsyncStorage|Expo|React Navigation|Jetpack Compose|SwiftUI/);
    const links = generatePlaybook(FLUTTER).milestones.flatMap((m) => m.tutorial_links);
    expect(links.every((u) => u.startsWith('https://docs.flutter.dev/'))).toBe(true);
    expect(detectField(FLUTTER).field.guidance).toMatch(/Flutter/);
  });

  it('leaves native briefs native', () => {
    const android: PlaybookBrief = {
      title: 'Offline expense tracker',
      domain: 'Android',
      durationDays: 7,
      deliverables: ['An Android app that records expenses offline'],
      successCriteria: ['Data survives a restart'],
    };
    expect(detectField(android).field.key).toBe('mobile-android');
    expect(allTasks(android)).toMatch(/Jetpack Compose/);
  });
});

describe('criterion-aware checks', () => {
  it('picks the method from what the criterion is about, else the field’s own', () => {
    const data = fieldFor('data-science');
    expect(checkFor(data, 'Charts are labelled and readable')).toMatch(/^by reviewing each chart/);
    expect(checkFor(fieldFor('finance'), 'The balance sheet balances')).toBe(fieldFor('finance').check);
    // A rule limited to some fields does not apply elsewhere: "contrast the scenarios" is finance.
    expect(checkFor(fieldFor('finance'), 'Contrast the three scenarios')).toBe(fieldFor('finance').check);
    // Code that is "readable" is not a Flesch score.
    expect(checkFor(fieldFor('backend'), 'Code is readable')).toBe(fieldFor('backend').check);
    expect(checkFor(fieldFor('unknown'), 'Flesch reading ease above 60')).toMatch(/readability checker/);
  });
});

describe('new fields are complete', () => {
  it('gives every field and variant catalogue links for the topics its archetypes name', () => {
    for (const field of FIELDS) {
      const topics = new Set(TUTORIAL_CATALOGUE[field.key].flatMap((e) => e.topics));
      for (const variant of field.variants ?? [])
        for (const t of [
          ...(variant.setupTopics ?? []),
          ...(variant.archetypes ?? []).flatMap((a) => a.topics),
        ])
          expect(topics.has(t), `${field.key}/${variant.key} has a link for ${t}`).toBe(true);
      expect(field.guidance.length, field.key).toBeGreaterThan(200);
    }
  });
});

describe('LOW 5: schedule', () => {
  const LONG: PlaybookBrief = {
    title: 'Long project',
    deliverables: ['Report'],
    successCriteria: ['Good'],
    durationDays: 365,
    domain: 'x',
  };

  it('puts the kick-off in the first week and gives the build phases the bulk of a year', () => {
    const { milestones } = generatePlaybook(LONG);
    expect(milestones.map((m) => m.title)).toEqual([
      'Kick-off: Long project',
      'Report',
      'Check the work against the success criteria',
      'Integrate and hand over',
    ]);
    const [kickoff, build, check, final] = milestones.map((m) => m.day) as [number, number, number, number];
    expect(kickoff).toBeLessThanOrEqual(7);
    expect(check - build).toBeLessThanOrEqual(14);
    expect(final - check).toBeLessThanOrEqual(7);
    expect(build - kickoff).toBeGreaterThanOrEqual(0.8 * 365);
  });

  const DURATIONS = [
    ...Array.from({ length: 39 }, (_, i) => i + 2),
    ...Array.from({ length: 22 }, (_, i) => 50 + 15 * i),
    365,
  ];

  it('keeps the kick-off early and the checks proportionate at every duration', () => {
    for (const brief of [LONG, CHURN_ANALYSIS, ONBOARDING_DESIGN, PLAYBOOK_BRIEFS[0] as PlaybookBrief])
      for (const durationDays of DURATIONS) {
        const { milestones } = generatePlaybook({ ...brief, durationDays });
        const first = milestones[0];
        if (first?.title.startsWith('Kick-off'))
          expect(first.day, `${durationDays} days`).toBeLessThanOrEqual(7);
        const check = milestones.findIndex((m) => m.title.startsWith('Check the work'));
        if (check > 0) {
          const span = (milestones[check]?.day ?? 0) - (milestones[check - 1]?.day ?? 0);
          expect(span, `${durationDays} days`).toBeLessThanOrEqual(
            Math.max(2, Math.ceil(0.15 * durationDays) + 1),
          );
        }
      }
  });
});

describe('LOW 5: repeated deliverables and criteria', () => {
  const DUPLICATES: PlaybookBrief = {
    title: 'Quarterly review',
    deliverables: ['A report', 'A report', ' a report. ', 'A  summary slide'],
    successCriteria: ['Good', 'good.', 'Covers every region'],
    durationDays: 10,
    domain: 'x',
  };

  it('merges them case-insensitively, ignoring spacing and trailing punctuation, keeping the first spelling', () => {
    expect(distinctItems(DUPLICATES.deliverables)).toEqual(['A report', 'A  summary slide']);
    expect(distinctItems(DUPLICATES.successCriteria)).toEqual(['Good', 'Covers every region']);
    expect(distinctItems(['Ship it!', 'ship it', '  ', 'Ship it?'])).toEqual(['Ship it!']);
  });

  it('plans each deliverable once and checks each criterion once', () => {
    const playbook = generatePlaybook(DUPLICATES);
    const titles = playbook.milestones.map((m) => m.title);
    expect(titles.filter((t) => t === 'A report')).toHaveLength(1);
    const tasks = tasksOf(playbook);
    expect(tasks.filter((t) => /^Check “good”/i.test(t))).toHaveLength(1);
    const handover = playbook.milestones.at(-1)?.tasks.find((t) => t.startsWith('Hand over')) ?? '';
    expect(handover.match(/a report/gi)).toHaveLength(1);
    expectGuarantees(DUPLICATES);
  });

  it('previews a rubric without "(2)" criteria', () => {
    expect(briefAsRequirementText(DUPLICATES)).toBe(
      '# Quarterly review\n\n- Must deliver a report.\n- Must deliver a  summary slide.\n- Must ensure good.\n- Must ensure covers every region.',
    );
    const names = generatePlaybook(DUPLICATES).rubric_preview.criteria.map((c) => c.name);
    expect(
      names.some((n) => /\(\d+\)$/.test(n)),
      names.join(' | '),
    ).toBe(false);
  });
});
