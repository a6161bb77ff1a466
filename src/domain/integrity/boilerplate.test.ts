import { describe, expect, it } from 'vitest';
import { boilerplateFilter, KNOWN_LICENCES, knownBoilerplateHashes } from './boilerplate';
import { KNOWN_LICENCE_TEXTS } from './known-licences';
import { AI_FIGURE_MIN_WORDS, aiContentSignal, reportAiContent } from './stylometry';
import {
  type FingerprintMatch,
  fingerprintSubmission,
  ignoreSetFor,
  plagiarismSignal,
  type SubmissionMaterial,
} from './winnowing';

function indexOf(corpus: Record<string, SubmissionMaterial>): Map<number, FingerprintMatch[]> {
  const index = new Map<number, FingerprintMatch[]>();
  for (const [ref, material] of Object.entries(corpus))
    for (const fp of fingerprintSubmission(material)) {
      const list = index.get(fp.hash) ?? [];
      list.push({ ref, position: fp.position });
      index.set(fp.hash, list);
    }
  return index;
}

const MIT = KNOWN_LICENCE_TEXTS.MIT as string;
const mine = `# Rainfall dashboard

A small dashboard that plots monthly rainfall for the districts of Kerala, built over a weekend
with pandas and a hand-rolled SVG chart. Run \`make serve\` and open the page on port 8000.

## License

Copyright (c) 2026 Meera Nair

${MIT}`;
const theirs = `# Inventory sync

Syncs stock levels between the warehouse spreadsheet and the shop every ten minutes, retrying
when the shop's API rate-limits us.

Copyright (c) 2025 Arjun Rao

${MIT}`;

describe('known boilerplate', () => {
  it('bundles the standard licences', () => {
    expect(KNOWN_LICENCES).toEqual(
      expect.arrayContaining([
        'MIT',
        'Apache-2.0',
        'BSD-2-Clause',
        'BSD-3-Clause',
        'GPL-2.0',
        'GPL-3.0',
        'MPL-2.0',
      ]),
    );
    expect(knownBoilerplateHashes().size).toBeGreaterThan(50_000);
  });

  it('does not flag a README that ends in the MIT licence, however small the corpus', () => {
    const corpus = indexOf({ 'ref-theirs': { text: theirs } });
    const own = fingerprintSubmission({ text: mine });
    const before = plagiarismSignal(own, corpus);
    expect(before.risk).toBeGreaterThan(0.25);
    const after = plagiarismSignal(own, corpus, boilerplateFilter());
    expect(after.risk).toBe(0);
    expect(after.evidence.ignoredCount).toBeGreaterThan(after.evidence.matchedCount);
  });

  it('discounts a LICENSE file without an extension (read as code) too', () => {
    const corpus = indexOf({ 'ref-theirs': { files: [{ path: 'LICENSE', content: MIT }] } });
    const own = fingerprintSubmission({ files: [{ path: 'LICENSE', content: MIT }] });
    expect(plagiarismSignal(own, corpus).risk).toBe(1);
    expect(plagiarismSignal(own, corpus, boilerplateFilter()).evidence.matchedCount).toBe(0);
    // Copied code next to the licence stays evidence.
    const code = `export function movingAverage(values: number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    if (i >= window - 1) out.push(sum / window);
  }
  return out;
}`;
    const both = [
      { path: 'LICENSE', content: MIT },
      { path: 'src/average.ts', content: code },
    ];
    const copied = plagiarismSignal(
      fingerprintSubmission({ files: both }),
      indexOf({ 'ref-theirs': { files: both } }),
      boilerplateFilter(),
    );
    expect(copied.risk).toBe(1);
    expect(new Set(copied.evidence.matchedSpans.map((s) => s.file))).toEqual(new Set(['src/average.ts']));
  });

  it('still catches copied code and prose next to a licence', () => {
    const copied = `${theirs.split('Copyright')[0]}`;
    const corpus = indexOf({ 'ref-theirs': { text: theirs } });
    const own = fingerprintSubmission({ text: `${copied}\n\n${MIT}` });
    const signal = plagiarismSignal(own, corpus, boilerplateFilter());
    expect(signal.risk).toBe(1);
    expect(signal.evidence.matchedSpans.length).toBeGreaterThan(0);
  });

  it("ignores the partner's template (MOSS's base file)", () => {
    const starter =
      'Fill in the sections below. Describe the problem, the approach you took and what you would do next.';
    const a = `${starter}\nProblem: our bakery loses phone orders at rush hour.`;
    const b = `${starter}\nCommuters cannot see when the next ferry leaves, so they wait in the rain.`;
    const corpus = indexOf({ 'ref-b': { text: b } });
    const own = fingerprintSubmission({ text: a });
    expect(plagiarismSignal(own, corpus, boilerplateFilter()).risk).toBeGreaterThan(0);
    const withTemplate = plagiarismSignal(own, corpus, boilerplateFilter({ text: starter }));
    expect(withTemplate.risk).toBe(0);
    expect(boilerplateFilter({ text: starter }).ignore[1]).toEqual(ignoreSetFor({ text: starter }));
  });
});

describe('AI-content reporting', () => {
  const sentence = (i: number) =>
    i % 3 === 0
      ? 'Moreover, it is important to note that the solution leverages a robust and scalable architecture.'
      : 'Furthermore, the approach ensures a seamless experience and delivers significant value to stakeholders.';

  it('gives no figure under 300 words', () => {
    const short = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const raw = aiContentSignal(short);
    expect(raw.risk).toBeGreaterThan(0.2);
    const reported = reportAiContent(raw);
    expect(reported.risk).toBe(0);
    expect(reported.evidence.band).toBe('insufficient_text');
    expect(reported.evidence.notes[0]).toContain(`fewer than ${AI_FIGURE_MIN_WORDS}`);
  });

  it('reports a band, not a point, below 20 %', () => {
    const human = Array.from(
      { length: 40 },
      (_, i) =>
        [
          'We ran the survey twice.',
          'The second round, after we fixed the wording of question four, got far fewer blank answers than we feared.',
          "Honestly I didn't expect that.",
          'Three people asked for a paper copy, so we printed some.',
        ][i % 4],
    ).join(' ');
    const raw = aiContentSignal(human);
    expect(raw.risk).toBeLessThan(0.2);
    const reported = reportAiContent(raw);
    expect(reported).toMatchObject({ risk: 0, evidence: { band: 'below_20_percent', soft: true } });
  });

  it('reports the measured figure for long text at or above 20 %', () => {
    const generated = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const raw = aiContentSignal(generated);
    const reported = reportAiContent(raw);
    expect(reported.risk).toBe(raw.risk);
    expect(reported.evidence.band).toBe('measured');
  });
});
