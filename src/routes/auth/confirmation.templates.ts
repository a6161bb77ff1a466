/**
 * The pages of the mailed confirmation link: the link opens a page that changes nothing, and its
 * button POSTs the token (same origin only). Kept plain on purpose: the site's layout and
 * stylesheet restyle it (the "pages" work); what matters here is behaviour and words.
 */
import { html, raw } from 'hono/html';
import { cspHash, htmlString } from '../../domain/pages/html';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}' +
  'button{font-size:1rem;padding:.5rem 1.25rem}.muted{color:#555}';

/** The pages' Content-Security-Policy: their one style by hash, forms posting here only. */
export async function confirmationCsp(): Promise<string> {
  return `default-src 'none'; style-src ${await cspHash(STYLE)}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

const page = (title: string, body: ReturnType<typeof html>) =>
  htmlString(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${title}</title><style>${raw(STYLE)}</style></head>
<body><main>${body}</main></body></html>`);

/** The link's page: what confirming does, and the button that does it. */
export const confirmPage = (token: string, email: string, purpose: 'signup' | 'change') =>
  page(
    'Confirm your email address',
    html`<h1>Confirm your email address</h1>
<p>${purpose === 'change' ? 'Make' : 'Confirm'} <strong id="email">${email}</strong> ${purpose === 'change' ? 'the sign-in address of your account' : 'as the address of your account'}.</p>
<form method="post" action="/api/auth/email-confirmation"><input type="hidden" name="token" value="${token}">
<button type="submit">Confirm ${email}</button></form>
<p class="muted">Did not ask for this? Close this page: nothing changes unless you press the button.</p>`,
  );

export const confirmedPage = (email: string, purpose: 'signup' | 'change') =>
  page(
    'Email address confirmed',
    html`<h1>Email address confirmed</h1>
<p><strong id="email">${email}</strong> is confirmed${purpose === 'change' ? ': it is now the sign-in address of your account' : ''}. You can close this page.</p>`,
  );

export const confirmationErrorPage = (title: string, detail: string) =>
  page(title, html`<h1>${title}</h1><p>${detail}</p>`);
