/**
 * The holder's home (`/me`) and its sign-in page. Every form is a plain HTML form that posts to a
 * page route under `/me/…` and comes back here (303) with a banner: the page needs no script.
 * Values from the database go through Hono's `html` template, which escapes them.
 */
import { html, raw } from 'hono/html';
import type { PurposeNotice } from '../../domain/consent-notices';
import { type Html, htmlString } from '../../domain/pages/html';
import type { GrantView } from '../../services/portability/grants';
import { ME_CSS } from './me.assets';
import { HOME_PURPOSES, type HomePurpose } from './me.strings';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const date = (at: Date | string) => {
  const d = typeof at === 'string' ? new Date(at) : at;
  return html`<time datetime="${d.toISOString()}">${DATE.format(d)}</time>`;
};

export type Banner = { kind: 'notice' | 'error'; text: string };

export type HomeCertificate = {
  certificateNo: string;
  title: string;
  organisation: string | null;
  issuedAt: Date;
  validUntil: Date | null;
  /** What a verifier is told now (`active`, `revoked`, `expired`, `suspended`, `pending_issuer`…). */
  publicStatus: string;
  /** Signed and not revoked: the badge images exist. */
  downloadable: boolean;
};

export type ConsentRow = {
  purpose: HomePurpose;
  state: 'granted' | 'revoked' | 'never';
  since: Date | null;
  notice: PurposeNotice | undefined;
};

export type HomeView = {
  name: string;
  email: string;
  emailConfirmed: boolean;
  pendingEmail: string | null;
  publicAlias: string | null;
  /** A child's account still waiting for their guardian's approval: nothing else is shown. */
  awaitingGuardian: boolean;
  certificates: HomeCertificate[];
  /** Whether a learner record can be made (at least one certificate neither revoked nor expired). */
  learnerRecord: boolean;
  grants: GrantView[];
  consents: ConsentRow[];
  banner: Banner | null;
};

/** The page's frame: one stylesheet (by hash in the CSP), no script. */
function document(title: string, body: Html): string {
  return htmlString(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Verification Platform</title>
<style>${raw(ME_CSS)}</style>
</head>
<body>
<header><a href="/" class="brand">Verification Platform</a></header>
${body}
<footer><a href="/verify">Check a credential</a> · <a href="/docs">API documentation</a></footer>
</body>
</html>
`);
}

const bannerOf = (banner: Banner | null) =>
  banner
    ? html`<p class="banner ${banner.kind}" role="${banner.kind === 'error' ? 'alert' : 'status'}">${banner.text}</p>`
    : '';

/** Signed out: the sign-in form (posts to `/me/sign-in`, which comes back here). */
export function signInPage(banner: Banner | null): string {
  return document(
    'Sign in',
    html`<main id="main">
<h1>Sign in to your account</h1>
${bannerOf(banner)}
<p>Your certificates, your learner record, the applications you allowed and your consents are here once you sign in.</p>
<form method="post" action="/me/sign-in" class="stack">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="320">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<button type="submit" class="primary">Sign in</button>
</form>
</main>`,
  );
}

const STATUS_TEXT: Record<string, string> = {
  active: 'Valid',
  revoked: 'Revoked',
  expired: 'Expired',
  suspended: 'Suspended: the issuer’s organisation is under review',
  pending_issuer: 'Waiting for the issuer’s organisation to be verified',
};

function certificateItem(c: HomeCertificate): Html {
  const no = c.certificateNo;
  return html`<li class="cert">
<h3><a href="/verify/${no}">${c.title}</a></h3>
<p class="muted">${c.organisation ?? 'Issuer not named'} · certificate <span class="mono">${no}</span></p>
<p><span class="pill ${c.publicStatus === 'active' ? 'ok' : 'warn'}">${STATUS_TEXT[c.publicStatus] ?? c.publicStatus}</span>
Issued ${date(c.issuedAt)}${c.validUntil ? html`, valid until ${date(c.validUntil)}` : ''}.</p>
<p class="actions"><a href="/verify/${no}">Certificate page</a>
<a href="/api/me/certificates/${no}/pdf">PDF<span class="sr-only"> of ${no}</span></a>
${
  c.downloadable
    ? html`<a href="/api/certificates/${no}/badge.png" download="badge-${no}.png">Badge (PNG)<span class="sr-only"> of ${no}</span></a>
<a href="/api/certificates/${no}/badge.svg" download="badge-${no}.svg">Badge (SVG)<span class="sr-only"> of ${no}</span></a>`
    : ''
}</p>
</li>`;
}

function grantItem(g: GrantView): Html {
  return html`<li class="grant">
<h3>${g.clientName} <small class="muted">(name given by the application itself)</small></h3>
<p class="muted">${g.clientUri ?? g.redirectUris.map((u) => hostOf(u)).join(', ')}</p>
<p>May: ${g.scope.join(', ')}. Allowed ${date(g.grantedAt)}${g.lastRefreshedAt ? html`; last renewed its access ${date(g.lastRefreshedAt)}` : ''}.</p>
<form method="post" action="/me/applications/${encodeURIComponent(g.id)}/revoke">
<button type="submit" class="danger">Revoke access<span class="sr-only"> of ${g.clientName}</span></button>
</form>
</li>`;
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

const STATE_TEXT = { granted: 'Granted', revoked: 'Withdrawn', never: 'Not granted' } as const;

function consentItem(row: ConsentRow): Html {
  const granted = row.state === 'granted';
  const title = row.notice?.title ?? row.purpose;
  return html`<li class="consent" id="consent-${row.purpose}">
<h3>${title}</h3>
<p><span class="pill ${granted ? 'ok' : 'off'}">${STATE_TEXT[row.state]}</span>${row.since ? html` since ${date(row.since)}` : ''}</p>
${row.notice ? html`<p>${row.notice.use}</p><p class="muted">Data used: ${row.notice.data}</p>` : ''}
<form method="post" action="/me/consents">
<input type="hidden" name="purpose" value="${row.purpose}">
<input type="hidden" name="action" value="${granted ? 'revoke' : 'grant'}">
<button type="submit" class="${granted ? 'secondary' : 'primary'}">${granted ? 'Withdraw' : 'Grant'}<span class="sr-only"> consent: ${title}</span></button>
</form>
</li>`;
}

/** Signed in: the holder's home. */
export function homePage(view: HomeView): string {
  if (view.awaitingGuardian)
    return document(
      'Your account',
      html`<main id="main">
<h1>Hello, ${view.name}</h1>
${bannerOf(view.banner)}
<p>Your account belongs to someone under 18: a parent or lawful guardian must approve it before you can use it. We have asked the guardian you named.</p>
${signOutForm()}
</main>`,
    );
  const verification = view.consents.find((c) => c.purpose === 'public_verification');
  const nameIsPublic = verification?.state === 'granted';
  return document(
    'Your account',
    html`<main id="main">
<h1>Hello, ${view.name}</h1>
${bannerOf(view.banner)}
<nav aria-label="On this page"><ul class="toc">
<li><a href="#certificates">Certificates</a></li><li><a href="#learner-record">Learner record</a></li>
<li><a href="#public-name">Public name</a></li><li><a href="#consents">Consents</a></li>
<li><a href="#applications">Connected applications</a></li><li><a href="#email">Email address</a></li>
</ul></nav>

<section id="certificates" aria-labelledby="certificates-h">
<h2 id="certificates-h">Certificates</h2>
${
  view.certificates.length === 0
    ? html`<p>You hold no certificates yet. They appear here when an employer’s verified organisation issues them.</p>`
    : html`<ul class="cards">${view.certificates.map(certificateItem)}</ul>`
}
</section>

<section id="learner-record" aria-labelledby="learner-record-h">
<h2 id="learner-record-h">Learner record</h2>
<p>All your valid certificates in one signed record (1EdTech Comprehensive Learner Record 2.0, as a VC-JWT), for a wallet or another platform.</p>
${
  view.learnerRecord
    ? html`<p><a class="button" href="/api/me/learner-record" download="learner-record.json">Download your learner record</a></p>`
    : html`<p class="muted">Available once you hold a certificate that is neither revoked nor expired.</p>`
}
</section>

<section id="public-name" aria-labelledby="public-name-h">
<h2 id="public-name-h">Your public name</h2>
<dl>
<dt>Someone verifying your certificate sees</dt>
<dd>${nameIsPublic ? html`<strong>${view.name}</strong>` : html`<strong>Not shown</strong>`}</dd>
</dl>
<p>${
      nameIsPublic
        ? 'Your name is shown beside your certificates while you consent to public verification. Withdraw that consent to hide it; the certificate stays verifiable.'
        : 'Verifiers can confirm your certificates but not that they are yours. Grant “Your name on certificate verification” to show your name beside them.'
    }</p>
<form method="post" action="/me/consents">
<input type="hidden" name="purpose" value="public_verification">
<input type="hidden" name="action" value="${nameIsPublic ? 'revoke' : 'grant'}">
<button type="submit" class="${nameIsPublic ? 'secondary' : 'primary'}">${nameIsPublic ? 'Hide my name from verifiers' : 'Show my name to verifiers'}</button>
</form>
<form method="post" action="/me/public-name" class="stack">
<label for="publicAlias">Leaderboard alias</label>
<p class="muted" id="publicAlias-hint">Shown instead of your name on the public leaderboard (only while you consent to the leaderboard). Leave empty to use your name.</p>
<input id="publicAlias" name="publicAlias" type="text" maxlength="40" autocomplete="nickname" aria-describedby="publicAlias-hint" value="${view.publicAlias ?? ''}">
<button type="submit" class="primary">Save alias</button>
</form>
</section>

<section id="consents" aria-labelledby="consents-h">
<h2 id="consents-h">Consents</h2>
<p>Each is optional and separate; a change takes effect at once. <a href="/api/consent/notices/v2">Read the full notice</a>.</p>
<ul class="cards">${view.consents.map(consentItem)}</ul>
</section>

<section id="applications" aria-labelledby="applications-h">
<h2 id="applications-h">Connected applications</h2>
${
  view.grants.length === 0
    ? html`<p>No application has access to your account. When you allow one (on its authorization page), it appears here and you can revoke it.</p>`
    : html`<ul class="cards">${view.grants.map(grantItem)}</ul>`
}
</section>

<section id="wallets" aria-labelledby="wallets-h">
<h2 id="wallets-h">Wallets</h2>
<!-- slot: wallets (OID4VCI credential offers), filled by the "wallets" work -->
<p class="muted">Adding your certificates to a digital wallet is coming.</p>
</section>

<section id="digilocker" aria-labelledby="digilocker-h">
<h2 id="digilocker-h">DigiLocker</h2>
<!-- slot: digilocker (issued documents in DigiLocker, per-certificate opt-out), filled by the "digilocker" work -->
<p class="muted">Receiving your certificates in DigiLocker is coming.</p>
</section>

<section id="email" aria-labelledby="email-h">
<h2 id="email-h">Email address</h2>
<p><span class="mono">${view.email}</span>
<span class="pill ${view.emailConfirmed ? 'ok' : 'warn'}">${view.emailConfirmed ? 'Confirmed' : 'Not confirmed'}</span></p>
${view.pendingEmail ? html`<p>Waiting for confirmation: <span class="mono">${view.pendingEmail}</span> (open the link mailed to it).</p>` : ''}
${
  view.emailConfirmed
    ? ''
    : html`<p>Open the link we mailed you to confirm it. No mail? Ask for a new link (at most three an hour).</p>
<form method="post" action="/me/email-confirmation"><button type="submit" class="primary">Send a new confirmation link</button></form>`
}
</section>

<section id="account" aria-labelledby="account-h">
<h2 id="account-h">Session</h2>
${signOutForm()}
</section>
</main>`,
  );
}

const signOutForm = () =>
  html`<form method="post" action="/me/sign-out"><button type="submit" class="secondary">Sign out</button></form>`;

/** A refused form (not sent from this site's own page). */
export function refusedPage(message: string): string {
  return document(
    'Not sent from this site',
    html`<main id="main"><h1>This form was not sent from this site</h1><p>${message}</p><p><a href="/me">Back to your account</a></p></main>`,
  );
}

export { HOME_PURPOSES };
