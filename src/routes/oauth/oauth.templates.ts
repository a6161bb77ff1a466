import type { ClientInfo, ConsentDescription } from '@cloudflare/workers-oauth-provider';
import { html, raw } from 'hono/html';
import { cspHash, htmlString } from '../../domain/pages/html';
import { SCOPE_DESCRIPTIONS } from '../../services/portability/oauth';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}' +
  'dt{font-weight:600}dd{margin:0 0 .5rem 0;word-break:break-all}.warn{background:#fff4e5;padding:.5rem;border-radius:4px}' +
  'button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}label{display:block;margin:.5rem 0}';

/** Signs in through the JSON API (cookie-authenticated writes are JSON), then shows the page again. */
const SIGN_IN_SCRIPT =
  "document.getElementById('signin').addEventListener('submit',async(e)=>{e.preventDefault();" +
  "const f=e.target;const r=await fetch('/api/auth/login',{method:'POST',headers:{'content-type':'application/json'}," +
  'body:JSON.stringify({email:f.email.value,password:f.password.value})});' +
  "if(r.ok){location.reload()}else{document.getElementById('error').textContent='Sign-in failed: check your email and password.'}})";

/** The page's Content-Security-Policy: its own style and script by hash; forms post here or to the client. */
export async function authorizeCsp(redirectOrigin?: string): Promise<string> {
  const formTargets = ["'self'", ...(redirectOrigin ? [redirectOrigin] : [])].join(' ');
  return (
    `default-src 'none'; style-src ${await cspHash(STYLE)}; script-src ${await cspHash(SIGN_IN_SCRIPT)}; ` +
    `connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action ${formTargets}`
  );
}

const page = (title: string, body: ReturnType<typeof html>) =>
  htmlString(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>${raw(STYLE)}</style></head>
<body>${body}</body></html>`);

export const signInPage = () =>
  page(
    'Sign in to continue',
    html`<main><h1>Sign in to continue</h1>
<p>An application is asking for access to your certificates. Sign in first; you will then see who asks and for what.</p>
<form id="signin"><label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form><p id="error" role="alert"></p></main>
<script>${raw(SIGN_IN_SCRIPT)}</script>`,
  );

export const errorPage = (message: string) =>
  page(
    'Authorization failed',
    html`<main><h1>This request cannot be authorised</h1><p>${message}</p></main>`,
  );

/** Everything the holder decides on: who asks (name and URIs), where access goes, and what for. */
export function consentPage(
  details: ConsentDescription,
  client: ClientInfo | null,
  handle: string,
  who: string,
) {
  const uris: [string, string | undefined][] = [
    ['Website', client?.clientUri ?? details.clientUri],
    ['Privacy policy', client?.policyUri],
    ['Terms of service', client?.tosUri],
  ];
  return page(
    `Allow ${details.clientName}?`,
    html`<main><h1>Allow <span id="client-name">${details.clientName}</span> to access your account?</h1>
<p>Signed in as ${who}. This application registered itself: its name is not verified by us.</p>
<dl>${uris.filter(([, v]) => v).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}
<dt>Access will be sent to</dt><dd id="redirect-host">${details.redirectHost}</dd></dl>
${details.redirectIsLoopback ? html`<p class="warn">This sends access to an app on your own computer. Continue only if you just started it.</p>` : ''}
<h2>It asks to</h2>
<ul id="scopes">${details.scope.map((s) => html`<li><span>${SCOPE_DESCRIPTIONS[s] ?? s}</span> <small><code>${s}</code></small></li>`)}</ul>
<p>You can revoke this access at any time under <a href="/me#applications">your account’s connected applications</a>; revoking ends its tokens at once.</p>
<form method="post" action="/oauth/authorize"><input type="hidden" name="handle" value="${handle}">
<button name="decision" value="approve" type="submit">Allow</button>
<button name="decision" value="deny" type="submit">Deny</button></form></main>`,
  );
}
