/**
 * Issue 53: the reader knows document shapes (chat exports, Given/When/Then, tables, quoted
 * mail), exclusions are scope in every phrasing, and one name validator serves both engines.
 * Briefs of their own, none from a held-out set.
 */
import { describe, expect, it } from 'vitest';
import { isChatFiller, lineForms, tableCells } from './document-form';
import { excludedThing } from './requirements';
import { extractRubric } from './rubric-extraction';
import { nameProblem, rubricProblems } from './rubric-quality';
import { splitSentences } from './text';

const texts = (brief: string) => splitSentences(brief).map((s) => s.text);
const FORM = /\[\d|\d{1,2}:\d{2}\s?[AP]M|\||\t|^>|^(?:given|when|then)\b/i;

describe('the reader strips a document’s form', () => {
  it('reads each chat message on its own, without timestamp or speaker', () => {
    const brief = `[09:10] Asha: the tracker should list every open pothole complaint by ward
[09:11] Vinod: ok
[09:12] Vinod: photos must be attached to each complaint
[09:14] Asha: and the ward officer gets an SMS when a complaint is older than 7 days`;
    const out = texts(brief);
    expect(out).toContain('the tracker should list every open pothole complaint by ward');
    expect(out).toContain('photos must be attached to each complaint');
    expect(out.some((t) => /Asha|Vinod|09:1/.test(t))).toBe(false);
    const rubric = extractRubric(brief, { domain: 'Civic tech' });
    for (const c of rubric.criteria) {
      expect(c.source).not.toMatch(/Asha|Vinod|\n/);
      expect(c.name).not.toMatch(/Asha|Vinod|Ok/);
    }
    expect(rubric.criteria.map((c) => c.source)).not.toContain('ok');
    expect(rubricProblems(rubric, brief, 'Civic tech')).toEqual([]);
  });

  it('reads a Slack export and a WhatsApp export', () => {
    const slack = `Tara [3:02 PM]
menu cards for the three restaurants, A5, two sides
Ishan [3:04 PM]
prices must match the POS export`;
    expect(texts(slack)).toEqual([
      'menu cards for the three restaurants, A5, two sides',
      'prices must match the POS export',
    ]);
    const whatsapp = `02/12/26, 18:01 - Gita: sample 20 wells in the block
02/12/26, 18:02 - Hari: test arsenic and fluoride in each sample`;
    expect(texts(whatsapp)).toEqual([
      'sample 20 wells in the block',
      'test arsenic and fluoride in each sample',
    ]);
  });

  it('grades the Then line of a scenario and keeps Given/When as its setting', () => {
    const brief = `Scenario: Cancel a booking
  Given a booking for tomorrow
  When the guest cancels before 6 pm
  Then the full amount is refunded to the card

Scenario: Late cancellation
  Given a booking for tonight
  When the guest cancels after 6 pm
  Then one night is charged and the rest refunded`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    const sources = rubric.criteria.map((c) => c.source);
    expect(sources).toContain('the full amount is refunded to the card');
    expect(sources.some((s) => /^(?:Given|When|Then|Scenario)\b/.test(s))).toBe(false);
    for (const c of rubric.criteria) expect(nameProblem(c.name, c.source)).toBeNull();
  });

  it('reads pipe, tab and aligned tables row by row, without borders or header rows', () => {
    const pipe = `| # | Task | Note |
|---|------|------|
| 1 | Photograph all 30 exhibits under the same light | use the grey card |
| 2 | Write a caption of 40 words for each exhibit | |`;
    expect(texts(pipe)).toEqual([
      'Photograph all 30 exhibits under the same light | use the grey card',
      'Write a caption of 40 words for each exhibit',
    ]);
    const tab =
      'Part\tWhat we want\nIntro\tA two-minute welcome from the principal\nOutro\tCredits with every volunteer named';
    // The first cell stays: it is the row's subject, and its name (see the next test).
    expect(texts(tab)).toEqual([
      'Intro\tA two-minute welcome from the principal',
      'Outro\tCredits with every volunteer named',
    ]);
    const aligned = `Room        Work                                  When
Kitchen     replace the sink and the tap            week 1
Bathroom    regrout the tiles and seal them         week 2`;
    expect(texts(aligned).every((t) => !FORM.test(t))).toBe(true);
    expect(texts(aligned)).toHaveLength(2);
    expect(tableCells('| a | b c |')).toEqual(['a', 'b c']);
  });

  it('names a table row for its label cell and reads an excluded row as scope', () => {
    const brief = `Line\tWhat we need
Revenue\tBy product line and month, from the sales register
Opex\tSalaries, rent and marketing by month
Cash\tOpening, inflows, outflows and closing balance
Tax\tOut of scope`;
    const rubric = extractRubric(brief, { domain: 'Finance' });
    expect(rubric.criteria.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Revenue by product line and month', 'Opex by month', 'Cash']),
    );
    expect(rubric.outOfScope).toEqual(['Tax']);
    expect(rubricProblems(rubric, brief, 'Finance')).toEqual([]);
  });

  it('reads a run-on paragraph clause by clause, its closing exclusion as scope', () => {
    const brief =
      'we need a draft NDA for our supplier it must be mutual and last three years after the last disclosure and it should exclude information already public and the governing law is Maharashtra with courts at Pune and please keep it under three pages and we do not need a Hindi version right now';
    const rubric = extractRubric(brief, { domain: 'Legal' });
    expect(rubric.outOfScope).toEqual(['Hindi version']);
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(3);
    expect(rubric.criteria.some((c) => /Hindi/.test(c.source))).toBe(false);
    expect(rubricProblems(rubric, brief, 'Legal')).toEqual([]);
  });

  it('reads quoted and forwarded mail without its headers and quote marks', () => {
    const brief = `Can you handle this?

---------- Forwarded message ---------
From: Neel
Subject: hall booking

On Mon, 30 Nov 2026 at 10:00, Neel wrote:
> Book a hall for 80 people on 12 January.
> Lunch must be vegetarian.`;
    expect(texts(brief)).toEqual([
      'Can you handle this?',
      'Book a hall for 80 people on 12 January.',
      'Lunch must be vegetarian.',
    ]);
    const forms = lineForms(brief.split('\n'));
    expect(forms.filter((f) => f?.kind === 'skip')).toHaveLength(4);
  });

  it('never quotes a one-word line as a source', () => {
    const brief = `[09:00] Uma: the form must take a name, a phone number and a date
[09:01] Raj: pricing?
[09:02] Uma: confirmation by SMS within a minute
[09:03] Raj: and a weekly export of bookings to Excel`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.criteria.map((c) => c.source)).not.toContain('pricing?');
    expect(rubricProblems(rubric, brief, 'Web development')).toEqual([]);
  });

  it('drops chat replies that ask for nothing', () => {
    for (const t of ['ok', 'Yes.', 'right, thanks', 'noted', '+1']) expect(isChatFiller(t)).toBe(true);
    expect(isChatFiller('yes push reminders at 8 am')).toBe(false);
  });
});

describe('exclusions are scope in every phrasing, as noun phrases', () => {
  it.each([
    ['We are NOT doing a tablet layout at this stage', 'tablet layout'],
    ['Leave the Tamil subtitles out for now.', 'Tamil subtitles'],
    ['a desktop version — leave it out', 'desktop version'],
    ['Gift wrapping can come later.', 'Gift wrapping'],
    ['The loyalty points module can wait for phase 2.', 'loyalty points module'],
    ['Catering is not our job this time.', 'Catering'],
    ['There is no need for a printed catalogue.', 'printed catalogue'],
    ['We will not need a stage this year.', 'stage'],
    ["We won't be hosting it; the client does.", 'hosting'],
    ['Load testing is out of scope.', 'Load testing'],
  ])('"%s" leaves out "%s"', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it('cuts an exclusion clause off an ask and keeps the ask', () => {
    const chat = `[10:00] Asha: must work on Android 8 and later, iOS is not required for now
[10:01] Ben: parents see attendance weekly, no daily reports needed
[10:02] Asha: payments we'll do later, not in v1`;
    const rubric = extractRubric(chat, { domain: 'Android' });
    expect(rubric.outOfScope).toEqual(expect.arrayContaining(['iOS', 'daily reports', 'payments']));
    expect(rubric.criteria.some((c) => /iOS|daily reports|payments/.test(c.source))).toBe(false);
    const semicolon =
      'The store needs a shelf plan for 800 products, fast movers at eye level, and a test with 3 shoppers; lighting changes are not part of this work at all.';
    const r2 = extractRubric(semicolon, { domain: 'Retail' });
    expect(r2.outOfScope).toContain('lighting changes');
    expect(r2.criteria.some((c) => /lighting/.test(c.source))).toBe(false);
  });

  it.each([
    ["We're not doing SMS this time.", 'SMS'],
    ['No website design at this point', 'website design'],
    ['Social templates can wait till next quarter', 'Social templates'],
  ])('"%s" leaves out "%s" too', (sentence, thing) => {
    expect(excludedThing(sentence)).toBe(thing);
  });

  it('does not read a time span as a deferral', () => {
    expect(excludedThing('the due date moves 14 days later')).toBeNull();
  });

  it('never weighs an exclusion, inside a chat or a table', () => {
    const brief = `[11:00] Ravi: the booking form must take a name, a phone number and a date
[11:01] Sunita: confirmation by SMS within a minute
[11:02] Ravi: We are NOT doing online payment at this stage`;
    const rubric = extractRubric(brief, { domain: 'Web development' });
    expect(rubric.outOfScope).toContain('online payment');
    expect(rubric.criteria.some((c) => /online payment/i.test(`${c.name} ${c.source}`))).toBe(false);
    const table =
      'Item\tNeed\nMenu\tA menu for 60 guests with two vegan mains\nMusic\tleave the DJ out, the couple has one';
    expect(extractRubric(table).outOfScope).toContain('DJ');
    const aligned = `Zone        Need                                  By
Seating     200 chairs in rows of 10                  3 Jan
Stage       a 6 m stage with two steps                5 Jan
Parking     we do not need a parking plan, the school handles it`;
    expect(extractRubric(aligned).outOfScope).toContain('parking plan');
  });
});

describe('one name validator for both engines', () => {
  it.each([
    ['Researching assistant for systematic review', 'a role line'],
    ['Means shortlisting three venues', 'a discourse opener'],
    ['Given a booking', 'a story keyword'],
    ['Menu | prices', "the brief's form (a table border, a tab, quoting or a timestamp)"],
    ['Functionality: medicine', 'a theme label with one stray noun'],
  ])('refuses "%s" (%s)', (name, why) => {
    expect(nameProblem(name)).toBe(why);
  });

  it('refuses a head cut off its complement and a label over an unrelated source', () => {
    expect(nameProblem('Risk', 'Assess the risk of bias in every included trial.')).toMatch(/cut-off head/);
    expect(nameProblem('Risk of bias', 'Assess the risk of bias in every included trial.')).toBeNull();
    expect(
      nameProblem(
        'Communication & reporting',
        'Row-level security must keep each tenant to its own ledger totals.',
      ),
    ).toBe('a theme label over a sentence about something else');
  });

  it('refuses a predicate without its subject and a clause cut before its object', () => {
    expect(nameProblem('Is removed')).toBe('a verb phrase without its subject');
    expect(nameProblem('Shopper gets')).toBe('a clause cut before its object');
    expect(nameProblem('Price drop')).toBeNull();
  });

  it("names a scenario's outcome by the scenario's title", () => {
    const brief = `Scenario: Late return
  Given a loan overdue by 3 days
  When the member returns the book
  Then the fine shown is 3 rupees

Scenario: Lost card
  Given a member who reports a lost card
  When the librarian blocks it
  Then no loan can be made on the old card

Scenario: Holds
  Given a book on hold for a member
  When it is returned by another
  Then the member receives an SMS`;
    const rubric = extractRubric(brief, { domain: 'Library software' });
    expect(rubric.criteria.map((c) => c.name).sort()).toEqual(['Holds', 'Late return', 'Lost card']);
    expect(rubricProblems(rubric, brief, 'Library software')).toEqual([]);
  });

  it('is the check Workers AI output passes too (rubricProblems)', () => {
    const brief = 'Assess the risk of bias in every included trial. Extract the outcomes into one table.';
    const level = (score: number) => ({ score, descriptor: `Level ${score} of the work is described here.` });
    const criterion = (name: string, source: string, weight: number) => ({
      id: name,
      name,
      description: name,
      weight,
      levels: [1, 2, 3, 4, 5].map(level),
      source,
    });
    const problems = rubricProblems(
      {
        criteria: [
          criterion('Risk', 'Assess the risk of bias in every included trial.', 40),
          criterion('Outcome table', 'Extract the outcomes into one table.', 30),
          criterion('Means extracting outcomes', 'Extract the outcomes into one table.', 30),
        ],
        passThreshold: 3,
      },
      brief,
      'Systematic review',
    );
    expect(problems.some((p) => /"Risk".*cut-off head/.test(p))).toBe(true);
    expect(problems.some((p) => /"Means extracting outcomes".*discourse opener/.test(p))).toBe(true);
  });
});
