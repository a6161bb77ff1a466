/**
 * The OAuth authorization pages (sign-in, consent, errors) on the site's one layout (issue 52):
 * the platform named in the header, the app named on sign-in, Allow as the primary action,
 * "not you? sign out", and errors that say what to do next. The sign-in form signs in through
 * the JSON API from the static /assets/oauth.js (cookie-authenticated writes are JSON).
 */
import type { ClientInfo, ConsentDescription } from '@cloudflare/workers-oauth-provider';
import { html } from 'hono/html';
import { SCOPE_DESCRIPTIONS } from '../../services/portability/oauth';
import { button, notificationBanner, summaryList } from '../pages/components';
import { type Catalogue, type Lang, t } from '../pages/i18n';
import { layout, pageCsp, withLang } from '../pages/layout';

export const OAUTH_SCRIPT_PATH = '/assets/oauth.js';

/** The page's Content-Security-Policy: the site's own stylesheet and script; forms post here or to the client. */
export async function authorizeCsp(redirectOrigin?: string): Promise<string> {
  return pageCsp({ formAction: redirectOrigin ? [redirectOrigin] : [] });
}

/** `path`: the authorization request without `lang`, for the language switch. */
export const signInPage = (clientName?: string | null, lang: Lang = 'en', path?: string) => {
  const s = t(lang);
  const o = s.oauth;
  return layout({
    title: o.signInTitle,
    lang,
    narrow: true,
    ...(path ? { path } : {}),
    scripts: [OAUTH_SCRIPT_PATH],
    body: html`<h1>${clientName ? o.signInHeading(clientName) : o.signInHeadingUnknown}</h1>
<p>${o.signInBody(s.site.name)}</p>
<p id="error" class="error-message" role="alert"></p>
<form id="signin" data-failed="${o.signInFailed}" hidden>
<div class="form-group">
<label class="label" for="email">${o.email}</label>
<input class="input" id="email" name="email" type="email" autocomplete="username" spellcheck="false" required>
</div>
<div class="form-group">
<label class="label" for="password">${o.password}</label>
<input class="input" id="password" name="password" type="password" autocomplete="current-password" required>
</div>
${button({ text: o.signIn })}
</form>
<noscript><p>${o.needsScript}</p></noscript>`,
  });
};

/** Why a request could not be authorised: a message of the catalogue, and the OAuth detail for the app's makers. */
export type OAuthErrorView = {
  kind: keyof Catalogue['oauth']['errors'];
  /** The OAuth error code (`invalid_request`, …), shown as the technical detail. */
  code?: string;
  /** The library's description (English, for the application's makers). */
  detail?: string;
};

export const errorPage = (error: OAuthErrorView, lang: Lang = 'en', signedIn = false, path?: string) => {
  const s = t(lang);
  const o = s.oauth;
  const technical = [error.detail, error.code ? `(${error.code})` : ''].filter(Boolean).join(' ');
  return layout({
    title: o.errorTitle,
    lang,
    narrow: true,
    signedIn,
    ...(path ? { path } : {}),
    body: html`<h1>${o.errorTitle}</h1>
${notificationBanner({ type: 'error', label: s.common.error, body: html`<p id="oauth-error">${o.errors[error.kind]}</p>`, id: 'problem' })}
${technical ? html`<p class="small secondary">${o.errorTechnical} <code lang="en" id="oauth-error-detail">${technical}</code></p>` : ''}
<h2>${o.errorNext}</h2>
<p>${o.errorNextBody}</p>
<ul class="inline-list">
${error.kind === 'signInFirst' ? html`<li><a href="${withLang('/me', lang)}">${o.errorSignIn}</a></li>` : ''}<li><a href="${withLang('/', lang)}">${o.errorHome}</a></li>
</ul>`,
  });
};

/** Everything the holder decides on: who asks (name and URIs), where access goes, and what for. */
export function consentPage(
  details: ConsentDescription,
  client: ClientInfo | null,
  handle: string,
  who: string,
  /** The client's website, only when it is on the redirect host's domain (else not shown). */
  clientUri?: string,
  lang: Lang = 'en',
  path?: string,
) {
  const s = t(lang);
  const o = s.oauth;
  const uris: [string, string | undefined][] = [
    [o.website, clientUri],
    [o.privacy, client?.policyUri],
    [o.terms, client?.tosUri],
  ];
  return layout({
    title: o.consentTitle(details.clientName),
    lang,
    narrow: true,
    signedIn: true,
    ...(path ? { path } : {}),
    scripts: [OAUTH_SCRIPT_PATH],
    body: html`<h1>${o.allowPrefix} <span id="client-name">${details.clientName}</span> ${o.consentHeading}</h1>
<p id="signed-in">${o.signedInAs(who)} <span id="not-you" hidden>${o.notYou} <button type="button" class="link-button" id="sign-out">${o.signOut}</button></span></p>
${notificationBanner({ type: 'warning', label: o.unverifiedLabel, body: html`<p>${o.unverifiedName}</p>`, id: 'unverified' })}
${summaryList([
  ...uris.filter(([, v]) => v).map(([k, v]) => ({ key: k, value: v ?? '' })),
  { key: o.sentTo, value: details.redirectHost, id: 'redirect-host' },
])}
${details.redirectIsLoopback ? notificationBanner({ type: 'warning', label: o.sentTo, body: html`<p>${o.loopback}</p>`, id: 'loopback' }) : ''}
<h2>${o.asksTo}</h2>
<ul id="scopes">${details.scope.map((scope) => html`<li><span>${s.scopes[scope] ?? SCOPE_DESCRIPTIONS[scope] ?? scope}</span> <code class="secondary">${scope}</code></li>`)}</ul>
<p>${o.revokeLater} <a href="${withLang('/me', lang)}#applications">${o.revokeLink}</a>.</p>
<form method="post" action="/oauth/authorize" class="button-group"><input type="hidden" name="handle" value="${handle}"><input type="hidden" name="lang" value="${lang}">
${button({ text: o.allow, name: 'decision', value: 'approve', id: 'allow' })}
${button({ text: o.deny, name: 'decision', value: 'deny', variant: 'secondary', id: 'deny' })}
</form>`,
  });
}
