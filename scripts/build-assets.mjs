#!/usr/bin/env node
// Writes the static files that are generated rather than committed into public/ (Workers Static
// Assets, wrangler.toml [assets]), so the Worker does not carry them (issue 54):
// - public/docs/scalar.js: Scalar's standalone API-reference script, copied from the pinned npm
//   package (the /docs page names it by its integrity hash);
// - public/changelog.md: CHANGELOG.md as it is (the /changelog answer for clients that take text);
// - public/changelog.html: CHANGELOG.md rendered to HTML (CommonMark + GFM by micromark) with a
//   table of contents by version, linking /assets/site.css (the /changelog answer for browsers).
// Run by wrangler itself before `wrangler dev` and `wrangler deploy` (wrangler.toml [build]), and
// by vitest.config.ts before the tests, so the copies are never committed and never stale.
// Idempotent; only writes files whose bytes changed.
// Decisions: docs/decisions/0320-static-assets-built-not-committed.md, 0321-changelog-as-html.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC = join(ROOT, 'public');

/**
 * Writes `bytes` at public/`path` unless the file already holds exactly them.
 * @param {string} path
 * @param {Uint8Array | string} bytes
 */
function emit(path, bytes) {
  const target = join(PUBLIC, path);
  try {
    if (Buffer.compare(readFileSync(target), Buffer.from(bytes)) === 0) return;
  } catch {}
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
}

/** @param {string} html */
const textOf = (html) =>
  html
    .replace(/<[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');

/** @param {string} text */
const escapeHtml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * A heading's anchor: lower case, letters and digits joined by single hyphens; unique in the page.
 * @param {string} text
 * @param {Set<string>} taken
 */
function slug(text, taken) {
  const base =
    text
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'section';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * CHANGELOG.md as one HTML page: its headings get anchors, and a table of contents lists each
 * version (`##`) with its sections (`###`). Raw HTML in the Markdown is escaped, not passed through.
 * @param {string} markdown
 * @returns {string}
 */
export function renderChangelog(markdown) {
  const body = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  const taken = new Set(['toc-title']);
  /** @type {{ level: number, id: string, text: string }[]} */
  const headings = [];
  const withAnchors = body.replace(/<h([1-3])>([\s\S]*?)<\/h\1>/g, (_, level, inner) => {
    const text = textOf(inner);
    const id = slug(text, taken);
    if (level !== '1') headings.push({ level: Number(level), id, text });
    return `<h${level} id="${id}">${inner}</h${level}>`;
  });
  let toc = '';
  let open = false;
  for (const { level, id, text } of headings) {
    const link = `<a href="#${id}">${escapeHtml(text)}</a>`;
    if (level === 2) {
      if (open) toc += '</ul></li>';
      toc += `<li>${link}<ul>`;
      open = true;
    } else toc += `<li>${link}</li>`;
  }
  if (open) toc += '</ul></li>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Changelog: Verification Platform Core API</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/assets/site.css">
<link rel="alternate" type="text/markdown" href="/changelog.md">
</head>
<body class="changelog">
<main>
<nav aria-labelledby="toc-title" class="toc">
<h2 id="toc-title">Contents</h2>
<ul>${toc}</ul>
</nav>
<article>
${withAnchors}</article>
<p class="note">Also as Markdown: <a href="/changelog.md">/changelog.md</a>. The API reference: <a href="/docs">/docs</a>.</p>
</main>
</body>
</html>
`;
}

export function buildAssets() {
  emit(
    'docs/scalar.js',
    readFileSync(join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js')),
  );
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  emit('changelog.md', changelog);
  emit('changelog.html', renderChangelog(changelog));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildAssets();
