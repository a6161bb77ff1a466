/**
 * The HTML of the human-facing pages. Every value from the database or the request goes
 * through Hono's `html` template, which escapes it; styles and scripts are the constants in
 * pages.assets.ts, allowed by hash in each page's CSP.
 */

import { html, raw } from 'hono/html';
import { linkedInAddToProfileUrl } from '../../domain/certificates/linkedin';
import type { Leaderboard } from '../../domain/leaderboard';
import { type Html, htmlString } from '../../domain/pages/html';
import { encodeQr, qrSvgPath } from '../../domain/pages/qr';
import type { ProblemBody } from '../../lib/problem';
import type { VerificationPayload } from '../../services/certificates';
import { EMBED_CSS, EMBED_SCRIPT, VERIFY_CSS, VERIFY_SCRIPT } from './pages.assets';

export type Theme = 'light' | 'dark';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

const date = (iso: string) => html`<time datetime="${iso}">${DATE.format(new Date(iso))}</time>`;
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

/** `GET /embed/leaderboard`: a table of the consenting candidates of a domain. */
export function embedPage(board: Leaderboard, theme: Theme): string {
  const scope = board.domain ?? 'all domains';
  const rows =
    board.entries.length === 0
      ? html`<tr><td class="empty" colspan="4">No candidates to show yet.</td></tr>`
      : board.entries.map(
          (e) => html`<tr>
<td><span class="rank">${e.rank}</span></td>
<td class="alias">${e.alias}</td>
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
<p class="note">Only candidates who chose to appear are listed. Certificates are verified by Verification Platform; scores are employers' ratings out of 5. Updated ${dateTime(board.generatedAt)}.</p>`,
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

function verifyDocument(title: string, body: Html): string {
  return htmlString(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Verification Platform</title>
<style>${raw(VERIFY_CSS)}</style>
</head>
<body>
<header>Verification Platform · Certificate verification</header>
<main>
${body}
</main>
<footer>Certificates are signed Open Badges 3.0 credentials. <a href="/verify">Check any credential or badge</a> · <a href="/docs">API reference</a></footer>
<script>${raw(VERIFY_SCRIPT)}</script>
</body>
</html>
`);
}

/** The share block: a QR code (inline SVG, drawn here) and the link with a copy button. */
function share(url: string): Html {
  const code = encodeQr(url);
  const side = code ? code.size + 8 : 0;
  const qr = code
    ? html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="148" height="148" role="img" aria-label="QR code of the link to this page" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${qrSvgPath(code)}"/></svg>`
    : '';
  return html`<h2>Share</h2>
<div class="share">
${qr}
<div class="link">
<label for="share-url">Link to this page</label>
<div class="row"><input id="share-url" type="url" readonly value="${url}"><button type="button" id="copy-link" hidden>Copy link</button></div>
<p id="copy-status" class="muted" role="status"></p>
</div>
</div>`;
}

/** The status box: what a reader must know first. */
function statusBox(v: VerificationPayload): Html {
  switch (v.status) {
    case 'active':
      // The page's script replaces this headline when the in-browser signature check fails.
      return html`<div class="status valid" id="status-box" data-status="active"><span class="icon" aria-hidden="true">✓</span><div><strong>Valid certificate</strong><p>Issued on ${date(v.issuedAt)}${v.organisation?.verification === 'verified' ? ' by a verified organisation' : ''} and not revoked.</p></div></div>`;
    case 'revoked':
      return html`<div class="status revoked"><span class="icon" aria-hidden="true">✗</span><div><strong>Revoked certificate</strong><p>Revoked on ${v.revokedAt ? date(v.revokedAt) : 'an unknown date'}. It is no longer valid.</p></div></div>`;
    case 'suspended':
      return html`<div class="status revoked"><span class="icon" aria-hidden="true">!</span><div><strong>${v.organisation?.verification === 'rejected' ? 'Issuer no longer recognised' : 'Issuer suspended'}</strong><p>The organisation that issued this certificate is ${v.organisation?.verification === 'rejected' ? 'no longer recognised' : 'suspended'} by the platform. The certificate is not valid while it is.</p></div></div>`;
    case 'expired':
      return html`<div class="status revoked"><span class="icon" aria-hidden="true">!</span><div><strong>Expired certificate</strong><p>Valid from ${date(v.issuedAt)} until ${v.validUntil ? date(v.validUntil) : 'an unknown date'}. It is no longer valid.</p></div></div>`;
    case 'pending_issuer':
      if (v.organisation?.verification === 'rejected')
        return html`<div class="status revoked"><span class="icon" aria-hidden="true">!</span><div><strong>Not valid</strong><p>The work was completed, but the platform did not recognise the organisation that rated it. The certificate is not valid, and becomes valid only if that organisation is verified after all.</p></div></div>`;
      return html`<div class="status problem"><span class="icon" aria-hidden="true">…</span><div><strong>Not yet valid</strong><p>The work was completed, but the organisation that rated it has not been verified yet. The certificate is issued, and becomes valid, when it is.</p></div></div>`;
  }
}

/** The employer line: the name that was signed, and the organisation's name now if it changed. */
function employerLine(v: VerificationPayload): Html {
  const now = v.organisation && v.organisation.name !== v.employer.name ? v.organisation.name : null;
  return html`<dd>${v.employer.name}${now ? html` <span class="muted">(now known as ${now})</span>` : ''}</dd>`;
}

/**
 * What a holder (or anyone) can take elsewhere, for a valid certificate: LinkedIn's
 * add-certification link and the baked badges.
 */
function carry(v: VerificationPayload, shareUrl: string): Html {
  if (v.status !== 'active' || !v.credential) return html``;
  const linkedIn = linkedInAddToProfileUrl({
    name: v.brief.title,
    organisationName: v.employer.name,
    issuedAt: new Date(v.issuedAt),
    expiresAt: v.validUntil ? new Date(v.validUntil) : null,
    certificateNo: v.certificateNo,
    verifyUrl: shareUrl,
  });
  const badge = `/api/certificates/${v.certificateNo}/badge`;
  return html`<h2>Take it with you</h2>
<ul class="carry">
<li><a id="linkedin" href="${linkedIn}" rel="noopener noreferrer" target="_blank">Add to LinkedIn profile</a></li>
<li>Badge with the signed credential inside (Open Badges 3.0): <a id="badge-png" href="${badge}.png" download>PNG</a> · <a id="badge-svg" href="${badge}.svg" download>SVG</a></li>
</ul>`;
}

/** `GET /verify/{certificateNo}` for a certificate that exists, in any state. */
export function verifyPage(v: VerificationPayload, shareUrl: string, jwksPath: string): string {
  const holder = v.holder
    ? html`<dd id="holder">${v.holder.name}</dd>`
    : html`<dd id="holder" class="muted">Not shown: the holder has not agreed to show their name publicly.</dd>`;
  const label = {
    active: 'valid',
    revoked: 'revoked',
    suspended: 'issuer suspended',
    expired: 'expired',
    pending_issuer: 'not yet valid',
  }[v.status];
  const signature = v.credential
    ? html`<h2>Signature</h2>
<p id="signature" role="status" data-state="pending" data-status="${v.status}" data-jwks="${jwksPath}" data-base="${shareUrl.slice(0, shareUrl.length - `/verify/${v.certificateNo}`.length)}" data-number="${v.certificateNo}" data-title="${v.brief.title}" data-employer="${v.employer.name}" data-issued="${v.issuedAt}">Checking the signature in your browser…</p>
<details>
<summary>The signed credential</summary>
<p>An Open Badges 3.0 credential (VC-JWT). Your browser checks it against the public keys at <a href="${jwksPath}">${jwksPath}</a>, so you do not have to take this page's word for it. The signature cannot show a revocation; the status above comes from the issuer.</p>
<code class="jwt" id="credential-jwt">${v.credential.jwt}</code>
</details>`
    : html`<h2>Signature</h2>
<p class="muted">Nothing is signed yet: the credential is signed when the organisation is verified.</p>`;
  return verifyDocument(
    `Certificate ${v.certificateNo} (${label})`,
    html`<h1>Certificate ${v.certificateNo}</h1>
${statusBox(v)}
<dl>
<dt>Holder</dt>${holder}
<dt>Brief</dt><dd>${v.brief.title}</dd>
<dt>Domain</dt><dd>${v.domain}</dd>
<dt>Employer</dt>${employerLine(v)}
${v.organisation?.verifiedDomain ? html`<dt>Verified domain</dt><dd>${v.organisation.verifiedDomain}</dd>` : ''}
<dt>${v.status === 'pending_issuer' ? 'Earned' : 'Issued'}</dt><dd>${dateTime(v.issuedAt)}</dd>
${v.validUntil ? html`<dt>${v.status === 'expired' ? 'Expired' : 'Valid until'}</dt><dd>${dateTime(v.validUntil)}</dd>` : ''}
${v.revokedAt ? html`<dt>Revoked</dt><dd>${dateTime(v.revokedAt)}</dd>` : ''}
</dl>
${signature}
${share(shareUrl)}
${carry(v, shareUrl)}
<p class="muted">Machine-readable: <a href="/api/verify/${v.certificateNo}">/api/verify/${v.certificateNo}</a></p>`,
  );
}

/**
 * `GET /verify`: checks any credential in the browser, pasted as a VC-JWT or in a baked badge
 * (PNG or SVG): its signature against the key it names, then its status.
 */
export function verifierPage(jwksPath: string): string {
  return verifyDocument(
    'Check a credential',
    html`<h1>Check a credential</h1>
<p>Paste an Open Badges 3.0 credential (VC-JWT) from any issuer, or choose a badge image (PNG or SVG) with the credential baked in. The platform checks its structure, the signature with the issuer's own key, its dates, whether the issuer has revoked it, and the issuer; for a certificate of this site it also compares the credential with the certificate's current record. The credential is sent to this site to be checked and is not stored.</p>
<form id="verifier" data-jwks="${jwksPath}" hidden>
<label for="jwt-input">Signed credential (VC-JWT)</label>
<textarea id="jwt-input" rows="5" spellcheck="false" autocomplete="off" placeholder="eyJhbGciOi…"></textarea>
<label for="badge-file">or a badge image</label>
<input id="badge-file" type="file" accept="image/png,image/svg+xml,.png,.svg">
<div class="row"><button type="submit">Check</button></div>
</form>
<noscript><p>Checking needs JavaScript; any JOSE library can check a credential against <a href="${jwksPath}">${jwksPath}</a>.</p></noscript>
<div id="verifier-result" class="status" role="status" data-result="none" hidden></div>
${LOOKUP_VISIBLE}`,
  );
}

const LOOKUP = html`<form id="lookup" hidden>
<label for="lookup-number">Check another number</label>
<div class="row"><input id="lookup-number" name="number" autocomplete="off" spellcheck="false" placeholder="VP-XXXX-XXXX-XXXX"><button type="submit">Verify</button></div>
</form>`;

const LOOKUP_VISIBLE = html`<form id="lookup" hidden>
<label for="lookup-number">Or look up a certificate number</label>
<div class="row"><input id="lookup-number" name="number" autocomplete="off" spellcheck="false" placeholder="VP-XXXX-XXXX-XXXX"><button type="submit">Verify</button></div>
</form>`;

/**
 * The verification page's errors: a mistyped number (400), an unknown one (404), or anything
 * else (429, 500) with the problem's own words.
 */
export function verifyErrorPage(problem: ProblemBody, input: string): string {
  const typo = problem.errors?.some((e) => e.detail === 'Check character mismatch');
  if (problem.status === 400) {
    return verifyDocument(
      'Mistyped certificate number',
      html`<h1>${typo ? 'This certificate number has a typo' : 'This is not a certificate number'}</h1>
<div class="status problem"><span class="icon" aria-hidden="true">✗</span><div><strong>Nothing was looked up</strong><p>${typo ? 'The last character of a certificate number is a check character, and it does not match the rest. Check each character against the original.' : 'Certificate numbers look like VP-7K3M-Q9TD-2XWV: VP and twelve letters or digits in groups of four.'}</p></div></div>
<dl><dt>You entered</dt><dd><code>${input}</code></dd></dl>
${LOOKUP}`,
    );
  }
  if (problem.status === 404) {
    return verifyDocument(
      'Certificate not found',
      html`<h1>No certificate has this number</h1>
<div class="status unknown"><span class="icon" aria-hidden="true">?</span><div><strong>Unknown certificate</strong><p>The number is well formed, but no certificate was issued with it. It may have been copied wrongly, or the certificate was deleted at its holder's request.</p></div></div>
<dl><dt>Number</dt><dd><code>${input}</code></dd></dl>
${LOOKUP}`,
    );
  }
  return verifyDocument(
    problem.title,
    html`<h1>${problem.title}</h1>
<div class="status problem"><span class="icon" aria-hidden="true">!</span><div><strong>${problem.title}</strong><p>${problem.detail}</p></div></div>
${problem.requestId ? html`<p class="muted">Request id: <code>${problem.requestId}</code></p>` : ''}`,
  );
}
