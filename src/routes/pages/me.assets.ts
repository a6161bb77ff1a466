/**
 * The holder's home's own style, until the pages' shared stylesheet carries it, and the page's
 * Content-Security-Policy: that style by hash, no script at all, forms posting to this site only.
 */
import { cspHash } from '../../domain/pages/html';

/** Light and dark; text contrast at least 4.5:1 in both; reflows down to 320 px. */
export const ME_CSS = `
:root{color-scheme:light dark;--bg:#f6f8fa;--card:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad;--ok:#116329;--ok-bg:#dafbe1;--bad:#a40e26;--bad-bg:#ffebe9;--warn:#6c4400;--warn-bg:#fff8c5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--accent:#6cb6ff;--ok:#7ee2a8;--ok-bg:#0f2d1b;--bad:#ffa198;--bad-bg:#3b1219;--warn:#e3b341;--warn-bg:#2e2510}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
body{margin:0;padding:16px}
a{color:var(--accent)}
header,main,footer{max-width:46rem;margin:0 auto}
header{margin-bottom:12px}
.brand{font-weight:700;text-decoration:none;color:var(--fg)}
main{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px 16px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 16px;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:28px 0 8px;padding-top:12px;border-top:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 4px;overflow-wrap:anywhere}
p{margin:6px 0;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.toc{display:flex;flex-wrap:wrap;gap:4px 16px;padding:0;margin:0;list-style:none}
.cards{list-style:none;padding:0;margin:0;display:grid;gap:12px}
.cards>li{border:1px solid var(--line);border-radius:8px;padding:12px}
.actions{display:flex;flex-wrap:wrap;gap:4px 16px}
.pill{display:inline-block;border-radius:999px;padding:0 10px;font-size:.9rem;font-weight:600;margin-right:6px}
.pill.ok{background:var(--ok-bg);color:var(--ok)}
.pill.warn{background:var(--warn-bg);color:var(--warn)}
.pill.off{background:var(--bg);color:var(--fg);border:1px solid var(--line)}
.banner{border-radius:8px;padding:10px 14px;margin:0 0 16px;font-weight:600}
.banner.notice{background:var(--ok-bg);color:var(--ok)}
.banner.error{background:var(--bad-bg);color:var(--bad)}
dl{margin:8px 0}
dt{color:var(--muted);font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
form{margin:10px 0}
.stack label{display:block;font-weight:600;margin:10px 0 4px}
input[type=text],input[type=email],input[type=password]{display:block;width:100%;max-width:24rem;font:inherit;padding:8px 10px;border:1px solid var(--muted);border-radius:6px;background:var(--card);color:var(--fg)}
button,.button{display:inline-block;font:inherit;font-size:1rem;padding:8px 16px;border-radius:6px;border:1px solid var(--accent);cursor:pointer;text-decoration:none;margin-top:8px}
button.primary,.button{background:var(--accent);color:var(--card)}
button.secondary{background:var(--card);color:var(--accent)}
button.danger{background:var(--card);color:var(--bad);border-color:var(--bad)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
footer{margin-top:12px;font-size:.9rem;color:var(--muted)}
`.trim();

let policy: Promise<string> | undefined;

/** Its style by hash; no script; forms post to this site only; never framed. */
export function meCsp(): Promise<string> {
  policy ??= cspHash(ME_CSS).then(
    (style) =>
      `default-src 'none'; style-src ${style}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  return policy;
}
