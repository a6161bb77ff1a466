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
textarea{display:block;width:100%;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;padding:6px 8px;border:1px solid var(--muted);border-radius:6px;background:var(--card);color:var(--fg);margin-bottom:12px}
input[type=file]{display:block;margin-bottom:12px}
.carry{padding-left:20px}
.carry li{margin:4px 0}
#verifier-result{margin-top:20px}
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
  function Unsupported(message) { this.message = message; }

  // The algorithms a credential may be signed with: Ed25519 (credentials issued first) and ECDSA
  // P-256 (ES256, what Open Badges verifiers accept). Both are WebCrypto.
  var ALGORITHMS = {
    EdDSA: { kty: 'OKP', crv: 'Ed25519', import: { name: 'Ed25519' }, verify: { name: 'Ed25519' },
      members: function (k) { return { kty: 'OKP', crv: 'Ed25519', x: k.x }; } },
    ES256: { kty: 'EC', crv: 'P-256', import: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' },
      members: function (k) { return { kty: 'EC', crv: 'P-256', x: k.x, y: k.y }; } }
  };

  async function getJson(url) {
    var response = await fetch(url, { credentials: 'omit', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(url + ' answered HTTP ' + response.status);
    return response.json();
  }

  // The key a credential names: a kid that is a URL of this site is fetched for its one JWK;
  // otherwise (or if that fails) the published JWKS is searched by kid or by the URL's last
  // segment (the key's thumbprint). Keys named on other sites are never trusted.
  async function keyFor(header, jwksPath) {
    var kid = header.kid;
    var thumbprint = kid;
    if (/^https?:[/][/]/.test(kid)) {
      var url = new URL(kid);
      thumbprint = url.pathname.split('/').pop();
      if (url.origin === location.origin) {
        try {
          var single = await getJson(url.href);
          if (single && single.kty) return single;
        } catch (e) { /* fall back to the JWKS */ }
      }
    }
    var jwks = await getJson(jwksPath);
    return (jwks.keys || []).filter(function (k) { return k && (k.kid === kid || k.kid === thumbprint); })[0] || null;
  }

  /** Checks a compact JWS: header, key, signature. Returns { header, payload } or throws Failure. */
  async function verifyJwt(jwt, jwksPath) {
    var parts = String(jwt).trim().split('.');
    if (parts.length !== 3) throw new Failure('the credential is not a signed JWT');
    var header = json(parts[0]);
    var payload = json(parts[1]);
    var algorithm = header && ALGORITHMS[header.alg];
    if (!algorithm || typeof header.kid !== 'string' || header.jku || header.jwk || header.x5u || header.crit) {
      throw new Failure('the credential is not signed with EdDSA or ES256 and a key id');
    }
    if (!window.crypto || !crypto.subtle) throw new Unsupported('This browser cannot check signatures here (WebCrypto needs a secure context).');
    var jwk = await keyFor(header, jwksPath);
    if (!jwk || jwk.kty !== algorithm.kty || jwk.crv !== algorithm.crv) {
      throw new Failure('no published ' + header.alg + ' key has the id the credential names');
    }
    var key;
    try {
      key = await crypto.subtle.importKey('jwk', algorithm.members(jwk), algorithm.import, false, ['verify']);
    } catch (e) {
      if (e && e.name === 'NotSupportedError') throw new Unsupported('This browser cannot check ' + header.alg + ' signatures. Any JOSE library can check the credential against the published keys.');
      throw new Failure('the published key is not a valid ' + header.alg + ' key');
    }
    var signed = new TextEncoder().encode(parts[0] + '.' + parts[1]);
    var valid = await crypto.subtle.verify(algorithm.verify, key, bytes(parts[2]), signed);
    if (!valid) throw new Failure('the signature does not match the published key');
    if (!payload || typeof payload !== 'object') throw new Failure('the credential is malformed');
    return { header: header, payload: payload };
  }

  /**
   * The certificate number a credential of this site names, from one fixed claim: an
   * \`evidence\` entry whose id is exactly this site's verification page for it. Text elsewhere in
   * the payload (a brief titled "... see /verify/VP-...") never counts.
   */
  function numberOf(payload, base) {
    var evidence = [].concat(payload.evidence || []);
    for (var i = 0; i < evidence.length; i++) {
      var id = evidence[i] && evidence[i].id;
      if (typeof id !== 'string' || id.indexOf(base + '/verify/') !== 0) continue;
      var rest = id.slice(base.length + '/verify/'.length);
      if (/^VP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(rest)) return rest;
    }
    return null;
  }
  function achievementOf(payload) {
    return (payload.credentialSubject && payload.credentialSubject.achievement) || {};
  }

  // ----- /verify/{no}: the page's own credential
  var out = $('signature');
  var jwtElement = $('credential-jwt');
  if (out && jwtElement) {
    var showSignature = function (state, text) {
      out.setAttribute('data-state', state);
      out.textContent = text;
    };
    // The headline may say "Valid certificate" only while the signature holds: on a failure it
    // says so instead.
    var headline = $('status-box');
    var failHeadline = function (text) {
      if (!headline || headline.getAttribute('data-status') !== 'active') return;
      headline.className = 'status problem';
      headline.setAttribute('data-signature', 'failed');
      headline.textContent = '';
      var icon = document.createElement('span');
      icon.className = 'icon';
      icon.setAttribute('aria-hidden', 'true');
      icon.textContent = '\\u2717';
      var box = document.createElement('div');
      var strong = document.createElement('strong');
      strong.textContent = 'Signature check failed';
      var p = document.createElement('p');
      p.textContent = 'The platform lists this certificate as valid, but its signed credential did not verify in your browser: ' + text + '. Do not rely on it until this is resolved.';
      box.appendChild(strong);
      box.appendChild(p);
      headline.appendChild(icon);
      headline.appendChild(box);
    };
    (async function () {
      var checked = await verifyJwt(jwtElement.textContent, out.getAttribute('data-jwks'));
      var payload = checked.payload;
      // A valid signature on some other credential proves nothing about this page.
      var number = out.getAttribute('data-number');
      if (numberOf(payload, out.getAttribute('data-base')) !== number) {
        throw new Failure('the signature is valid, but the signed credential does not match this page (certificate number)');
      }
      // What changed since issue is information, not a failure.
      var changed = [];
      var achievement = achievementOf(payload);
      var title = out.getAttribute('data-title');
      if (payload.name !== title && achievement.name !== title) changed.push('brief title (signed: \\u201c' + (achievement.name || payload.name) + '\\u201d)');
      if (JSON.stringify(payload).indexOf(JSON.stringify(out.getAttribute('data-employer')).slice(1, -1)) < 0) changed.push('employer name');
      var issued = Math.floor(Date.parse(out.getAttribute('data-issued')) / 1000) * 1000;
      if (Date.parse(payload.validFrom) !== issued) changed.push('issue date (signed: ' + payload.validFrom + ')');
      var status = out.getAttribute('data-status');
      var later = status === 'revoked' ? ' The signature only shows who issued it: the issuer has since revoked this certificate.'
        : status === 'suspended' ? ' The signature only shows who issued it: the issuing organisation is suspended, so the certificate is not valid now.'
        : '';
      var note = changed.length ? ' Since it was signed, this changed: ' + changed.join(', ') + '.' : '';
      var kid = checked.header.kid.split('/').pop();
      var issuerId = payload.iss || (payload.issuer && payload.issuer.id) || 'the issuer';
      var organisation = (payload.issuer && payload.issuer.name) || out.getAttribute('data-employer');
      showSignature('verified', '\\u2713 Signature verified in your browser: signed for ' + organisation + ' (' + issuerId + ') with ' + checked.header.alg + ' key ' + kid.slice(0, 12) + '\\u2026, and the signed credential names this certificate, brief, employer and issue date.' + note + later);
    })().catch(function (e) {
      if (e instanceof Failure) {
        showSignature('failed', '\\u2717 Signature check failed: ' + e.message + '.');
        failHeadline(e.message);
      } else if (e instanceof Unsupported) showSignature('unsupported', e.message);
      else {
        showSignature('error', 'The signature could not be checked: ' + (e && e.message ? e.message : String(e)) + '.');
        failHeadline('it could not be checked');
      }
    });
  }

  // ----- /verify: any credential, pasted or in a baked badge
  var form = $('verifier');
  if (!form) return;
  form.hidden = false;
  var result = $('verifier-result');
  function showResult(kind, title, detail) {
    result.setAttribute('data-result', kind);
    result.hidden = false;
    result.className = 'status ' + ({ valid: 'valid', revoked: 'revoked', expired: 'revoked', tampered: 'problem', suspended: 'revoked' }[kind] || 'unknown');
    result.textContent = '';
    var strong = document.createElement('strong');
    strong.textContent = title;
    var p = document.createElement('p');
    p.textContent = detail;
    var box = document.createElement('div');
    box.appendChild(strong);
    box.appendChild(p);
    result.appendChild(box);
  }

  /** How an uploaded file is sent: a PNG or an SVG as its own bytes, anything else as text in JSON. */
  function uploadOf(data) {
    if (data[0] === 137 && data[1] === 80 && data[2] === 78 && data[3] === 71) return { type: 'image/png', body: data };
    var text = new TextDecoder().decode(data);
    if (/<svg[\\s>]/i.test(text.slice(0, 4096))) return { type: 'image/svg+xml', body: data };
    return { type: 'application/json', body: JSON.stringify({ credential: text }) };
  }
  function payloadOf(jwt) {
    try { return json(String(jwt).trim().split('.')[1] || ''); } catch (e) { return null; }
  }

  var HEADLINES = {
    valid: ['valid', '\\u2713 Valid credential'],
    revoked: ['revoked', '\\u2717 Revoked'],
    suspended: ['suspended', '! Suspended'],
    expired: ['expired', '\\u2717 Expired'],
    invalid: ['tampered', '\\u2717 Not a valid credential'],
    unverifiable: ['unknown', '? Could not be verified']
  };

  /**
   * Any credential, by the platform's verifier (POST /api/credentials/verify, a badge image sent as
   * its own bytes, image/png or image/svg+xml; pasted text as JSON: signature by the
   * issuer's own key, status list, issuer standing). A credential of this site is then compared
   * with what /api/verify/{no} serves for the number in its fixed claim.
   */
  async function check(upload) {
    var response = await fetch('/api/credentials/verify', {
      method: 'POST', credentials: 'omit',
      headers: { 'content-type': upload.type, accept: 'application/json' },
      body: upload.body
    });
    if (!response.ok) throw new Error('the verifier answered HTTP ' + response.status);
    var report = await response.json();
    var c = report.credential || { achievement: {} };
    var issuerName = report.issuer.name || report.issuer.id || 'an unknown issuer';
    var what = (c.achievement.name || c.name || 'A credential') + ', issued by ' + issuerName +
      (report.issuer.verifiedHere ? ' (an organisation verified on this platform)' : report.issuer.standing ? '' : ' (not an organisation of this platform)');
    var verdict = report.verdict;
    var headline = HEADLINES[verdict] || HEADLINES.unverifiable;
    var title = headline[1];
    var said = {
      valid: 'The signature is genuine and the issuer has not revoked it.',
      revoked: 'The signature is genuine, but the issuer has revoked it.',
      suspended: 'The signature is genuine, but the credential is suspended.',
      expired: 'The signature is genuine, but the credential has expired.'
    }[verdict];
    var detail = what + '. ' + (said || report.summary);
    var standing = report.issuer.standing;
    if (verdict === 'suspended' && standing && standing !== 'verified' && standing !== 'platform') {
      title = '! Issuer no longer recognised';
      detail = what + '. The signature is genuine, but this platform no longer recognises the organisation that issued it, so the credential does not count as valid now.';
    }
    // Ours: always compare with the certificate the number (fixed claim) names, read from the
    // credential the server verified (report.verifiedCredential), not from the upload.
    var jwt = report.format === 'vc-jwt' ? report.verifiedCredential : null;
    var payload = jwt ? payloadOf(jwt) : null;
    var number = payload && standing ? numberOf(payload.vc || payload, location.origin) : null;
    if (number && verdict !== 'invalid') {
      var answer = await fetch('/api/verify/' + encodeURIComponent(number), { credentials: 'omit', headers: { accept: 'application/json' } });
      if (answer.ok) {
        var certificate = await answer.json();
        if (!certificate.credential || certificate.credential.jwt !== String(jwt).trim()) {
          verdict = 'unverifiable';
          title = '? Not the current credential';
          detail = what + '. Certificate ' + number + ': the platform now publishes a different credential for it, so this copy does not show its current state.';
        } else if (certificate.status !== 'active' && verdict === 'valid') {
          verdict = certificate.status;
          title = (HEADLINES[certificate.status] || HEADLINES.unverifiable)[1];
          detail = what + '. Certificate ' + number + ' is ' + certificate.status + '.';
        } else detail += ' Certificate ' + number + '.';
      } else if (answer.status === 404) {
        verdict = 'unverifiable';
        title = '? Unknown certificate';
        detail = what + '. The platform has no certificate ' + number + ' (deleted, or never issued).';
      }
    }
    var kind = (HEADLINES[verdict] || HEADLINES.unverifiable)[0];
    showResult(kind, title, detail);
    result.setAttribute('data-verdict', verdict);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var file = $('badge-file').files[0];
    var pasted = $('jwt-input').value.trim();
    showResult('pending', 'Checking\\u2026', 'Checking the signature, the status and the issuer.');
    (async function () {
      if (file) {
        // The file goes to the server as it is: the server's one reader finds the credential,
        // and only what it answered is shown (never a credential read here).
        return check(uploadOf(new Uint8Array(await file.arrayBuffer())));
      }
      if (!pasted) return showResult('tampered', '\\u2717 Nothing to check', 'Paste a credential (VC-JWT) or choose a badge image.');
      await check({ type: 'application/json', body: JSON.stringify({ credential: pasted }) });
    })().catch(function (e) {
      showResult('unknown', 'Could not check', (e && e.message) ? e.message : String(e));
    });
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
