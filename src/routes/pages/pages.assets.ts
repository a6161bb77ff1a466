/**
 * The inline styles and scripts of the human-facing pages, and the Content-Security-Policies
 * that allow exactly them (by SHA-256 hash) and nothing else. Each asset is a constant, so its
 * hash is computed once per isolate and the pages stay cacheable (no per-request nonce).
 */
import { cspHash } from '../../domain/pages/html';

/** Embed: light by default, `html.dark` for `theme=dark`. Contrast ≥ 4.5:1 for all text in both. */
export const EMBED_CSS = `
:root{color-scheme:light;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;--badge:#ddf4ff;--badge-fg:#0a3069;--link:#0550ae}
html.dark{color-scheme:dark;--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--head:#161b22;--badge:#0c2d6b;--badge-fg:#cae8ff;--link:#79c0ff}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{padding:12px 14px}
h1{font-size:15px;margin:0 0 8px}
table{width:100%;border-collapse:collapse}
caption{text-align:left;font-weight:600;font-size:15px;padding:0 0 8px}
th,td{padding:7px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:baseline}
thead th{background:var(--head);font-size:12px;font-weight:600;color:var(--muted)}
.num{text-align:right;font-variant-numeric:tabular-nums}
td.num{white-space:nowrap}
thead th{hyphens:auto}
@media (max-width:24em){main{padding:8px 6px}th,td{padding:6px 4px}thead th{font-size:11px}.rank{min-width:1.6em;padding:1px 4px}}
.rank{display:inline-block;min-width:1.9em;padding:1px 6px;border-radius:999px;background:var(--badge);color:var(--badge-fg);font-weight:700;text-align:center}
.alias{overflow-wrap:anywhere;font-weight:500}
.empty{color:var(--muted);text-align:center;padding:16px 8px}
p.note{margin:8px 0 0;font-size:12px;color:var(--muted)}
a{color:var(--link);text-decoration:underline;text-underline-offset:2px}
a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
`.trim();

/**
 * Embed: tells the embedding page (the `/embed/leaderboard.js` loader) how tall the content is,
 * so the iframe fits it. Posts only a number; the loader checks the message's source window.
 */
export const EMBED_SCRIPT = `
(function () {
  if (window.parent === window) return;
  function post() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    window.parent.postMessage({ type: 'vp-embed:height', height: height }, '*');
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(post).observe(document.documentElement);
  else window.addEventListener('load', post);
})();
`.trim();

/**
 * `GET /embed/leaderboard.js`: the one-line partner snippet. Replaces its own <script> tag's
 * position with a sandboxed, titled iframe of `/embed/leaderboard` (options from `data-*`
 * attributes) and resizes it to the height the embed reports.
 */
export const LOADER_SCRIPT = `/* Verification Platform leaderboard embed. Usage:
   <script src="<base url>/embed/leaderboard.js" data-domain="web-development" data-limit="10" data-theme="light" data-lang="en" async></script> */
(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var src = new URL('/embed/leaderboard', script.src);
  ['domain', 'limit', 'theme', 'lang'].forEach(function (name) {
    var value = script.getAttribute('data-' + name);
    if (value) src.searchParams.set(name, value);
  });
  var frame = document.createElement('iframe');
  frame.src = src.href;
  frame.title = script.getAttribute('data-title') || 'Leaderboard';
  // Scripts (the height message) and new tabs for the certificate links, which open unsandboxed.
  frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
  frame.setAttribute('loading', 'lazy');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.style.cssText = 'display:block;width:100%;max-width:' + (script.getAttribute('data-width') || '40rem') + ';height:22rem;border:0;';
  script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (event) {
    if (event.source !== frame.contentWindow) return;
    var data = event.data;
    if (data && data.type === 'vp-embed:height' && typeof data.height === 'number' && data.height > 0) {
      frame.style.height = Math.min(Math.ceil(data.height), 5000) + 'px';
    }
  });
})();
`;

const memo = new Map<string, Promise<string>>();
const hashOf = (source: string) => {
  let hash = memo.get(source);
  if (!hash) {
    hash = cspHash(source);
    memo.set(source, hash);
  }
  return hash;
};

/** Framable by any site; the page's one style and one script, and nothing else. */
export async function embedCsp(): Promise<string> {
  const [style, script] = await Promise.all([hashOf(EMBED_CSS), hashOf(EMBED_SCRIPT)]);
  return `default-src 'none'; style-src ${style}; script-src ${script}; frame-ancestors *; base-uri 'none'; form-action 'none'`;
}
