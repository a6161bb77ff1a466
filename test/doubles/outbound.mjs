// Test doubles for the outside services the Worker calls with `fetch` (there is no network in
// tests): miniflare hands every outbound request of the Worker under test to `outbound` below,
// in Node. Tests drive the doubles through their own control endpoints, from inside workerd.
//
// - `http://doh.test`: a DNS-over-HTTPS resolver (JSON API, like cloudflare-dns.com/dns-query).
//   `PUT /records` `{name, values[]}` publishes TXT records; `PUT /down` `{down: true}` makes it fail.
//   Production setting: DOH_RESOLVER_URL = https://cloudflare-dns.com/dns-query (wrangler.toml).

/** @type {Map<string, string[]>} */
const txt = new Map();
let dohDown = false;

/** @param {Request} request */
export async function outbound(request) {
  const url = new URL(request.url);
  if (url.hostname === 'doh.test') return doh(request, url);
  return new Response(`no test double answers ${url.origin}`, { status: 502 });
}

/** @param {Request} request @param {URL} url */
async function doh(request, url) {
  if (request.method === 'PUT' && url.pathname === '/records') {
    const { name, values } = /** @type {{ name: string, values: string[] }} */ (await request.json());
    txt.set(String(name).toLowerCase(), values);
    return new Response(null, { status: 204 });
  }
  if (request.method === 'PUT' && url.pathname === '/down') {
    dohDown = Boolean(/** @type {{ down?: boolean }} */ (await request.json()).down);
    return new Response(null, { status: 204 });
  }
  if (dohDown) return new Response('resolver unavailable', { status: 503 });
  const name = (url.searchParams.get('name') ?? '').toLowerCase();
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
