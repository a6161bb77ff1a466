/**
 * `npm run eval`: measures the local engine's pillars on the project's own evaluation set and
 * fails when a figure misses its threshold. The figures are documented in docs/ai-quality.md.
 */
import { boilerplateFilter } from '../src/domain/integrity/boilerplate';
import { combineIntegrity } from '../src/domain/integrity/score';
import { aiContentSignal, reportAiContent } from '../src/domain/integrity/stylometry';
import { vcsHistorySignal } from '../src/domain/integrity/vcs';
import {
  type FingerprintMatch,
  fingerprintSubmission,
  ignoreSetFor,
  plagiarismSignal,
} from '../src/domain/integrity/winnowing';
import { detectField } from '../src/domain/pillars/knowledge/detect';
import { sharedTaskShare } from '../src/domain/pillars/knowledge/specificity';
import { generatePlaybook } from '../src/domain/pillars/playbook';
import { extractRubric } from '../src/domain/pillars/rubric-extraction';
import { rubricProblems } from '../src/domain/pillars/rubric-quality';
import { THEMES } from '../src/domain/pillars/themes';
import { catalogueFor } from '../src/domain/pillars/tutorial-catalogue';
import type { PlaybookBrief } from '../src/domain/pillars/types';
import { EVAL_CASES, type EvalCase } from './briefs';
import { INTEGRITY_CASES } from './integrity';

type Row = { metric: string; value: number; threshold: string; pass: boolean; unit?: '%' | '' };
const rows: Row[] = [];
const record = (
  metric: string,
  value: number,
  ok: (v: number) => boolean,
  threshold: string,
  unit: '%' | '' = '%',
) => rows.push({ metric, value, threshold, pass: ok(value), unit });
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const details: string[] = [];

/** The same brief shape with another brief's content: equal counts of deliverables and criteria, equal duration. */
function shapedLike(other: PlaybookBrief, shape: PlaybookBrief): PlaybookBrief {
  const resize = (items: string[], n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        (i < items.length
          ? items[i]
          : `${items[i % items.length]} (part ${Math.floor(i / items.length) + 1})`) as string,
    );
  return {
    ...other,
    durationDays: shape.durationDays,
    deliverables: resize(other.deliverables, shape.deliverables.length),
    successCriteria: resize(other.successCriteria, shape.successCriteria.length),
  };
}

// --- Pillar 1: playbooks -------------------------------------------------------------
const shares: number[] = [];
let wrongFieldLinks = 0;
let totalLinks = 0;
let fieldHits = 0;
for (const [i, c] of EVAL_CASES.entries()) {
  const playbook = generatePlaybook(c.playbook);
  // The next case from another field is the unrelated brief, reshaped to the same shape.
  const other = [...EVAL_CASES.slice(i + 1), ...EVAL_CASES.slice(0, i)].find(
    (o) => o.field !== c.field,
  ) as EvalCase;
  const twin = shapedLike(other.playbook, c.playbook);
  const share = sharedTaskShare(playbook, c.playbook, generatePlaybook(twin), twin);
  shares.push(share);
  const allowed = new Set(catalogueFor(c.field).map((e) => e.url));
  const links = playbook.milestones.flatMap((m) => m.tutorial_links);
  totalLinks += links.length;
  const wrong = links.filter((l) => !allowed.has(l));
  wrongFieldLinks += wrong.length;
  const detected = detectField(c.playbook).field.key;
  if (detected === c.field) fieldHits++;
  details.push(
    `  ${c.id.padEnd(28)} field ${detected.padEnd(18)} ${detected === c.field ? '  ' : '≠ '}confidence ${playbook.confidence?.padEnd(6)} shared ${pct(share).padStart(7)}  links ${links.length}${wrong.length ? ` (${wrong.length} wrong)` : ''}`,
  );
}
const meanShare = shares.reduce((a, b) => a + b, 0) / shares.length;
const sortedShares = [...shares].sort((a, b) => a - b);
const p90Share = sortedShares[Math.floor(0.9 * (sortedShares.length - 1))] ?? 0;
record(
  'playbook: tasks shared with an unrelated brief of the same shape (mean)',
  meanShare,
  (v) => v < 0.3,
  '< 30 %',
);
record(
  'playbook: tasks shared with an unrelated brief (90th percentile)',
  p90Share,
  (v) => v < 0.3,
  '< 30 %',
);
record('playbook: links from the wrong field', wrongFieldLinks, (v) => v === 0, '= 0', '');
record('playbook: links given (all fields)', totalLinks, (v) => v > 0, '> 0', '');
record('playbook: field recognised as labelled', fieldHits / EVAL_CASES.length, (v) => v >= 0.9, '≥ 90 %');

// --- Pillar 4: rubrics -----------------------------------------------------------------
let asks = 0;
let covered = 0;
let labelled = 0;
let rightLabels = 0;
let ruleBreaks = 0;
const themeByName = new Map(THEMES.map((t) => [t.name, t.key] as const));
const themeByShort = new Map(THEMES.map((t) => [t.short, t.key] as const));
const missedAsks: string[] = [];
const wrongLabels: string[] = [];
for (const c of EVAL_CASES) {
  const rubric = extractRubric(c.rubric.text, c.rubric.domain ? { domain: c.rubric.domain } : {});
  for (const ask of c.rubric.asks) {
    asks++;
    const lower = ask.toLowerCase();
    if (
      rubric.criteria.some(
        (k) => k.source.toLowerCase().includes(lower) || k.description.toLowerCase().includes(lower),
      )
    )
      covered++;
    else missedAsks.push(`${c.id}: ${ask}`);
  }
  for (const k of rubric.criteria) {
    const theme = themeByName.get(k.name) ?? themeByShort.get(k.name.split(':')[0] ?? '');
    if (!theme) continue;
    labelled++;
    if (c.rubric.themes.includes(theme)) rightLabels++;
    else wrongLabels.push(`${c.id}: "${k.name}" on "${k.source}"`);
  }
  const problems = rubricProblems(rubric, c.rubric.text);
  ruleBreaks += problems.length;
  for (const p of problems) details.push(`  rubric ${c.id}: ${p}`);
}
record('rubric: ask coverage', covered / asks, (v) => v >= 0.9, '≥ 90 %');
record(
  'rubric: theme-label precision',
  labelled === 0 ? 1 : rightLabels / labelled,
  (v) => v >= 0.9,
  '≥ 90 %',
);
record('rubric: rule violations (weights, names, levels, sources)', ruleBreaks, (v) => v === 0, '= 0', '');

// --- Pillar 3: integrity ---------------------------------------------------------------
let integrityPass = 0;
for (const c of INTEGRITY_CASES) {
  const index = new Map<number, FingerprintMatch[]>();
  for (const [ref, material] of Object.entries(c.corpus))
    for (const fp of fingerprintSubmission(material)) {
      const list = index.get(fp.hash) ?? [];
      list.push({ ref, position: fp.position });
      index.set(fp.hash, list);
    }
  const own = fingerprintSubmission(c.submission);
  const boilerplate = boilerplateFilter(c.context?.template);
  const plagiarism = plagiarismSignal(own, index, {
    ignore: [
      ...(c.context?.briefText ? [ignoreSetFor({ text: c.context.briefText })] : []),
      ...boilerplate.ignore,
    ],
    ignoreWhere: boilerplate.ignoreWhere,
  });
  const aiContent = reportAiContent(aiContentSignal(c.submission.text ?? ''));
  const vcsHistory = c.commits
    ? vcsHistorySignal(c.commits, {
        ...(c.context?.dueAt ? { deadline: new Date(c.context.dueAt) } : {}),
        ...(c.context?.authorEmails ? { candidateEmail: c.context.authorEmails } : {}),
        checkedAt: new Date('2026-11-20T00:00:00Z'),
      })
    : { risk: 0, evidence: { findings: [], commitCount: 0 } };
  const { score, verdict } = combineIntegrity({ plagiarism, aiContent, vcsHistory });
  const codes = vcsHistory.evidence.findings.map((f) => f.code);
  const ok = c.expected.includes(verdict) && (!c.finding || codes.includes(c.finding));
  if (ok) integrityPass++;
  details.push(
    `  ${ok ? 'ok  ' : 'FAIL'} ${c.id.padEnd(56)} ${verdict.padEnd(7)} score ${String(score).padStart(3)}  overlap ${pct(plagiarism.evidence.overlapShare).padStart(7)}  ${codes.join(', ')}`,
  );
}
record(
  'integrity: cases with the expected verdict and finding',
  integrityPass / INTEGRITY_CASES.length,
  (v) => v === 1,
  '= 100 %',
);

// --- Report ------------------------------------------------------------------------------
console.log(
  `Evaluation set: ${EVAL_CASES.length} briefs in ${new Set(EVAL_CASES.map((c) => c.field)).size} fields, ${asks} rubric asks, ${INTEGRITY_CASES.length} integrity cases\n`,
);
for (const r of rows)
  console.log(
    `${r.pass ? 'PASS' : 'FAIL'}  ${r.metric.padEnd(72)} ${(r.unit === '%' ? pct(r.value) : String(r.value)).padStart(8)}  (${r.threshold})`,
  );
console.log('\nPer brief:');
for (const d of details) console.log(d);
if (missedAsks.length) console.log(`\nMissed asks:\n  ${missedAsks.join('\n  ')}`);
if (wrongLabels.length) console.log(`\nLabels not in the brief's themes:\n  ${wrongLabels.join('\n  ')}`);
const failed = rows.filter((r) => !r.pass);
if (failed.length > 0) {
  console.error(`\n${failed.length} threshold(s) missed.`);
  process.exitCode = 1;
} else console.log('\nAll thresholds met.');
