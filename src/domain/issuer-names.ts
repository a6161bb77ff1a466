/**
 * How organisation (issuer) names are compared and which ones may be shown as an issuer at all.
 * A certificate names its issuer; a verifier, a wallet or an employer reads that name, so two
 * verified issuers must never read the same, and a name must not be built to pass for another's.
 *
 * The comparison is Unicode's confusable skeleton (UTS #39 §4), from Unicode's own table
 * (`data/unicode/confusables.txt`, generated into `confusables.generated.ts`), taken after
 * compatibility forms are folded (NFKC), case is folded and combining marks are removed, so an
 * accent, a Coptic ⲟ, a Lisu ꓚ, a small capital ᴏ or a Turkish dotless ı changes nothing.
 */
import { CONFUSABLE_ENTRIES } from './confusables.generated';

let prototypes: Map<string, string> | undefined;

/** Source character → prototype, parsed once per isolate from the generated table. */
function prototypeTable(): Map<string, string> {
  if (prototypes) return prototypes;
  prototypes = new Map();
  for (const entry of CONFUSABLE_ENTRIES.split('\n')) {
    const source = String.fromCodePoint(entry.codePointAt(0) ?? 0);
    prototypes.set(source, entry.slice(source.length));
  }
  return prototypes;
}

const MARKS = /\p{M}/gu;

/** NFD, then without combining marks (accents, diacritics, Indic vowel signs and viramas). */
const withoutMarks = (text: string) => text.normalize('NFD').replace(MARKS, '');

/**
 * Full case folding as far as JavaScript offers it: upper then lower case folds ß to ss, ﬀ to ff,
 * final ς to σ and the Turkish dotless ı to i.
 */
const foldCase = (text: string) => text.toUpperCase().toLowerCase();

const BASIC_LATIN = /^[A-Za-z0-9]+$/;

/**
 * Every character replaced by its prototype. `throughCapital`: a small letter whose prototype is
 * not a basic Latin letter is read through its capital when that one's is (Unicode's table is
 * case-sensitive: the Cyrillic small м is listed with the turned ʍ, its capital М with M, and
 * "Асме" passes for "Acme" in most fonts).
 */
function mapPrototypes(text: string, throughCapital: boolean): string {
  const table = prototypeTable();
  let out = '';
  for (const ch of text) {
    let prototype = table.get(ch) ?? ch;
    if (throughCapital && !BASIC_LATIN.test(prototype)) {
      const capital = ch.toUpperCase();
      const viaCapital = capital !== ch ? (table.get(capital) ?? capital) : prototype;
      if (BASIC_LATIN.test(viaCapital)) prototype = viaCapital;
    }
    out += prototype;
  }
  return out;
}

/**
 * Every Latin small capital (Unicode's "LATIN LETTER SMALL CAPITAL …", IPA, Phonetic Extensions,
 * Latin Extended-D and -G) with the Latin letters it is read as. Unicode's confusables table lists
 * few of them, so "ᴅemo", "Hirinɢ" or a name written all in small capitals passed for the Latin
 * name while Coptic and Lisu look-alikes were caught. Folded before the skeleton is taken.
 */
const SMALL_CAPITALS: Record<string, string> = {
  '\u1D00': 'a', // ᴀ
  '\u1D01': 'ae', // ᴁ
  '\u0299': 'b', // ʙ
  '\u1D03': 'b', // ᴃ barred
  '\u1D04': 'c', // ᴄ
  '\u1D05': 'd', // ᴅ
  '\u1D06': 'd', // ᴆ eth
  '\u1D07': 'e', // ᴇ
  '\uA730': 'f', // ꜰ
  '\u0262': 'g', // ɢ
  '\u029B': 'g', // ʛ with hook
  '\u029C': 'h', // ʜ
  '\u026A': 'i', // ɪ
  '\uA7AE': 'i', // Ɪ (capital of ɪ)
  '\u1D7B': 'i', // ᵻ with stroke
  '\u1D0A': 'j', // ᴊ
  '\u1D0B': 'k', // ᴋ
  '\u029F': 'l', // ʟ
  '\u1D0C': 'l', // ᴌ with stroke
  '\uA7FA': 'm', // ꟺ turned M
  '\u1D0D': 'm', // ᴍ
  '\u0274': 'n', // ɴ
  '\u1D0E': 'n', // ᴎ reversed N
  '\u1D0F': 'o', // ᴏ
  '\u1D10': 'o', // ᴐ open O
  '\u1D11': 'o', // ᴑ sideways O
  '\u0276': 'oe', // ɶ
  '\u1D15': 'ou', // ᴕ
  '\u1D18': 'p', // ᴘ
  '\uA7AF': 'q', // ꞯ
  '\u0280': 'r', // ʀ
  '\u0281': 'r', // ʁ inverted
  '\u1D19': 'r', // ᴙ reversed
  '\u1D1A': 'r', // ᴚ turned
  '\uA731': 's', // ꜱ
  '\u1D1B': 't', // ᴛ
  '\u1D1C': 'u', // ᴜ
  '\u1D7E': 'u', // ᵾ with stroke
  '\u1D20': 'v', // ᴠ
  '\u1D21': 'w', // ᴡ
  '\u028F': 'y', // ʏ
  '\u1D22': 'z', // ᴢ
};
const SMALL_CAPITAL = new RegExp(`[${Object.keys(SMALL_CAPITALS).join('')}]`, 'gu');

/** `text` with every Latin small capital replaced by the Latin letter(s) it is read as. */
export const foldSmallCapitals = (text: string) =>
  text.replace(SMALL_CAPITAL, (ch) => SMALL_CAPITALS[ch] ?? ch);

/**
 * The confusable skeleton of `text`, compared without case: small capitals folded, NFKC, combining marks removed, every
 * character replaced by its UTS #39 prototype as written (a small letter read through its
 * capital when only that one is a Latin look-alike), then case folded and mapped once more (a
 * prototype may be a capital, "ꓚ" → "C", and a small letter has prototypes of its own), with
 * marks removed again. Two texts with the same skeleton are confusable.
 */
export function confusableSkeleton(text: string): string {
  const asWritten = mapPrototypes(withoutMarks(foldSmallCapitals(text.normalize('NFKC'))), true);
  const folded = withoutMarks(foldCase(asWritten));
  return withoutMarks(foldCase(mapPrototypes(folded, false)));
}

/**
 * What makes two organisation names one to a reader: the confusable skeleton, with everything but
 * letters and digits dropped (spacing, punctuation, and what a symbol's prototype became: "Coǃ"
 * is "Co!"), and the letters many fonts draw alike merged beyond Unicode's table: 1, i and l;
 * 0 and o; "rn" and m; "vv" and w. Verified organisations may not share a key (the `name_key`
 * index); a change here needs a migration that sets `organisations.name_key` to NULL, so the cron
 * re-keys the verified rows (`backfillOrganisationNameKeys`).
 */
export function organisationNameKey(name: string): string {
  return confusableSkeleton(name)
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .replace(/[1il]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** The script of a letter, by its Unicode Script property; null for Common and Inherited. */
function scriptOf(letter: string): string | null {
  if (/\p{Script=Latin}/u.test(letter)) return 'Latin';
  if (/[\p{Script=Common}\p{Script=Inherited}]/u.test(letter)) return null;
  return 'other';
}

/**
 * Why a name may not be an issuer's name, when it mixes Latin letters with letters of any other
 * script anywhere in it ("Demo Hiring Cⲟ" with a Coptic ⲟ, "Demo Hiring ꓚo" with a Lisu ꓚ): such a
 * name is treated as a look-alike unless the whole name is in one script. Names wholly in one
 * script ("Acme", "इन्फोसिस", "株式会社") pass; null when nothing is mixed.
 */
export function issuerScriptReason(name: string): string | null {
  let latin: string | null = null;
  let other: string | null = null;
  for (const ch of name.normalize('NFKC')) {
    if (!/\p{L}/u.test(ch)) continue;
    const script = scriptOf(ch);
    if (script === 'Latin') latin ??= ch;
    else if (script === 'other') other ??= ch;
  }
  if (latin === null || other === null) return null;
  const code = (other.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `The name mixes Latin letters with "${other}" (U+${code}) from another script, which makes it a look-alike of a Latin name; write the whole name in one script.`;
}
