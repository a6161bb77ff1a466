/**
 * Document fingerprinting by winnowing (Schleimer, Wilkerson & Aiken, "Winnowing: Local
 * Algorithms for Document Fingerprinting", SIGMOD 2003) — the algorithm behind MOSS.
 * Pure functions: no bindings, no I/O.
 *
 * A document is normalised into a stream of units (characters for prose, tokens for code),
 * every k consecutive units (a k-gram) are hashed, and from every window of w consecutive
 * hashes the minimum is kept. Two guarantees follow (paper §3):
 *  - any shared run of at least t = w + k − 1 units is always detected (both documents keep
 *    the same minimum hash of the window that lies wholly inside the run);
 *  - no shared run shorter than the noise threshold k is ever detected.
 *
 * Chosen parameters:
 *  - Prose, in normalised characters: k = PROSE_K = 20, w = PROSE_W = 21, so t = 40.
 *    Twenty characters is three to four words: long enough that two independent texts on
 *    the same topic rarely share a k-gram by accident, short enough that a copy whose every
 *    sentence had a word or two changed still leaves several whole windows intact. Density
 *    is about 2 / (w + 1) ≈ 9 fingerprints per 100 characters.
 *  - Code, in tokens after masking identifiers, literals and comments: k = CODE_K = 9,
 *    w = CODE_W = 6, so t = 14 tokens (≈ 40 characters of typical source). Masked code has
 *    little entropy, so k is kept well above the length of idioms such as `for (v = 0; v <`
 *    (8 tokens); density is about 2 / 7 ≈ 29 fingerprints per 100 tokens.
 *
 * Hashes are Karp–Rabin rolling hashes. A single hash mod 2^31 − 1 would collide by chance
 * once a corpus holds tens of millions of fingerprints, so two independent rolling hashes
 * (mod 2^31 − 1 and mod 2 097 143) are packed into one integer below 2^52: exact in a JS
 * number and in a SQLite INTEGER, never negative.
 *
 * Plagiarism risk is linear in the overlap share (the share of a submission's fingerprints
 * found in any other submission): 0 at ≤ 5 %, 1 at ≥ 50 %. Below 5 % the overlap is what
 * stock phrases and chance collisions produce; half of a text found elsewhere is copying
 * however it is sliced.
 */

/** Prose noise threshold, in normalised characters: shorter shared runs are never reported. */
export const PROSE_K = 20;
/** Prose winnowing window, in k-grams. */
export const PROSE_W = 21;
/** Code noise threshold, in normalised tokens. */
export const CODE_K = 9;
/** Code winnowing window, in k-grams. */
export const CODE_W = 6;
/** Any shared run of this many normalised prose characters is always detected (w + k − 1). */
export const GUARANTEE_PROSE_CHARS = PROSE_W + PROSE_K - 1;
/** Any shared run of this many normalised code tokens is always detected (w + k − 1). */
export const GUARANTEE_CODE_TOKENS = CODE_W + CODE_K - 1;

/** Overlap share at or below which plagiarism risk is 0. */
export const OVERLAP_RISK_FLOOR = 0.05;
/** Overlap share at or above which plagiarism risk is 1. */
export const OVERLAP_RISK_CEILING = 0.5;
/** At most this many matched spans are reported (the longest ones), to bound the response. */
export const MAX_MATCHED_SPANS = 50;

export type FingerprintKind = 'prose' | 'code';

/** One selected k-gram hash. `hash` and `position` are what the `fingerprints` table stores. */
export type Fingerprint = {
  /** Integer in [0, 2^52): safe in a JS number and a SQLite INTEGER. */
  hash: number;
  /** Index of the k-gram's first unit in the normalised stream (characters for prose, tokens for code). */
  position: number;
  /** UTF-16 offset in the original input where the k-gram starts. */
  start: number;
  /** UTF-16 offset in the original input where the k-gram ends (exclusive). */
  end: number;
};

/**
 * A fingerprint of a whole submission. `position` is global to the submission (text first,
 * then files in the given order, each source's units numbered after the previous source's),
 * so stored positions are unique and increasing; `start`/`end` are local to `file` (or to the
 * free text when `file` is absent).
 */
export type SubmissionFingerprint = Fingerprint & { kind: FingerprintKind; file?: string };

/** A unit stream with, for each unit, its [start, end) span in the original string. */
export type NormalisedUnits = { units: string[]; start: number[]; end: number[] };

/** Normalised prose plus, per normalised UTF-16 unit, its [start, end) span in the original. */
export type NormalisedProse = { text: string; start: number[]; end: number[] };

// A grapheme-ish cluster: one code point followed by its combining marks, so that NFKC can
// compose them (e + U+0301 → é) while every output character still maps to one source span.
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
// Apostrophes vanish rather than separate, so "don't" and "dont" normalise alike.
const APOSTROPHES = new Set(["'", '’', 'ʼ', '‘', '`', '´']);

/**
 * Normalises prose for fingerprinting: Unicode NFKC, lower case, apostrophes removed, every
 * other run of punctuation, symbols and whitespace collapsed to one space, trimmed.
 * Treating punctuation as a separator (not deleting it) keeps "well-known" and "well known",
 * or "a—b" and "a - b", identical. NFKC is applied per combining cluster so that each output
 * character maps back to a span of the original for reporting matches.
 */
export function normaliseProse(text: string): NormalisedProse {
  // Collected in an array: repeatedly inspecting a growing concatenated string is quadratic.
  const out: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let pendingSpace = false;
  for (const match of text.matchAll(CLUSTER)) {
    const from = match.index;
    const to = from + match[0].length;
    for (const ch of match[0].normalize('NFKC').toLowerCase()) {
      if (APOSTROPHES.has(ch)) continue;
      if (!WORD_CHAR.test(ch)) {
        // A separator is emitted only once a word follows it, so none leads or trails.
        if (out.length > 0 && !pendingSpace) {
          pendingSpace = true;
          start.push(from);
          end.push(to);
        }
        continue;
      }
      if (pendingSpace) {
        out.push(' ');
        pendingSpace = false;
      }
      for (let i = 0; i < ch.length; i++) {
        out.push(ch[i]!);
        start.push(from);
        end.push(to);
      }
    }
  }
  if (pendingSpace) {
    start.pop();
    end.pop();
  }
  return { text: out.join(''), start, end };
}

/**
 * Reserved words of JS/TS, Python, Java, Go, C, C++, C#, Rust, Kotlin and Swift, plus the
 * built-in type names they spell as identifiers. Keywords carry the structure of code, so
 * they survive masking; every other identifier becomes `v`.
 */
const KEYWORDS: ReadonlySet<string> = new Set(
  // JavaScript / TypeScript
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected ' +
    'public await async of as from type namespace declare readonly abstract keyof infer is never ' +
    'unknown any undefined number string boolean symbol bigint object get set constructor satisfies ' +
    // Python
    'and assert def del elif except False global lambda None nonlocal not or pass raise True self ' +
    'match ' +
    // Java / C# / Kotlin / Swift
    'byte char double final float int long native short strictfp synchronized throws transient ' +
    'volatile fun val override sealed data object when init guard struct protocol extension ' +
    'internal out ref params base using foreach decimal sbyte uint ulong ushort ' +
    // Go
    'chan defer fallthrough func go goto map range select nil ' +
    // C / C++
    'auto extern inline register restrict signed sizeof typedef union unsigned bool nullptr ' +
    'template typename virtual operator friend explicit mutable constexpr noexcept ' +
    // Rust
    'fn mut impl trait pub use mod crate loop where move dyn unsafe Self'
  ).split(/\s+/),
);

type CommentSyntax = { line: readonly string[]; block: readonly (readonly [string, string])[] };

const C_STYLE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
const HASH_STYLE: CommentSyntax = { line: ['#'], block: [] };
const COMMENT_SYNTAX: Record<string, CommentSyntax> = {
  py: HASH_STYLE,
  pyw: HASH_STYLE,
  rb: HASH_STYLE,
  sh: HASH_STYLE,
  bash: HASH_STYLE,
  zsh: HASH_STYLE,
  r: HASH_STYLE,
  pl: HASH_STYLE,
  yaml: HASH_STYLE,
  yml: HASH_STYLE,
  toml: HASH_STYLE,
  ex: HASH_STYLE,
  exs: HASH_STYLE,
  php: { line: ['//', '#'], block: [['/*', '*/']] },
  sql: { line: ['--'], block: [['/*', '*/']] },
  lua: { line: ['--'], block: [['--[[', ']]']] },
  hs: { line: ['--'], block: [['{-', '-}']] },
  html: { line: [], block: [['<!--', '-->']] },
  xml: { line: [], block: [['<!--', '-->']] },
  css: { line: [], block: [['/*', '*/']] },
};

function extensionOf(path: string | undefined): string {
  if (!path) return '';
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// Longest first, so `===` wins over `==` and `=`.
const OPERATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '>>>',
  '**=',
  '//=',
  '<<=',
  '>>=',
  '??=',
  '&&=',
  '||=',
  '==',
  '!=',
  '<=',
  '>=',
  '=>',
  '->',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '//',
  '<<',
  '>>',
  '::',
  ':=',
];

const NUMBER =
  /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[a-zA-Z]*/y;
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const WHITESPACE = /\s+/y;
const RUST_CHAR = /'(?:\\(?:u\{[\da-fA-F]+\}|x[\da-fA-F]{2}|.)|[^'\\\n])'/uy;

/**
 * Tokenises source code and normalises it so that renaming, reformatting and re-commenting
 * leave the token stream unchanged: comments and whitespace are dropped, non-keyword
 * identifiers become `v`, numbers `0` and string/char/template literals `"s"`. Comment syntax
 * is chosen from the file extension of `path` (C-style when unknown). Returns one entry per
 * token with its span in `source`.
 */
export function normaliseCode(source: string, path?: string): NormalisedUnits {
  const extension = extensionOf(path);
  const syntax = COMMENT_SYNTAX[extension] ?? C_STYLE;
  // In Rust `'` opens a char literal only when one (possibly escaped) char follows; otherwise
  // it is a lifetime such as `'a`.
  const lifetimes = extension === 'rs';
  const units: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const push = (unit: string, from: number, to: number) => {
    units.push(unit);
    start.push(from);
    end.push(to);
  };
  const n = source.length;
  let i = 0;
  scan: while (i < n) {
    WHITESPACE.lastIndex = i;
    if (WHITESPACE.test(source)) {
      i = WHITESPACE.lastIndex;
      continue;
    }
    for (const [open, close] of syntax.block) {
      if (source.startsWith(open, i)) {
        const stop = source.indexOf(close, i + open.length);
        i = stop < 0 ? n : stop + close.length;
        continue scan;
      }
    }
    for (const marker of syntax.line) {
      if (source.startsWith(marker, i)) {
        const stop = source.indexOf('\n', i);
        i = stop < 0 ? n : stop;
        continue scan;
      }
    }
    const ch = source[i] ?? '';
    if (ch === '"' || ch === "'" || ch === '`') {
      RUST_CHAR.lastIndex = i;
      const stop =
        lifetimes && ch === "'" ? (RUST_CHAR.test(source) ? RUST_CHAR.lastIndex : -1) : stringEnd(source, i);
      if (stop > 0) {
        push('"s"', i, stop);
        i = stop;
        continue;
      }
      // An unterminated quote (a Rust lifetime, an apostrophe in a shell script) is punctuation.
      push(ch, i, i + 1);
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    if (/\d/.test(ch) || (ch === '.' && /\d/.test(source[i + 1] ?? ''))) {
      if (NUMBER.test(source)) {
        push('0', i, NUMBER.lastIndex);
        i = NUMBER.lastIndex;
        continue;
      }
    }
    IDENTIFIER.lastIndex = i;
    if (IDENTIFIER.test(source)) {
      const word = source.slice(i, IDENTIFIER.lastIndex);
      push(KEYWORDS.has(word) ? word : 'v', i, IDENTIFIER.lastIndex);
      i = IDENTIFIER.lastIndex;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      push(op, i, i + op.length);
      i += op.length;
      continue;
    }
    const cp = source.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    push(source.slice(i, i + width), i, i + width);
    i += width;
  }
  return { units, start, end };
}

/**
 * End (exclusive) of the string literal opening at `from`, or −1 when it is not one.
 * Triple quotes and backticks may span lines; single- and double-quoted strings may not,
 * which is what lets an unmatched `'` fall back to punctuation.
 */
function stringEnd(source: string, from: number): number {
  const quote = source[from] ?? '';
  const triple = quote.repeat(3);
  if (quote !== '`' && source.startsWith(triple, from)) {
    const stop = source.indexOf(triple, from + 3);
    return stop < 0 ? -1 : stop + 3;
  }
  const multiline = quote === '`';
  for (let i = from + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1;
    else if (c === '\n' && !multiline) return -1;
  }
  return -1;
}

/** Prose is split into UTF-16 units rather than code points so k counts what `string.length` counts. */
function proseUnits(text: string): NormalisedUnits {
  const { text: normalised, start, end } = normaliseProse(text);
  return { units: normalised.split(''), start, end };
}

function unitsFor(input: string, kind: FingerprintKind, path?: string): NormalisedUnits {
  return kind === 'prose' ? proseUnits(input) : normaliseCode(input, path);
}

const P1 = 2_147_483_647; // 2^31 − 1
const B1 = 48_271; // a primitive root mod 2^31 − 1 (the MINSTD multiplier)
const P2 = 2_097_143; // the largest prime below 2^21
const B2 = 786_433;
const P2_BITS = 2 ** 21;

/** a·b mod 2^31 − 1 without leaving the 2^53 range of exact doubles (a, b < 2^31). */
function mulModP1(a: number, b: number): number {
  const hi = Math.floor(b / 65_536);
  const lo = b % 65_536;
  return (((a * hi) % P1) * 65_536 + a * lo) % P1;
}

function powMod(base: number, exp: number, mul: (a: number, b: number) => number): number {
  let result = 1;
  for (let i = 0; i < exp; i++) result = mul(result, base);
  return result;
}

/** 32-bit FNV-1a, so that a token of any length becomes one number for the rolling hash. */
function fnv1a(unit: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < unit.length; i++) {
    h ^= unit.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Karp–Rabin hashes of every k-gram of `units`, each the pair (mod P1, mod P2) packed as
 * h1·2^21 + h2. Entry i is the hash of units[i .. i + k − 1].
 */
function kgramHashes(units: readonly string[], k: number): number[] {
  if (units.length < k) return [];
  const codes = units.map((u) => (u.length === 1 ? u.charCodeAt(0) : fnv1a(u)));
  const c1 = codes.map((c) => c % P1);
  const c2 = codes.map((c) => c % P2);
  const top1 = powMod(B1, k - 1, mulModP1);
  const top2 = powMod(B2, k - 1, (a, b) => (a * b) % P2);
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < k; i++) {
    h1 = (mulModP1(h1, B1) + c1[i]!) % P1;
    h2 = (h2 * B2 + c2[i]!) % P2;
  }
  const hashes = [h1 * P2_BITS + h2];
  for (let i = k; i < codes.length; i++) {
    const out1 = mulModP1(c1[i - k]!, top1);
    const out2 = (c2[i - k]! * top2) % P2;
    h1 = (mulModP1((h1 - out1 + P1) % P1, B1) + c1[i]!) % P1;
    h2 = (((h2 - out2 + P2) % P2) * B2 + c2[i]!) % P2;
    hashes.push(h1 * P2_BITS + h2);
  }
  return hashes;
}

/**
 * Robust winnowing (paper §4): in each window of `w` hashes select the minimum; on a tie keep
 * the hash the previous window selected, otherwise take the rightmost minimum. A selection is
 * recorded once, when it first becomes selected. Fewer than `w` hashes form one window, so a
 * document of at least k units always has a fingerprint. Returns selected indices, ascending.
 */
function winnow(hashes: readonly number[], w: number): number[] {
  const picked: number[] = [];
  if (hashes.length === 0) return picked;
  const width = Math.min(w, hashes.length);
  let min = -1;
  for (let right = width - 1; right < hashes.length; right++) {
    const left = right - width + 1;
    if (min < left) {
      min = left;
      for (let j = left + 1; j <= right; j++) if (hashes[j]! <= hashes[min]!) min = j;
      picked.push(min);
    } else if (hashes[right]! < hashes[min]!) {
      min = right;
      picked.push(min);
    }
  }
  return picked;
}

const parameters = (kind: FingerprintKind) =>
  kind === 'prose' ? { k: PROSE_K, w: PROSE_W } : { k: CODE_K, w: CODE_W };

function fingerprintUnits({ units, start, end }: NormalisedUnits, kind: FingerprintKind): Fingerprint[] {
  const { k, w } = parameters(kind);
  const hashes = kgramHashes(units, k);
  return winnow(hashes, w).map((position) => ({
    hash: hashes[position]!,
    position,
    start: start[position]!,
    end: end[position + k - 1]!,
  }));
}

/**
 * Winnowed fingerprints of one document, in position order. `path` only selects the comment
 * syntax for code. Any run of GUARANTEE_PROSE_CHARS normalised characters (prose) or
 * GUARANTEE_CODE_TOKENS tokens (code) shared with another document yields a common hash.
 */
export function fingerprints(input: string, kind: FingerprintKind, path?: string): Fingerprint[] {
  return fingerprintUnits(unitsFor(input, kind, path), kind);
}

/** The hashes of every k-gram (not just the winnowed ones): what to ignore when given a brief. */
export function allKgramHashes(input: string, kind: FingerprintKind, path?: string): Set<number> {
  return new Set(kgramHashes(unitsFor(input, kind, path).units, parameters(kind).k));
}

/** Files with these extensions are read as prose; every other file as code. */
export const PROSE_EXTENSIONS: ReadonlySet<string> = new Set([
  'md',
  'markdown',
  'mdx',
  'txt',
  'text',
  'rst',
  'adoc',
  'org',
]);

/** A submitted file as the integrity check receives it. */
export type SubmittedFile = { path: string; content: string };

/** Submitted material: free text and/or files. */
export type SubmissionMaterial = { text?: string; files?: readonly SubmittedFile[] };

/** How a file is fingerprinted: markdown and plain-text files are prose, the rest code. */
export function kindForPath(path: string): FingerprintKind {
  return PROSE_EXTENSIONS.has(extensionOf(path)) ? 'prose' : 'code';
}

/**
 * Fingerprints of several pieces of one submission, with positions numbered across the pieces
 * in the order they are added (see SubmissionFingerprint).
 */
function positionedFingerprints() {
  const result: SubmissionFingerprint[] = [];
  let base = 0;
  const add = (units: NormalisedUnits, kind: FingerprintKind, file?: string) => {
    for (const fp of fingerprintUnits(units, kind)) {
      const located: SubmissionFingerprint = { ...fp, position: base + fp.position, kind };
      if (file !== undefined) located.file = file;
      result.push(located);
    }
    base += units.units.length;
  };
  return { result, add };
}

/**
 * Fingerprints of a whole submission: the free text as prose, then each file as prose or
 * code by extension. Positions are numbered across the submission (see SubmissionFingerprint).
 */
export function fingerprintSubmission(material: SubmissionMaterial): SubmissionFingerprint[] {
  const { result, add } = positionedFingerprints();
  if (material.text) add(proseUnits(material.text), 'prose');
  for (const file of material.files ?? []) {
    const kind = kindForPath(file.path);
    add(unitsFor(file.content, kind, file.path), kind, file.path);
  }
  return result;
}

/**
 * Whether text routed as prose (free `text`, a `.txt` file) is really source code pasted in.
 * Strict on purpose, because prose read as code collapses to runs of `v` that any two texts
 * share: at least five non-blank lines, most of them shaped like code (ending in `;`, `{`,
 * `}` or a `:` after a `def`/`if`-style opener, opening with a keyword such as `def`, `import`,
 * `return` or `const`, or an assignment or call), and code punctuation at a density prose
 * does not reach.
 */
export function looksLikeCode(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 5) return false;
  const codeLines = lines.filter((line) => CODE_LINE.some((re) => re.test(line))).length;
  const symbols = (text.match(/[{}()[\];=<>]/g) ?? []).length;
  const visible = text.replace(/\s/g, '').length || 1;
  return codeLines / lines.length >= 0.6 && symbols / visible >= 0.04;
}

const CODE_LINE: readonly RegExp[] = [
  /[;{}]\s*(?:(?:\/\/|#).*)?$/,
  /^\s*(?:def|class|import|from\s+[\w.]+\s+import|return|elif|else:|try:|except|finally:|raise|with\s.*:|for\s.*:|while\s.*:|if\s.*:|const|let|var|function|export|public|private|protected|static|package|fn|func|#include|#define|using|namespace|struct|enum|impl|lambda|yield|async|await)\b/,
  /^\s*[\w.$[\]'"]+\s*(?:[-+*/%|&^]|\*\*|\/\/)?=(?!=)\s*\S/,
  /^\s*[\w.$]+\s*\(.*\)\s*[;:]?\s*$/,
  /^\s*(?:#|\/\/|\/\*|\*)/,
];

/** Comment syntax for code pasted as prose: `#` comments when the text reads like Python, shell or Ruby. */
function pastedCodePath(text: string): string {
  const hash = /^\s*#(?!include|define|pragma|if|endif|import|region)/m.test(text);
  const python =
    /^\s*(?:def|elif|import|from\s+[\w.]+\s+import)\b|:\s*$/m.test(text) && !/[{};]\s*$/m.test(text);
  return hash || python ? 'pasted.py' : 'pasted.txt';
}

/**
 * The code reading of a submission: free text and prose files that `looksLikeCode` are
 * fingerprinted as code (with comment syntax guessed from the text), everything else as
 * `fingerprintSubmission` routes it. Returns null when nothing reads as code, so a caller
 * compares both readings only for pasted code. Prose and code fingerprints live in
 * different hash spaces; without this reading a program pasted into `text` or sent as
 * `.txt` never meets the same program stored as `.py`.
 */
export function codeReadingOf(material: SubmissionMaterial): SubmissionFingerprint[] | null {
  const text = material.text && looksLikeCode(material.text) ? material.text : null;
  const files = (material.files ?? []).map(
    (f) => kindForPath(f.path) === 'prose' && looksLikeCode(f.content),
  );
  if (text === null && !files.includes(true)) return null;
  const { result, add } = positionedFingerprints();
  if (material.text) {
    if (text !== null) add(normaliseCode(text, pastedCodePath(text)), 'code');
    else add(proseUnits(material.text), 'prose');
  }
  (material.files ?? []).forEach((file, i) => {
    if (files[i]) add(normaliseCode(file.content, pastedCodePath(file.content)), 'code', file.path);
    else {
      const kind = kindForPath(file.path);
      add(unitsFor(file.content, kind, file.path), kind, file.path);
    }
  });
  return result;
}

/**
 * Every k-gram hash of some material (e.g. the brief, or starter code handed to every
 * candidate), routed as fingerprintSubmission routes it: pass it as `ignore` so that text
 * everyone was given is not evidence of copying.
 */
export function ignoreSetFor(material: SubmissionMaterial): Set<number> {
  const hashes = new Set<number>();
  const addAll = (set: Set<number>) => {
    for (const h of set) hashes.add(h);
  };
  if (material.text) addAll(allKgramHashes(material.text, 'prose'));
  for (const file of material.files ?? []) {
    addAll(allKgramHashes(file.content, kindForPath(file.path), file.path));
  }
  return hashes;
}

/** Where another submission holds a hash: an opaque reference (never an identity) and its position. */
export type FingerprintMatch = { ref: string; position: number };

/** A run of the submission found elsewhere, in the submission's original coordinates. */
export type MatchedSpan = {
  /** UTF-16 offset in the free text, or in `file` when present. */
  start: number;
  end: number;
  file?: string;
  /** Opaque reference to the other submission, as the caller supplied it. */
  sourceRef: string;
  /** Position of the first matched fingerprint in the other submission's stream. */
  sourceStart?: number;
};

export type PlagiarismSignal = {
  risk: number;
  evidence: {
    /** Share of the submission's non-ignored fingerprints found in any other submission. */
    overlapShare: number;
    /** Fingerprints considered (not ignored) and, of those, matched. */
    fingerprintCount: number;
    matchedCount: number;
    /** Fingerprints left out as material everyone has: the brief, a template, known boilerplate. */
    ignoredCount: number;
    /** The sources contributing most, each with the share of fingerprints it holds (top 5). */
    topSources: { sourceRef: string; overlapShare: number }[];
    matchedSpans: MatchedSpan[];
  };
};

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Plagiarism risk from overlap share: linear from OVERLAP_RISK_FLOOR (0) to OVERLAP_RISK_CEILING (1). */
export function plagiarismRisk(overlapShare: number): number {
  if (!(overlapShare > OVERLAP_RISK_FLOOR)) return 0;
  return Math.min(1, (overlapShare - OVERLAP_RISK_FLOOR) / (OVERLAP_RISK_CEILING - OVERLAP_RISK_FLOOR));
}

/**
 * The plagiarism signal of a submission given where its hashes occur elsewhere.
 *
 * `matches` maps a hash to its occurrences in *other* submissions (the caller excludes the
 * submission itself, and passes opaque refs such as an HMAC of the submission id — this code
 * never needs an identity). `ignore` holds hashes that are not evidence: the brief's k-grams
 * (see ignoreSetFor) and hashes so common across the corpus that they are boilerplate.
 *
 * Spans are runs of consecutive own fingerprints that are all matched in a common source;
 * an unmatched or ignored fingerprint ends a span. Consecutive winnowed fingerprints are at
 * most w units apart, so a span is a contiguous stretch of copied material.
 */
export function plagiarismSignal(
  own: readonly (Fingerprint & { file?: string })[],
  matches: ReadonlyMap<number, readonly FingerprintMatch[]>,
  options: {
    ignore?: ReadonlySet<number> | readonly ReadonlySet<number>[];
    /** Fingerprints that are not evidence for reasons beyond their hash (e.g. where they sit). */
    ignoreWhere?: (fp: Fingerprint & { file?: string }) => boolean;
  } = {},
): PlagiarismSignal {
  const sets: readonly ReadonlySet<number>[] =
    options.ignore === undefined
      ? []
      : options.ignore instanceof Set
        ? [options.ignore]
        : [...(options.ignore as readonly ReadonlySet<number>[])];
  const where = options.ignoreWhere;
  const ignore = {
    has: (fp: Fingerprint & { file?: string }) =>
      sets.some((set) => set.has(fp.hash)) || where?.(fp) === true,
  };
  let ignored = 0;
  const ordered = [...own].sort((a, b) => a.position - b.position);
  let considered = 0;
  let matched = 0;
  const perSource = new Map<string, number>();
  const spans: (MatchedSpan & { length: number })[] = [];
  let open: { first: Fingerprint & { file?: string }; last: Fingerprint; refs: Set<string> } | null = null;

  const close = () => {
    if (!open) return;
    const sourceRef = [...open.refs].sort()[0]!;
    const span: MatchedSpan & { length: number } = {
      start: open.first.start,
      end: open.last.end,
      sourceRef,
      length: open.last.end - open.first.start,
    };
    if (open.first.file !== undefined) span.file = open.first.file;
    const occurrences = (matches.get(open.first.hash) ?? []).filter((m) => m.ref === sourceRef);
    if (occurrences.length > 0) span.sourceStart = Math.min(...occurrences.map((m) => m.position));
    spans.push(span);
    open = null;
  };

  for (const fp of ordered) {
    if (ignore.has(fp)) {
      ignored++;
      close();
      continue;
    }
    considered++;
    const found = matches.get(fp.hash) ?? [];
    if (found.length === 0) {
      close();
      continue;
    }
    matched++;
    const refs = new Set(found.map((m) => m.ref));
    for (const ref of refs) perSource.set(ref, (perSource.get(ref) ?? 0) + 1);
    if (open && open.first.file === fp.file) {
      const shared = new Set([...open.refs].filter((r) => refs.has(r)));
      if (shared.size > 0) {
        open.refs = shared;
        open.last = fp;
        continue;
      }
    }
    close();
    open = { first: fp, last: fp, refs };
  }
  close();

  const overlapShare = considered === 0 ? 0 : matched / considered;
  const matchedSpans = spans
    .map((span, index) => ({ span, index }))
    .sort((a, b) => b.span.length - a.span.length || a.index - b.index)
    .slice(0, MAX_MATCHED_SPANS)
    .sort((a, b) => a.index - b.index)
    .map(({ span: { length: _length, ...span } }) => span);
  const topSources = [...perSource]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([sourceRef, count]) => ({ sourceRef, overlapShare: round4(count / considered) }));

  return {
    risk: round4(plagiarismRisk(overlapShare)),
    evidence: {
      overlapShare: round4(overlapShare),
      fingerprintCount: considered,
      matchedCount: matched,
      ignoredCount: ignored,
      topSources,
      matchedSpans,
    },
  };
}
