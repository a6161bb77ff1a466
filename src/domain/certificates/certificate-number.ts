/**
 * Certificate numbers: `VP-7K3M-Q9TD-2XWA`.
 *
 * Twelve Crockford base32 symbols after `VP-`, in three groups of four. The first eleven carry
 * 55 random bits; the twelfth is a check symbol, so a mistyped number is rejected before it
 * costs a database lookup and cannot land on somebody else's certificate.
 *
 * ## The check symbol
 *
 * Crockford's own check symbol is a value mod 37 that needs five extra symbols (`*~$=U`), which
 * would break the all-alphanumeric look. A weighted sum mod 32 cannot work either: 32 is not
 * prime, so some weight differences are zero divisors and some transpositions slip through (a
 * Luhn-style mod-N scheme has the same blind spot, like decimal Luhn with `09` ↔ `90`).
 *
 * Instead each symbol is read as an element of the finite field GF(32) = GF(2)[x]/(x⁵+x²+1), and
 * the check symbol makes the whole number a root of a polynomial (a one-symbol Reed–Solomon /
 * BCH-style parity, the same family as bech32's checksum):
 *
 *     d₀·x¹¹ + d₁·x¹⁰ + … + d₁₀·x + d₁₁ = 0   (in GF(32); d₁₁ is the check symbol)
 *
 * Because GF(32) is a field and x is a primitive element (x⁵+x²+1 is primitive, and the
 * multiplicative group has prime order 31, so x has order 31), every error pattern below changes
 * the sum by a non-zero amount and is therefore always detected:
 *
 * - **any single substitution** at any of the 12 positions: error e·xᵏ with e ≠ 0;
 * - **any transposition** of two different symbols, adjacent or not (positions i < j):
 *   error (dᵢ ⊕ dⱼ)·xᵏ·(x^(j−i) + 1), and x^(j−i) ≠ 1 because 0 < j − i ≤ 11 < 31;
 * - **any twin error** `aa → bb` at positions i < j, for the same reason.
 *
 * What is not guaranteed: two independent substitutions (one in 32 such slips passes), and
 * inserted or dropped symbols are caught by the fixed length instead. The aliases `I`, `L` → `1`
 * and `O` → `0` are not errors at all: they decode to the same value, as in Crockford's decoding.
 */

/** Crockford's base32 alphabet: digits and letters without I, L, O and U. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const CERTIFICATE_NUMBER_PREFIX = 'VP';

/** 11 payload symbols × 5 bits = 55 random bits; the 12th symbol is the check symbol. */
const PAYLOAD_SYMBOLS = 11;
const SYMBOLS = PAYLOAD_SYMBOLS + 1;
const GROUP = 4;

/** x⁵ + x² + 1, a primitive polynomial over GF(2). Bit 5 is the x⁵ term. */
const FIELD_MODULUS = 0b100101;

/**
 * Lookups longer than this are rejected without further work: the canonical form is 17
 * characters, and this leaves room for generous spacing while bounding the cost of bad input.
 */
const MAX_INPUT_LENGTH = 64;

/** Separators people type or paste between groups: ASCII and typographic hyphens, whitespace. */
const SEPARATORS = /[\s\u002d\u2010-\u2015\u2212]/g;

const ASCII = /^[\x20-\x7e]*$/;

/** Crockford's decoding aliases: letters easily misread for digits mean those digits. */
const ALIASES: Readonly<Record<string, string>> = { I: '1', L: '1', O: '0' };

/** `VP-XXXX-XXXX-XXXX` in upper-case Crockford symbols, without aliases. */
const CANONICAL = /^VP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** Each canonical symbol's value by character code; -1 for everything else (the hyphens). */
const SYMBOL_VALUES = Int8Array.from({ length: 128 }, (_, code) =>
  CROCKFORD_ALPHABET.indexOf(String.fromCharCode(code)),
);

/** x·v in GF(32): shift left, and reduce by the modulus when the x⁵ term appears. */
function timesX(v: number): number {
  const shifted = v << 1;
  return shifted & 0b100000 ? shifted ^ FIELD_MODULUS : shifted;
}

/**
 * Evaluates d₀·xⁿ⁻¹ + … + dₙ₋₁ by Horner's rule. Addition in GF(2⁵) is XOR.
 * Zero for every valid 12-symbol number.
 */
function syndrome(values: readonly number[]): number {
  let acc = 0;
  for (const v of values) acc = timesX(acc) ^ v;
  return acc;
}

/** The check value for 11 payload values: the d₁₁ that makes the whole syndrome zero. */
function checkValue(payload: readonly number[]): number {
  // syndrome(payload ++ [c]) = x·syndrome(payload) ⊕ c, which is zero exactly when c equals x·s.
  return timesX(syndrome(payload));
}

function format(values: readonly number[]): string {
  const symbols = values.map((v) => CROCKFORD_ALPHABET[v]).join('');
  const groups: string[] = [];
  for (let i = 0; i < symbols.length; i += GROUP) groups.push(symbols.slice(i, i + GROUP));
  return [CERTIFICATE_NUMBER_PREFIX, ...groups].join('-');
}

function defaultRandom(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/**
 * A new certificate number with 55 random bits, e.g. `VP-7K3M-Q9TD-2XWA`.
 *
 * Numbers are random rather than sequential so they cannot be enumerated on the public
 * verification endpoint. They are not guaranteed unique: 2⁵⁵ makes a collision unlikely
 * (about one in 3.6·10¹⁶ per pair), and the database's unique index is the guarantee — insert,
 * and draw again on a conflict.
 *
 * @param random source of random bytes (injectable for tests); it is asked for 11 bytes and the
 *   low 5 bits of each are used, which stays uniform because 256 is a multiple of 32.
 */
export function generateCertificateNumber(random: (n: number) => Uint8Array = defaultRandom): string {
  const bytes = random(PAYLOAD_SYMBOLS);
  if (bytes.length < PAYLOAD_SYMBOLS)
    throw new RangeError(`random(${PAYLOAD_SYMBOLS}) returned too few bytes`);
  const payload = Array.from(bytes.subarray(0, PAYLOAD_SYMBOLS), (b) => b & 0b11111);
  return format([...payload, checkValue(payload)]);
}

export type CertificateNumberParse =
  | { ok: true; normalised: string }
  | { ok: false; reason: 'format' | 'checksum' };

/**
 * Reads a certificate number the way a person might type it, and returns its canonical form.
 *
 * Lenient like Crockford decoding: case-insensitive; hyphens (including typographic ones pasted
 * from documents) and whitespace may appear anywhere or not at all; `I`/`L` read as `1` and `O`
 * as `0`. The `VP` prefix is required, so a bare 12-symbol code from some other system is not
 * mistaken for a certificate number.
 *
 * - `format`: not `VP` followed by exactly 12 Crockford symbols (wrong length, `U`, punctuation…).
 * - `checksum`: the right shape, but the check symbol does not match — a typo.
 *
 * @example parseCertificateNumber('vp 7k3m q9td 2xwa') // → { ok: true, normalised: 'VP-7K3M-Q9TD-2XWA' } when valid
 */
export function parseCertificateNumber(input: string): CertificateNumberParse {
  // The canonical form (what links and QR codes carry: nearly every lookup) needs no rewriting.
  if (CANONICAL.test(input)) {
    let acc = 0;
    for (let i = CERTIFICATE_NUMBER_PREFIX.length; i < input.length; i++) {
      const value = SYMBOL_VALUES[input.charCodeAt(i)] ?? -1;
      if (value >= 0) acc = timesX(acc) ^ value;
    }
    return acc === 0 ? { ok: true, normalised: input } : { ok: false, reason: 'checksum' };
  }
  if (input.length > MAX_INPUT_LENGTH) return { ok: false, reason: 'format' };
  const stripped = input.replace(SEPARATORS, '');
  // ASCII only: upper-casing would read dotless ı as I (so 1), long ſ as S and ß as SS.
  if (!ASCII.test(stripped)) return { ok: false, reason: 'format' };
  const compact = stripped.toUpperCase();
  if (!compact.startsWith(CERTIFICATE_NUMBER_PREFIX)) return { ok: false, reason: 'format' };
  const body = compact.slice(CERTIFICATE_NUMBER_PREFIX.length);
  if (body.length !== SYMBOLS) return { ok: false, reason: 'format' };

  const values: number[] = [];
  for (const ch of body) {
    const value = CROCKFORD_ALPHABET.indexOf(ALIASES[ch] ?? ch);
    if (value < 0) return { ok: false, reason: 'format' };
    values.push(value);
  }
  if (syndrome(values) !== 0) return { ok: false, reason: 'checksum' };
  return { ok: true, normalised: format(values) };
}

/** True when `input` parses as a certificate number with a matching check symbol. */
export function isValidCertificateNumber(input: string): boolean {
  return parseCertificateNumber(input).ok;
}
