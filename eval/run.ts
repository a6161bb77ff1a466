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
import { HELD_OUT_CASES, type HeldOutCase } from './held-out-2026-11-28';
import { HELD_OUT_2026_12_02 } from './held-out-2026-12-02';
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
let planChecks = 0;
let planPassed = 0;
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
  const planCheck = (name: string, pass: boolean) => {
    planChecks++;
    if (pass) planPassed++;
    else details.push(`  plan ${c.id}: ${name}`);
  };
  if (c.field === 'unknown') planCheck('confidence is low', playbook.confidence === 'low');
  const tasks = playbook.milestones.flatMap((m) => m.tasks);
  for (const phrase of c.plan?.mustDo ?? [])
    planCheck(
      `a step names "${phrase}"`,
      tasks.some((t) => !/^hand over\b/i.test(t) && t.toLowerCase().includes(phrase.toLowerCase())),
    );
  for (const phrase of c.plan?.mustAvoid ?? [])
    planCheck(`no task says "${phrase}"`, !tasks.some((t) => t.toLowerCase().includes(phrase.toLowerCase())));
  for (const bad of c.plan?.linksAvoid ?? [])
    planCheck(`no link contains "${bad}"`, !links.some((l) => l.toLowerCase().includes(bad.toLowerCase())));
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
record(
  'playbook: tasks shared with an unrelated brief, every playbook (max)',
  sortedShares[sortedShares.length - 1] ?? 0,
  (v) => v <= 0.3,
  '≤ 30 %',
);
record('playbook: links from the wrong field', wrongFieldLinks, (v) => v === 0, '= 0', '');
record('playbook: links given (all fields)', totalLinks, (v) => v > 0, '> 0', '');
record('playbook: field recognised as labelled', fieldHits / EVAL_CASES.length, (v) => v >= 0.9, '≥ 90 %');
record(
  'playbook: plan checks (steps named, none to avoid, confidence low when unknown)',
  planChecks === 0 ? 1 : planPassed / planChecks,
  (v) => v >= 0.9,
  '≥ 90 %',
);

// --- Pillar 4: rubrics -----------------------------------------------------------------
let asks = 0;
let covered = 0;
let labelled = 0;
let rightLabels = 0;
let ruleBreaks = 0;
let exclusionsExpected = 0;
let exclusionsFound = 0;
let exclusionsGraded = 0;
let badNames = 0;
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
  // EVAL_NAMES=1 prints every criterion name with its source, to read the names as an expert would.
  if (process.env.EVAL_NAMES === '1')
    for (const k of rubric.criteria)
      details.push(`  name ${c.id}: ${k.name} <= ${k.source.replace(/\s+/g, ' ').slice(0, 100)}`);
  const problems = rubricProblems(rubric, c.rubric.text, c.rubric.domain);
  ruleBreaks += problems.length;
  for (const p of problems) details.push(`  rubric ${c.id}: ${p}`);
  const lower = (t: string) => t.toLowerCase();
  for (const excluded of c.rubric.outOfScope ?? []) {
    exclusionsExpected++;
    if (rubric.outOfScope.some((o) => lower(o).includes(lower(excluded)))) exclusionsFound++;
    else
      details.push(
        `  rubric ${c.id}: "${excluded}" not in outOfScope (${JSON.stringify(rubric.outOfScope)})`,
      );
    const graded = rubric.criteria.filter(
      (k) => lower(k.name).includes(lower(excluded)) || lower(k.source).includes(lower(excluded)),
    );
    exclusionsGraded += graded.length;
    for (const k of graded) details.push(`  rubric ${c.id}: excluded "${excluded}" graded as "${k.name}"`);
  }
  for (const bad of c.rubric.namesAvoid ?? [])
    for (const k of rubric.criteria.filter((x) => lower(x.name).includes(lower(bad)))) {
      badNames++;
      details.push(`  rubric ${c.id}: criterion named "${k.name}"`);
    }
  for (const bad of c.rubric.levelsAvoid ?? [])
    for (const k of rubric.criteria.filter((x) =>
      x.levels.some((l) => lower(l.descriptor).includes(lower(bad))),
    )) {
      badNames++;
      details.push(`  rubric ${c.id}: a level of "${k.name}" says "${bad}"`);
    }
  if (rubric.outOfScope.length > 0)
    details.push(`  rubric ${c.id}: out of scope ${rubric.outOfScope.map((o) => `"${o}"`).join(', ')}`);
}
record('rubric: ask coverage', covered / asks, (v) => v >= 0.9, '≥ 90 %');
record(
  'rubric: theme-label precision',
  labelled === 0 ? 1 : rightLabels / labelled,
  (v) => v >= 0.9,
  '≥ 90 %',
);
record('rubric: rule violations (weights, names, levels, sources)', ruleBreaks, (v) => v === 0, '= 0', '');
record(
  'rubric: exclusions found in outOfScope',
  exclusionsExpected === 0 ? 1 : exclusionsFound / exclusionsExpected,
  (v) => v >= 0.9,
  '≥ 90 %',
);
record('rubric: exclusions graded as criteria', exclusionsGraded, (v) => v === 0, '= 0', '');
record(
  'rubric: letter formulas, wrong-field labels or level words in a criterion',
  badNames,
  (v) => v === 0,
  '= 0',
  '',
);

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

// --- The held-out sets: run to report, never to tune ------------------------------------
function heldOut(HELD_OUT_CASES: readonly HeldOutCase[], file: string) {
  type Check = { name: string; pass: boolean };
  const heldRows: Row[] = [];
  const heldRecord = (
    metric: string,
    value: number,
    ok: (v: number) => boolean,
    threshold: string,
    unit: '%' | '' = '%',
  ) => heldRows.push({ metric, value, threshold, pass: ok(value), unit });
  const heldDetails: string[] = [];
  const heldMisses: string[] = [];
  const heldChecks: Check[] = [];
  const heldShares: number[] = [];
  const heldExclusionsPerBrief: number[] = [];
  let heldWrongLinks = 0;
  let heldLinks = 0;
  let heldFieldHits = 0;
  let heldAsks = 0;
  let heldCovered = 0;
  let heldRuleBreaks = 0;
  let heldGraded = 0;
  // Aggregates only: what kind of thing went wrong, never which brief or which words.
  const fieldMissKinds = new Map<string, number>();
  const linkMissKinds = new Map<string, number>();
  const ruleKinds = new Map<string, number>();
  const problemKind = (problem: string): string =>
    /criteria, not/.test(problem)
      ? 'criterion count'
      : /share a name/.test(problem)
        ? 'two criteria share a name'
        : /weights sum/.test(problem)
          ? 'weights do not sum to 100'
          : /weighs/.test(problem)
            ? 'a weight above the cap'
            : /^the source of/.test(problem)
              ? 'a source not quoted'
              : /not scored 1 to 5/.test(problem)
                ? 'level scores'
                : /not a clean criterion name/.test(problem)
                  ? 'a name not clean'
                  : /expert would write \(([^)]*)\)$/.test(problem)
                    ? `a name: ${/\(([^)]*)\)$/.exec(problem)?.[1]}`
                    : /out of scope/.test(problem)
                      ? 'an exclusion graded'
                      : /label of another field/.test(problem)
                        ? "another field's label"
                        : /in software terms/.test(problem)
                          ? 'levels in software terms'
                          : /complete sentence/.test(problem)
                            ? 'a level not a sentence'
                            : 'other';
  const has = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());
  const isHandOver = (task: string) => /^hand over\b/i.test(task);
  for (const [i, c] of HELD_OUT_CASES.entries()) {
    const checks: Check[] = [];
    const check = (name: string, pass: boolean) => checks.push({ name, pass });
    const brief = c.playbook.brief;
    const playbook = generatePlaybook(brief);
    const other = [...HELD_OUT_CASES.slice(i + 1), ...HELD_OUT_CASES.slice(0, i)].find(
      (o) => o.label !== c.label,
    ) as HeldOutCase;
    const twin = shapedLike(other.playbook.brief, brief);
    const share = sharedTaskShare(playbook, brief, generatePlaybook(twin), twin);
    heldShares.push(share);
    const detected = detectField(brief).field.key;
    const detectedName: string = detected;
    if (detectedName === c.field) heldFieldHits++;
    else {
      const way =
        c.field === 'unknown'
          ? 'labelled unknown, filed under a known field'
          : detectedName === 'unknown'
            ? 'labelled with a known field, read as unknown'
            : 'labelled with a known field, filed under another';
      fieldMissKinds.set(way, (fieldMissKinds.get(way) ?? 0) + 1);
    }
    check(`field is ${c.field}`, detectedName === c.field);
    const links = playbook.milestones.flatMap((m) => m.tutorial_links);
    heldLinks += links.length;
    const allowed = new Set(c.field === 'unknown' ? [] : catalogueFor(c.field).map((e) => e.url));
    const wrong = links.filter(
      (l) => !allowed.has(l) || (c.playbook.linksAvoid ?? []).some((bad) => has(l, bad)),
    );
    heldWrongLinks += wrong.length;
    if (wrong.length > 0) {
      const way = c.field === 'unknown' ? 'on briefs labelled unknown' : 'on briefs of a known field';
      linkMissKinds.set(way, (linkMissKinds.get(way) ?? 0) + wrong.length);
    }
    check('no link from another field', wrong.length === 0);
    if (c.field === 'unknown') check('confidence is low', playbook.confidence === 'low');
    const tasks = playbook.milestones.flatMap((m) => m.tasks);
    const working = tasks.filter((t) => !isHandOver(t));
    for (const phrase of c.playbook.mustDo)
      check(
        `a step names "${phrase}"`,
        working.some((t) => has(t, phrase)),
      );
    for (const phrase of c.playbook.mustAvoid)
      check(`no task says "${phrase}"`, !tasks.some((t) => has(t, phrase)));

    const rubric = extractRubric(
      c.rubric.text,
      c.rubric.domain ? { domain: c.rubric.domain } : {},
    ) as ReturnType<typeof extractRubric> & { outOfScope?: string[] };
    const outOfScope = rubric.outOfScope ?? [];
    for (const ask of c.rubric.asks) {
      heldAsks++;
      const ok = rubric.criteria.some((k) => has(k.source, ask) || has(k.description, ask));
      if (ok) heldCovered++;
      check(`ask "${ask}" is graded`, ok);
    }
    for (const excluded of c.rubric.outOfScope) {
      check(
        `"${excluded}" is out of scope`,
        outOfScope.some((o) => has(o, excluded)),
      );
      const graded = rubric.criteria.some((k) => has(k.name, excluded) || has(k.source, excluded));
      if (graded) heldGraded++;
      check(`"${excluded}" is no criterion`, !graded);
    }
    for (const bad of c.rubric.namesAvoid)
      check(`no criterion named "${bad}…"`, !rubric.criteria.some((k) => has(k.name, bad)));
    for (const bad of c.rubric.levelsAvoid)
      check(
        `no level says "${bad}"`,
        !rubric.criteria.some((k) => k.levels.some((l) => has(l.descriptor, bad))),
      );
    const long = rubric.criteria.filter((k) => k.name.split(/\s+/).length > 6);
    check('criterion names of 1–6 words', long.length === 0);
    const problems = rubricProblems(rubric, c.rubric.text, c.rubric.domain);
    heldRuleBreaks += problems.length;
    for (const p of problems) ruleKinds.set(problemKind(p), (ruleKinds.get(problemKind(p)) ?? 0) + 1);
    check('the rubric rules hold', problems.length === 0);

    heldExclusionsPerBrief.push(outOfScope.length);
    heldChecks.push(...checks);
    const passed = checks.filter((k) => k.pass).length;
    for (const k of checks) if (!k.pass) heldMisses.push(`${c.id}: ${k.name}`);
    heldDetails.push(
      `  ${c.id.padEnd(34)} field ${detectedName.padEnd(16)} ${detectedName === c.field ? '  ' : '≠ '}confidence ${String(playbook.confidence).padEnd(6)} shared ${pct(share).padStart(7)}  links ${String(links.length).padStart(2)}  checks ${passed}/${checks.length}  out of scope ${outOfScope.length}${outOfScope.length ? `: ${outOfScope.map((o) => `"${o}"`).join(', ')}` : ''}`,
    );
    heldDetails.push(`      criteria: ${rubric.criteria.map((k) => `${k.name} (${k.weight})`).join(' · ')}`);
  }
  const heldMean = heldShares.reduce((a, b) => a + b, 0) / heldShares.length;
  const heldSorted = [...heldShares].sort((a, b) => a - b);
  const heldP90 = heldSorted[Math.floor(0.9 * (heldSorted.length - 1))] ?? 0;
  const heldPassed = heldChecks.filter((k) => k.pass).length;
  heldRecord(
    'checks passed (every check of every brief)',
    heldPassed / heldChecks.length,
    (v) => v >= 0.9,
    '≥ 90 %',
  );
  heldRecord(
    'playbook: tasks shared with an unrelated brief of the same shape (mean)',
    heldMean,
    (v) => v < 0.3,
    '< 30 %',
  );
  heldRecord(
    'playbook: tasks shared with an unrelated brief (90th percentile)',
    heldP90,
    (v) => v < 0.3,
    '< 30 %',
  );
  heldRecord(
    'playbook: tasks shared with an unrelated brief, every playbook (max)',
    heldSorted[heldSorted.length - 1] ?? 0,
    (v) => v <= 0.3,
    '≤ 30 %',
  );
  heldRecord(
    'playbook: links from the wrong field (none at all for an unknown field)',
    heldWrongLinks,
    (v) => v === 0,
    '= 0',
    '',
  );
  heldRecord(
    'playbook: field recognised (unknown when none fits)',
    heldFieldHits / HELD_OUT_CASES.length,
    (v) => v >= 0.9,
    '≥ 90 %',
  );
  heldRecord('rubric: exclusions graded as criteria', heldGraded, (v) => v === 0, '= 0', '');
  heldRecord('rubric: ask coverage', heldCovered / heldAsks, (v) => v >= 0.9, '≥ 90 %');
  heldRecord(
    'rubric: rule violations (weights, names, levels, sources)',
    heldRuleBreaks,
    (v) => v === 0,
    '= 0',
    '',
  );

  const print = () => {
    console.log(
      `\nHeld-out set (eval/${file}, never tuned on): ${HELD_OUT_CASES.length} briefs, ${new Set(HELD_OUT_CASES.map((c) => c.label)).size} labels, ${heldChecks.length} checks (${heldPassed} passed), ${heldLinks} links\n`,
    );
    for (const r of heldRows) console.log(line(r));
    const kinds = (title: string, m: Map<string, number>) => {
      if (m.size > 0) console.log(`  ${title}: ${[...m].map(([k, n]) => `${k} ${n}`).join('; ')}`);
    };
    console.log('\nMisses by kind (counts only):');
    kinds('field', fieldMissKinds);
    kinds('links', linkMissKinds);
    kinds('rule violations', ruleKinds);
    console.log(`  exclusions found in outOfScope, per brief: ${heldExclusionsPerBrief.join(' ')}`);
    // The per-brief lines name the held-out briefs' words and what the engine missed in them. Tuning
    // on them would turn the held-out set into a second tuning set, so they print only on request
    // (EVAL_HELD_OUT_DETAILS=1), for a review after the engine work is done.
    if (process.env.EVAL_HELD_OUT_DETAILS === '1') {
      console.log('\nPer brief:');
      for (const d of heldDetails) console.log(d);
      if (heldMisses.length) console.log(`\nMissed checks:\n  ${heldMisses.join('\n  ')}`);
    } else console.log('\nPer-brief lines withheld (EVAL_HELD_OUT_DETAILS=1 prints them; not for tuning).');
  };
  return { file, rows: heldRows, print };
}
const HELD_OUT_SETS = [
  heldOut(HELD_OUT_CASES, 'held-out-2026-11-28.ts'),
  heldOut(HELD_OUT_2026_12_02, 'held-out-2026-12-02.ts'),
];

// --- Report ------------------------------------------------------------------------------
const line = (r: Row) =>
  `${r.pass ? 'PASS' : 'FAIL'}  ${r.metric.padEnd(72)} ${(r.unit === '%' ? pct(r.value) : String(r.value)).padStart(8)}  (${r.threshold})`;
console.log(
  `Tuning set (eval/briefs.ts): ${EVAL_CASES.length} briefs in ${new Set(EVAL_CASES.map((c) => c.field)).size} fields, ${asks} rubric asks, ${INTEGRITY_CASES.length} integrity cases\n`,
);
for (const r of rows) console.log(line(r));
console.log('\nPer brief:');
for (const d of details) console.log(d);
if (missedAsks.length) console.log(`\nMissed asks:\n  ${missedAsks.join('\n  ')}`);
if (wrongLabels.length) console.log(`\nLabels not in the brief's themes:\n  ${wrongLabels.join('\n  ')}`);

for (const h of HELD_OUT_SETS) h.print();

const failed = [
  ...rows.filter((r) => !r.pass).map((r) => `tuning: ${r.metric}`),
  ...HELD_OUT_SETS.flatMap((h) =>
    h.rows.filter((r) => !r.pass).map((r) => `held-out ${h.file}: ${r.metric}`),
  ),
];
if (failed.length > 0) {
  console.error(`\n${failed.length} threshold(s) missed:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
} else console.log('\nAll thresholds met on every set.');
