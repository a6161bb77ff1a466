/**
 * The requirement reader and the rules it feeds (issue 37), each kind pinned with briefs of its
 * own (none from the held-out evaluation set).
 */
import { describe, expect, it } from 'vitest';
import { detectField } from './knowledge/detect';
import { generatePlaybook } from './playbook';
import {
  excludedThing,
  isLetterFormula,
  modalityOf,
  quantitiesOf,
  readAsks,
  splitClauses,
  withoutFormulas,
} from './requirements';
import { extractRubric, fitName, scopeExclusions } from './rubric-extraction';
import { nameProblem, rubricProblems } from './rubric-quality';
import { splitSentences } from './text';
import { languagesNamed } from './tutorial-catalogue';

const FORMULAS =
  /\b(?:dear|hope you|as discussed|pfb|please find|kindly|please note|regards|thanking|greetings|mention)\b/i;

describe('exclusions are scope, not criteria', () => {
  const brief = `Wedding photography shortlist for a client in Kochi.
- Shortlist five photographers with portfolios of Kerala Christian weddings.
- Compare their packages for a two-day event in one table.
- Check each one's availability for 14 February.
Do NOT include videographers.
Pls don't spend time on drone coverage.
No need for a contract draft.
Avoid agencies that subcontract the shoot.`;

  it('lists each exclusion in outOfScope and grades none of them', () => {
    const rubric = extractRubric(brief);
    expect(rubric.outOfScope).toEqual([
      'videographers',
      'drone coverage',
      'contract draft',
      'agencies that subcontract the shoot',
    ]);
    expect(rubric.criteria.some((c) => c.name.startsWith('Avoids'))).toBe(false);
    for (const excluded of rubric.outOfScope)
      for (const c of rubric.criteria) expect(c.source).not.toContain(excluded);
    expect(rubricProblems(rubric, brief)).toEqual([]);
    expect(scopeExclusions(brief)).toEqual(rubric.outOfScope);
  });

  it('reads exclusions stated after the thing ("… is out of scope", "… not required")', () => {
    expect(excludedThing('Structural design is by a separate consultant — not required from you.')).toBe(
      'Structural design',
    );
    expect(excludedThing('Kindly note that GST filing is not part of this activity.')).toBe('GST filing');
    expect(excludedThing('OTA updates: not needed for this phase.')).toBe('OTA updates');
    expect(excludedThing('The dashboard must load in 2 seconds.')).toBeNull();
  });

  it('keeps a must-not the brief states as a rule, and an exclusion the brief says costs marks', () => {
    expect(excludedThing('You must not use paid tools.')).toBeNull();
    expect(excludedThing('Never commit credentials.')).toBeNull();
    expect(excludedThing('Do not copy text from competitors; copied text will be penalised.')).toBeNull();
    const text =
      'Write three product descriptions. Each must be under 120 words. Cite the spec sheet. Do not copy text from competitors; copied text will be penalised.';
    const rubric = extractRubric(text);
    expect(rubric.criteria.some((c) => c.source.includes('copied text will be penalised'))).toBe(true);
  });

  it('makes a Workers AI rubric that grades an exclusion invalid', () => {
    const local = extractRubric(brief);
    const graded = {
      ...local,
      criteria: local.criteria.map((c, i) =>
        i === 0 ? { ...c, name: 'Avoids videographers', source: 'Do NOT include videographers.' } : c,
      ),
    };
    expect(rubricProblems(graded, brief).join(' ')).toMatch(/out of scope/);
  });
});

describe('letter formulas and company descriptions never name a criterion', () => {
  const letter = `Dear Sir,

Greetings from Kaveri Foods! We are a Mysuru-based FMCG company with 40 distributors.

As discussed on call, PFB the requirement for the distributor newsletter:
1. Kindly write a 600-word monthly newsletter in Kannada and English.
2. Mention the new ragi malt launch with its price.
3. Include one distributor success story.

Please note that printing is not part of this work.

Thanks & Regards,
Ramesh`;

  it('drops greetings, sign-offs and lead-ins, and keeps the asks', () => {
    expect(isLetterFormula('Dear Sir,')).toBe(true);
    expect(isLetterFormula('Thanks & Regards,')).toBe(true);
    expect(isLetterFormula('As discussed on call, PFB the requirement for the distributor newsletter:')).toBe(
      true,
    );
    expect(withoutFormulas('Kindly write a 600-word newsletter.')).toBe('write a 600-word newsletter.');
    const rubric = extractRubric(letter);
    for (const c of rubric.criteria) {
      expect(c.name).not.toMatch(FORMULAS);
      expect(c.name).not.toMatch(/Kaveri|Mysuru|company/i);
      expect(nameProblem(c.name)).toBeNull();
    }
    expect(rubric.outOfScope).toEqual(['printing']);
    const sources = rubric.criteria.map((c) => c.source).join('\n');
    expect(sources).toMatch(/newsletter/);
    expect(sources).toMatch(/ragi malt/);
    expect(sources).toMatch(/success story/);
    expect(rubricProblems(rubric, letter)).toEqual([]);
  });

  it('rejects the names no expert would write', () => {
    expect(nameProblem('As discussed')).not.toBeNull();
    expect(nameProblem('PFB the scope')).not.toBeNull();
    expect(nameProblem('Kindly share the workbook')).not.toBeNull();
    expect(nameProblem('Bengaluru-based SaaS company')).not.toBeNull();
    expect(nameProblem('Areas')).not.toBeNull();
    expect(nameProblem('Dedupes lines across large')).not.toBeNull();
    expect(nameProblem('Budget by cost head for the venue and catering teams')).not.toBeNull();
    expect(nameProblem('Loss triangles')).toBeNull();
    expect(nameProblem('Deployment: SLO-based alerts')).toBeNull();
    expect(fitName('Avoids planning the seating for 120 guests so that feuding relatives')).toBe(
      'Avoids planning the seating',
    );
  });
});

describe('run-on and terse briefs', () => {
  const runOn =
    'We are moving our warehouse in Hosur to a new site next month and we need someone to draw up a move plan that lists every rack and its new bay, book two trucks with drivers for the weekend of the move, label every carton with its destination bay and a colour code, prepare a checklist for the night shift supervisor, arrange insurance for the goods in transit and write a one-page summary of the plan for the plant head, because the last move lost three days of dispatches.';

  it('splits one long sentence into its asks, each a criterion source', () => {
    const rubric = extractRubric(runOn);
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(5);
    const sources = rubric.criteria.map((c) => c.source).join('\n');
    for (const ask of [
      'move plan',
      'two trucks',
      'label every carton',
      'checklist',
      'insurance',
      'one-page summary',
    ])
      expect(sources).toContain(ask);
    expect(rubricProblems(rubric, runOn)).toEqual([]);
  });

  it('reads clauses, modality and figures', () => {
    expect(splitClauses('Rank the bids, flag every deviation and write a note; keep it short')).toEqual([
      'Rank the bids',
      'flag every deviation',
      'write a note',
      'keep it short',
    ]);
    expect(modalityOf('The deck must stay under 12 slides')).toBe('must');
    expect(modalityOf('A glossary would be nice')).toBe('may');
    expect(modalityOf('You must not use paid tools')).toBe('must-not');
    expect(quantitiesOf('Cost under INR 18 lakh, within 5 km, 98% coded in 2 working days')).toEqual([
      { value: '18', unit: 'INR' },
      { value: '5', unit: 'km' },
      { value: '98', unit: '%' },
      { value: '2', unit: 'working days' },
    ]);
    const { asks } = readAsks(splitSentences('Tile survey. 3 rooms. Photos of each wall.'));
    expect(asks.map((a) => a.scope)).toEqual(['Tile survey', '3 rooms', 'Photos of each wall']);
  });
});

describe('levels and labels speak the brief’s own field', () => {
  it('does not read ICD coding as code quality, or a lease review as application security', () => {
    const coding =
      'Code 40 outpatient records in ICD-10-CM. Coding must follow the official guidelines. Accuracy of 95% is expected on audit. Query the doctor when notes are unclear.';
    const lease =
      'Review the office lease. Flag clauses on data protection and confidentiality. Propose safer wording for the indemnity clause. Rate each clause by risk.';
    for (const [text, domain] of [
      [coding, 'Clinical coding'],
      [lease, 'Legal'],
    ] as const) {
      const rubric = extractRubric(text, { domain });
      for (const c of rubric.criteria) {
        expect(c.name).not.toMatch(/Code quality|Security|Testing|Performance|Functionality/);
        for (const l of c.levels) expect(l.descriptor).not.toMatch(/OWASP|maintainab|refactor|vulnerab/i);
      }
      expect(rubricProblems(rubric, text, domain)).toEqual([]);
    }
  });

  it('still labels a software brief with its themes', () => {
    const text = 'Build a REST API. It must hash passwords. Write integration tests. Provide a README.';
    const names = extractRubric(text, { domain: 'backend' }).criteria.map((c) => c.name);
    expect(names.some((n) => /Security|Testing|Documentation/.test(n))).toBe(true);
  });
});

describe('an honest unknown field', () => {
  const brief = {
    title: 'Bird census along the Bhima river',
    domain: 'Ornithology',
    durationDays: 12,
    deliverables: ['Point-count sheets and a species list by transect', 'A field report'],
    successCriteria: ['At least 30 point counts', 'Every record has a GPS fix within 10 m'],
  };

  it('says unknown, low confidence, no links, and composes the plan from the brief', () => {
    expect(detectField(brief).field.key).toBe('unknown');
    const plan = generatePlaybook(brief);
    expect(plan.confidence).toBe('low');
    expect(plan.milestones.flatMap((m) => m.tutorial_links)).toEqual([]);
    const tasks = plan.milestones.flatMap((m) => m.tasks).filter((t) => !/^Hand over/.test(t));
    // "A and B by C" yields an A step and a B step.
    expect(tasks.some((t) => /^Produce point-count sheets$/i.test(t))).toBe(true);
    expect(tasks.some((t) => /^Produce a species list by transect$/i.test(t))).toBe(true);
    // Success criteria become checks with their figures.
    expect(tasks.some((t) => t.includes('30 point counts') && t.includes('(30)'))).toBe(true);
    expect(tasks.some((t) => t.includes('GPS fix') && t.includes('10 m'))).toBe(true);
    expect(tasks.join('\n')).not.toMatch(/Break .* into steps|first complete draft|kernel|pandas/);
  });

  it('does not let a domain that only shares a stem claim a field', () => {
    expect(
      detectField({
        ...brief,
        domain: 'Analytical chemistry',
        title: 'Titration SOP',
        deliverables: ['An SOP'],
      }).field.key,
    ).toBe('unknown');
  });

  it('gives a known field its own links, in the brief’s language', () => {
    const go = {
      title: 'Webhook fan-out service in Go',
      domain: 'Backend',
      durationDays: 10,
      deliverables: ['A Go HTTP service that fans webhooks out to subscribers', 'Tests with go test'],
      successCriteria: ['Delivers to 100 subscribers in under a second'],
    };
    expect(languagesNamed(go.title)).toEqual(new Set(['go']));
    const links = generatePlaybook(go).milestones.flatMap((m) => m.tutorial_links);
    expect(links.length).toBeGreaterThan(0);
    expect(links.some((l) => /nodejs\.org|typescriptlang|vitest|react\.dev/.test(l))).toBe(false);
    expect(links.some((l) => /go\.dev/.test(l))).toBe(true);
  });
});
