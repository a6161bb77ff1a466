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

export function normaliseAlias(raw: string): AliasVerdict {
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
  const bad = HIDDEN_IN_SHOWN_TEXT.exec(text);
  if (!bad) return null;
  const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `Contains U+${code}, a control, bidirectional or invisible character; these are not allowed in text shown publicly.`;
}
