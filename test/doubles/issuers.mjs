// Foreign Open Badges issuers for the tests: every host under `issuer.test` (e.g.
// `https://uni.issuer.test`) serves whatever the tests published there: keys, DID documents,
// Profiles, status lists. Production has no such double: the verifier fetches the issuer's own URLs.
//
// - `PUT /__control/doc` `{path, body, contentType?, status?, delayMs?, padBytes?, headers?, host?,
//   base64?, trickleMs?}` publishes a document at `path` on that host (or on `host`, any name: e.g. the `example.com`
//   of the specification's samples, which then answers from here too) (`delayMs` delays the answer, `padBytes` appends
//   that many spaces: a slow or an oversized answer; `status` 3xx with `headers.location` is a redirect; `base64`:
//   `body` is the base64 of the bytes to answer (a PNG); `trickleMs`: the headers at once, then the body one byte
//   every `trickleMs` ms: a slow body).
// - `GET /__control/log` → `{requests: [path, …]}`: what was fetched from that host, in order.
// - `DELETE /__control` forgets the host's documents and log.

/** @type {Map<string, Map<string, {body: string | Uint8Array, contentType: string, status: number, delayMs: number, padBytes: number, trickleMs: number, headers: Record<string, string>}>>} */
const hosts = new Map();
/** @type {Map<string, string[]>} */
const logs = new Map();

/** @param {Request} request @param {URL} url */
export async function issuersDouble(request, url) {
  let host = url.host;
  if (url.pathname === '/__control/doc' && request.method === 'PUT') {
    const doc = /** @type {any} */ (await request.json());
    if (doc.host) host = doc.host;
    const docs = hosts.get(host) ?? new Map();
    docs.set(doc.path, {
      body: doc.base64
        ? Uint8Array.from(Buffer.from(doc.body, 'base64'))
        : typeof doc.body === 'string'
          ? doc.body
          : JSON.stringify(doc.body),
      contentType: doc.contentType ?? 'application/json',
      status: doc.status ?? 200,
      delayMs: doc.delayMs ?? 0,
      padBytes: doc.padBytes ?? 0,
      trickleMs: doc.trickleMs ?? 0,
      headers: doc.headers ?? {},
    });
    hosts.set(host, docs);
    return new Response(null, { status: 204 });
  }
  if (url.pathname === '/__control/log') return Response.json({ requests: logs.get(host) ?? [] });
  if (url.pathname === '/__control' && request.method === 'DELETE') {
    hosts.delete(host);
    logs.delete(host);
    return new Response(null, { status: 204 });
  }
  const path = `${url.pathname}${url.search}`;
  logs.set(host, [...(logs.get(host) ?? []), path]);
  const doc = hosts.get(host)?.get(path);
  if (!doc) return new Response('not found', { status: 404 });
  if (doc.delayMs) await new Promise((resolve) => setTimeout(resolve, doc.delayMs));
  const body = doc.padBytes && typeof doc.body === 'string' ? doc.body + ' '.repeat(doc.padBytes) : doc.body;
  if (doc.trickleMs) {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    let at = 0;
    const stream = new ReadableStream({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, doc.trickleMs));
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 1));
        at += 1;
      },
    });
    return new Response(stream, {
      status: doc.status,
      headers: { 'content-type': doc.contentType, ...doc.headers },
    });
  }
  return new Response(doc.status >= 300 && doc.status < 400 ? null : body, {
    status: doc.status,
    headers: { 'content-type': doc.contentType, ...doc.headers },
  });
}

/** Whether a test published documents on this host (any name). @param {string} host */
export const servesHost = (host) => hosts.has(host);
