// The DNS-over-HTTPS double for `npm run dev` (there is no outside DNS on a development machine
// or in CI, and a domain proof should still be tryable end to end). It is the tests' double
// (test/doubles/outbound.mjs, `doh.test`) served over HTTP on 127.0.0.1:
//   GET  /dns-query?name=…&type=TXT    what the Worker asks (Cloudflare's JSON API)
//   PUT  /records {name, values[]}     publishes TXT records (in memory, until the server stops)
//   PUT  /down {down: true|false}      makes the resolver fail (503), to try that path
// Production setting: DOH_RESOLVER_URL = https://cloudflare-dns.com/dns-query (wrangler.toml).
import { createServer } from 'node:http';
import { outbound } from '../../test/doubles/outbound.mjs';

/**
 * Starts the double on `preferredPort` (any free port when that one is taken).
 * @param {number} preferredPort
 * @returns {Promise<{ url: string; close: () => void }>}
 */
export async function startDnsDouble(preferredPort) {
  const server = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await outbound(
        new Request(`http://doh.test${req.url ?? '/'}`, { method: req.method, body }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`dns double: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const listen = (/** @type {number} */ port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve(undefined);
      });
    });
  try {
    await listen(preferredPort);
  } catch {
    await listen(0);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : preferredPort;
  server.unref();
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
