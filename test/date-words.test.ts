/**
 * The certificate page's dates in words come from the catalogues' month names, not a formatter
 * (decision 0327: a cold isolate's first `Intl.DateTimeFormat` of a language costs its first page
 * milliseconds). The words must be the very bytes `Intl.DateTimeFormat(locale, { dateStyle:
 * 'long', timeZone: 'UTC' })` gives in this runtime, in both languages, for every month, single-
 * and double-digit days, instants near midnight UTC and the years a certificate can carry.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, t } from '../src/routes/pages/i18n';
import { dateInWords } from '../src/routes/pages/verify.templates';

const viaIntl = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

const INSTANTS = [
  ...Array.from({ length: 12 }, (_, m) => `2026-${String(m + 1).padStart(2, '0')}-02T10:00:00.000Z`),
  ...Array.from({ length: 12 }, (_, m) => `2031-${String(m + 1).padStart(2, '0')}-28T23:59:59.999Z`),
  '2024-02-29T00:00:00.000Z',
  '2026-12-31T23:30:00+05:30',
  '2027-01-01T00:00:00-08:00',
  '1999-10-31',
  '2100-07-15T12:00:00Z',
  '9999-12-31T00:00:00Z',
  '0999-06-01T00:00:00Z',
];

describe('dateInWords', () => {
  for (const lang of LANGUAGES) {
    it(`gives Intl's words for ${lang}, byte for byte`, () => {
      for (const iso of INSTANTS) {
        expect(String(dateInWords(iso, lang)), iso).toBe(
          `<time datetime="${iso}">${viaIntl(iso, t(lang).date.locale)}</time>`,
        );
      }
    });
  }

  it('leaves text that is not a date as it is', () => {
    expect(String(dateInWords('not a date', 'en'))).toBe('not a date');
  });
});
