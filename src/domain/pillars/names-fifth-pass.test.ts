import { describe, expect, it } from 'vitest';
import { excludedThing } from './requirements';
import { extractRubric } from './rubric-extraction';
import { nameProblem, rubricProblems } from './rubric-quality';

describe('exclusions phrased as what a deliverable leaves out (issue 53, fifth pass)', () => {
  it.each([
    ['Please note the brochure should not include room rates, they change every season.', 'room rates'],
    ["The map doesn't need to cover the old bazaar.", 'old bazaar'],
    ["The booking page won't have a chat widget.", 'chat widget'],
    ["Online payment shouldn't be part of this.", 'Online payment'],
    ['Photography won’t be part of this, we will share our own photos.', 'Photography'],
    ['the dealer-wise margins are not going to be needed either', 'dealer-wise margins'],
  ])('"%s" leaves out "%s"', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it.each([
    ['Not looking for a logo redesign.', 'logo redesign'],
    ["We're not after a full rebrand.", 'full rebrand'],
    ['Forget about SEO for this one.', 'SEO'],
    ["We'll handle hosting ourselves.", 'hosting'],
    ['A full rebrand is beyond the scope of this brief.', 'full rebrand'],
    ['Beyond scope: translations.', 'translations'],
    ["Translations aren't required.", 'Translations'],
    ['The admin panel is someone else’s job.', 'admin panel'],
    ['The Hindi version is a phase 2 thing.', 'Hindi version'],
    ['iOS can wait.', 'iOS'],
    ['Video is out.', 'Video'],
    ['Printing is not something we need.', 'Printing'],
    ['Dark mode is a nice-to-have for later.', 'Dark mode'],
  ])('"%s" leaves out "%s" (more phrasings)', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it('keeps a must-not as a graded rule and an ask with a modal as an ask', () => {
    expect(excludedThing('The poster must not include the old logo.')).toBeNull();
    expect(excludedThing('The app must work offline and should not include ads.')).toBeNull();
    expect(excludedThing('The reply should wait for the payment to settle.')).toBeNull();
    expect(excludedThing('We will write the copy with you in two workshops.')).toBeNull();
  });

  it('cuts the exclusions off a run-on sentence and grades none of them', () => {
    const brief =
      'we need the quarterly sales report split by region, there should be a two-page commentary for the partners, the report doesn’t need to include a forecast for next year and the dealer-wise margins are not going to be needed either';
    const rubric = extractRubric(brief, { domain: 'Finance' });
    expect(rubric.outOfScope).toEqual(['forecast for next year', 'dealer-wise margins']);
    for (const c of rubric.criteria) expect(c.source).not.toMatch(/forecast|margins/);
  });
});

describe('names the shared validator refuses (issue 53, fifth pass)', () => {
  it.each([
    ['Renew a loan', 'a bare verb'],
    ['Extend', 'a bare verb'],
    ['Tie back', 'a bare verb'],
    ['Functionality: expect tests for every endpoint', 'a theme label glued to a sentence'],
    ['Communication: HR heads', 'a theme label over the people'],
    ['Deck not includes pricing', 'a negated clause'],
    ['Launch is 15 Jan', 'a clause'],
    ['Parents get', 'a clause cut before its object'],
    ['Users add habits', 'a clause cut before its object'],
    ['Recorded', 'a predicate without its subject'],
    ['Stays marked', 'a predicate without its subject'],
    ['Avoids filled in silently', 'a predicate without its subject'],
    ['We expect', 'a pronoun'],
    ['000 ultrasonic water meters', 'a number cut'],
  ])('refuses "%s" (%s)', (name, why) => {
    expect(nameProblem(name)).toContain(why);
  });

  it('refuses a verb or a generic word that only labels a table row, and a head cut off its "of 40"', () => {
    expect(nameProblem('Lint', 'Lint   | biome over every package on each push')).toMatch(
      /bare verb|table label/,
    );
    expect(nameProblem('Staff', 'Staff\tTwo cooks and one cashier per day')).toBe('a one-word table label');
    expect(nameProblem('Class', 'a class of 40 has to take under a minute')).toMatch(/cut-off head/);
  });

  it.each([
    'Revenue by product line and month',
    'Cutting total fleet distance',
    'SMS to parents',
    'Goal of 500 registrations',
    'Approved SmPC',
    'Show notes',
    'Deployment: readiness probes',
  ])('accepts "%s"', (name) => {
    expect(nameProblem(name)).toBeNull();
  });
});

describe('the namer gives the ask its head noun phrase', () => {
  const names = (brief: string, domain?: string) =>
    extractRubric(brief, domain ? { domain } : {}).criteria.map((c) => c.name);

  it('names a scenario titled with a bare verb for its act, not the verb', () => {
    const brief = `Scenario: Renew a loan
  Given a member with a book due in 5 days
  When they press Renew
  Then the due date moves 14 days later

Scenario: Take a dose
  Given a dose due at 9 am
  When the user taps Taken
  Then it stays marked as taken after a restart`;
    const got = names(brief);
    expect(got).toContain('Renewing a loan');
    expect(got.some((n) => /^(?:Renew|Take)\b/.test(n))).toBe(false);
  });

  it('names chat lines whose subject does something by the thing done, and passes the rules', () => {
    const brief = `[10:01] Ana: parents get a push when the bus leaves school
[10:02] Ben: drivers start the trip with one tap
[10:03] Ana: the goal is 500 trips a day
[10:04] Ben: the map must refresh every 10 seconds`;
    const rubric = extractRubric(brief);
    const got = rubric.criteria.map((c) => c.name);
    expect(got).not.toEqual(expect.arrayContaining(['Parents get']));
    expect(got.some((n) => /^(?:Parents get|Drivers start|The goal is)\b/.test(n))).toBe(false);
    expect(rubricProblems(rubric, brief)).toEqual([]);
  });

  it('names a one-word table row by its qualifier or its cells, never by a verb label', () => {
    const brief = `| Stage  | What it must do                                   |
|--------|---------------------------------------------------|
| Lint   | biome over every package on each push             |
| Test   | vitest inside workerd, fail on any skipped test    |
| Deploy | wrangler to staging on every merge to main         |`;
    const rubric = extractRubric(brief, { domain: 'DevOps' });
    expect(rubric.criteria.map((c) => c.name)).not.toEqual(
      expect.arrayContaining(['Lint', 'Test', 'Deploy']),
    );
    expect(rubricProblems(rubric, brief, 'DevOps')).toEqual([]);
  });
});

describe('letters, participle clauses and cut-off proper names (issue 53, fifth pass)', () => {
  it('drops a "With warm regards" sign-off with the name and designation under it', () => {
    const brief = `Dear Ms Rao,

We would like a run-of-show for our annual day on 18 January.
Please compare quotes from at least three sound and light vendors.
The stage plan must be approved by the society.

With warm regards,
Meera Nair
Treasurer, Lakeview Residents' Association`;
    const names = extractRubric(brief).criteria.map((c) => c.name);
    expect(names.some((n) => /Meera|Treasurer|regards/i.test(n))).toBe(false);
  });

  it('reads "…, confirming one cannot …" as the ask’s check, not a prohibition', () => {
    const brief = `1. access checks with two staff accounts, confirming one cannot open the other's payslips
2. a CVSS 3.1 score and reproduction steps per finding
3. retest every high finding after the fix`;
    const rubric = extractRubric(brief, { domain: 'Security' });
    expect(rubric.criteria.some((c) => /^Avoids/.test(c.name))).toBe(false);
    expect(rubricProblems(rubric, brief, 'Security')).toEqual([]);
  });

  it.each([
    ['With consent', 'a prepositional phrase'],
    ['Least 1.2 m clear', 'a prepositional phrase'],
    ['Webhook fires', 'a clause'],
    ['Approval rates differ', 'a clause'],
  ])('refuses "%s" (%s)', (name, why) => {
    expect(nameProblem(name)).toContain(why);
  });

  it('refuses a proper name cut at its "and" and names it in full', () => {
    const source = 'The policy must comply with the Karnataka Shops and Establishments Act.';
    expect(nameProblem('Karnataka Shops', source)).toBe('a proper name cut short');
    expect(nameProblem('Karnataka Shops and Establishments Act', source)).toBeNull();
  });

  it('names "should take under two minutes" as the time it takes', () => {
    const brief = `Check-in at the gate should take under two minutes per family.
The desk needs two volunteers at all times.
Print the guest list by block.`;
    const rubric = extractRubric(brief);
    expect(rubricProblems(rubric, brief)).toEqual([]);
    expect(rubric.criteria.map((c) => c.name).some((n) => /^(?:Take|Under)\b/.test(n))).toBe(false);
  });
});

describe('chat lines whose subject does something (issue 53, fifth pass)', () => {
  it('names "the dashboard shows daily sales" by what it shows and "stock … turns red" by its subject', () => {
    const brief = `[11:02] Neha: so the dashboard shows daily sales by store
[11:03] Arjun: yes and stock below reorder level turns red
[11:04] Neha: managers download a PDF every Monday
[11:05] Arjun: data refreshes every 15 min
[11:06] Neha: no need for forecasting now`;
    const rubric = extractRubric(brief, { domain: 'Data science' });
    const names = rubric.criteria.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Daily sales by store',
        'Stock below reorder level',
        'Downloading PDF every Monday',
      ]),
    );
    expect(rubric.outOfScope).toEqual(['forecasting']);
    expect(rubricProblems(rubric, brief, 'Data science')).toEqual([]);
  });

  it.each([
    ['Dashboard shows daily sales', 'a clause'],
    ['Reorder level turns red', 'a clause'],
    ['Managers download a PDF every Monday', 'a clause cut before its object'],
  ])('refuses "%s" (%s)', (name, why) => {
    expect(nameProblem(name)).toContain(why);
  });

  it('refuses a plural subject and its verb cut before a determiner in the source', () => {
    expect(nameProblem('Volunteers sign', 'Volunteers sign a declaration at the end.')).toBe(
      'a clause cut before its object',
    );
    expect(nameProblem('Dietary needs', 'Collect the dietary needs of all 85 attendees.')).toBeNull();
  });
});

describe('story context and "we are not …-ing" (issue 53, fifth pass)', () => {
  it('reads "We are not touching the blog" as scope, never as "Avoids touching the blog"', () => {
    const brief = `i. Audit the 120 product pages for broken links
ii. Rewrite meta descriptions under 155 characters
iii. Add alt text to every image
We are not touching the blog.`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.outOfScope).toEqual(['blog']);
    expect(rubric.criteria.some((c) => /blog/i.test(c.name) || /blog/i.test(c.source))).toBe(false);
  });

  it('never makes a criterion of a "Given" line, even to make up the count', () => {
    const brief = `Feature: Leave requests

  Scenario Outline: Apply for leave
    Given an employee with <balance> days left
    When they apply for <days> days
    Then the request is <result>

  Scenario: Manager approval
    Given a pending request
    When the manager approves it
    Then the employee gets an email and the balance drops`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.criteria.some((c) => /days left|pending request/.test(c.source))).toBe(false);
  });
});

describe('more shapes: weekday chat stamps, labelled lists, "not in your scope" (issue 53, fifth pass)', () => {
  it('reads "Tuesday 9:14 AM - Name:" lines as a chat, and a "skip button" as a thing, not an exclusion', () => {
    const brief = `Tuesday 9:14 AM - Rahul: guys we need the onboarding flow redone
Tuesday 9:15 AM - Sana: 3 screens max, skip button on each
Tuesday 9:16 AM - Rahul: analytics event on every step
Tuesday 9:17 AM - Sana: dark mode later`;
    const rubric = extractRubric(brief, { domain: 'Android' });
    expect(rubric.outOfScope).toEqual(['dark mode']);
    expect(rubric.criteria.some((c) => /Tuesday|Rahul|Sana/.test(c.source + c.name))).toBe(false);
    expect(rubric.criteria.some((c) => /skip button/.test(c.source))).toBe(true);
  });

  it('reads "Must-haves: a, b, c" as asks and "Out: x, y" as scope', () => {
    const brief = `Must-haves: offline sync, export to Excel, role-based access (admin/staff)
Nice-to-haves: barcode scanning
Out: payroll, invoicing`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.outOfScope).toEqual(['payroll', 'invoicing']);
    const sources = rubric.criteria.map((c) => c.source);
    expect(sources).toEqual(expect.arrayContaining(['offline sync', 'export to Excel']));
    expect(rubricProblems(rubric, brief, 'Web development')).toEqual([]);
  });

  it.each([
    ['Transport arrangements are not in your scope.', 'Transport arrangements'],
    [
      'The consultant will not be responsible for implementing any interventions.',
      'implementing interventions',
    ],
  ])('"%s" leaves out "%s"', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it('refuses a name with "not" in it', () => {
    expect(nameProblem('Transport arrangements not in your scope')).toContain('a negated clause');
    expect(nameProblem('Consultant not responsible')).toContain('a negated clause');
  });
});

describe('terms led by a digit and single-item list labels (issue 53, fifth pass)', () => {
  it('reads "it has to work on 3G" as an ask of its own', () => {
    const brief = `Monday 10:02 AM - Anand: the pharmacist logs every strip and bottle that comes in
Monday 10:04 AM - Lata: expiry alerts 30 days ahead
Monday 10:05 AM - Anand: it has to work on 3G
Nice-to-haves: SMS to the district store`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.criteria.some((c) => /3G/.test(c.source))).toBe(true);
    expect(rubric.criteria.some((c) => c.source === 'SMS to the district store')).toBe(true);
  });
});

describe('theme keywords that stem like ordinary words (issue 53, fifth pass)', () => {
  it('does not read "comes in" as documentation ("comment" stems to "com")', async () => {
    const { classifyTheme } = await import('./themes');
    const { stemSet } = await import('./text');
    expect(
      classifyTheme(stemSet('the pharmacist logs every strip and bottle that comes in'), 'web-development')
        ?.key,
    ).not.toBe('documentation');
    expect(classifyTheme(stemSet('Write code comments for the parser'), 'backend')?.key).toBe(
      'documentation',
    );
  });
  it('reads role-based access and access control as security, not accessibility ("access" stems like "accessible")', async () => {
    const { classifyTheme } = await import('./themes');
    const { stemSet } = await import('./text');
    for (const text of [
      'Role-based access for admins, editors and viewers',
      'Access control on every endpoint',
      'RBAC for the clinic staff',
    ])
      expect(classifyTheme(stemSet(text), 'web-development')?.key, text).toBe('security');
    expect(
      classifyTheme(stemSet('Screen reader and keyboard access to every form'), 'web-development')?.key,
    ).toBe('accessibility');
  });
});

describe('work done by others, deferred work, "What we don\'t want:" (issue 53, fifth pass)', () => {
  it.each([
    ['Painting is being done by another contractor.', 'Painting'],
    ['Integration with the hospital HIS is deferred to phase 2.', 'Integration with the hospital HIS'],
    ["What we don't want: a full redesign of the site.", 'full redesign of the site'],
  ])('"%s" leaves out "%s"', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it('cuts "… so no photography needed" off its sentence and never names a criterion by what is left', () => {
    const brief =
      'Hello!! So basically we need someone to write 10 product descriptions for our handloom sarees, around 150 words each, SEO friendly, and also 10 Instagram captions. Tone should be warm. We already have photos so no photography needed. Deadline is next Friday.';
    const rubric = extractRubric(brief, { domain: 'Content writing' });
    expect(rubric.outOfScope).toContain('photography');
    expect(rubric.criteria.some((c) => /photo/i.test(c.source))).toBe(false);
    expect(rubricProblems(rubric, brief, 'Content writing')).toEqual([]);
  });
});
