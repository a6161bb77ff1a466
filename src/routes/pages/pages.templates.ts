/**
 * The HTML of the embeddable leaderboard (framed by partner sites, so self-contained: its own
 * inline style and script, allowed by hash in its CSP). Every value goes through Hono's `html`
 * template, which escapes it. The other pages are on the one layout (layout.ts).
 */

import { html, raw } from 'hono/html';
import type { Leaderboard } from '../../domain/leaderboard';
import { type Html, htmlString } from '../../domain/pages/html';
import type { ProblemBody } from '../../lib/problem';
import { type Lang, t } from './i18n';
import { EMBED_CSS, EMBED_SCRIPT } from './pages.assets';

export type Theme = 'light' | 'dark';

const dateTimeFormats = new Map<Lang, Intl.DateTimeFormat>();
function dateTime(iso: string, lang: Lang): Html {
  let format = dateTimeFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(t(lang).date.locale, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    dateTimeFormats.set(lang, format);
  }
  return html`<time datetime="${iso}">${format.format(new Date(iso))} UTC</time>`;
}

function embedDocument(theme: Theme, title: string, body: Html, lang: Lang = 'en'): string {
  return htmlString(html`<!doctype html>
<html lang="${lang}" class="${theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(EMBED_CSS)}</style>
</head>
<body>
<main>
${body}
</main>
<script>${raw(EMBED_SCRIPT)}</script>
</body>
</html>
`);
}

const scoreText = (score: number | null) => (score === null ? '–' : score.toFixed(1));

/**
 * A candidate's name, linked to their certificate's page when they made it public (the board
 * carries the number only then). From inside a partner's frame the page opens in a new tab,
 * without a handle back to the frame (`noopener`); the loader's sandbox allows that tab.
 */
function aliasCell(e: Leaderboard['entries'][number], lang: Lang): Html | string {
  if (!e.certificateNo) return e.alias;
  return html`<a href="/verify/${e.certificateNo}${lang === 'en' ? '' : `?lang=${lang}`}" target="_blank" rel="noopener">${e.alias}<span class="vh">${t(lang).embed.opensCertificate(e.certificateNo)}</span></a>`;
}

/** `GET /embed/leaderboard`: a table of the consenting candidates of a domain, in `lang`. */
export function embedPage(board: Leaderboard, theme: Theme, lang: Lang = 'en'): string {
  const s = t(lang).embed;
  const scope = board.domain ?? s.allDomains;
  const rows =
    board.entries.length === 0
      ? html`<tr><td class="empty" colspan="4">${s.empty}</td></tr>`
      : board.entries.map(
          (e) => html`<tr>
<td><span class="rank">${e.rank}</span></td>
<td class="alias">${aliasCell(e, lang)}</td>
<td class="num">${e.certificates}</td>
<td class="num">${scoreText(e.averageEmployerScore)}</td>
</tr>
`,
        );
  return embedDocument(
    theme,
    s.caption(scope),
    html`<table>
<caption>${s.caption(scope)}</caption>
<thead><tr><th scope="col">${s.rank}</th><th scope="col">${s.candidate}</th><th scope="col" class="num">${s.certificates}</th><th scope="col" class="num">${s.score}</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
<p class="note">${s.note} ${s.updated} ${dateTime(board.generatedAt, lang)}.</p>`,
    lang,
  );
}

/** An error inside the embed (bad parameters, rate limit): framable, in the requested theme. */
export function embedErrorPage(problem: ProblemBody, theme: Theme): string {
  return embedDocument(
    theme,
    problem.title,
    html`<h1>${problem.title}</h1>
<p>${problem.detail}</p>
${problem.errors?.length ? html`<ul>${problem.errors.map((e) => html`<li><code>${e.pointer}</code>: ${e.detail}</li>`)}</ul>` : ''}`,
  );
}
