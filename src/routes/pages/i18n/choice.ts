/**
 * The choice of a page's language for a request, by `?lang=` first, then the browser's
 * `Accept-Language` (RFC 9110 §12.5.4, with q-values), English otherwise. Apart from the
 * catalogues (./registry.ts imports English's), so a cold isolate's entry can choose the language
 * of a pre-drawn certificate page without evaluating any (decision 0339).
 */
import type { Lang } from './registry';

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
