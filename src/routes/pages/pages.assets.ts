/**
 * The inline styles and scripts of the human-facing pages, and the Content-Security-Policies
 * that allow exactly them (by SHA-256 hash) and nothing else. Each asset is a constant, so its
 * hash is computed once per isolate and the pages stay cacheable (no per-request nonce).
 */
import { cspHash } from '../../domain/pages/html';

/** Embed: light by default, `html.dark` for `theme=dark`. Contrast ≥ 4.5:1 for all text in both. */
export const EMBED_CSS = `
:root{color-scheme:light;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;--badge:#ddf4ff;--badge-fg:#0a3069}
html.dark{color-scheme:dark;--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--head:#161b22;--badge:#0c2d6b;--badge-fg:#cae8ff}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{padding:12px 14px}
h1{font-size:15px;margin:0 0 8px}
table{width:100%;border-collapse:collapse}
caption{text-align:left;font-weight:600;font-size:15px;padding:0 0 8px}
th,td{padding:7px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:baseline}
thead th{background:var(--head);font-size:12px;font-weight:600;color:var(--muted)}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.rank{display:inline-block;min-width:1.9em;padding:1px 6px;border-radius:999px;background:var(--badge);color:var(--badge-fg);font-weight:700;text-align:center}
.alias{overflow-wrap:anywhere;font-weight:500}
.empty{color:var(--muted);text-align:center;padding:16px 8px}
p.note{margin:8px 0 0;font-size:12px;color:var(--muted)}
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
   <script src="<base url>/embed/leaderboard.js" data-domain="web-development" data-limit="10" data-theme="light" async></script> */
(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var src = new URL('/embed/leaderboard', script.src);
  ['domain', 'limit', 'theme'].forEach(function (name) {
    var value = script.getAttribute('data-' + name);
    if (value) src.searchParams.set(name, value);
  });
  var frame = document.createElement('iframe');
  frame.src = src.href;
  frame.title = script.getAttribute('data-title') || 'Leaderboard';
  frame.setAttribute('sandbox', 'allow-scripts');
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

/** Verification and its error pages. Follows the reader's light or dark preference. */
export const VERIFY_CSS = `
:root{color-scheme:light dark;--bg:#f6f8fa;--card:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad;--ok:#116329;--ok-bg:#dafbe1;--bad:#a40e26;--bad-bg:#ffebe9;--warn:#6c4400;--warn-bg:#fff8c5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--accent:#6cb6ff;--ok:#7ee2a8;--ok-bg:#0f2d1b;--bad:#ffa198;--bad-bg:#3b1219;--warn:#e3b341;--warn-bg:#2e2510}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
body{margin:0;padding:24px 16px}
a{color:var(--accent)}
header,main,footer{max-width:44rem;margin:0 auto}
header{font-weight:600;color:var(--muted);margin-bottom:12px}
main{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:24px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 16px;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:24px 0 8px}
.status{display:flex;gap:12px;align-items:flex-start;border-radius:8px;padding:12px 16px;margin:0 0 20px}
.status strong{display:block;font-size:1.15rem}
.status p{margin:2px 0 0}
.status .icon{font-size:1.5rem;line-height:1.2}
.status.valid{background:var(--ok-bg);color:var(--ok)}
.status.revoked,.status.problem{background:var(--bad-bg);color:var(--bad)}
.status.unknown{background:var(--warn-bg);color:var(--warn)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 20px;margin:0}
dt{color:var(--muted);font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
.muted{color:var(--muted)}
#signature{border-left:4px solid var(--line);padding:8px 12px;margin:0;background:var(--bg)}
#signature[data-state=verified]{border-color:var(--ok);color:var(--ok);background:var(--ok-bg)}
#signature[data-state=verified][data-status=revoked]{border-color:var(--muted);color:var(--fg);background:var(--bg)}
#signature[data-state=failed]{border-color:var(--bad);color:var(--bad);background:var(--bad-bg)}
#signature[data-state=unsupported],#signature[data-state=error]{border-color:var(--warn);color:var(--warn);background:var(--warn-bg)}
details{margin-top:12px}
summary{cursor:pointer;color:var(--accent)}
code.jwt{display:block;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-all;font-size:12px;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:8px;margin-top:8px}
.share{display:flex;gap:20px;align-items:center;flex-wrap:wrap}
.share svg{flex:none;border-radius:6px}
.share .link{flex:1;min-width:14rem}
.share label{display:block;font-weight:600;margin-bottom:4px}
.row{display:flex;gap:8px}
input{flex:1;min-width:0;font:inherit;font-size:14px;padding:6px 8px;border:1px solid var(--muted);border-radius:6px;background:var(--card);color:var(--fg)}
button{font:inherit;font-size:14px;padding:6px 12px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--card);cursor:pointer}
form{margin-top:20px}
form label{display:block;font-weight:600;margin-bottom:4px}
footer{margin-top:12px;font-size:14px;color:var(--muted)}
`.trim();

/**
 * Verification pages: the in-browser signature check (EdDSA over the page's own credential,
 * against the published JWKS, then a comparison of the signed claims with what the page shows),
 * the copy-link button and the look-up form of the error pages.
 */
export const VERIFY_SCRIPT = `
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }

  var copy = $('copy-link');
  var shareUrl = $('share-url');
  var copyStatus = $('copy-status');
  if (copy && shareUrl && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener('click', function () {
      navigator.clipboard.writeText(shareUrl.value).then(
        function () { copyStatus.textContent = 'Link copied.'; },
        function () { shareUrl.select(); copyStatus.textContent = 'Select the link and copy it.'; }
      );
    });
  }

  var lookup = $('lookup');
  if (lookup) {
    lookup.hidden = false;
    lookup.addEventListener('submit', function (event) {
      event.preventDefault();
      var value = $('lookup-number').value.trim();
      if (value) window.location.assign('/verify/' + encodeURIComponent(value));
    });
  }

  var out = $('signature');
  var jwtElement = $('credential-jwt');
  if (!out || !jwtElement) return;

  function show(state, text) {
    out.setAttribute('data-state', state);
    out.textContent = text;
  }
  function Failure(message) { this.message = message; }
  function bytes(segment) {
    if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Failure('the credential is not valid base64url');
    var text = segment.replace(/-/g, '+').replace(/_/g, '/');
    while (text.length % 4) text += '=';
    var binary = atob(text);
    var result = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) result[i] = binary.charCodeAt(i);
    return result;
  }
  function json(segment) {
    try { return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes(segment))); }
    catch (e) { throw new Failure('the credential is malformed'); }
  }

  async function check() {
    var parts = jwtElement.textContent.trim().split('.');
    if (parts.length !== 3) throw new Failure('the credential is not a signed JWT');
    var header = json(parts[0]);
    var payload = json(parts[1]);
    if (!header || header.alg !== 'EdDSA' || typeof header.kid !== 'string') {
      throw new Failure('the credential is not signed with EdDSA');
    }
    if (!window.crypto || !crypto.subtle) return show('unsupported', 'This browser cannot check signatures here (WebCrypto needs a secure context).');

    var response = await fetch(out.getAttribute('data-jwks'), { credentials: 'omit', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error('the public keys could not be loaded (HTTP ' + response.status + ')');
    var jwks = await response.json();
    var jwk = (jwks.keys || []).filter(function (k) { return k && k.kid === header.kid; })[0];
    if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
      throw new Failure('no published Ed25519 key has the id the credential names');
    }
    var key;
    try {
      key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    } catch (e) {
      if (e && e.name === 'NotSupportedError') return show('unsupported', 'This browser cannot check Ed25519 signatures. Any JOSE library can check the credential below against the published keys.');
      throw new Failure('the published key is not a valid Ed25519 key');
    }
    var signed = new TextEncoder().encode(parts[0] + '.' + parts[1]);
    var valid = await crypto.subtle.verify({ name: 'Ed25519' }, key, bytes(parts[2]), signed);
    if (!valid) throw new Failure('the signature does not match the published key');

    // A valid signature on some other credential proves nothing about this page: what the page
    // shows must be what was signed.
    var achievement = (payload.credentialSubject && payload.credentialSubject.achievement) || {};
    var mismatches = [];
    var number = out.getAttribute('data-number');
    if (typeof achievement.id !== 'string' || achievement.id.slice(-('/verify/' + number).length) !== '/verify/' + number) mismatches.push('certificate number');
    if (payload.name !== out.getAttribute('data-title')) mismatches.push('brief');
    if (typeof achievement.description !== 'string' || achievement.description.indexOf(out.getAttribute('data-employer')) < 0) mismatches.push('employer');
    var issued = Math.floor(Date.parse(out.getAttribute('data-issued')) / 1000) * 1000;
    if (Date.parse(payload.validFrom) !== issued) mismatches.push('issue date');
    if (mismatches.length > 0) {
      throw new Failure('the signature is valid, but the signed credential does not match this page (' + mismatches.join(', ') + ')');
    }
    var status = out.getAttribute('data-status');
    var later = status === 'revoked' ? ' The signature only shows who issued it: the issuer has since revoked this certificate.'
      : status === 'suspended' ? ' The signature only shows who issued it: the issuing organisation is suspended, so the certificate is not valid now.'
      : '';
    show('verified', '\\u2713 Signature verified in your browser: signed by ' + payload.iss + ' with key ' + header.kid.slice(0, 12) + '\\u2026, and the signed credential names this certificate, brief, employer and issue date.' + later);
  }

  check().catch(function (e) {
    if (e instanceof Failure) show('failed', '\\u2717 Signature check failed: ' + e.message + '.');
    else show('error', 'The signature could not be checked: ' + (e && e.message ? e.message : String(e)) + '.');
  });
})();
`.trim();

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

/** Not framable; its style and script, and `connect-src 'self'` for the JWKS. */
export async function verifyCsp(): Promise<string> {
  const [style, script] = await Promise.all([hashOf(VERIFY_CSS), hashOf(VERIFY_SCRIPT)]);
  return `default-src 'none'; style-src ${style}; script-src ${script}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
}
