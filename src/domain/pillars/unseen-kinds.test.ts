/**
 * Issue 37, second pass: each kind of failure on briefs the engine was never tuned on, pinned
 * with briefs written for these tests alone (in neither eval set).
 */
import { describe, expect, it } from 'vitest';
import { detectField, fieldOfText } from './knowledge/detect';
import { generatePlaybook } from './playbook';
import { excludedThing, isLetterFormula } from './requirements';
import { extractRubric } from './rubric-extraction';
import { nameProblem, rubricProblems } from './rubric-quality';
import { mentionsSoftware } from './themes';
import type { PlaybookBrief } from './types';

const links = (brief: PlaybookBrief) => generatePlaybook(brief).milestones.flatMap((m) => m.tutorial_links);

describe('field detection says unknown when its evidence is weak', () => {
  it('does not file a brief under a field on words every field uses', () => {
    // "data", "model", "forecast" and "analysis" are data-science words, and a pension
    // valuation's too.
    const brief: PlaybookBrief = {
      title: 'Pension scheme valuation',
      domain: 'Pensions',
      durationDays: 10,
      deliverables: ['A valuation model of the scheme liabilities and a data analysis note'],
      successCriteria: ['Forecast of contributions for 15 years', 'Member data reconciled to the payroll'],
    };
    expect(detectField(brief).field.key).toBe('unknown');
    const plan = generatePlaybook(brief);
    expect(plan.confidence).toBe('low');
    expect(links(brief)).toEqual([]);
    // The plan is composed from the brief's own content, figures included.
    const tasks = plan.milestones.flatMap((m) => m.tasks).join('\n');
    expect(tasks).toMatch(/valuation model/i);
    expect(tasks).toMatch(/15 years/);
    expect(tasks).not.toMatch(/restart the kernel|train\/test|pandas/i);
  });

  it('does not let a generic head word of a domain claim a field its qualifier names elsewhere', () => {
    const landscape: PlaybookBrief = {
      title: 'Planting plan for a school courtyard',
      domain: 'Landscape design',
      durationDays: 7,
      deliverables: ['A planting plan and a plant schedule'],
      successCriteria: ['Native species only', 'Irrigation need under 5 litres per square metre'],
    };
    const legal: PlaybookBrief = {
      title: 'Case law memo on tenancy deposits',
      domain: 'Legal research',
      durationDays: 5,
      deliverables: ['A research memo with the ten leading judgments'],
      successCriteria: ['Every judgment cited with its court and year'],
    };
    for (const brief of [landscape, legal]) {
      expect(detectField(brief).field.key, brief.domain).toBe('unknown');
      expect(links(brief), brief.domain).toEqual([]);
    }
    // The field named in so many words still holds.
    expect(
      detectField({ ...landscape, domain: 'Visual design', deliverables: ['A logo and a style guide'] }).field
        .key,
    ).toBe('visual-design');
  });

  it('still files a brief under its field when the field has its own words', () => {
    const brief: PlaybookBrief = {
      title: 'Churn model for a broadband provider',
      domain: '',
      durationDays: 10,
      deliverables: ['A pandas notebook with a churn classifier and a dashboard'],
      successCriteria: ['ROC AUC above 0.8 on a held-out month'],
    };
    expect(detectField(brief).field.key).toBe('data-science');
    expect(links(brief).length).toBeGreaterThan(0);
  });

  it('reads a rubric brief of a field outside the knowledge base as unknown', () => {
    const text =
      'Review the tenancy agreement and redline the indemnity and liability clauses. Summarise the data protection obligations. List every clause that conflicts with the state rent act.';
    expect(fieldOfText('Legal', text)).toBe('unknown');
  });
});

describe('a service in another language than JavaScript gets no Node.js material', () => {
  it('gives a Go service Go links, or none, never Node.js ones', () => {
    const brief: PlaybookBrief = {
      title: 'Webhook fan-out gateway',
      domain: 'Go',
      durationDays: 8,
      deliverables: [
        'A Go gateway that fans webhooks out to subscribers listed in PostgreSQL',
        'Benchmarks with go test',
      ],
      successCriteria: ['Delivers to 100 subscribers in under 1 second'],
    };
    expect(detectField(brief).field.key).toBe('backend');
    const given = links(brief);
    expect(given.some((l) => /nodejs\.org|typescriptlang|vitest\.dev|npmjs/.test(l))).toBe(false);
    // With too few of the field's words to say backend, the plan says so and links nothing.
    const thin = { ...brief, deliverables: ['A Go gateway that fans webhooks out'], successCriteria: [] };
    const plan = generatePlaybook(thin);
    if (plan.confidence === 'low') expect(links(thin)).toEqual([]);
    else expect(links(thin).some((l) => /nodejs\.org|typescriptlang|vitest\.dev/.test(l))).toBe(false);
  });
});

describe('exclusions are scope, wherever the brief puts them', () => {
  it('cuts an exclusion off the end of a run-on sentence and grades the rest', () => {
    const text =
      'We need a staff rota for the clinic covering 14 nurses over four weeks, with no nurse on more than 5 night shifts a month, a swap request form for the nurses, a one-page summary for the matron, and please do not redo the leave policy while you are at it.';
    const rubric = extractRubric(text, { domain: 'Healthcare operations' });
    expect(rubric.outOfScope.some((o) => /leave policy/.test(o))).toBe(true);
    expect(rubric.criteria.some((c) => /leave policy/i.test(`${c.name} ${c.source}`))).toBe(false);
    expect(rubric.criteria.some((c) => c.name.startsWith('Avoids'))).toBe(false);
    expect(rubricProblems(rubric, text, 'Healthcare operations')).toEqual([]);
  });

  it('keeps "…, and avoid X" inside a sentence as a quality bar on the ask, not scope', () => {
    const text =
      'Build a demand model for the bakery and report MAPE on the last 8 weeks, and avoid leakage from future orders. Explain the drivers in three slides. The notebook should run end to end.';
    const rubric = extractRubric(text, { domain: 'Data science' });
    expect(rubric.outOfScope).toEqual([]);
    expect(rubric.criteria.some((c) => c.source.includes('avoid leakage'))).toBe(true);
  });

  it('reads "No X needed" and "no X please" as scope, and "not in the register" as part of an ask', () => {
    expect(excludedThing('No site visit needed.')).toBe('site visit');
    expect(excludedThing('no mobile app please.')).toBe('mobile app');
    expect(excludedThing('No plagiarism.')).toBeNull();
    expect(excludedThing('List the tools (broken, missing, not in the register) by bay.')).toBeNull();
  });
});

describe('letter formulas never ask for anything', () => {
  it('drops greetings, introductions and a sign-off with the name under it, and keeps a kindly ask', () => {
    expect(isLetterFormula('Hello Priya,\nPlease find below the requirement for the stall.')).toBe(true);
    expect(isLetterFormula('Warm regards,\nS. Iyer\nPurchase Manager')).toBe(true);
    expect(isLetterFormula('Kindly keep the stall within 3 m by 3 m.')).toBe(false);
    const text = `Hello Priya,
Please find below the requirement for the stall.
Design a trade-fair stall for our spices. Kindly keep the stall within 3 m by 3 m. Samples should be shown in glass jars.
Warm regards,
S. Iyer
Purchase Manager`;
    const rubric = extractRubric(text, { domain: 'Exhibitions' });
    const names = rubric.criteria.map((c) => c.name);
    for (const name of names) expect(nameProblem(name), name).toBeNull();
    expect(names.some((n) => /Iyer|regards|Hello|Please find|Purchase Manager/i.test(n))).toBe(false);
    expect(rubric.criteria.some((c) => /3 m by 3 m/.test(c.source))).toBe(true);
  });
});

describe('asks are read one by one however they are written', () => {
  it('gives a run-on sentence of asks joined by semicolons a criterion per ask', () => {
    const text =
      'For the warehouse we want a racking layout that fits 1,200 pallet positions; a pick path that keeps walking under 2 km per shift; a fire-exit plan approved by the safety officer; and a loading-bay schedule for 9 trucks a day.';
    const rubric = extractRubric(text, { domain: 'Logistics' });
    for (const ask of ['1,200 pallet positions', '2 km per shift', 'fire-exit plan', '9 trucks a day'])
      expect(rubric.criteria.filter((c) => c.source.includes(ask)).length, ask).toBeGreaterThan(0);
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(4);
  });

  it('splits a comma run-on whose asks are verbs in the third person', () => {
    const text =
      'We need a booking widget that shows free slots for the next 14 days, holds a slot for 10 minutes while the patient pays, sends an SMS confirmation in Marathi or English, and supports cancellation up to 2 hours before the visit.';
    const rubric = extractRubric(text, { domain: 'Web development' });
    for (const ask of ['next 14 days', 'for 10 minutes', 'SMS confirmation', '2 hours before'])
      expect(rubric.criteria.filter((c) => c.source.includes(ask)).length, ask).toBeGreaterThan(0);
    expect(new Set(rubric.criteria.map((c) => c.source)).size).toBeGreaterThanOrEqual(4);
  });

  it('reads roman-numeral and lettered lists as list items', () => {
    const text = `Stock count, two godowns.
(i) Count every SKU above 20 kg.
(ii) Reconcile the count with the ERP.
(iii) Explain each variance above 2%.
(iv) Report within 5 days.`;
    const rubric = extractRubric(text);
    for (const ask of ['above 20 kg', 'with the ERP', 'above 2%', 'within 5 days'])
      expect(
        rubric.criteria.some((c) => c.source.includes(ask) || c.description.includes(ask)),
        ask,
      ).toBe(true);
    expect(rubric.criteria.some((c) => /^\(?i+\)?$/i.test(c.name))).toBe(false);
  });

  it('grades each fragment of a brief written in fragments', () => {
    const text =
      'Wedding film, 6 min. Drone shots at the venue. Colour grade warm. Music licensed. Delivery as 4K and a 60 sec reel.';
    const rubric = extractRubric(text, { domain: 'Video production' });
    for (const ask of ['Drone shots', 'Colour grade', 'Music licensed', '60 sec reel'])
      expect(
        rubric.criteria.some((c) => c.source.includes(ask) || c.description.includes(ask)),
        ask,
      ).toBe(true);
    expect(rubricProblems(rubric, text, 'Video production')).toEqual([]);
  });
});

describe('criteria speak the brief’s own field', () => {
  it('does not take one word other fields use for a software brief', () => {
    expect(mentionsSoftware('The primary endpoint is HbA1c at 24 weeks.')).toBe(false);
    expect(mentionsSoftware('Write the script and the storyboard.')).toBe(false);
    expect(mentionsSoftware('Expose an API endpoint for the readings.')).toBe(true);
  });

  it('names and grades a clinical brief without software themes or terms', () => {
    const text =
      'Write the protocol synopsis for a phase II trial. The primary endpoint must be HbA1c change at 24 weeks. Secondary endpoints should include weight and hypoglycaemia events. Justify the sample size.';
    const rubric = extractRubric(text, { domain: 'Clinical research' });
    expect(rubricProblems(rubric, text, 'Clinical research')).toEqual([]);
    const words = rubric.criteria.flatMap((c) => [c.name, ...c.levels.map((l) => l.descriptor)]).join('\n');
    expect(words).not.toMatch(/API design|code quality|unit tests?|OWASP/i);
  });

  it('refuses, whoever wrote them, levels in software terms for a brief that is not about software', () => {
    const text =
      'Review the lease and redline the indemnity clause. List the clauses that conflict with the rent act. Propose a fallback for each high-risk clause.';
    const rubric = extractRubric(text, { domain: 'Legal' });
    expect(rubricProblems(rubric, text, 'Legal')).toEqual([]);
    const owasp = {
      ...rubric,
      criteria: rubric.criteria.map((c, i) =>
        i === 0
          ? {
              ...c,
              levels: c.levels.map((l) => ({
                ...l,
                descriptor: `The review covers the OWASP top ten at level ${l.score}.`,
              })),
            }
          : c,
      ),
    };
    expect(rubricProblems(owasp, text, 'Legal').join('\n')).toMatch(/software terms \("OWASP"\)/);
  });
});
