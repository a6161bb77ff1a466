/**
 * Black-box findings on rubric extraction (2026-11): briefs in other scripts, common
 * requirement phrasings, background sentences and prohibitions.
 */
import { describe, expect, it } from 'vitest';
import { extractRubric, findRequirementSentences, forbiddenThing, isProhibition } from './rubric-extraction';
import { rubricProblems } from './rubric-quality';
import { splitSentences, tokenize } from './text';
import type { Rubric } from './types';

function expectValid(rubric: Rubric, text: string) {
  expect(rubricProblems(rubric, text)).toEqual([]);
  expect(rubric.criteria.length).toBeGreaterThanOrEqual(3);
  expect(rubric.criteria.length).toBeLessThanOrEqual(8);
}

/** Whether some criterion quotes or describes the sentence. */
const covers = (rubric: Rubric, sentence: string) =>
  rubric.criteria.some(
    (c) => c.source.includes(sentence) || sentence.includes(c.source) || c.description.includes(sentence),
  );

describe('briefs in Devanagari and other scripts', () => {
  it('tokenises words of any script and splits sentences at the danda and other full stops', () => {
    expect(tokenize('वेबसाइट तेज़ होनी चाहिए')).toEqual(['वेबसाइट', 'तेज', 'होनी', 'चाहिए']);
    // The nukta, typed or precomposed, does not make two words.
    expect(tokenize('ज़रूरी')).toEqual(tokenize('\u095Bरूरी'));
    expect(tokenize('ஒரு இணையதளம்')).toEqual(['ஒரு', 'இணையதளம்']);
    const split = (t: string) => splitSentences(t).map((s) => s.text);
    expect(split('पहला वाक्य। दूसरा वाक्य॥ तीसरा')).toEqual(['पहला वाक्य।', 'दूसरा वाक्य॥', 'तीसरा']);
    expect(split('यह मोबाइल पर अच्छा दिखना चाहिए।यह तेज़ होना चाहिए।')).toHaveLength(2);
    expect(split('网站必须快。必须有测试。')).toEqual(['网站必须快。', '必须有测试。']);
    expect(split('یہ تیز ہونا چاہیے۔ ٹیسٹ ضروری ہیں۔')).toHaveLength(2);
    expect(split('Build a landing page. यह मोबाइल पर अच्छा दिखना चाहिए। It must load fast.')).toEqual([
      'Build a landing page.',
      'यह मोबाइल पर अच्छा दिखना चाहिए।',
      'It must load fast.',
    ]);
  });

  it('reads list items in any script, including Devanagari numerals and letters', () => {
    const items = (t: string) =>
      splitSentences(t)
        .filter((s) => s.bullet)
        .map((s) => s.text);
    expect(items('आवश्यकताएँ:\n१. ऐप तेज़ हो\n२. टेस्ट लिखें')).toEqual(['ऐप तेज़ हो', 'टेस्ट लिखें']);
    expect(items('आवश्यकताएँ:\n(क) ऐप तेज़ हो\n(ख) टेस्ट लिखें')).toEqual(['ऐप तेज़ हो', 'टेस्ट लिखें']);
    expect(items('Needs:\n● fast pages\n◦ dark mode')).toEqual(['fast pages', 'dark mode']);
  });

  it('recognises Hindi requirement cues', () => {
    const strengths = findRequirementSentences(
      'वेबसाइट तेज़ होनी चाहिए। परीक्षण ज़रूरी हैं। दस्तावेज़ भी देना होगा। लॉगिन अनिवार्य है। सुरक्षा आवश्यक है। डार्क मोड वैकल्पिक है।',
    ).map((r) => r.strength);
    expect(strengths).toEqual(['should', 'must', 'must', 'must', 'must', 'nice']);
  });

  it('turns a six-sentence Hindi brief into several criteria named in Hindi', () => {
    const text =
      'हमें एक वेबसाइट चाहिए। वेबसाइट तेज़ होनी चाहिए। वेबसाइट मोबाइल पर अच्छी दिखनी चाहिए। लॉगिन सुरक्षित होना चाहिए। परीक्षण ज़रूरी हैं। दस्तावेज़ भी देना होगा।';
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(4);
    for (const ask of ['परीक्षण ज़रूरी हैं।', 'दस्तावेज़ भी देना होगा।', 'लॉगिन सुरक्षित होना चाहिए।'])
      expect(covers(rubric, ask), ask).toBe(true);
    for (const c of rubric.criteria) {
      expect(c.name).not.toMatch(/[।॥]|चाहिए|होगा|हैं$/);
      expect(c.name).not.toBe('Overall quality');
    }
  });

  it('keeps every item of a bulleted Hindi brief', () => {
    const text =
      'परियोजना: खर्च ट्रैकर ऐप\n\nआवश्यकताएँ:\n- ऐप ऑफ़लाइन काम करना चाहिए\n- डार्क मोड ज़रूरी है\n- खर्चों को श्रेणियों में बाँटना होगा\n- यूनिट टेस्ट लिखने होंगे\n- README में सेटअप निर्देश होने चाहिए';
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    for (const item of [
      'ऐप ऑफ़लाइन काम करना चाहिए',
      'डार्क मोड ज़रूरी है',
      'खर्चों को श्रेणियों में बाँटना होगा',
      'यूनिट टेस्ट लिखने होंगे',
      'README में सेटअप निर्देश होने चाहिए',
    ])
      expect(covers(rubric, item), item).toBe(true);
    expect(Math.max(...rubric.criteria.map((c) => c.weight))).toBeLessThanOrEqual(40);
  });

  it('keeps Hindi and English asks of a mixed brief apart, and reads ज़रूरी as must', () => {
    const text =
      'Build a landing page. यह मोबाइल पर अच्छा दिखना चाहिए। It must load in under 2 seconds. SEO ज़रूरी है।';
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    expect(rubric.criteria.map((c) => c.source)).toEqual(
      expect.arrayContaining([
        'यह मोबाइल पर अच्छा दिखना चाहिए।',
        'It must load in under 2 seconds.',
        'SEO ज़रूरी है।',
      ]),
    );
    const seo = rubric.criteria.find((c) => c.source === 'SEO ज़रूरी है।');
    expect(seo?.name).toBe('SEO');
    expect(seo?.description).toMatch(/^Requirements about .*Must: SEO/);
  });

  it('finds the asks of Tamil and Urdu briefs', () => {
    for (const text of [
      'ஒரு இணையதளம் வேண்டும். அது வேகமாக இருக்க வேண்டும். மொபைலில் நன்றாக தெரிய வேண்டும். சோதனைகள் கட்டாயம்.',
      'ہمیں ایک ویب سائٹ چاہیے۔ ویب سائٹ تیز ہونی چاہیے۔ لاگ ان محفوظ ہونا ضروری ہے۔ ٹیسٹ لازمی ہیں۔',
    ]) {
      const rubric = extractRubric(text);
      expectValid(rubric, text);
      expect(rubric.criteria.length, text).toBe(4);
    }
  });
});

describe('common requirement phrasings and background', () => {
  // Three asks already, so a fourth sentence is kept only if it is read as an ask (the
  // fallback that pads a brief to three criteria cannot rescue it).
  const base = 'The site must load fast. It must have a cart. Prices must show VAT.';
  for (const ask of [
    'Tests are expected.',
    'Security is crucial.',
    'We require a Dockerfile.',
    'No external libraries are allowed.',
    'You must not use jQuery.',
    'Above all, correctness of prices is crucial.',
    'Accessibility is essential.',
    'The checkout needs to accept UPI.',
    'The shop has to ship a sitemap.',
    'Orders are expected to be exported as CSV.',
    'Performance is very important.',
  ]) {
    it(`keeps "${ask}" as a criterion of a four-sentence brief`, () => {
      const text = `${base} ${ask}`;
      const rubric = extractRubric(text);
      expectValid(rubric, text);
      expect(rubric.criteria.map((c) => c.source)).toContain(ask);
    });
  }

  it('puts a soft exclusion ("Do not use jQuery.") out of scope instead of grading it', () => {
    const text = `${base} Do not use jQuery.`;
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    expect(rubric.criteria.map((c) => c.source)).not.toContain('Do not use jQuery.');
    expect(rubric.outOfScope).toEqual(['jQuery']);
  });

  it('does not grade background sentences', () => {
    for (const [text, background] of [
      [
        'Context: we run a shop. The site must load fast. It must have a cart. Do not use jQuery.',
        'Context: we run a shop.',
      ],
      [
        'Background: our clinic books by phone. Patients must pick a slot online. Staff should see bookings.',
        'Background: our clinic books by phone.',
      ],
      [
        'About us: a bakery in Leeds. The menu must be editable. Orders should be emailed. Prices must include VAT.',
        'About us: a bakery in Leeds.',
      ],
    ] as const) {
      const rubric = extractRubric(text);
      expectValid(rubric, text);
      expect(rubric.criteria.map((c) => c.source)).not.toContain(background);
      expect(rubric.criteria.some((c) => c.description.includes(background.replace(/\.$/, '')))).toBe(false);
    }
  });

  it('reads a labelled background paragraph as background, but not the asks after it', () => {
    const text =
      'Context: our finance team reconciles statements by hand. We want a service that does it automatically.\n\nThe service must ingest CSV files. It must expose a REST API. It must write an audit log. Tests are expected. A README is required. Above all, correctness of matching is crucial.';
    const found = findRequirementSentences(text).map((r) => r.text);
    expect(found).not.toContain('We want a service that does it automatically.');
    expect(found).toEqual(
      expect.arrayContaining(['Tests are expected.', 'Above all, correctness of matching is crucial.']),
    );
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    // The stated top priority weighs most.
    expect(rubric.criteria[0]?.source).toBe('Above all, correctness of matching is crucial.');
  });

  it('does not split off a wish as an ask of its own ("We would love it if you could also …")', () => {
    const text =
      'We are a small bakery looking for someone to design a new logo and a menu board. The logo has to work in black and white and at small sizes, and the menu board should be readable from three metres away. We would love it if you could also propose a colour palette. The files need to be delivered as SVG and PDF.';
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    expect(rubric.criteria.map((c) => c.name)).not.toContain('Love');
    expect(rubric.criteria.some((c) => /colour palette/i.test(c.name))).toBe(true);
  });
});

describe('prohibitions', () => {
  it('recognises prohibitions, and not out-of-scope notes', () => {
    for (const t of [
      'Must not use paid tools',
      'Do not use jQuery.',
      "Don't commit secrets.",
      'Never store passwords in plain text.',
      'Avoid hard-coded file paths.',
      'No external libraries are allowed.',
      'Candidates may not use ChatGPT.',
      'पासवर्ड सादे टेक्स्ट में नहीं होना चाहिए।',
      'No plagiarism.',
      'No plagiarism: we run every draft through a checker.',
      'No paid APIs!',
      '- No copied code',
    ])
      expect(isProhibition(t), t).toBe(true);
    for (const t of [
      'You do not need to deploy it.',
      'Must use TypeScript.',
      'Login is not required.',
      'No experience is needed.',
      'No need to deploy it.',
      'No problem if you use Python.',
      'No one will read the code.',
    ])
      expect(isProhibition(t), t).toBe(false);
    // A bare "No …" is a requirement of its own, at must strength.
    expect(findRequirementSentences('Write the essay. No plagiarism.')).toContainEqual({
      text: 'No plagiarism.',
      strength: 'must',
    });
  });

  it('says what is forbidden as something to avoid', () => {
    expect(forbiddenThing('Must not use paid tools')).toBe('using paid tools');
    expect(forbiddenThing('Must not store full card numbers (PCI DSS).')).toBe(
      'storing full card numbers (PCI DSS)',
    );
    expect(forbiddenThing('Never commit credentials.')).toBe('committing credentials');
    expect(forbiddenThing('No external libraries are allowed.')).toBe('external libraries');
    expect(forbiddenThing('Avoid hard-coded file paths.')).toBe('hard-coded file paths');
    // What follows a colon or a dash is the reason, unless it lists the forbidden things.
    expect(forbiddenThing('No plagiarism: we run every draft through a checker.')).toBe('plagiarism');
    expect(forbiddenThing('Never commit secrets — use environment variables.')).toBe('committing secrets');
    expect(forbiddenThing('Do not use: jQuery, lodash.')).toBe('using jQuery, lodash');
  });

  it('grades a prohibition on compliance: level 5 is the forbidden thing kept out', () => {
    const text =
      'Data analyst take-home\n\nRequirements:\n- Must clean the provided CSV and document every dropped row\n- Must produce at least 5 charts with labelled axes\n- Must not use paid tools\n- Never commit credentials to the repository\n- Must submit within 5 days';
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    for (const source of ['Must not use paid tools', 'Never commit credentials to the repository']) {
      const c = rubric.criteria.find((x) => x.source === source);
      expect(c, source).toBeDefined();
      expect(c?.name).toMatch(/^Avoids /);
      expect(c?.levels[0]?.descriptor).toMatch(/does not avoid/);
      expect(c?.levels[4]?.descriptor).toMatch(/avoids .* entirely/);
      for (const l of c?.levels ?? []) expect(l.descriptor).not.toMatch(/addresses/);
    }
    // Logistics are not graded.
    expect(rubric.criteria.map((c) => c.source)).not.toContain('Must submit within 5 days');
  });

  it('never merges a prohibition into a criterion that rewards presence', () => {
    const text = [
      'The service must ingest CSV files.',
      'It must expose a REST API.',
      'It must write an audit log.',
      'It must process 100,000 lines in under 60 seconds.',
      'It must be idempotent.',
      'Must not store full card numbers.',
      'It should have a web UI.',
      'It should export Prometheus metrics.',
      'It should be containerised.',
      'Write unit tests.',
      'Provide a README.',
    ].join(' ');
    const rubric = extractRubric(text);
    expectValid(rubric, text);
    const holder = rubric.criteria.find((c) => c.description.includes('Must not store full card numbers'));
    expect(holder?.name).toMatch(/^Avoids /);
  });
});

const reconciliation = `# Senior backend take-home: Payments reconciliation service

Context: our finance team reconciles bank statements against internal ledger entries by hand every morning. We want a service that does it automatically.

## Functional requirements
1. The service must ingest bank statements in CSV and MT940 formats.
2. It must match statement lines to ledger entries by amount, date (±2 days) and reference.
3. Unmatched items must be listed in a daily exception report.
4. It should expose a REST API to query matches and exceptions.
5. Partial matches (split payments) should be supported.

## Non-functional requirements
- Must process 100,000 lines in under 60 seconds.
- Must be idempotent: re-importing the same statement creates no duplicates.
- Should log every matching decision for audit.
- Must not store full card numbers (PCI DSS).

## Engineering
- Write unit and integration tests; coverage above 80% is expected.
- Provide a Dockerfile and a docker-compose setup.
- Include a README with setup steps and design decisions.
- Use either PostgreSQL or SQLite.

## Nice to have
- A minimal web UI for the exception report.
- Prometheus metrics.

Above all, correctness of matching is crucial.`;

describe('the brief’s top priority in a long brief', () => {
  const clinic = `Clinic booking app

Requirements:
- Patients must book a slot online.
- The app must send SMS reminders the day before.
- Staff should export the day's bookings as CSV.
- Write automated tests.
- Deploy it with Docker.
- Provide a README.
- Use TypeScript.
- A dark theme would be nice to have.
- Never store card data.

Most importantly, reminders must reach patients reliably.`;

  for (const [name, text, core] of [
    [
      'reconciliation',
      reconciliation,
      'It must match statement lines to ledger entries by amount, date (±2 days) and reference.',
    ],
    ['clinic', clinic, 'The app must send SMS reminders the day before.'],
  ] as const) {
    it(`weighs the ask stated "above all" highest, as a criterion of its own (${name})`, () => {
      const rubric = extractRubric(text);
      expectValid(rubric, text);
      const top = rubric.criteria[0];
      expect(top?.source).toBe(core);
      expect(top?.weight).toBeGreaterThan(rubric.criteria[1]?.weight ?? 100);
      expect(top?.description).toMatch(/Above all|Most importantly/);
      // The prohibition keeps its own criterion, and no theme name covers a heavier unrelated ask.
      expect(rubric.criteria.some((c) => c.name.startsWith('Avoids '))).toBe(true);
      const docs = rubric.criteria.find((c) => c.name === 'Documentation');
      if (docs) expect(docs.description).not.toMatch(/Must process|idempotent/);
    });
  }
});

describe('levels carry the ask itself (long briefs, black-box finding)', () => {
  it('quotes an unthemed ask with its figures in every level, not a noun phrase cut from it', () => {
    const rubric = extractRubric(reconciliation);
    expectValid(rubric, reconciliation);
    const perf = rubric.criteria.find((c) => c.source === 'Must process 100,000 lines in under 60 seconds.');
    expect(perf).toBeDefined();
    for (const level of perf?.levels ?? [])
      expect(level.descriptor).toContain('the requirement to process 100,000 lines in under 60 seconds');
    const matching = rubric.criteria[0];
    expect(matching?.levels[3]?.descriptor).toBe(
      'The work fully addresses the requirement to match statement lines to ledger entries by amount, date (±2 days) and reference, with only minor gaps.',
    );
    // Before: "the match statement lines", a verb read as a noun.
    for (const c of rubric.criteria)
      for (const l of c.levels) expect(l.descriptor).not.toMatch(/the (?:match|process|ingest) /);
  });

  it('names an ask with a subject of its own as a clause, and says when the criterion holds more asks', () => {
    const text = [
      'Build a reconciliation service.',
      'Unmatched items must be listed in a daily exception report.',
      'It should expose a REST API to query the exceptions.',
      'The code must be deployed with Docker.',
      'Tests must cover the matching rules.',
    ].join(' ');
    const rubric = extractRubric(text);
    const report = rubric.criteria.find((c) => c.source.startsWith('Unmatched items'));
    expect(report?.levels[0]?.descriptor).toMatch(
      /^The work does not address the requirement that unmatched items must be listed in a daily exception report/,
    );
  });

  it('puts monitoring asks such as Prometheus metrics under deployment, not visual design', () => {
    const rubric = extractRubric(reconciliation);
    const prometheus = rubric.criteria.find((c) => c.description.includes('Prometheus metrics'));
    expect(prometheus?.name).toBe('Deployment & operations');
  });
});
