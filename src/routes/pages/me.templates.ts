/**
 * The holder's home (`/me`) and its sign-in page, on the pages' one layout. Every form is a plain
 * HTML form that posts to a page route under `/me/…` and comes back here (303) with a banner: the
 * page needs no script. Values from the database go through Hono's `html` template (escaped).
 */
import { html } from 'hono/html';
import type { PurposeNotice } from '../../domain/consent-notices';
import type { Html } from '../../domain/pages/html';
import { encodeQr, qrSvgPath } from '../../domain/pages/qr';
import type { DigiLockerHolderView } from '../../services/digilocker/holder';
import type { GrantView } from '../../services/portability/grants';
import { SCOPE_DESCRIPTIONS } from '../../services/portability/oauth';
import { button, notificationBanner, summaryList, tag } from './components';
import { type Lang, t } from './i18n';
import { formAction, layout } from './layout';
import { type ErrorKey, type HomePurpose, type MeCatalogue, meStrings, type NoticeKey } from './me.strings';

export type Banner = { kind: 'notice'; key: NoticeKey } | { kind: 'error'; key: ErrorKey };

export type HomeCertificate = {
  certificateNo: string;
  title: string;
  organisation: string | null;
  issuedAt: Date;
  validUntil: Date | null;
  /** What a verifier is told now (`active`, `revoked`, `expired`, `suspended`, `pending_issuer`). */
  publicStatus: string;
  /** Signed and not revoked: the badge images exist. */
  downloadable: boolean;
  /** Active and signed: a wallet can be offered it (OID4VCI). */
  offerable: boolean;
  /** What DigiLocker would be told; null when this server is not a DigiLocker issuer. */
  digilocker: DigiLockerHolderView | null;
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
  /** The consent notice the forms cite (linked for reading). */
  noticeVersion: string;
  /** Whether this server is a DigiLocker issuer (DIGILOCKER_* set). */
  digilockerConfigured: boolean;
  banner: Banner | null;
};

function dateOf(lang: Lang) {
  const format = new Intl.DateTimeFormat(t(lang).date.locale, { dateStyle: 'long', timeZone: 'UTC' });
  return (at: Date | string) => {
    const d = typeof at === 'string' ? new Date(at) : at;
    return html`<time datetime="${d.toISOString()}">${format.format(d)}</time>`;
  };
}

function bannerOf(s: MeCatalogue, banner: Banner | null): Html | string {
  if (!banner) return '';
  return banner.kind === 'error'
    ? notificationBanner({ type: 'error', label: s.problem, heading: s.errors[banner.key], id: 'banner' })
    : notificationBanner({ type: 'success', label: s.success, heading: s.notices[banner.key], id: 'banner' });
}

/** Signed out: the sign-in form (posts to `/me/sign-in`, which comes back here). */
export function signInPage(lang: Lang, banner: Banner | null): string {
  const s = meStrings(lang);
  return layout({
    title: s.signInTitle,
    lang,
    path: '/me',
    narrow: true,
    body: html`${bannerOf(s, banner)}
<h1>${s.signInTitle}</h1>
<p>${s.signInLead}</p>
<form method="post" action="${formAction('/me/sign-in', lang)}" id="sign-in">
<div class="form-group"><label class="label" for="email">${s.email}</label>
<input class="input" id="email" name="email" type="email" autocomplete="username" spellcheck="false" required maxlength="320"></div>
<div class="form-group"><label class="label" for="password">${s.password}</label>
<input class="input" id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"></div>
${button({ text: s.signIn })}
</form>`,
  });
}

function certificateItem(s: MeCatalogue, date: ReturnType<typeof dateOf>, c: HomeCertificate): Html {
  const no = c.certificateNo;
  const status = s.certificates.states[c.publicStatus] ?? c.publicStatus;
  return html`<li class="card me-certificate">
${c.downloadable ? html`<img class="me-certificate__badge" src="/api/certificates/${no}/badge.svg" alt="" width="96" height="96" loading="lazy">` : ''}
<div class="me-certificate__body">
<h3><a href="/verify/${no}">${c.title}</a></h3>
<p>${c.organisation ? s.certificates.by(c.organisation) : s.certificates.issuerUnnamed}</p>
${summaryList([
  { key: s.certificates.number, value: no },
  { key: s.certificates.issued, value: date(c.issuedAt) },
  c.validUntil ? { key: s.certificates.validUntil, value: date(c.validUntil) } : null,
  {
    key: s.certificates.status,
    value: tag(
      status,
      c.publicStatus === 'active' ? 'green' : c.publicStatus === 'revoked' ? 'red' : 'amber',
    ),
  },
])}
<ul class="inline-list">
<li><a href="/verify/${no}">${s.certificates.page}<span class="visually-hidden">${s.certificates.of(no)}</span></a></li>
<li><a href="/api/me/certificates/${no}/pdf">${s.certificates.pdf}<span class="visually-hidden">${s.certificates.of(no)}</span></a></li>
${
  c.downloadable
    ? html`<li><a href="/api/certificates/${no}/badge.png" download="badge-${no}.png">${s.certificates.png}<span class="visually-hidden">${s.certificates.of(no)}</span></a></li>
<li><a href="/api/certificates/${no}/badge.svg" download="badge-${no}.svg">${s.certificates.svg}<span class="visually-hidden">${s.certificates.of(no)}</span></a></li>`
    : ''
}</ul>
</div>
</li>`;
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

function grantItem(s: MeCatalogue, lang: Lang, date: ReturnType<typeof dateOf>, g: GrantView): Html {
  const a = s.applications;
  return html`<li class="card">
<h3>${g.clientName} <span class="small secondary">${a.selfNamed}</span></h3>
<p class="small">${g.clientUri ?? g.redirectUris.map(hostOf).join(', ')}</p>
<p>${a.may}</p>
<ul class="me-scopes">${g.scope.map((scope) => html`<li>${t(lang).scopes[scope] ?? SCOPE_DESCRIPTIONS[scope] ?? scope} <code class="small secondary">${scope}</code></li>`)}</ul>
<p>${a.allowed} ${date(g.grantedAt)}${g.lastRefreshedAt ? html`; ${a.renewed} ${date(g.lastRefreshedAt)}` : ''}.</p>
<form method="post" action="${formAction(`/me/applications/${encodeURIComponent(g.id)}/revoke`, lang)}">
${button({ text: html`${a.revoke}<span class="visually-hidden">${a.of(g.clientName)}</span>`, variant: 'warning' })}
</form>
</li>`;
}

/** A form that grants or withdraws one purpose. */
function consentForm(lang: Lang, purpose: HomePurpose, granted: boolean, text: Html | string): Html {
  return html`<form method="post" action="${formAction('/me/consents', lang)}">
<input type="hidden" name="purpose" value="${purpose}">
<input type="hidden" name="action" value="${granted ? 'revoke' : 'grant'}">
${button({ text, variant: granted ? 'secondary' : 'primary' })}
</form>`;
}

function consentItem(s: MeCatalogue, lang: Lang, date: ReturnType<typeof dateOf>, row: ConsentRow): Html {
  const c = s.consents;
  const granted = row.state === 'granted';
  const title = row.notice?.title ?? row.purpose;
  return html`<li class="card" id="consent-${row.purpose}">
<h3>${title}</h3>
<p>${tag(c.state[row.state], granted ? 'green' : 'grey')}${row.since ? html` ${c.since} ${date(row.since)}` : ''}</p>
${row.notice ? html`<p>${row.notice.use}</p><p class="small secondary">${c.data} ${row.notice.data}</p>` : ''}
${consentForm(lang, row.purpose, granted, html`${granted ? c.withdraw : c.grant}<span class="visually-hidden">${c.consentTo(title)}</span>`)}
</li>`;
}

/** Per certificate, a form that makes a wallet offer (the answer is the offer page). */
function walletsSection(s: MeCatalogue, lang: Lang, list: HomeCertificate[]): Html {
  const w = s.wallets;
  if (list.length === 0) return html`<p>${s.certificates.none}</p>`;
  return html`<p>${w.lead}</p>
<ul class="stack me-list">${list.map(
    (c) => html`<li class="card" id="wallet-${c.certificateNo}">
<h3>${c.title} <span class="small secondary">${c.certificateNo}</span></h3>
${
  c.offerable
    ? html`<form method="post" action="${formAction(`/me/certificates/${c.certificateNo}/credential-offer`, lang)}">
${button({ text: html`${w.add}<span class="visually-hidden">${s.certificates.of(c.certificateNo)}</span>` })}
</form>`
    : html`<p class="secondary">${w.unavailable}</p>`
}
</li>`,
  )}</ul>`;
}

/** Per certificate, how to fetch it into DigiLocker and the switch to turn that off or on. */
function digilockerSection(s: MeCatalogue, lang: Lang, view: HomeView): Html {
  const d = s.digilocker;
  if (!view.digilockerConfigured) return html`<p id="digilocker-not-configured">${d.notConfigured}</p>`;
  if (view.certificates.length === 0) return html`<p>${s.certificates.none}</p>`;
  return html`<p>${d.lead}</p>
<ul class="stack me-list">${view.certificates.map((c) => {
    const v = c.digilocker;
    if (!v) return '';
    return html`<li class="card" id="digilocker-${c.certificateNo}">
<h3>${c.title} <span class="small secondary">${c.certificateNo}</span></h3>
${summaryList([
  { key: d.documentType, value: html`<code>${v.documentType}</code>` },
  { key: d.udf1, value: html`<code>${v.certificateNumber}</code>` },
  {
    key: d.state,
    value: v.available
      ? tag(d.available, 'green')
      : tag(d.reasons[v.reason ?? ''] ?? String(v.reason), v.reason === 'disabled' ? 'grey' : 'amber'),
  },
])}
<form method="post" action="${formAction(`/me/certificates/${c.certificateNo}/digilocker`, lang)}">
<input type="hidden" name="enabled" value="${v.enabled ? 'off' : 'on'}">
${button({ text: html`${v.enabled ? d.turnOff : d.turnOn}<span class="visually-hidden">${d.of(c.certificateNo)}</span>`, variant: v.enabled ? 'secondary' : 'primary' })}
</form>
</li>`;
  })}</ul>`;
}

export type WalletOffer = {
  certificateNo: string;
  title: string;
  credentialOfferUri: string;
  txCode: string | null;
  expiresAt: Date;
};

/** The answer to "Add to a wallet": the offer as a QR code, its link, and the code to type. */
export function walletOfferPage(lang: Lang, offer: WalletOffer): string {
  const s = meStrings(lang);
  const w = s.wallets;
  const date = dateOf(lang);
  const code = encodeQr(offer.credentialOfferUri);
  const side = code ? code.size + 8 : 0;
  return layout({
    title: w.offerTitle,
    lang,
    path: '/me',
    signedIn: true,
    narrow: true,
    body: html`<h1>${w.offerTitle}</h1>
<p>${w.offerLead(offer.title)}</p>
${
  code
    ? html`<p><svg class="share__qr" id="offer-qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="220" height="220" role="img" aria-label="${w.qrLabel}" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${qrSvgPath(code)}"/></svg></p>`
    : ''
}
<p>${w.link}<br><a id="offer-uri" href="${offer.credentialOfferUri}">${offer.credentialOfferUri}</a></p>
${offer.txCode ? html`<p>${w.txCode} <strong id="tx-code" class="me-address">${offer.txCode}</strong></p>` : ''}
<p>${w.expiry} (${w.expiresAt} ${date(offer.expiresAt)}, <time datetime="${offer.expiresAt.toISOString()}">${offer.expiresAt.toISOString().slice(11, 16)} UTC</time>)</p>
<p><a href="/me?lang=${lang}#wallets">${w.back}</a></p>`,
  });
}

const signOutForm = (s: MeCatalogue, lang: Lang) =>
  html`<form method="post" action="${formAction('/me/sign-out', lang)}">${button({ text: s.signOut, variant: 'secondary' })}</form>`;

/** Signed in: the holder's home. */
export function homePage(lang: Lang, view: HomeView): string {
  const s = meStrings(lang);
  const date = dateOf(lang);
  if (view.awaitingGuardian)
    return layout({
      title: s.title,
      lang,
      path: '/me',
      signedIn: true,
      body: html`${bannerOf(s, view.banner)}
<h1>${s.hello(view.name)}</h1>
<p>${s.guardianWait}</p>
${signOutForm(s, lang)}`,
    });
  const verification = view.consents.find((c) => c.purpose === 'public_verification');
  const nameIsPublic = verification?.state === 'granted';
  const p = s.publicName;
  const e = s.emailSection;
  const sections: [string, string][] = [
    ['certificates', s.certificates.heading],
    ['learner-record', s.record.heading],
    ['public-name', p.heading],
    ['consents', s.consents.heading],
    ['applications', s.applications.heading],
    ['wallets', s.wallets.heading],
    ['digilocker', s.digilocker.heading],
    ['email', e.heading],
  ];
  return layout({
    title: s.title,
    lang,
    path: '/me',
    signedIn: true,
    body: html`${bannerOf(s, view.banner)}
<h1>${s.hello(view.name)}</h1>
<nav aria-label="${s.onThisPage}"><ul class="inline-list">
${sections.map(([id, heading]) => html`<li><a href="#${id}">${heading}</a></li>`)}
</ul></nav>

<section id="certificates" aria-labelledby="certificates-h">
<h2 id="certificates-h">${s.certificates.heading}</h2>
${
  view.certificates.length === 0
    ? html`<p>${s.certificates.none}</p>`
    : html`<ul class="stack me-list">${view.certificates.map((c) => certificateItem(s, date, c))}</ul>`
}
</section>

<section id="learner-record" aria-labelledby="learner-record-h">
<h2 id="learner-record-h">${s.record.heading}</h2>
<p>${s.record.body}</p>
${
  view.learnerRecord
    ? html`<p><a class="button button--secondary" href="/api/me/learner-record" download="learner-record.json">${s.record.download}</a></p>`
    : html`<p class="secondary">${s.record.unavailable}</p>`
}
</section>

<section id="public-name" aria-labelledby="public-name-h">
<h2 id="public-name-h">${p.heading}</h2>
${summaryList([{ key: p.verifierSees, value: nameIsPublic ? html`<strong>${view.name}</strong>` : html`<strong>${p.notShown}</strong>`, id: 'verifier-sees' }])}
<p>${nameIsPublic ? p.shownBody : p.hiddenBody}</p>
${consentForm(lang, 'public_verification', nameIsPublic, nameIsPublic ? p.hide : p.show)}
<form method="post" action="${formAction('/me/public-name', lang)}">
<div class="form-group"><label class="label" for="publicAlias">${p.alias}</label>
<div class="hint" id="publicAlias-hint">${p.aliasHint}</div>
<input class="input input--width-20" id="publicAlias" name="publicAlias" type="text" maxlength="40" autocomplete="nickname" aria-describedby="publicAlias-hint" value="${view.publicAlias ?? ''}"></div>
${button({ text: p.save, variant: 'secondary' })}
</form>
</section>

<section id="consents" aria-labelledby="consents-h">
<h2 id="consents-h">${s.consents.heading}</h2>
<p>${s.consents.lead} <a href="/api/consent/notices/${view.noticeVersion}?lang=${lang}">${s.consents.notice}</a>.</p>
<ul class="stack me-list">${view.consents.map((c) => consentItem(s, lang, date, c))}</ul>
</section>

<section id="applications" aria-labelledby="applications-h">
<h2 id="applications-h">${s.applications.heading}</h2>
${
  view.grants.length === 0
    ? html`<p>${s.applications.none}</p>`
    : html`<ul class="stack me-list">${view.grants.map((g) => grantItem(s, lang, date, g))}</ul>`
}
</section>

<section id="wallets" aria-labelledby="wallets-h">
<h2 id="wallets-h">${s.wallets.heading}</h2>
${walletsSection(s, lang, view.certificates)}
</section>

<section id="digilocker" aria-labelledby="digilocker-h">
<h2 id="digilocker-h">${s.digilocker.heading}</h2>
${digilockerSection(s, lang, view)}
</section>

<section id="email" aria-labelledby="email-h">
<h2 id="email-h">${e.heading}</h2>
<p><span class="me-address">${view.email}</span> ${tag(view.emailConfirmed ? e.confirmed : e.unconfirmed, view.emailConfirmed ? 'green' : 'amber', 'email-state')}</p>
${view.pendingEmail ? html`<p>${e.pending} <span class="me-address">${view.pendingEmail}</span> ${e.pendingHint}</p>` : ''}
${
  view.emailConfirmed
    ? ''
    : html`<p>${e.resendHint}</p>
<form method="post" action="${formAction('/me/email-confirmation', lang)}">${button({ text: e.resend })}</form>`
}
</section>

<section id="account" aria-labelledby="account-h">
<h2 id="account-h">${s.session.heading}</h2>
${signOutForm(s, lang)}
</section>`,
  });
}

/** A refused form (not sent from this site's own page). */
export function refusedPage(lang: Lang, signedIn = false): string {
  const s = meStrings(lang).refused;
  return layout({
    title: s.title,
    lang,
    narrow: true,
    signedIn,
    body: html`<h1>${s.title}</h1><p>${s.body}</p><p><a href="/me?lang=${lang}">${s.back}</a></p>`,
  });
}
