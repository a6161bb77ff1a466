import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_ALPHABET,
  generateCertificateNumber,
  isValidCertificateNumber,
  parseCertificateNumber,
} from './certificate-number';

const SYMBOLS = 12;

/** A number whose 11 payload symbols are exactly `values` (the injected random bytes). */
function numberFromPayload(values: readonly number[]): string {
  return generateCertificateNumber((n) => Uint8Array.from(values.slice(0, n)));
}

/** The 12 symbols of a canonical number, without prefix and hyphens. */
function symbolsOf(number: string): string[] {
  return [...number.slice(3).replaceAll('-', '')];
}

/** Re-assembles 12 symbols into the canonical layout. */
function assemble(symbols: readonly string[]): string {
  const s = symbols.join('');
  return `VP-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}`;
}

/**
 * A valid number with the given symbol values at the given positions (0–11; 11 is the check
 * symbol). Free payload positions are filled from `seed`; when the check symbol is pinned, one
 * free payload position is searched, and exactly one of its 32 values fits because each payload
 * symbol enters the check linearly and bijectively.
 */
function validNumberWith(pinned: ReadonlyMap<number, number>, seed: number): string {
  const payload = Array.from({ length: 11 }, (_, i) => pinned.get(i) ?? (seed * 7 + i * 13) % 32);
  const wantCheck = pinned.get(11);
  if (wantCheck === undefined) return numberFromPayload(payload);
  const free = payload.findIndex((_, i) => !pinned.has(i));
  for (let v = 0; v < 32; v++) {
    payload[free] = v;
    const candidate = numberFromPayload(payload);
    if (symbolsOf(candidate)[11] === CROCKFORD_ALPHABET[wantCheck]) return candidate;
  }
  throw new Error('no payload value produced the wanted check symbol');
}

/** Deterministic pseudo-random bytes, so a failure names a reproducible case. */
function seededRandom(seed: number): (n: number) => Uint8Array {
  let state = seed >>> 0 || 1;
  return (n) =>
    Uint8Array.from({ length: n }, () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state & 0xff;
    });
}

describe('generateCertificateNumber', () => {
  it('has the VP-XXXX-XXXX-XXXX shape in Crockford base32', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateCertificateNumber()).toMatch(
        /^VP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/,
      );
    }
  });

  it('uses 11 random symbols and appends the check symbol', () => {
    const number = numberFromPayload([7, 20, 3, 19, 23, 9, 26, 13, 2, 29, 28]);
    expect(number.slice(0, 16)).toBe('VP-7M3K-Q9TD-2XW');
    expect(parseCertificateNumber(number)).toEqual({ ok: true, normalised: number });
  });

  it('every generated number parses to itself (property, 2,000 seeded draws)', () => {
    const random = seededRandom(2024);
    for (let i = 0; i < 2000; i++) {
      const number = generateCertificateNumber(random);
      expect(parseCertificateNumber(number)).toEqual({ ok: true, normalised: number });
    }
  });

  it('keeps its check symbol stable (known answers: issued numbers must stay valid forever)', () => {
    expect(numberFromPayload([7, 19, 3, 20, 23, 9, 26, 13, 2, 29, 28])).toBe('VP-7K3M-Q9TD-2XWV');
    expect(numberFromPayload([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBe('VP-0000-0000-0000');
    expect(numberFromPayload([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])).toBe('VP-0000-0000-0012');
    // The illustration in PRODUCT.md has the right shape but not a matching check symbol.
    expect(parseCertificateNumber('VP-7K3M-Q9TD-2XWA')).toEqual({ ok: false, reason: 'checksum' });
  });

  it('refuses a random source that returns too few bytes', () => {
    expect(() => generateCertificateNumber(() => new Uint8Array(3))).toThrow(RangeError);
  });
});

describe('parseCertificateNumber leniency', () => {
  const number = numberFromPayload([7, 20, 3, 19, 23, 9, 26, 13, 2, 29, 28]);
  const compact = number.replaceAll('-', '');
  /** A valid number with a 1 typed as a dotless ı (which upper-cases to I, an alias of 1). */
  const withDotlessI = () => numberFromPayload([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]).replace('1', '\u0131');

  it.each([
    ['lowercase', number.toLowerCase()],
    ['no hyphens', compact],
    ['spaces instead of hyphens', number.replaceAll('-', ' ')],
    ['hyphens in odd places', `${compact.slice(0, 5)}-${compact.slice(5, 6)}--${compact.slice(6)}`],
    ['surrounding whitespace', `  ${number}\n`],
    ['typographic dashes', number.replaceAll('-', '\u2013')],
  ])('accepts %s', (_, input) => {
    expect(parseCertificateNumber(input)).toEqual({ ok: true, normalised: number });
  });

  it('reads I and L as 1 and O as 0', () => {
    const withOnes = numberFromPayload([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    const typed = withOnes.replace('VP-', 'vp').replaceAll('1', 'I').replaceAll('0', 'o');
    expect(parseCertificateNumber(typed)).toEqual({ ok: true, normalised: withOnes });
    expect(parseCertificateNumber(withOnes.replaceAll('1', 'l'))).toEqual({ ok: true, normalised: withOnes });
  });

  it.each([
    ['missing prefix', number.slice(3)],
    ['other prefix', `XP${number.slice(2)}`],
    ['a symbol short', number.slice(0, -1)],
    ['a symbol too many', `${number}0`],
    ['U, which Crockford excludes', `${number.slice(0, -1)}U`],
    ['punctuation', `${number.slice(0, -1)}!`],
    ['empty', ''],
    ['very long input', `${number}${' '.repeat(100)}`],
    // Upper-casing would make these the Latin letters of a valid number (ı → I → 1, ſ → S).
    ['a dotless ı for I', withDotlessI()],
    [
      'a long ſ for S',
      numberFromPayload([25, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).toLowerCase().replace('s', '\u017f'),
    ],
    ['a fullwidth digit', number.replace(/\d/, (d) => String.fromCharCode(0xff10 + Number(d)))],
  ])('rejects %s as format', (_, input) => {
    expect(parseCertificateNumber(input)).toEqual({ ok: false, reason: 'format' });
    expect(isValidCertificateNumber(input)).toBe(false);
  });
});

describe('check symbol guarantees (exhaustive)', () => {
  it('catches every single-symbol substitution at every position, for every original symbol', () => {
    let cases = 0;
    for (let position = 0; position < SYMBOLS; position++) {
      for (let original = 0; original < 32; original++) {
        const number = validNumberWith(new Map([[position, original]]), position + original);
        const symbols = symbolsOf(number);
        expect(symbols[position]).toBe(CROCKFORD_ALPHABET[original]);
        for (const replacement of CROCKFORD_ALPHABET) {
          if (replacement === symbols[position]) continue;
          const typo = symbols.slice();
          typo[position] = replacement;
          expect(parseCertificateNumber(assemble(typo)), `${number} → ${assemble(typo)}`).toEqual({
            ok: false,
            reason: 'checksum',
          });
          cases++;
        }
      }
    }
    expect(cases).toBe(SYMBOLS * 32 * 31);
  });

  it('catches every adjacent transposition of two different symbols, check symbol included', () => {
    let cases = 0;
    for (let position = 0; position < SYMBOLS - 1; position++) {
      for (let a = 0; a < 32; a++) {
        for (let b = 0; b < 32; b++) {
          if (a === b) continue;
          const number = validNumberWith(
            new Map([
              [position, a],
              [position + 1, b],
            ]),
            a * 32 + b,
          );
          const swapped = symbolsOf(number);
          [swapped[position], swapped[position + 1]] = [swapped[position + 1]!, swapped[position]!];
          expect(parseCertificateNumber(assemble(swapped)), `${number} → ${assemble(swapped)}`).toEqual({
            ok: false,
            reason: 'checksum',
          });
          cases++;
        }
      }
    }
    expect(cases).toBe((SYMBOLS - 1) * 32 * 31);
  });

  it('catches every transposition at any distance and every twin error (aa → bb)', () => {
    // The code is linear, so whether an error is caught does not depend on the rest of the
    // number; pinning the two positions covers every (position pair, symbol pair) exactly.
    const missed: string[] = [];
    let cases = 0;
    for (let i = 0; i < SYMBOLS; i++) {
      for (let j = i + 1; j < SYMBOLS; j++) {
        for (let a = 0; a < 32; a++) {
          for (let b = 0; b < 32; b++) {
            if (a === b) continue;
            const transposable = symbolsOf(
              validNumberWith(
                new Map([
                  [i, a],
                  [j, b],
                ]),
                i + j,
              ),
            );
            [transposable[i], transposable[j]] = [transposable[j]!, transposable[i]!];
            if (isValidCertificateNumber(assemble(transposable))) missed.push(assemble(transposable));

            const twin = symbolsOf(
              validNumberWith(
                new Map([
                  [i, a],
                  [j, a],
                ]),
                i + j,
              ),
            );
            twin[i] = CROCKFORD_ALPHABET[b]!;
            twin[j] = CROCKFORD_ALPHABET[b]!;
            if (isValidCertificateNumber(assemble(twin))) missed.push(assemble(twin));
            cases += 2;
          }
        }
      }
    }
    expect(missed).toEqual([]);
    expect(cases).toBe(2 * ((SYMBOLS * (SYMBOLS - 1)) / 2) * 32 * 31);
  });

  it('property: random numbers reject all their single typos and adjacent swaps', () => {
    const random = seededRandom(7);
    const missed: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const number = generateCertificateNumber(random);
      const symbols = symbolsOf(number);
      for (let p = 0; p < SYMBOLS; p++) {
        for (const replacement of CROCKFORD_ALPHABET) {
          if (replacement === symbols[p]) continue;
          const typo = symbols.slice();
          typo[p] = replacement;
          if (isValidCertificateNumber(assemble(typo))) missed.push(assemble(typo));
        }
        if (p < SYMBOLS - 1 && symbols[p] !== symbols[p + 1]) {
          const swapped = symbols.slice();
          [swapped[p], swapped[p + 1]] = [swapped[p + 1]!, swapped[p]!];
          if (isValidCertificateNumber(assemble(swapped))) missed.push(assemble(swapped));
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('lets about 1 in 32 double substitutions through, as a single check symbol must', () => {
    // Documents the limit rather than a guarantee: two independent slips can cancel.
    const number = numberFromPayload([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const symbols = symbolsOf(number);
    let undetected = 0;
    let total = 0;
    for (const a of CROCKFORD_ALPHABET.slice(1)) {
      for (const b of CROCKFORD_ALPHABET.slice(1)) {
        const typo = symbols.slice();
        typo[0] = a;
        typo[5] = b;
        total++;
        if (isValidCertificateNumber(assemble(typo))) undetected++;
      }
    }
    expect(undetected).toBe(31);
    expect(total).toBe(31 * 31);
  });
});
