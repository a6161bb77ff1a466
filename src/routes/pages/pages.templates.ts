/**
 * The HTML of the embeddable leaderboard (framed by partner sites, so self-contained: its own
 * inline style and script, allowed by hash in its CSP). Every value goes through Hono's `html`
 * template, which escapes it. The other pages are on the one layout (layout.ts).
 */

import { html, raw } from 'hono/html';
import type { Leaderboard } from '../../domain/leaderboard';
import { type Html, htmlString } from '../../domain/pages/html';
import type { ProblemBody } from '../../lib/problem';
import { EMBED_CSS, EMBED_SCRIPT } from './pages.assets';

export type Theme = 'light' | 'dark';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

const _date = (iso: string) => html`<time datetime="${iso}">${DATE.format(new Date(iso))}</time>`;
const dateTime = (iso: string) => html`<time datetime="${iso}">${DATE_TIME.format(new Date(iso))} UTC</time>`;

function embedDocument(theme: Theme, title: string, body: Html): string {
  return htmlString(html`<!doctype html>
<html lang="en" class="${theme}">
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
function aliasCell(e: Leaderboard['entries'][number]): Html | string {
  if (!e.certificateNo) return e.alias;
  return html`<a href="/verify/${e.certificateNo}" target="_blank" rel="noopener">${e.alias}<span class="vh"> (certificate ${e.certificateNo}, opens in a new tab)</span></a>`;
}

/** `GET /embed/leaderboard`: a table of the consenting candidates of a domain. */
export function embedPage(board: Leaderboard, theme: Theme): string {
  const scope = board.domain ?? 'all domains';
  const rows =
    board.entries.length === 0
      ? html`<tr><td class="empty" colspan="4">No candidates to show yet.</td></tr>`
      : board.entries.map(
          (e) => html`<tr>
<td><span class="rank">${e.rank}</span></td>
<td class="alias">${aliasCell(e)}</td>
<td class="num">${e.certificates}</td>
<td class="num">${scoreText(e.averageEmployerScore)}</td>
</tr>
`,
        );
  return embedDocument(
    theme,
    `Leaderboard: ${scope}`,
    html`<table>
<caption>Leaderboard: ${scope}</caption>
<thead><tr><th scope="col">Rank</th><th scope="col">Candidate</th><th scope="col" class="num">Certificates</th><th scope="col" class="num">Avg. employer score</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
<p class="note">Only candidates who chose to appear are listed; a linked name opens that candidate's certificate. Certificates are verified by Verification Platform; scores are employers' ratings out of 5. Updated ${dateTime(board.generatedAt)}.</p>`,
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
