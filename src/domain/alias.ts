/**
 * Public aliases (shown on the leaderboard and its embeddable page) are NFKC-normalised, so
 * look-alike compatibility forms (full-width letters, ligatures, superscripts) become the
 * ordinary characters, and refuse characters that change how the text around them is shown:
 * controls (C0, C1, line and paragraph separators), format characters (bidirectional
 * overrides, embeddings and isolates such as U+202E, zero-width spaces and joiners, the BOM,
 * soft hyphens) and private-use code points.
 */

export const ALIAS_MIN_LENGTH = 2;
export const ALIAS_MAX_LENGTH = 40;

/** Cc: controls; Cf: format (bidi controls, zero-width); Co: private use; Zl/Zp: line/paragraph separators. */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/u;

export type AliasVerdict = { ok: true; alias: string } | { ok: false; reason: string };

/**
 * U+FFFD (what a decoder puts where bytes were not text), the non-characters (U+FDD0–FDEF and the
 * last two code points of every plane) and lone surrogates: never part of a name anyone wrote.
 */
const NOT_TEXT = /[\uFFFD\p{Noncharacter_Code_Point}\p{Cs}]/u;

/** Why `text` holds something that is not text (the first such code point), or null. */
export function nonCharacterReason(text: string): string | null {
  const bad = NOT_TEXT.exec(text);
  if (!bad) return null;
  const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `Contains U+${code}, a replacement character, non-character or lone surrogate; these are not allowed in text shown publicly.`;
}

export function normaliseAlias(raw: string): AliasVerdict {
  const notText = nonCharacterReason(raw);
  if (notText) return { ok: false, reason: notText.replace('text shown publicly', 'an alias') };
  const normalised = raw.normalize('NFKC');
  // Checked before trimming: `trim` would quietly drop a leading BOM or line separator.
  const bad = INVISIBLE_OR_CONTROL.exec(normalised);
  if (bad) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return {
      ok: false,
      reason: `The alias contains U+${code}, a control, bidirectional or invisible character; these are not allowed.`,
    };
  }
  const alias = normalised.trim();
  const mixed = mixedScriptReason(alias);
  if (mixed) return { ok: false, reason: mixed };
  const length = [...alias].length;
  if (length < ALIAS_MIN_LENGTH || length > ALIAS_MAX_LENGTH)
    return {
      ok: false,
      reason: `The alias must be ${ALIAS_MIN_LENGTH}–${ALIAS_MAX_LENGTH} characters long after normalisation.`,
    };
  return { ok: true, alias };
}

/**
 * Characters refused in any text shown publicly under a person's or an organisation's name
 * (display names, organisation names, brief titles): the alias rule's set, except the zero-width
 * joiner and non-joiner (U+200D, U+200C), which Indic scripts and Persian need to spell names.
 */
const HIDDEN_IN_SHOWN_TEXT = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/u;

/** Why `text` may not be shown publicly (the first such character), or null when it may. */
export function hiddenCharacterReason(text: string): string | null {
  const notText = nonCharacterReason(text);
  if (notText) return notText;
  const bad = HIDDEN_IN_SHOWN_TEXT.exec(text);
  if (!bad) return null;
  const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `Contains U+${code}, a control, bidirectional or invisible character; these are not allowed in text shown publicly.`;
}

/**
 * Scripts a name's letters are told apart by. A letter of any other script counts as its own
 * script ("other"), so it can still be used on its own but not spliced into a Latin word.
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Ol_Chiki',
  'Arabic',
  'Hebrew',
  'Thai',
  'Ethiopic',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u') }));

function scriptOf(letter: string): string {
  return SCRIPT_PATTERNS.find((s) => s.re.test(letter))?.name ?? 'other';
}

/** Latin with scripts that are written together with it and with each other (UTS #39, "Highly Restrictive"). */
const COMBINED: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];
/** Scripts whose letters pass for Latin ones ("Асme" with a Cyrillic А and с). */
const LATIN_LOOK_ALIKES = new Set(['Cyrillic', 'Greek', 'Armenian', 'Cherokee']);

/**
 * Why a name may not be shown, when one of its words mixes scripts the way a spoof does: a Latin
 * word with a Cyrillic, Greek, Armenian or Cherokee letter in it ("Асme", "Gοogle" with a Greek ο),
 * or letters of two scripts that are not written together. This is the "Moderately Restrictive"
 * level of Unicode's UTS #39 applied per word: a word may use one script, Latin with Han and
 * Japanese or Korean, or Latin with one other script that has no Latin look-alikes. Words in
 * different scripts side by side ("Ravi रवि") are fine; null when nothing is mixed.
 */
export function mixedScriptReason(text: string): string | null {
  for (const match of text.matchAll(/[\p{L}\p{M}]+/gu)) {
    const word = match[0];
    const scripts = new Set([...word].filter((ch) => /\p{L}/u.test(ch)).map(scriptOf));
    if (scripts.size <= 1) continue;
    const list = [...scripts];
    if (COMBINED.some((allowed) => list.every((s) => allowed.includes(s)))) continue;
    if (scripts.size === 2 && scripts.has('Latin') && !list.some((s) => LATIN_LOOK_ALIKES.has(s))) continue;
    const names = list.map((s) => (s === 'other' ? 'another script' : s.replace('_', ' '))).join(' and ');
    return `The word "${word}" mixes ${names} letters, which can make a name pass for another; write each word in one script.`;
  }
  return null;
}
