// Test doubles for the outside services the Worker calls with `fetch` (there is no network in
// tests): miniflare hands every outbound request of the Worker under test to `outbound` below,
// in Node. Tests drive the doubles through their own control endpoints, from inside workerd.
//
// - `http://doh.test`: a DNS-over-HTTPS resolver (JSON API, like cloudflare-dns.com/dns-query).
//   `PUT /records` `{name, values[]}` publishes TXT records; `PUT /down` `{down: true}` makes it fail.
//   Production setting: DOH_RESOLVER_URL = https://cloudflare-dns.com/dns-query (wrangler.toml).
//   `{name, values, type: 'A' | 'AAAA'}` publishes address records; without any, names under
//   `hooks.test` answer A 93.184.215.14 (a public address) and other names nothing.
// - `https://hooks.test/<name>`: a webhook receiver. Records every request (method, headers,
//   body) per name; answers 204. `PUT https://hooks.test/__control/<name>` `{fail?: n, status?,
//   location?}` makes it answer `status` (default 500; with `location`, a redirect) to the next
//   `n` requests (every request when `fail` is absent); `GET …/__control/<name>` returns what it
//   recorded (`{requests: [{method, headers, body}]}`); `DELETE` forgets the name.
// - `http://jsonld.test/expand`: jsonld.js in safe mode with the official contexts (test/doubles/jsonld.mjs).
// - `https://<name>.issuer.test/…`: foreign Open Badges issuers (test/doubles/issuers.mjs); their
//   names resolve (DoH double) to a public address unless a test publishes another.
// - `https://<name>.backpack.test/…`: a holder's Open Badges 3.0 host (test/doubles/ob-host.mjs):
//   discovery, RFC 7591 registration, authorization code + PKCE, token, and credential upsert that
//   verifies the JWS it receives; resolves to a public address unless a test publishes another.

import { issuersDouble, servesHost } from './issuers.mjs';
import { jsonldDouble } from './jsonld.mjs';
import { isBackpackHost, obHostDouble } from './ob-host.mjs';

/** @type {Map<string, string[]>} TXT values per name; address records per `A:name` / `AAAA:name`. */
const txt = new Map();
let dohDown = false;

/** @type {Map<string, {method: string, headers: Record<string, string>, body: string}[]>} */
const received = new Map();
/** @type {Map<string, {fail: number | null, status: number, location: string | null}>} */
const behaviour = new Map();

/** @param {Request} request */
export async function outbound(request) {
  const url = new URL(request.url);
  if (url.hostname === 'doh.test') return doh(request, url);
  if (url.hostname === 'hooks.test') return hooks(request, url);
  // test/doubles/jsonld.mjs: jsonld.js in safe mode with the official contexts, in Node.
  if (url.hostname === 'jsonld.test') return jsonldDouble(request);
  // test/doubles/ob-host.mjs: holders' Open Badges hosts (names under `backpack.test`).
  if (isBackpackHost(url.hostname)) return obHostDouble(request, url);
  // test/doubles/issuers.mjs: foreign Open Badges issuers (names under `issuer.test`).
  if (url.hostname === 'issuer.test' || url.hostname.endsWith('.issuer.test') || servesHost(url.host))
    return issuersDouble(request, url);
  return new Response(`no test double answers ${url.origin}`, { status: 502 });
}

/** @param {Request} request @param {URL} url */
async function doh(request, url) {
  if (request.method === 'PUT' && url.pathname === '/records') {
    const { name, values, type } = /** @type {{ name: string, values: string[], type?: string }} */ (
      await request.json()
    );
    const key =
      type === 'A' || type === 'AAAA' ? `${type}:${String(name).toLowerCase()}` : String(name).toLowerCase();
    txt.set(key, values);
    return new Response(null, { status: 204 });
  }
  if (request.method === 'PUT' && url.pathname === '/down') {
    dohDown = Boolean(/** @type {{ down?: boolean }} */ (await request.json()).down);
    return new Response(null, { status: 204 });
  }
  if (dohDown) return new Response('resolver unavailable', { status: 503 });
  const name = (url.searchParams.get('name') ?? '').toLowerCase();
  const type = url.searchParams.get('type');
  if (type === 'A' || type === 'AAAA') {
    const code = type === 'A' ? 1 : 28;
    const fallback =
      type === 'A' &&
      (name === 'hooks.test' ||
        name.endsWith('.hooks.test') ||
        name.endsWith('.issuer.test') ||
        name.endsWith('.backpack.test'))
        ? ['93.184.215.14']
        : [];
    const addresses = txt.get(`${type}:${name}`) ?? fallback;
    return Response.json(
      {
        Status: addresses.length ? 0 : 3,
        Question: [{ name, type: code }],
        Answer: addresses.map((data) => ({ name, type: code, TTL: 60, data })),
      },
      { headers: { 'content-type': 'application/dns-json' } },
    );
  }
  const values = txt.get(name) ?? [];
  return Response.json(
    {
      Status: values.length ? 0 : 3,
      Question: [{ name, type: 16 }],
      Answer: values.map((v) => ({ name, type: 16, TTL: 60, data: `"${v.replaceAll('"', '\\"')}"` })),
    },
    { headers: { 'content-type': 'application/dns-json' } },
  );
}

/** @param {Request} request @param {URL} url */
async function hooks(request, url) {
  if (url.pathname.startsWith('/__control/')) {
    const name = url.pathname.slice('/__control/'.length);
    if (request.method === 'PUT') {
      const body = /** @type {{ fail?: number, status?: number, location?: string }} */ (
        await request.json()
      );
      behaviour.set(name, {
        fail: typeof body.fail === 'number' ? body.fail : null,
        status: body.status ?? 500,
        location: body.location ?? null,
      });
      return new Response(null, { status: 204 });
    }
    if (request.method === 'DELETE') {
      received.delete(name);
      behaviour.delete(name);
      return new Response(null, { status: 204 });
    }
    return Response.json({ requests: received.get(name) ?? [] });
  }
  const name = url.pathname.slice(1);
  const list = received.get(name) ?? [];
  list.push({
    method: request.method,
    headers: Object.fromEntries(request.headers),
    body: await request.text(),
  });
  received.set(name, list);
  const plan = behaviour.get(name);
  if (plan && (plan.fail === null || plan.fail > 0)) {
    if (plan.fail !== null) plan.fail -= 1;
    return new Response(plan.location ? null : 'receiver failing on purpose', {
      status: plan.status,
      headers: plan.location ? { location: plan.location } : {},
    });
  }
  return new Response(null, { status: 204 });
}
