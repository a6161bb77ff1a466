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

export { chooseLanguage, fromAcceptLanguage, isLang } from './choice';
