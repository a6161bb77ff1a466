/**
 * Black-box findings on the integrity check (2026-11): code pasted into `text` or sent as a
 * `.txt` file is compared with stored code, prose is not read as code, and the AI-content
 * estimate reads every file the plagiarism routing reads as prose.
 */
import { describe, expect, it } from 'vitest';
import {
  INDEPENDENT_TS,
  ORIGINAL_PY,
  ORIGINAL_TS,
  RENAMED_PY,
  RENAMED_TS,
} from '../src/domain/integrity/fixtures/code';
import {
  EDITED_COPY,
  INDEPENDENT_ESSAY,
  ORIGINAL_ESSAY,
  PLAIN_ENGLISH_ESSAY,
  TEMPLATED_TEXT,
  UNRELATED_ESSAYS,
} from '../src/domain/integrity/fixtures/prose';
import {
  codeReadingOf,
  type Fingerprint,
  looksLikeCode,
  PROSE_EXTENSIONS,
  type SubmissionMaterial,
} from '../src/domain/integrity/winnowing';
import type { CorpusRow, FingerprintCorpus } from '../src/services/corpus';
import { checkIntegrity, fingerprintsToStore } from '../src/services/integrity';
import { localEngine } from '../src/services/pillars/local-engine';

/** The corpus in memory: enough for `findMatches`. */
class MemoryCorpus implements FingerprintCorpus {
  rows: CorpusRow[] = [];
  async store(submissionId: string, candidateId: string, prints: Fingerprint[]) {
    for (const p of prints) this.rows.push({ hash: p.hash, submissionId, candidateId, position: p.position });
    return prints.length;
  }
  async lookup(hashes: number[]) {
    const wanted = new Set(hashes);
    const rows = this.rows.filter((r) => wanted.has(r.hash));
    return { rows, rowsRead: rows.length };
  }
  async deleteSubmissions() {
    return 0;
  }
}

async function corpusOf(...stored: SubmissionMaterial[]): Promise<MemoryCorpus> {
  const corpus = new MemoryCorpus();
  for (const [i, material] of stored.entries())
    await corpus.store(`s${i}`, `candidate-${i}`, fingerprintsToStore(material));
  return corpus;
}

const overlap = async (corpus: FingerprintCorpus, material: SubmissionMaterial) =>
  (await checkIntegrity(corpus, localEngine, material)).signals.plagiarism.evidence.overlapShare;

describe('code pasted as prose', () => {
  it('recognises code, and not prose or markdown', () => {
    for (const code of [ORIGINAL_TS, RENAMED_TS, INDEPENDENT_TS, ORIGINAL_PY, RENAMED_PY])
      expect(looksLikeCode(code)).toBe(true);
    for (const prose of [
      ORIGINAL_ESSAY,
      EDITED_COPY,
      INDEPENDENT_ESSAY,
      PLAIN_ENGLISH_ESSAY,
      TEMPLATED_TEXT,
      ...UNRELATED_ESSAYS,
    ])
      expect(looksLikeCode(prose)).toBe(false);
    const readme =
      '# Setup\n\nInstall the tools first.\n\n- Run npm install.\n- Copy .env.example to .env (see below).\n- Start the server with npm run dev.\n\nThe API listens on port 8787; set PORT = 9000 in .env to change it.\n\nThat is all.';
    expect(looksLikeCode(readme)).toBe(false);
    expect(codeReadingOf({ text: ORIGINAL_ESSAY })).toBeNull();
  });

  for (const [name, stored, pasted] of [
    ['Python', { files: [{ path: 'analysis.py', content: ORIGINAL_PY }] }, ORIGINAL_PY],
    ['TypeScript', { files: [{ path: 'cache.ts', content: ORIGINAL_TS }] }, ORIGINAL_TS],
    ['renamed TypeScript', { files: [{ path: 'cache.ts', content: ORIGINAL_TS }] }, RENAMED_TS],
  ] as const) {
    it(`matches ${name} pasted into text or a .txt file against the stored code file`, async () => {
      const corpus = await corpusOf(stored);
      const asFile = await overlap(corpus, stored);
      expect(asFile).toBeGreaterThan(0.5);
      expect(await overlap(corpus, { text: pasted })).toBeGreaterThan(0.5);
      expect(await overlap(corpus, { files: [{ path: 'solution.txt', content: pasted }] })).toBeGreaterThan(
        0.5,
      );
      const report = await checkIntegrity(corpus, localEngine, { text: pasted });
      expect(report.verdict).toBe('flagged');
    });
  }

  it('matches code stored from a text box against the same code handed in as a file', async () => {
    const corpus = await corpusOf({ text: ORIGINAL_PY });
    expect(await overlap(corpus, { files: [{ path: 'stats.py', content: ORIGINAL_PY }] })).toBeGreaterThan(
      0.9,
    );
    // The prose reading still meets the prose copy.
    expect(await overlap(corpus, { text: ORIGINAL_PY })).toBeGreaterThan(0.9);
  });

  it('keeps independent code and prose apart as before', async () => {
    const corpus = await corpusOf(
      { files: [{ path: 'cache.ts', content: ORIGINAL_TS }] },
      { text: ORIGINAL_ESSAY },
      { files: [{ path: 'stats.py', content: ORIGINAL_PY }] },
    );
    expect(await overlap(corpus, { text: INDEPENDENT_TS })).toBeLessThan(0.05);
    for (const prose of [INDEPENDENT_ESSAY, PLAIN_ENGLISH_ESSAY, TEMPLATED_TEXT, ...UNRELATED_ESSAYS]) {
      const before = (await checkIntegrity(corpus, localEngine, { text: prose })).signals.plagiarism;
      expect(before.evidence.overlapShare, prose.slice(0, 40)).toBeLessThan(0.05);
      expect(
        (await checkIntegrity(corpus, localEngine, { files: [{ path: 'essay.txt', content: prose }] }))
          .verdict,
      ).not.toBe('flagged');
    }
  });

  it('reports as sources only the submissions the counted reading matched', async () => {
    const corpus = await corpusOf(
      { files: [{ path: 'stats.py', content: ORIGINAL_PY }] },
      { text: ORIGINAL_ESSAY },
    );
    const sources = new Map<string, string>();
    await checkIntegrity(corpus, localEngine, { text: ORIGINAL_PY }, { sources });
    expect([...sources.values()]).toEqual(['s0']);
  });
});

describe('the AI-content estimate reads every prose file', () => {
  const essay = `${ORIGINAL_ESSAY}\n\n${INDEPENDENT_ESSAY}`;

  it('gives the same estimate for an essay under any prose extension', async () => {
    const corpus = new MemoryCorpus();
    const asMd = (
      await checkIntegrity(corpus, localEngine, { files: [{ path: 'essay.md', content: essay }] })
    ).signals.aiContent;
    expect(asMd.evidence.features.wordCount).toBeGreaterThanOrEqual(300);
    for (const extension of PROSE_EXTENSIONS) {
      const out = await checkIntegrity(corpus, localEngine, {
        files: [{ path: `essay.${extension}`, content: essay }],
      });
      expect(out.signals.aiContent, extension).toEqual(asMd);
    }
    for (const extension of ['markdown', 'mdx', 'adoc', 'org', 'text'])
      expect(PROSE_EXTENSIONS.has(extension)).toBe(true);
  });

  it('still leaves code files out of the estimate', async () => {
    const out = await checkIntegrity(new MemoryCorpus(), localEngine, {
      files: [{ path: 'cache.ts', content: ORIGINAL_TS }],
    });
    expect(out.signals.aiContent.evidence.band).toBe('insufficient_text');
  });
});
