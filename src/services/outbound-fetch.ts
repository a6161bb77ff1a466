/**
 * Fetches of URLs that come from outside (a presented credential's `kid`, its issuer, its status
 * list), made so they cannot be turned against us or our network (docs/decisions/0122):
 *
 * - the webhook address rules (src/domain/webhooks/targets.ts): https only, except plain http to a
 *   loopback host where the local setting `WEBHOOKS_ALLOW_HTTP_LOCALHOST` allows it; a host name
 *   is resolved through DNS-over-HTTPS and every address checked (no private, loopback,
 *   link-local / metadata, CGNAT, unique-local, reserved space) before the fetch;
 * - a budget of fetches per verification, a timeout per fetch and a size cap on every answer
 *   (streamed, so an endless answer is cut off);
 * - redirects followed only on the same origin (each hop checked and counted), never to another host.
 */
import { checkTargetUrl, forbiddenAddressReason } from '../domain/webhooks/targets';
import { resolveAddresses } from './webhooks/delivery';
import { allowHttpLocalhost } from './webhooks/endpoints';

export class OutboundRefused extends Error {}

/** The URL itself, or an address its host resolves to, is one the rules forbid (nothing was sent). */
export class AddressRefused extends OutboundRefused {}

export type FetchBudget = { remaining: number };

export type FetchedDocument = {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The answer's bytes as they came (`body` is them decoded as UTF-8): a baked PNG is not text. */
  bytes: Uint8Array;
  headers: Headers;
};

export const OUTBOUND_DEFAULTS = { timeoutMs: 3000, maxBytes: 256 * 1024, maxRedirects: 2 } as const;

/** Why `raw` may not be fetched (the URL or the addresses its host resolves to), or null. */
async function refusal(
  env: Pick<Env, 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  raw: string,
) {
  const check = checkTargetUrl(raw, { allowHttpLocalhost: allowHttpLocalhost(env) });
  if (!check.ok) return check.reason.replace('Webhook URLs', 'URLs');
  if (!check.needsResolution) return null;
  let addresses: string[];
  try {
    addresses = await resolveAddresses(env, check.host);
  } catch (error) {
    return `DNS lookup of ${check.host} failed (${error instanceof Error ? error.message : 'error'}).`;
  }
  if (addresses.length === 0) return `${check.host} does not resolve.`;
  for (const address of addresses) {
    const why = forbiddenAddressReason(address);
    if (why) return `${check.host} resolves to a ${why} address (${address}); not fetched.`;
  }
  return null;
}

async function readCapped(res: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`);
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw new OutboundRefused('Timed out while reading the answer.');
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`);
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/**
 * Fetches `url` under the rules above (a GET unless `method` says otherwise). Throws
 * {@link OutboundRefused} with a sentence a user can be shown (refused address, budget spent,
 * timeout, too large, cross-host redirect, network error). Only a GET follows redirects (same
 * origin); any other method gets the 3xx answer itself, as it came.
 */
export async function guardedFetch(
  env: Pick<Env, 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  url: string,
  options: {
    budget: FetchBudget;
    accept: string;
    timeoutMs?: number;
    maxBytes?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | URLSearchParams | Uint8Array;
    userAgent?: string;
  },
): Promise<FetchedDocument> {
  const { timeoutMs = OUTBOUND_DEFAULTS.timeoutMs, maxBytes = OUTBOUND_DEFAULTS.maxBytes } = options;
  let current = url;
  for (let hop = 0; hop <= OUTBOUND_DEFAULTS.maxRedirects; hop++) {
    if (options.budget.remaining <= 0)
      throw new OutboundRefused('The verification made as many fetches as it may; not fetched.');
    options.budget.remaining -= 1;
    const why = await refusal(env, current);
    if (why) throw new AddressRefused(why);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let res: Response;
      try {
        const method = options.method ?? 'GET';
        res = await fetch(current, {
          method,
          headers: {
            ...options.headers,
            accept: options.accept,
            'user-agent': options.userAgent ?? 'verification-platform-credential-verifier',
          },
          ...(options.body !== undefined && method !== 'GET' ? { body: options.body } : {}),
          redirect: 'manual',
          signal: controller.signal,
        });
      } catch {
        throw new OutboundRefused(
          controller.signal.aborted
            ? `No answer within ${timeoutMs} ms.`
            : `${new URL(current).host} could not be reached.`,
        );
      }
      if (res.status >= 300 && res.status < 400 && (options.method ?? 'GET') === 'GET') {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location) throw new OutboundRefused(`A ${res.status} redirect without a Location.`);
        const next = new URL(location, current);
        if (next.origin !== new URL(current).origin)
          throw new OutboundRefused(`Redirected to another host (${next.host}); not followed.`);
        current = next.href;
        continue;
      }
      const bytes = await readCapped(res, maxBytes, controller.signal).catch((error: unknown) => {
        if (error instanceof OutboundRefused) throw error;
        throw new OutboundRefused(
          controller.signal.aborted ? `No answer within ${timeoutMs} ms.` : 'The answer broke off.',
        );
      });
      return {
        url: current,
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        body: new TextDecoder().decode(bytes),
        bytes,
        headers: res.headers,
      };
    } finally {
      clearTimeout(timer);
    }
  }
  throw new OutboundRefused('Too many redirects.');
}

/** Seconds from `Cache-Control: max-age` (bounded), else `fallback`. */
export function maxAgeOf(headers: Headers, fallback: number, ceiling = 86_400): number {
  const cacheControl = headers.get('cache-control') ?? '';
  if (/\b(no-store|no-cache|private)\b/i.test(cacheControl)) return 0;
  const match = /\bmax-age=(\d+)/i.exec(cacheControl);
  return Math.min(match ? Number(match[1]) : fallback, ceiling);
}
