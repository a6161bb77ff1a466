/**
 * `node scripts/wink-measure.mjs`: wink-nlp (with wink-eng-lite-web-model) measured against the
 * project's own reader on every evaluation set, as issue 53 asked, for decision 0371. Not part of
 * `npm run eval` and not a dependency: the script installs nothing and says how to install the
 * two packages when they are missing.
 *
 * Three uses are compared, each scored the same way for both readers:
 * - **Sentence boundaries.** The brief cut into units (the reader's `splitSentences`, or wink's
 *   sentences), then read as asks by the same `readAsks`. Scored: expected asks found inside one
 *   ask unit (coverage), ask units holding two or more expected asks (spliced), expected
 *   exclusions found in `outOfScope`, expected exclusions left inside an ask unit (graded).
 * - **Negation.** Exclusions found as wink marks them (a sentence with a negated token, its
 *   first noun chunk after the negation as the excluded thing) against the reader's `readAsks`.
 * - **Noun chunks for names.** Each criterion the engine makes named by wink's first noun chunk
 *   of its source instead, checked by the shared validator (`nameProblem`).
 */
import { readAsks } from '../src/domain/pillars/requirements';
import { extractRubric } from '../src/domain/pillars/rubric-extraction';
import { nameProblem } from '../src/domain/pillars/rubric-quality';
import { splitSentences } from '../src/domain/pillars/text';
import { EVAL_CASES } from './briefs';
import { HELD_OUT_CASES } from './held-out-2026-11-28';
import { HELD_OUT_2026_12_02 } from './held-out-2026-12-02';

type Brief = { text: string; domain?: string; asks: string[]; outOfScope: string[] };
type Nlp = {
  readDoc(text: string): WinkDoc;
  its: Record<string, unknown>;
  learnCustomEntities(defs: { name: string; patterns: string[] }[]): void;
};
type WinkItems = { out(as?: unknown): unknown[]; each(f: (x: WinkItem) => void): void };
type WinkItem = { out(as?: unknown): string; tokens(): WinkItems; customEntities(): WinkItems };
type WinkDoc = { sentences(): WinkItems };

export function measure(nlp: Nlp) {
  nlp.learnCustomEntities([
    { name: 'np', patterns: ['[|DET] [|NUM] [|ADJ] [|NOUN|PROPN] [|NOUN|PROPN] [NOUN|PROPN]'] },
  ]);
  const its = nlp.its;
  const sets: [string, Brief[]][] = [
    ['tuning', EVAL_CASES.map((c) => ({ ...c.rubric, outOfScope: c.rubric.outOfScope ?? [] }))],
    ['held-out 2026-11-28', HELD_OUT_CASES.map((c) => ({ ...c.rubric }))],
    ['held-out 2026-12-02', HELD_OUT_2026_12_02.map((c) => ({ ...c.rubric }))],
  ];
  const has = (a: string, b: string) => a.toLowerCase().includes(b.toLowerCase());
  const rows: string[] = [];
  for (const [name, briefs] of sets) {
    const score = { reader: zero(), wink: zero(), 'reader+wink': zero() };
    let negFound = 0;
    let negFalse = 0;
    let readerNegFalse = 0;
    let exclusions = 0;
    let names = 0;
    let readerRefused = 0;
    let winkRefused = 0;
    let winkNone = 0;
    const started = { reader: 0, wink: 0 };
    for (const b of briefs) {
      let t = performance.now();
      const readerUnits = splitSentences(b.text);
      started.reader += performance.now() - t;
      t = performance.now();
      const doc = nlp.readDoc(b.text);
      const sentences: { text: string; negated: boolean; chunks: string[] }[] = [];
      doc.sentences().each((s) => {
        const flags = s.tokens().out(its.negationFlag) as boolean[];
        sentences.push({
          text: s.out(),
          negated: flags.some(Boolean),
          chunks: s.customEntities().out() as string[],
        });
      });
      started.wink += performance.now() - t;
      const winkUnits = sentences.map((s, index) => ({
        text: s.text,
        bullet: false,
        leadIn: null,
        heading: false,
        index,
      }));
      tally(score.reader, readAsks(readerUnits), b);
      tally(score.wink, readAsks(winkUnits), b);
      // The fairer variant: the reader strips the form (chat prefixes, cells, story keywords), wink
      // cuts each of its units into sentences.
      const mixed = readerUnits.flatMap((u) =>
        (nlp.readDoc(u.text).sentences().out() as string[]).map((text) => ({ ...u, text })),
      );
      tally(score['reader+wink'], readAsks(mixed), b);
      // Negation: wink's negated sentences as exclusions, their first noun chunk as the thing.
      exclusions += b.outOfScope.length;
      const winkOut = sentences.filter((s) => s.negated).map((s) => s.chunks[0] ?? s.text);
      for (const x of b.outOfScope) if (winkOut.some((o) => has(o, x))) negFound++;
      negFalse += winkOut.filter((o) => b.asks.some((a) => has(o, a))).length;
      readerNegFalse += readAsks(readerUnits).outOfScope.filter((o) => b.asks.some((a) => has(o, a))).length;
      // Names: the engine's criteria, named by wink's first noun chunk of the source instead.
      const rubric = extractRubric(b.text, b.domain ? { domain: b.domain } : {});
      for (const k of rubric.criteria) {
        names++;
        if (nameProblem(k.name, k.source) !== null) readerRefused++; // the namer's own output passes by construction
        const chunk = (nlp.readDoc(k.source).sentences().out() as string[]).length
          ? (
              (nlp.readDoc(k.source) as unknown as { customEntities(): WinkItems })
                .customEntities()
                .out() as string[]
            )[0]
          : undefined;
        if (!chunk) winkNone++;
        else if (nameProblem(capitalise(chunk), k.source) !== null) winkRefused++;
      }
    }
    const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
    for (const who of ['reader', 'wink', 'reader+wink'] as const) {
      const s = score[who];
      rows.push(
        `${name.padEnd(20)} ${who.padEnd(11)} asks in one unit ${pct(s.covered, s.asks).padStart(7)} (${s.covered}/${s.asks})  spliced units ${String(s.spliced).padStart(3)}  exclusions found ${pct(s.exFound, s.ex).padStart(7)} (${s.exFound}/${s.ex})  exclusions left in an ask ${String(s.exGraded).padStart(3)}  ${who in started ? `${started[who as 'reader' | 'wink'].toFixed(0)} ms` : ''}`,
      );
    }
    rows.push(
      `${name.padEnd(20)} negation: wink finds ${pct(negFound, exclusions)} (${negFound}/${exclusions}) of the exclusions, ${negFalse} of its exclusions hold an ask (reader: ${readerNegFalse})`,
      `${name.padEnd(20)} names: ${names} criteria; refused by the validator: reader ${readerRefused}, wink's first noun chunk ${winkRefused} (+${winkNone} with no chunk)`,
    );
  }
  return rows;
}

function zero() {
  return { asks: 0, covered: 0, spliced: 0, ex: 0, exFound: 0, exGraded: 0 };
}
function tally(s: ReturnType<typeof zero>, read: ReturnType<typeof readAsks>, b: Brief) {
  const has = (a: string, x: string) => a.toLowerCase().includes(x.toLowerCase());
  for (const a of b.asks) {
    s.asks++;
    if (read.asks.some((u) => has(u.text, a))) s.covered++;
  }
  s.spliced += read.asks.filter((u) => b.asks.filter((a) => has(u.text, a)).length >= 2).length;
  for (const x of b.outOfScope) {
    s.ex++;
    if (read.outOfScope.some((o) => has(o, x))) s.exFound++;
    if (read.asks.some((u) => has(u.text, x))) s.exGraded++;
  }
}
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
