/**
 * The catalogues loaded. English always; Hindi once its module (./hi.ts) has been evaluated: the
 * app imports it with itself (src/app.ts), and a cold isolate's certificate page imports it only
 * when the visitor asks for Hindi (`loadCatalogue` in ./index.ts), so an English page's first
 * request does not parse it (issue 54, decision 0328).
 */
import { type Catalogue, en } from './en';

export type Lang = 'en' | 'hi';

const CATALOGUES: { en: Catalogue; hi?: Catalogue } = { en };

/** Called by ./hi.ts when it is evaluated. */
export function registerCatalogue(lang: Exclude<Lang, 'en'>, catalogue: Catalogue): void {
  CATALOGUES[lang] = catalogue;
}

export const catalogueLoaded = (lang: Lang): boolean => CATALOGUES[lang] !== undefined;

/** The strings of a language (loaded: see `CATALOGUES`). */
export function t(lang: Lang): Catalogue {
  const catalogue = CATALOGUES[lang];
  if (!catalogue) throw new Error(`The ${lang} catalogue is not loaded (loadCatalogue)`);
  return catalogue;
}
