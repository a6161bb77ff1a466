/**
 * The one layout of every human-facing page (issue 52): `<html lang>`, a header naming the
 * platform, a skip link, a footer with the verify, docs and sign-in links and the language
 * switch, the favicon, the one stylesheet (`/assets/site.css`, a static asset) and an Open Graph
 * slot. Pages pass their body as `html` markup (escaped values); scripts are static files under
 * `/assets/`, so the page's CSP allows `'self'` and nothing inline.
 */
import { html, raw } from 'hono/html';
import { type Html, htmlString } from '../../domain/pages/html';
import { type Lang, t } from './i18n';

export type { Html };

/** Open Graph and Twitter card tags of a page that is shared (a certificate). */
export type OpenGraph = {
  title: string;
  description: string;
  /** Absolute URL of the page. */
  url: string;
  /** Absolute URL of a PNG (1200×630 or square). */
  image?: string;
  imageAlt?: string;
  type?: 'website' | 'article';
};

export type LayoutOptions = {
  /** The page's own title; the platform's name is added after it. */
  title: string;
  lang: Lang;
  body: Html;
  /** Extra markup for <head> (link rel=alternate, meta…). */
  head?: Html;
  og?: OpenGraph;
  /** Absolute paths of static scripts (`/assets/….js`), loaded with `defer`. */
  scripts?: readonly string[];
  /** The page's path and query without `lang`, for the language links (default: no links). */
  path?: string;
  /** Ask search engines not to index (certificates, errors). Default true. */
  noindex?: boolean;
  /** A narrower reading column (forms, OAuth). */
  narrow?: boolean;
  /**
   * Whether a session is signed in: the header and the footer then offer "Your certificates"
   * instead of "Sign in". Every page that can be seen signed in passes it (pages.viewer.ts).
   */
  signedIn?: boolean;
};

export const STYLESHEET = '/assets/site.css';
export const FAVICON_SVG = '/favicon.svg';
export const FAVICON_PNG = '/favicon.png';

/** The platform's mark: a shield with a tick, drawn inline in the header (no request). */
export const LOGO = raw(
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><path fill="#fff" d="M16 2 4 6.5v8.2C4 22.4 9.1 28.6 16 30c6.9-1.4 12-7.6 12-15.3V6.5z"/><path fill="none" stroke="#0b3d91" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round" d="m10 16.5 4.2 4.2L22.5 12"/></svg>',
);

/** `path` with `lang=…` set (the language switch). */
export function withLang(path: string, lang: Lang): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A form's action: its route with the page's language, which the answer keeps (`/me?lang=…`). */
export const formAction = (path: string, lang: Lang): string => withLang(path, lang);

function ogTags(og: OpenGraph, lang: Lang): Html {
  return html`<meta property="og:type" content="${og.type ?? 'website'}">
<meta property="og:site_name" content="${t(lang).site.name}">
<meta property="og:title" content="${og.title}">
<meta property="og:description" content="${og.description}">
<meta property="og:url" content="${og.url}">
<meta property="og:locale" content="${lang === 'hi' ? 'hi_IN' : 'en_GB'}">
${og.image ? html`<meta property="og:image" content="${og.image}">\n<meta name="twitter:image" content="${og.image}">\n` : ''}${og.image && og.imageAlt ? html`<meta property="og:image:alt" content="${og.imageAlt}">\n<meta name="twitter:image:alt" content="${og.imageAlt}">\n` : ''}<meta name="twitter:card" content="${og.image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${og.title}">
<meta name="twitter:description" content="${og.description}">
<meta name="description" content="${og.description}">
<link rel="canonical" href="${og.url}">
`;
}

/** A whole page. */
export function layout(o: LayoutOptions): string {
  const s = t(o.lang).site;
  const other: Lang = o.lang === 'en' ? 'hi' : 'en';
  const scripts = (o.scripts ?? []).map((src) => html`<script src="${src}" defer></script>\n`);
  // The site's own pages keep the page's language (the API documentation and changelog are English).
  const verifyHref = withLang('/verify', o.lang);
  const meHref = withLang('/me', o.lang);
  const account = o.signedIn ? s.yourAccount : s.signIn;
  return htmlString(html`<!doctype html>
<html lang="${o.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · ${s.name}</title>
${o.noindex === false ? '' : html`<meta name="robots" content="noindex">\n`}<meta name="theme-color" content="#0b3d91">
<link rel="icon" href="${FAVICON_SVG}" type="image/svg+xml">
<link rel="icon" href="${FAVICON_PNG}" type="image/png" sizes="32x32">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="stylesheet" href="${STYLESHEET}">
${o.og ? ogTags(o.og, o.lang) : ''}${o.head ?? ''}${scripts}</head>
<body>
<a class="skip-link" href="#main">${s.skip}</a>
<header class="header">
<div class="header__inner">
<a class="header__brand" href="${withLang('/', o.lang)}">${LOGO}<span>${s.name}</span></a>
<nav aria-label="${s.navLabel}">
<ul class="header__nav">
<li><a href="${verifyHref}">${s.verify}</a></li>
<li><a href="/docs">${s.docs}</a></li>
<li><a href="${meHref}" id="nav-account">${account}</a></li>
</ul>
</nav>
</div>
</header>
<div class="page">
${o.path !== undefined ? html`<div class="phase"><span>${s.tagline}</span><a href="${withLang(o.path, other)}" lang="${other}" hreflang="${other}">${s.otherLanguage}</a></div>\n` : ''}<main id="main" class="main${o.narrow ? ' main--narrow' : ''}" tabindex="-1">
${o.body}
</main>
</div>
<footer class="footer">
<div class="footer__inner">
<h2 class="visually-hidden">${s.name}</h2>
<ul class="footer__links">
<li><a href="${verifyHref}">${s.verify}</a></li>
<li><a href="/docs">${s.docs}</a></li>
<li><a href="${meHref}" id="footer-account">${account}</a></li>
<li><a href="/changelog">${s.changelog}</a></li>
</ul>
<p class="small">${s.footerAbout}</p>
</div>
</footer>
</body>
</html>
`);
}

export type CspOptions = {
  /** Extra origins forms may post to (an OAuth client's redirect). */
  formAction?: readonly string[];
  /** Extra image sources (e.g. `data:` is always allowed for inline QR codes). */
  img?: readonly string[];
};

/**
 * The CSP of a page on this layout: the stylesheet, scripts, images and fetches of its own
 * origin, forms posting here, never framed.
 */
export function pageCsp(o: CspOptions = {}): string {
  const form = ["'self'", ...(o.formAction ?? [])].join(' ');
  const img = ["'self'", 'data:', ...(o.img ?? [])].join(' ');
  return `default-src 'none'; style-src 'self'; script-src 'self'; img-src ${img}; connect-src 'self'; form-action ${form}; frame-ancestors 'none'; base-uri 'none'`;
}

/**
 * The headers every layout page sends besides its body: type, CSP, its language and that it
 * varies on `Accept-Language` (the language is chosen by it when `?lang=` is absent).
 */
export function pageHeaders(lang: Lang, o: CspOptions = {}): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp(o),
    'Content-Language': lang,
    Vary: 'Accept-Language',
  };
}
