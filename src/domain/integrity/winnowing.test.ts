import { describe, expect, it } from 'vitest';
import {
  INDEPENDENT_TS,
  ORIGINAL_PY,
  ORIGINAL_TS,
  RENAMED_PY,
  RENAMED_TS,
  STARTER_TS,
} from './fixtures/code';
import {
  BRIEF_QUOTE,
  BRIEF_TEXT,
  EDITED_COPY,
  INDEPENDENT_ESSAY,
  ORIGINAL_ESSAY,
  UNRELATED_ESSAYS,
} from './fixtures/prose';
import {
  CODE_K,
  CODE_W,
  type FingerprintMatch,
  fingerprintSubmission,
  fingerprints,
  GUARANTEE_CODE_TOKENS,
  GUARANTEE_PROSE_CHARS,
  ignoreSetFor,
  normaliseCode,
  normaliseProse,
  PROSE_K,
  PROSE_W,
  plagiarismRisk,
  plagiarismSignal,
  type SubmissionMaterial,
} from './winnowing';

/** mulberry32: a tiny seeded PRNG, so "random" texts are the same on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function randomWord(rand: () => number): string {
  const length = 2 + Math.floor(rand() * 8);
  let word = '';
  for (let i = 0; i < length; i++) word += pick(rand, [...LETTERS]);
  return word;
}

/** Random prose-like text: words with occasional punctuation and capitals. */
function randomProse(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    let word = randomWord(rand);
    if (rand() < 0.1) word = word[0]!.toUpperCase() + word.slice(1);
    if (rand() < 0.08) word += pick(rand, [',', '.', ';', ' —']);
    out.push(word);
  }
  return out.join(' ');
}

/** A run of exactly `length` normalised characters, starting and ending with a letter. */
function randomRun(rand: () => number, length: number): string {
  let run = '';
  while (run.length < length) run += `${randomWord(rand)} `;
  run = run.slice(0, length);
  if (run.endsWith(' ')) run = `${run.slice(0, -1)}x`;
  return run;
}

/** Stored submissions as a fingerprint index, as the D1 table would answer for them. */
function indexOf(corpus: Record<string, SubmissionMaterial>): Map<number, FingerprintMatch[]> {
  const index = new Map<number, FingerprintMatch[]>();
  for (const [ref, material] of Object.entries(corpus)) {
    for (const fp of fingerprintSubmission(material)) {
      const list = index.get(fp.hash) ?? [];
      list.push({ ref, position: fp.position });
      index.set(fp.hash, list);
    }
  }
  return index;
}

const commonHashes = (a: readonly { hash: number }[], b: readonly { hash: number }[]) => {
  const hashes = new Set(a.map((f) => f.hash));
  return b.filter((f) => hashes.has(f.hash));
};

const PROSE_CORPUS = indexOf({
  'ref-original': { text: ORIGINAL_ESSAY },
  'ref-ledger': { text: UNRELATED_ESSAYS[0]! },
  'ref-bread': { text: UNRELATED_ESSAYS[1]! },
});

const CODE_CORPUS = indexOf({
  'ref-cache': { files: [{ path: 'src/cache.ts', content: ORIGINAL_TS }] },
  'ref-stats': { files: [{ path: 'stats/rolling.py', content: ORIGINAL_PY }] },
  'ref-essay': { text: ORIGINAL_ESSAY },
});

describe('parameters', () => {
  it('documents the guarantee threshold t = w + k − 1', () => {
    expect(GUARANTEE_PROSE_CHARS).toBe(PROSE_W + PROSE_K - 1);
    expect(GUARANTEE_PROSE_CHARS).toBe(40);
    expect(GUARANTEE_CODE_TOKENS).toBe(CODE_W + CODE_K - 1);
    expect(GUARANTEE_CODE_TOKENS).toBeGreaterThanOrEqual(12);
    expect(GUARANTEE_CODE_TOKENS).toBeLessThanOrEqual(16);
  });
});

describe('normaliseProse', () => {
  it('lower-cases, applies NFKC, strips punctuation and collapses whitespace', () => {
    expect(normaliseProse('  The ﬁrst   STEP—isn’t it?\n\nWell-known. ').text).toBe(
      'the first step isnt it well known',
    );
  });

  it('composes combining marks and maps every character back to the original', () => {
    const original = 'Cafe\u0301, RÉSUMÉ!';
    const { text, start, end } = normaliseProse(original);
    expect(text).toBe('café résumé');
    expect(start).toHaveLength(text.length);
    expect(end).toHaveLength(text.length);
    // "é" of café comes from "e" + U+0301: two original code units.
    expect(original.slice(start[3]!, end[3]!)).toBe('e\u0301');
    expect(original.slice(start[5]!, end[10]!)).toBe('RÉSUMÉ');
  });

  it('returns empty output for text without words', () => {
    expect(normaliseProse(' ... — !! ')).toEqual({ text: '', start: [], end: [] });
  });
});

describe('normaliseCode', () => {
  it('masks identifiers, numbers and strings and drops comments and whitespace', () => {
    const { units } = normaliseCode(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test holds a template literal
      'const total = price * 1.5e3; // tax\n/* block */ return `sum ${total}` + "x" === \'y\';',
      'a.ts',
    );
    expect(units).toEqual([
      'const',
      'v',
      '=',
      'v',
      '*',
      '0',
      ';',
      'return',
      '"s"',
      '+',
      '"s"',
      '===',
      '"s"',
      ';',
    ]);
  });

  it('uses the comment syntax of the file type', () => {
    expect(normaliseCode('half = n // 2  # floor division', 'm.py').units).toEqual([
      'v',
      '=',
      'v',
      '//',
      '0',
    ]);
    expect(normaliseCode('x = 1 # not a comment in C', 'm.c').units.slice(0, 4)).toEqual([
      'v',
      '=',
      '0',
      '#',
    ]);
  });

  it('treats an unterminated quote as punctuation (Rust lifetimes, apostrophes)', () => {
    expect(normaliseCode("fn f<'a>(x: &'a str) {}", 'lib.rs').units).toEqual([
      'fn',
      'v',
      '<',
      "'",
      'v',
      '>',
      '(',
      'v',
      ':',
      '&',
      "'",
      'v',
      'v',
      ')',
      '{',
      '}',
    ]);
    expect(normaliseCode("let c = '\\n'; let d = 'x';", 'lib.rs').units).toEqual([
      'let',
      'v',
      '=',
      '"s"',
      ';',
      'let',
      'v',
      '=',
      '"s"',
      ';',
    ]);
  });

  it('reports each token at its place in the source', () => {
    const source = 'if (count > 10) {\n  return "many";\n}';
    const { units, start, end } = normaliseCode(source, 'x.js');
    const i = units.indexOf('"s"');
    expect(source.slice(start[i]!, end[i]!)).toBe('"many"');
  });
});

describe('fingerprints', () => {
  it('produces non-negative integer hashes below 2^52', () => {
    for (const fp of [
      ...fingerprints(ORIGINAL_ESSAY, 'prose'),
      ...fingerprints(ORIGINAL_TS, 'code', 'a.ts'),
    ]) {
      expect(Number.isSafeInteger(fp.hash)).toBe(true);
      expect(fp.hash).toBeGreaterThanOrEqual(0);
      expect(fp.hash).toBeLessThan(2 ** 52);
    }
  });

  it('selects about 2 / (w + 1) of the k-grams, each position once, in order', () => {
    const fps = fingerprints(ORIGINAL_ESSAY, 'prose');
    const kgrams = normaliseProse(ORIGINAL_ESSAY).text.length - PROSE_K + 1;
    const density = fps.length / kgrams;
    expect(density).toBeGreaterThan(1.5 / (PROSE_W + 1));
    expect(density).toBeLessThan(2.5 / (PROSE_W + 1));
    const positions = fps.map((f) => f.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // No window of w k-grams is left without a selection.
    for (let i = 1; i < positions.length; i++)
      expect(positions[i]! - positions[i - 1]!).toBeLessThanOrEqual(PROSE_W);
  });

  it('has no fingerprint below k units and at least one from k units on', () => {
    expect(fingerprints('a'.repeat(PROSE_K - 1), 'prose')).toEqual([]);
    expect(fingerprints('abcdefghij klmnopqrstu', 'prose').length).toBeGreaterThanOrEqual(1);
    expect(fingerprints('', 'code')).toEqual([]);
  });

  it('is pinned: stored fingerprints stay comparable across releases', () => {
    // Changing k, w, normalisation or the hash changes these values and silently breaks
    // matching against every stored fingerprint; re-fingerprint the corpus if it must change.
    expect(fingerprints('The quick brown fox jumps over the lazy dog.', 'prose')).toEqual([
      { hash: 157087067168774, position: 2, start: 2, end: 22 },
      { hash: 216652869304738, position: 11, start: 11, end: 31 },
    ]);
    expect(fingerprints('for (let i = 0; i < n; i++) { total += xs[i]; }', 'code', 'a.ts')).toEqual([
      { hash: 1948176753192636, position: 2, start: 5, end: 22 },
      { hash: 397775586688507, position: 7, start: 16, end: 35 },
      { hash: 467635221749537, position: 9, start: 20, end: 41 },
    ]);
  });

  it('is deterministic', () => {
    const material = { text: EDITED_COPY, files: [{ path: 'src/cache.ts', content: RENAMED_TS }] };
    expect(fingerprintSubmission(material)).toEqual(fingerprintSubmission(material));
  });
});

describe('guarantee', () => {
  it(`matches any shared run of ${GUARANTEE_PROSE_CHARS} normalised characters in unrelated texts`, () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = prng(seed);
      const run = randomRun(rand, GUARANTEE_PROSE_CHARS);
      // The second copy is dressed differently: capitals and punctuation normalise away.
      const dressed = run
        .split(' ')
        .map((w, i) => (i % 2 === 0 ? w.toUpperCase() : `${w},`))
        .join(' ')
        .replace(/,$/, '');
      // Digits either side differ between the texts, so the shared run is exactly `run`.
      const a = `${randomProse(rand, 60 + (seed % 50))} 1${run}2 ${randomProse(rand, 80)}`;
      const b = `${randomProse(rand, 30 + (seed % 70))} 3${dressed}4 ${randomProse(rand, 60)}`;
      expect(normaliseProse(a).text).toContain(`1${run}2`);
      expect(normaliseProse(b).text).toContain(`3${run}4`);
      expect(
        commonHashes(fingerprints(a, 'prose'), fingerprints(b, 'prose')).length,
        `seed ${seed}`,
      ).toBeGreaterThan(0);
    }
  });

  it(`never matches a shared run shorter than the noise threshold k = ${PROSE_K}`, () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rand = prng(seed + 10_000);
      const run = randomRun(rand, PROSE_K - 1);
      const a = `${randomProse(rand, 60)} 1${run}2 ${randomProse(rand, 60)}`;
      const b = `${randomProse(rand, 60)} 3${run}4 ${randomProse(rand, 60)}`;
      expect(commonHashes(fingerprints(a, 'prose'), fingerprints(b, 'prose'))).toEqual([]);
    }
  });

  it(`matches any shared run of ${GUARANTEE_CODE_TOKENS} code tokens, whatever the names and layout`, () => {
    const keywords = ['if', 'for', 'return', 'while', 'const', 'let', 'new', 'this', 'else', 'in'];
    const operators = ['+', '-', '*', '(', ')', '{', '}', ';', '=', '<', '>', '.', ',', '[', ']', '!'];
    const snakeName = (r: () => number) => `q_${randomWord(r)}`;
    const camelName = (r: () => number) => `z${randomWord(r).toUpperCase()}`;
    const token = (rand: () => number) => {
      const roll = rand();
      if (roll < 0.3) return pick(rand, keywords);
      if (roll < 0.6) return snakeName(rand);
      if (roll < 0.7) return String(Math.floor(rand() * 1000));
      return pick(rand, operators);
    };
    const stream = (rand: () => number, n: number) => Array.from({ length: n }, () => token(rand));

    for (let seed = 1; seed <= 200; seed++) {
      const rand = prng(seed * 7919);
      // The same token classes in both copies; identifiers get different names, numbers different values.
      const runA: string[] = [];
      const runB: string[] = [];
      for (let i = 0; i < GUARANTEE_CODE_TOKENS; i++) {
        const roll = rand();
        if (roll < 0.6) {
          const word = roll < 0.3 ? pick(rand, keywords) : pick(rand, operators);
          runA.push(word);
          runB.push(word);
        } else if (roll < 0.9) {
          runA.push(snakeName(rand));
          runB.push(camelName(rand));
        } else {
          runA.push('7');
          runB.push('0x1F');
        }
      }
      const a = `${stream(rand, 80).join(' ')} yield ${runA.join(' ')} goto ${stream(rand, 50).join(' ')}`;
      const b = `${stream(rand, 40).join(' ')}\nasync /* note */ ${runB.join('\n  ')} // trailing\n defer ${stream(rand, 90).join(' ')}`;
      expect(
        commonHashes(fingerprints(a, 'code', 'a.ts'), fingerprints(b, 'code', 'b.ts')).length,
        `seed ${seed}`,
      ).toBeGreaterThan(0);
    }
  });
});

describe('plagiarismSignal — prose', () => {
  it('gives a lightly edited copy of a stored text a high risk', () => {
    const signal = plagiarismSignal(fingerprintSubmission({ text: EDITED_COPY }), PROSE_CORPUS);
    expect(signal.risk).toBeGreaterThanOrEqual(0.6);
    expect(signal.evidence.overlapShare).toBeGreaterThan(0.5);
    expect(signal.evidence.topSources[0]?.sourceRef).toBe('ref-original');
    expect(new Set(signal.evidence.matchedSpans.map((s) => s.sourceRef))).toEqual(new Set(['ref-original']));
  });

  it('gives an independent text on the same topic a low risk', () => {
    const ignore = ignoreSetFor({ text: BRIEF_TEXT });
    const signal = plagiarismSignal(fingerprintSubmission({ text: INDEPENDENT_ESSAY }), PROSE_CORPUS, {
      ignore,
    });
    expect(signal.risk).toBeLessThanOrEqual(0.15);
    expect(signal.evidence.overlapShare).toBeLessThan(0.05);
  });

  it('does not count hashes of the brief both texts quote', () => {
    const own = fingerprintSubmission({ text: INDEPENDENT_ESSAY });
    const unfiltered = plagiarismSignal(own, PROSE_CORPUS);
    const quoted = unfiltered.evidence.matchedSpans.filter((s) =>
      normaliseProse(INDEPENDENT_ESSAY.slice(s.start, s.end)).text.includes('residential neighbourhoods'),
    );
    expect(quoted.length).toBeGreaterThan(0);

    const filtered = plagiarismSignal(own, PROSE_CORPUS, { ignore: ignoreSetFor({ text: BRIEF_TEXT }) });
    expect(filtered.evidence.matchedCount).toBeLessThan(unfiltered.evidence.matchedCount);
    expect(filtered.evidence.fingerprintCount).toBeLessThan(unfiltered.evidence.fingerprintCount);
    expect(
      filtered.evidence.matchedSpans.map((s) => INDEPENDENT_ESSAY.slice(s.start, s.end)).join(' '),
    ).not.toContain('residential neighbourhoods');
    expect(filtered.evidence.overlapShare).toBe(0);
  });

  it('reports matched spans in the coordinates of the original submission text', () => {
    const copied = ORIGINAL_ESSAY.slice(
      ORIGINAL_ESSAY.indexOf('What would I do?'),
      ORIGINAL_ESSAY.indexOf('Next,'),
    );
    const disguised = copied.toUpperCase().replace(/,/g, ';');
    const rand = prng(42);
    const text = `${randomProse(rand, 120)}\n\n${disguised}\n\n${randomProse(rand, 120)}`;
    const signal = plagiarismSignal(fingerprintSubmission({ text }), PROSE_CORPUS);
    const spans = signal.evidence.matchedSpans;
    expect(spans.length).toBeGreaterThan(0);
    const covered = spans.map((s) => text.slice(s.start, s.end)).join(' ');
    expect(covered).toContain('PRICE INCENTIVES HAVE WORKED IN OTHER CITIES');
    expect(covered).toContain('A FREE COFFEE');
    for (const span of spans) {
      expect(span.file).toBeUndefined();
      expect(span.start).toBeGreaterThanOrEqual(text.indexOf(disguised) - 1);
      expect(span.end).toBeLessThanOrEqual(text.indexOf(disguised) + disguised.length + 1);
      expect(span.sourceRef).toBe('ref-original');
      expect(span.sourceStart).toBeGreaterThanOrEqual(0);
    }
  });

  it('maps every span of the edited copy to text that also occurs in the original', () => {
    const original = normaliseProse(ORIGINAL_ESSAY).text;
    const signal = plagiarismSignal(fingerprintSubmission({ text: EDITED_COPY }), PROSE_CORPUS);
    for (const span of signal.evidence.matchedSpans) {
      const text = normaliseProse(EDITED_COPY.slice(span.start, span.end)).text;
      expect(text.length).toBeGreaterThanOrEqual(PROSE_K - 1);
      expect(original).toContain(text.slice(0, PROSE_K - 1));
      expect(original).toContain(text.slice(-(PROSE_K - 1)));
    }
  });
});

describe('plagiarismSignal — code', () => {
  it('catches a copy with renamed identifiers and changed whitespace and comments', () => {
    const signal = plagiarismSignal(
      fingerprintSubmission({ files: [{ path: 'lib/timed-cache.ts', content: RENAMED_TS }] }),
      CODE_CORPUS,
    );
    expect(signal.risk).toBeGreaterThanOrEqual(0.6);
    expect(signal.evidence.topSources[0]?.sourceRef).toBe('ref-cache');
    const longest = [...signal.evidence.matchedSpans].sort((a, b) => b.end - b.start - (a.end - a.start))[0]!;
    expect(longest.file).toBe('lib/timed-cache.ts');
    expect(RENAMED_TS.slice(longest.start, longest.end)).toContain('this.store.delete(k)');
  });

  it('catches a renamed Python copy despite # comments and // floor division', () => {
    const signal = plagiarismSignal(
      fingerprintSubmission({ files: [{ path: 'window.py', content: RENAMED_PY }] }),
      CODE_CORPUS,
    );
    expect(signal.risk).toBeGreaterThanOrEqual(0.6);
  });

  it('gives an independent implementation of the same task a low risk', () => {
    const signal = plagiarismSignal(
      fingerprintSubmission({ files: [{ path: 'cache.ts', content: INDEPENDENT_TS }] }),
      CODE_CORPUS,
    );
    expect(signal.risk).toBeLessThanOrEqual(0.15);
  });

  it('ignores starter code every candidate was given', () => {
    const starter = { path: 'src/cache.d.ts', content: STARTER_TS };
    const corpus = indexOf({
      'ref-other': { files: [starter, { path: 'src/cache.ts', content: INDEPENDENT_TS }] },
    });
    const own = fingerprintSubmission({ files: [starter, { path: 'src/cache.ts', content: ORIGINAL_TS }] });
    expect(plagiarismSignal(own, corpus).evidence.matchedCount).toBeGreaterThan(0);
    const ignored = plagiarismSignal(own, corpus, { ignore: ignoreSetFor({ files: [starter] }) });
    expect(ignored.evidence.matchedSpans.filter((s) => s.file === 'src/cache.d.ts')).toEqual([]);
    expect(ignored.risk).toBe(0);
  });
});

describe('fingerprintSubmission', () => {
  it('routes markdown and text files to prose and numbers positions across the submission', () => {
    const fps = fingerprintSubmission({
      text: BRIEF_QUOTE,
      files: [
        { path: 'REPORT.md', content: ORIGINAL_ESSAY },
        { path: 'src/cache.ts', content: ORIGINAL_TS },
      ],
    });
    expect(new Set(fps.filter((f) => f.file === undefined).map((f) => f.kind))).toEqual(new Set(['prose']));
    expect(new Set(fps.filter((f) => f.file === 'REPORT.md').map((f) => f.kind))).toEqual(new Set(['prose']));
    expect(new Set(fps.filter((f) => f.file === 'src/cache.ts').map((f) => f.kind))).toEqual(
      new Set(['code']),
    );
    const positions = fps.map((f) => f.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('finds a report copied into a markdown file', () => {
    const signal = plagiarismSignal(
      fingerprintSubmission({ files: [{ path: 'docs/report.md', content: EDITED_COPY }] }),
      PROSE_CORPUS,
    );
    expect(signal.risk).toBeGreaterThanOrEqual(0.6);
    expect(signal.evidence.matchedSpans.every((s) => s.file === 'docs/report.md')).toBe(true);
  });
});

describe('plagiarismRisk', () => {
  it('is 0 up to 5 % overlap, linear, and 1 from 50 %', () => {
    expect(plagiarismRisk(0)).toBe(0);
    expect(plagiarismRisk(0.05)).toBe(0);
    expect(plagiarismRisk(0.275)).toBeCloseTo(0.5);
    expect(plagiarismRisk(0.5)).toBe(1);
    expect(plagiarismRisk(0.9)).toBe(1);
    expect(plagiarismRisk(Number.NaN)).toBe(0);
  });

  it('is 0 with nothing to compare', () => {
    expect(plagiarismSignal([], new Map()).risk).toBe(0);
    expect(plagiarismSignal(fingerprints(ORIGINAL_ESSAY, 'prose'), new Map()).evidence.overlapShare).toBe(0);
  });
});
