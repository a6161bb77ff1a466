/**
 * The pages' languages: a catalogue per language and the choice of one for a request, by
 * `?lang=` first, then the browser's `Accept-Language` (RFC 9110 §12.5.4, with q-values),
 * English otherwise.
 */
import type { Catalogue } from './en';
import { catalogueLoaded, type Lang } from './registry';

export { t } from './registry';
export type { Catalogue, Lang };
export const LANGUAGES = ['en', 'hi'] as const satisfies readonly Lang[];

/** Makes `t(lang)` answer: at once when the catalogue is loaded, else after importing it. */
export function loadCatalogue(lang: Lang): Promise<void> | undefined {
  if (catalogueLoaded(lang)) return undefined;
  return import('./hi').then(() => undefined);
}

export const isLang = (value: unknown): value is Lang => value === 'en' || value === 'hi';

/** The best language of ours in an `Accept-Language` header, or null when none is acceptable. */
export function fromAcceptLanguage(header: string | null | undefined): Lang | null {
  if (!header) return null;
  let best: Lang | null = null;
  let bestQ = 0;
  for (const part of header.slice(0, 500).split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const tag = range.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    if (q <= 0) continue;
    const primary = tag.split('-')[0];
    const lang = isLang(primary) ? primary : tag === '*' ? 'en' : null;
    // Ties keep the earlier range (the header's order is the browser's preference).
    if (lang && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}

/** The language of a page: `?lang=en|hi`, else `Accept-Language`, else English. */
export function chooseLanguage(request: Request): Lang {
  const url = new URL(request.url);
  const asked = url.searchParams.get('lang');
  if (isLang(asked)) return asked;
  return fromAcceptLanguage(request.headers.get('Accept-Language')) ?? 'en';
}
