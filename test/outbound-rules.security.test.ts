/**
 * Outbound rules (issue 51): the loopback switch is honoured only on a loopback base URL and is
 * reported by /api/health; DNS-over-HTTPS answers that are not canonical IP addresses fail closed.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { serviceHealth } from '../src/services/health';
import { guardedFetch, OutboundRefused } from '../src/services/outbound-fetch';
import { call } from './helpers';

const base = { requestUrl: 'http://localhost:8787/api/health', env: {} };

describe('the loopback switch', () => {
  it('is reported by /api/health (off in the tests: ok)', async () => {
    const res = await call('/api/health');
    expect(res.status).toBe(200);
    const body = await res.json<{ checks: { outboundLoopback: Record<string, unknown> } }>();
    expect(body.checks.outboundLoopback).toMatchObject({ status: 'ok', switchOn: false, honoured: false });
  });

  it('is honoured on a loopback base URL only; on any other it is ignored and the health check is degraded', async () => {
    const db = getDb(env.DB);
    const local = await serviceHealth(db, {
      ...base,
      publicBaseUrl: 'http://localhost:8787',
      allowHttpLocalhost: 'true',
    });
    expect(local.checks.outboundLoopback).toMatchObject({ status: 'ok', switchOn: true, honoured: true });
    for (const publicBaseUrl of [
      'https://api.example.com',
      'https://localhost.example.com',
      'http://10.1.2.3',
    ]) {
      const shipped = await serviceHealth(db, { ...base, publicBaseUrl, allowHttpLocalhost: 'true' });
      expect(shipped.checks.outboundLoopback, publicBaseUrl).toMatchObject({
        status: 'degraded',
        switchOn: true,
        honoured: false,
      });
      expect(shipped.status).toBe('degraded');
      // And the outbound fetch refuses loopback there, whatever the switch says.
      await expect(
        guardedFetch(
          { ...env, WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true', PUBLIC_BASE_URL: publicBaseUrl },
          'http://127.0.0.1:9/x',
          { budget: { remaining: 1 }, accept: 'application/json' },
        ),
      ).rejects.toBeInstanceOf(OutboundRefused);
    }
  });
});

describe('DNS-over-HTTPS answers fail closed', () => {
  it.each([['127.1'], ['0x7f000001'], ['2130706433'], ['10.0.0.1 '], ['example.com.'], ['fe80::1%eth0']])(
    'a resolver answering %j for a host: the fetch is refused before any request',
    async (answer) => {
      const name = `odd-${crypto.randomUUID().slice(0, 8)}.backpack.test`;
      const type = answer.includes(':') ? 'AAAA' : 'A';
      const put = await fetch('http://doh.test/records', {
        method: 'PUT',
        body: JSON.stringify({ name, values: [answer], type }),
      });
      expect(put.ok).toBe(true);
      const refused = await guardedFetch(env, `https://${name}/ims/ob/v3p0/discovery`, {
        budget: { remaining: 1 },
        accept: 'application/json',
      }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(OutboundRefused);
      expect(String((refused as Error).message)).toContain('malformed');
    },
  );
});
