/** `GET /`: what the platform is, a certificate look-up, and the ways on (issue 52). */
import { html } from 'hono/html';
import { button } from './components';
import { type Lang, t } from './i18n';
import { layout, withLang } from './layout';

/** The landing page; `signedIn` turns "Sign in" into the way to the holder's certificates. */
export function homePage(lang: Lang, signedIn = false): string {
  const s = t(lang);
  const h = s.home;
  const body = html`<div class="hero">
<h1>${h.title}</h1>
<p class="lead">${h.lead}</p>
</div>
<div class="grid grid--two-thirds">
<div>
<h2>${h.verifyHeading}</h2>
<form method="get" action="/verify" id="home-lookup">
<input type="hidden" name="lang" value="${lang}">
<div class="form-group">
<label class="label" for="home-number">${h.numberLabel}</label>
<span class="hint" id="home-number-hint">${h.verifyHint}</span>
<input class="input input--width-20" id="home-number" name="no" autocomplete="off" spellcheck="false" autocapitalize="characters" aria-describedby="home-number-hint" placeholder="VP-XXXX-XXXX-XXXX">
</div>
${button({ text: h.verifyButton, variant: 'start' })}
</form>
<p>${h.orUpload} <a href="${withLang('/verify', lang)}">${h.orUploadLink}</a></p>
<h2>${h.howHeading}</h2>
<ol>
<li>${h.how1}</li>
<li>${h.how2}</li>
<li>${h.how3}</li>
</ol>
</div>
<div>
<div class="card">
<h2>${h.holdersHeading}</h2>
<p>${h.holdersBody}</p>
<p><a href="${withLang('/me', lang)}">${signedIn ? s.site.yourAccount : s.site.signIn}</a></p>
</div>
<div class="card">
<h2>${h.developersHeading}</h2>
<p>${h.developersBody}</p>
<p><a href="/docs">${h.docsLink}</a></p>
</div>
</div>
</div>`;
  return layout({ title: h.verifyHeading, lang, body, path: '/', noindex: false, signedIn });
}
