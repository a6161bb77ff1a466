/**
 * The mailed confirmation link's pages on the site's layout (issue 52): the same exports as the
 * "sec-auth" helper's src/routes/auth/confirmation.templates.ts (`confirmationCsp`, `confirmPage`,
 * `confirmedPage`, `confirmationErrorPage`), so its handler can import these instead. The GET
 * page changes nothing: its button POSTs the token (same origin only).
 */
import { html } from 'hono/html';
import { button, notificationBanner, panel } from './components';
import { type Lang, t } from './i18n';
import { layout, pageCsp, withLang } from './layout';

/** The pages' Content-Security-Policy: the site's stylesheet, forms posting here only. */
export async function confirmationCsp(): Promise<string> {
  return pageCsp();
}

/** The link's page: what confirming does, and the button that does it. */
export const confirmPage = (
  token: string,
  email: string,
  purpose: 'signup' | 'change',
  lang: Lang = 'en',
  signedIn = false,
) => {
  const c = t(lang).confirmation;
  const prefix = purpose === 'change' ? c.makePrefix : c.confirmPrefix;
  return layout({
    title: c.title,
    lang,
    narrow: true,
    signedIn,
    body: html`<h1>${c.title}</h1>
<p>${prefix ? `${prefix} ` : ''}<strong id="email">${email}</strong> ${purpose === 'change' ? c.bodyChange : c.bodySignup}</p>
<form method="post" action="${withLang('/api/auth/email-confirmation', lang)}"><input type="hidden" name="token" value="${token}">
${button({ text: c.button(email), id: 'confirm' })}
</form>
<p class="secondary">${c.notYou}</p>`,
  });
};

export const confirmedPage = (
  email: string,
  purpose: 'signup' | 'change',
  lang: Lang = 'en',
  signedIn = false,
) => {
  const c = t(lang).confirmation;
  return layout({
    title: c.confirmedTitle,
    lang,
    narrow: true,
    signedIn,
    body: html`${panel({ title: c.confirmedTitle, body: html`<strong id="email">${email}</strong> ${purpose === 'change' ? c.confirmedBodyChange : c.confirmedBody}`, id: 'confirmed' })}
<p><a href="${withLang('/me', lang)}">${c.next}</a></p>`,
  });
};

export const confirmationErrorPage = (title: string, detail: string, lang: Lang = 'en', signedIn = false) => {
  const s = t(lang);
  return layout({
    title,
    lang,
    narrow: true,
    signedIn,
    body: html`<h1>${title}</h1>
${notificationBanner({ type: 'error', label: s.common.error, body: html`<p>${detail}</p>`, id: 'problem' })}
<p><a href="${withLang('/me', lang)}">${s.site.signIn}</a></p>`,
  });
};
