/**
 * The public HTTP surface as browsers, partner pages, caches and attackers use it: findings of a
 * black-box round on the leaderboard, its embed, verification, the status lists and the pages.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { ipLimitKey } from '../src/middleware/rate-limit';
import { PAGE_VERSION } from '../src/routes/pages/pages.cold';
import { candidateWithCertificate } from './harness';
import { call, expectProblem } from './helpers';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
let ipCounter = 0;
/** A fresh IPv4 client per call site (this file's own range), so one test's limit touches no other. */
const freshIp = () => `198.18.7.${++ipCounter}`;

const statuses = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const payloadOf = (jwt: string) =>
  JSON.parse(atob(jwt.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/'))) as {
    credentialStatus: { statusListCredential: string };
  };

describe('per-IP limit of the leaderboard and its embed: an IPv6 client is counted by its /64', () => {
  it('keys IPv4 addresses as they are and IPv6 addresses by their /64', () => {
    expect(ipLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(ipLimitKey('2001:db8:abcd:12::1')).toBe('2001:db8:abcd:12::/64');
    expect(ipLimitKey('2001:0DB8:ABCD:0012:ffff:1:2:3')).toBe('2001:db8:abcd:12::/64');
    expect(ipLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(ipLimitKey(undefined)).toBe('unknown');
  });

  it('lets exactly 60 of 80 parallel calls from 80 addresses of one /64 through; another /64 is unaffected', async () => {
    const prefix = `2001:db8:${(Date.now() & 0xffff).toString(16)}:7`;
    const burst = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        call(i % 2 ? '/api/leaderboard' : '/embed/leaderboard', {
          headers: { 'CF-Connecting-IP': `${prefix}::${(i + 1).toString(16)}` },
        }),
      ),
    );
    expect(statuses(burst)).toEqual({ 200: 60, 429: 20 });
    await expectProblem(burst.find((r) => r.status === 429)!, 429, 'quota-exceeded');

    const neighbour = await call('/api/leaderboard', { headers: { 'CF-Connecting-IP': `${prefix}1::1` } });
    expect(neighbour.status).toBe(200);
    expect(neighbour.headers.get('ratelimit')).toBe('"ip";r=59;t=60');
  }, 30_000);

  it('trusts CF-Connecting-IP, never X-Forwarded-For', async () => {
    const ip = freshIp();
    const burst = await Promise.all(
      Array.from({ length: 65 }, (_, i) =>
        call('/api/leaderboard', { headers: { 'CF-Connecting-IP': ip, 'X-Forwarded-For': `192.0.2.${i}` } }),
      ),
    );
    expect(statuses(burst)).toEqual({ 200: 60, 429: 5 });
  }, 30_000);
});

describe('leaderboard `domain`: a value no brief can have is a 400, not a page showing it', () => {
  // U+202E (right-to-left override), U+0000, U+200B (zero width space), U+2028 (line separator).
  for (const hidden of ['\u202eevil', 'web\u0000dev', 'web\u200bdev', 'a\u2028b']) {
    it(`refuses ${JSON.stringify(hidden)} on the JSON board and the embed`, async () => {
      const query = `?domain=${encodeURIComponent(hidden)}`;
      const json = await call(`/api/leaderboard${query}`, { headers: { 'CF-Connecting-IP': freshIp() } });
      const problem = await expectProblem(json, 400, 'invalid-parameters');
      expect(problem.errors?.[0]?.pointer).toBe('#/query/domain');

      const page = await call(`/embed/leaderboard${query}`, {
        headers: { 'CF-Connecting-IP': freshIp(), accept: BROWSER },
      });
      expect(page.status).toBe(400);
      const html = await page.text();
      expect(html).not.toContain(hidden);
      expect(html).toContain('<code>#/query/domain</code>');
    });
  }

  it('still answers domains in any script, with the joiners Indic scripts need', async () => {
    for (const domain of ['डेटा-विज्ञान', 'ക്‍ലൗഡ്', 'café-ops']) {
      const res = await call(`/api/leaderboard?domain=${encodeURIComponent(domain)}`, {
        headers: { 'CF-Connecting-IP': freshIp() },
      });
      expect(res.status).toBe(200);
      expect((await res.json<{ domain: string }>()).domain).toBe(domain);
    }
  });
});

describe('HTML pages: the ETag changes with the inline style and script the CSP allows, or the markup’s version', () => {
  // A revalidation answered 304 carries the current CSP, which a cache puts on the page it holds:
  // had the deployment changed the page's inline assets, their new hashes would block the old ones.
  let certificateNo: string;
  beforeAll(async () => {
    ({ certificateNo } = await candidateWithCertificate('Public Http Asha', {
      domain: 'public-http-domain',
      employerName: 'Public HTTP Round Ltd',
    }));
  }, 60_000);

  it('GET /embed/leaderboard', async () => {
    const ip = freshIp();
    const res = await call('/embed/leaderboard?domain=public-http-domain', {
      headers: { 'CF-Connecting-IP': ip },
    });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".*-html"$/);
    expect(etag).toContain(`-${(await sha256Hex(csp)).slice(0, 10)}-html"`);
    const again = await call('/embed/leaderboard?domain=public-http-domain', {
      headers: { 'CF-Connecting-IP': ip, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(csp);
    // The same board under a tag of other assets is sent in full.
    const otherAssets = etag.replace(/-[0-9a-f]{10}-html"$/, '-0000000000-html"');
    const stale = await call('/embed/leaderboard?domain=public-http-domain', {
      headers: { 'CF-Connecting-IP': ip, 'If-None-Match': otherAssets },
    });
    expect(stale.status).toBe(200);
  });

  it('GET /verify/{certificateNo}', async () => {
    const res = await call(`/verify/${certificateNo}`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const etag = res.headers.get('etag')!;
    // The markup's version and the language are in the tag: a deployment that changes the page changes it.
    expect(etag.endsWith(`-en-${PAGE_VERSION}-html"`)).toBe(true);
    // Not the JSON's validator: the page is another representation.
    const json = await call(`/api/verify/${certificateNo}`);
    expect(etag).not.toBe(json.headers.get('etag'));
    const again = await call(`/verify/${certificateNo}`, {
      headers: { accept: BROWSER, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(csp);
  });

  it('GET /ob/status-lists/…: a weak ETag (a rebuild signs other bytes), still matched by its strong form', async () => {
    const verification = await call(`/api/verify/${certificateNo}`);
    const { credential } = await verification.json<{ credential: { jwt: string } }>();
    const url = payloadOf(credential.jwt).credentialStatus.statusListCredential;
    const path = url.slice(env.PUBLIC_BASE_URL.length);
    const res = await call(path);
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    // Clients that stored the strong tag served before keep getting 304s (weak comparison).
    for (const held of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await call(path, { headers: { 'If-None-Match': held } });
      expect(again.status, held).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=300');
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('content negotiation of the HTML routes’ errors', () => {
  it('answers problem+json to a client that refuses text/html with q=0, and a page to a browser', async () => {
    for (const accept of ['text/html;q=0, application/json', 'application/json, text/html; q=0.0']) {
      const res = await call('/verify/VP-0000-0000-0001', { headers: { accept } });
      await expectProblem(res, 400, 'invalid-parameters');
      expect(res.headers.get('vary')).toContain('Accept');
    }
    const page = await call('/verify/VP-0000-0000-0001', { headers: { accept: BROWSER } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const embed = await call('/embed/leaderboard?limit=0', {
      headers: { accept: 'text/html;q=0.5', 'CF-Connecting-IP': freshIp() },
    });
    expect(embed.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('the API’s own documents', () => {
  it('GET /openapi.yaml and GET /changelog may be cached briefly, by anyone, and read from any origin', async () => {
    for (const path of ['/openapi.yaml', '/changelog']) {
      const res = await call(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      await res.arrayBuffer();
    }
  });
});
