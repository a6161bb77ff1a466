/**
 * `{"url": …}` on `POST /api/credentials/verify` and `POST /api/v1/credentials/verify`: the
 * 1EdTech displayer test hands a displayer badge URLs. The badge is served by the issuers double
 * (test/doubles/issuers.mjs) in each form (VC-JWT, JSON with a Data Integrity proof, baked PNG and
 * SVG), then fetched under the outbound rules (decision 0357): refused URLs and failed fetches are
 * 422 problems, an answer that is not a credential is a failed `parse`.
 */

import { describe, expect, it } from 'vitest';
import BADGE_PNG from '../src/assets/badge/badge.png';
import { badgeSvg, bakePng, bakeSvg } from '../src/domain/certificates/badge';
import { signDataIntegrity } from '../src/domain/certificates/data-integrity';
import { ed25519Multibase } from '../src/domain/certificates/did-web';
import {
  base64Of,
  checkOf,
  credentialFrom,
  fetchedFrom,
  foreignIssuer,
  publish,
  publishStatusList,
  type Report,
  resolveTo,
  signAs,
  statusEntryFor,
} from './foreign-issuers';
import { issueKey, loginAdmin } from './harness';
import { call, expectProblem, freshIp, jsonInit } from './helpers';

const T = { timeout: 60_000 };

type UrlReport = Report & {
  fetched: { url: string; finalUrl: string; mediaType: string | null; size: number } | null;
};

const post = (body: unknown, key?: string) =>
  call(
    key ? '/api/v1/credentials/verify' : '/api/credentials/verify',
    jsonInit('POST', body, key ? { 'X-Service-Key': key } : { 'CF-Connecting-IP': freshIp() }),
  );

async function verifyUrl(url: string, key?: string): Promise<UrlReport> {
  const res = await post({ url }, key);
  if (res.status !== 200) throw new Error(`verify answered ${res.status}: ${await res.text()}`);
  return res.json<UrlReport>();
}

const svgOf = (jwt: string) =>
  bakeSvg(badgeSvg({ title: 'DS', organisation: 'X', certificateNo: 'n/a', issuedAt: new Date() }), jwt);

describe('a badge given as a URL, in each form', () => {
  it(
    'a VC-JWT (application/vc+jwt): valid on both routes, the answer names what was fetched',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256', 'Link University');
      const jwt = await signAs(issuer, credentialFrom(issuer));
      await publish(issuer.host, '/badges/1', jwt, { contentType: 'application/vc+jwt' });
      const url = `https://${issuer.host}/badges/1`;
      const report = await verifyUrl(url);
      expect(report.verdict, report.summary).toBe('valid');
      expect(report).toMatchObject({ format: 'vc-jwt', container: 'text', verifiedCredential: jwt });
      expect(report.issuer.name).toBe('Link University');
      expect(report.fetched).toEqual({
        url,
        finalUrl: url,
        mediaType: 'application/vc+jwt',
        size: new TextEncoder().encode(jwt).byteLength,
      });

      const admin = await loginAdmin();
      const { key } = await issueKey(admin, ['credentials:verify']);
      expect((await verifyUrl(url, key)).verdict).toBe('valid');
      // Without the scope's key, nothing is fetched for the partner route.
      const before = (await fetchedFrom(issuer.host)).length;
      await expectProblem(await post({ url }, 'vp_nonsense'), 401, 'unauthenticated');
      expect(await fetchedFrom(issuer.host)).toHaveLength(before);
    },
  );

  it('a JSON credential with an eddsa-rdfc-2022 proof (application/vc+ld+json): valid', T, async () => {
    const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
    const multibase = ed25519Multibase(raw);
    const did = `did:key:${multibase}`;
    const signed = await signDataIntegrity(
      credentialFrom({ id: did, name: 'A Wallet University' }),
      { id: `${did}#${multibase}`, privateKey: pair.privateKey },
      new Date('2026-01-05T10:00:00Z'),
    );
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/badges/di.json', signed, { contentType: 'application/vc+ld+json' });
    const report = await verifyUrl(`https://${issuer.host}/badges/di.json`);
    expect(report.verdict, report.summary).toBe('valid');
    expect(report).toMatchObject({ format: 'json', container: 'text' });
    expect(report.fetched?.mediaType).toBe('application/vc+ld+json');
  });

  it(
    'a baked PNG (image/png, and sniffed as application/octet-stream) and a baked SVG: valid',
    T,
    async () => {
      const issuer = await foreignIssuer('EdDSA');
      const jwt = await signAs(issuer, credentialFrom(issuer));
      const png = bakePng(new Uint8Array(BADGE_PNG), jwt);
      await publish(issuer.host, '/badge.png', base64Of(png), { contentType: 'image/png', base64: true });
      await publish(issuer.host, '/badge.bin', base64Of(png), {
        contentType: 'application/octet-stream',
        base64: true,
      });
      await publish(issuer.host, '/badge.svg', svgOf(jwt), { contentType: 'image/svg+xml; charset=utf-8' });

      const fromPng = await verifyUrl(`https://${issuer.host}/badge.png`);
      expect(fromPng, fromPng.summary).toMatchObject({
        verdict: 'valid',
        container: 'png',
        verifiedCredential: jwt,
      });
      expect(fromPng.fetched).toMatchObject({ mediaType: 'image/png', size: png.byteLength });
      const sniffed = await verifyUrl(`https://${issuer.host}/badge.bin`);
      expect(sniffed).toMatchObject({ verdict: 'valid', container: 'png' });
      const fromSvg = await verifyUrl(`https://${issuer.host}/badge.svg`);
      expect(fromSvg).toMatchObject({ verdict: 'valid', container: 'svg' });
      expect(fromSvg.fetched?.mediaType).toBe('image/svg+xml');
    },
  );

  it('a same-origin redirect is followed (finalUrl says where the answer came from)', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    await publish(issuer.host, '/b/old', null, { status: 301, headers: { location: '/b/new' } });
    await publish(issuer.host, '/b/new', jwt, { contentType: 'application/jwt' });
    const report = await verifyUrl(`https://${issuer.host}/b/old`);
    expect(report.verdict, report.summary).toBe('valid');
    expect(report.fetched).toMatchObject({
      url: `https://${issuer.host}/b/old`,
      finalUrl: `https://${issuer.host}/b/new`,
    });
  });
});

describe('answers that are not a credential: a failed parse', () => {
  it('a web page (text/html), a JPEG, a PNG with nothing baked in, a PNG that is not one', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/page', '<!doctype html><title>My badge</title>', {
      contentType: 'text/html',
    });
    await publish(issuer.host, '/photo.jpg', '/9j/4AAQSkZJRg==', { contentType: 'image/jpeg', base64: true });
    await publish(issuer.host, '/plain.png', base64Of(new Uint8Array(BADGE_PNG)), {
      contentType: 'image/png',
      base64: true,
    });
    await publish(issuer.host, '/fake.png', '{"not":"a png"}', { contentType: 'image/png' });
    for (const [path, why] of [
      ['/page', /web page \(text\/html\)/],
      ['/photo.jpg', /image\/jpeg image: only a PNG or an SVG/],
      ['/plain.png', /no Open Badges credential/],
      ['/fake.png', /declared image\/png but is not a PNG/],
    ] as const) {
      const report = await verifyUrl(`https://${issuer.host}${path}`);
      expect(report.verdict, path).toBe('invalid');
      expect(checkOf(report, 'parse'), path).toMatchObject({ outcome: 'failed' });
      expect(checkOf(report, 'parse')?.detail, path).toMatch(why);
      expect(report.fetched?.url, path).toBe(`https://${issuer.host}${path}`);
    }
  });
});

describe('URLs the rules refuse: 422 credential-url-refused, nothing fetched', () => {
  it(
    'plain http, a private, loopback or metadata address, localhost, credentials in the URL',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      await publish(issuer.host, '/b', 'x.y.z', { contentType: 'application/jwt' });
      for (const [url, why] of [
        [`http://${issuer.host}/b`, /https/],
        ['https://10.1.2.3/b', /private/],
        ['https://127.0.0.1/b', /loopback/],
        ['https://169.254.169.254/latest/meta-data', /link-local|metadata/],
        ['https://localhost/b', /loopback/],
        [`https://user:secret@${issuer.host}/b`, /credentials/],
        ['not a url', /not valid/],
        ['javascript:alert(1)', /https/],
      ] as const) {
        const problem = await expectProblem(await post({ url }), 422, 'credential-url-refused');
        expect(problem.detail, url).toMatch(why);
        expect(problem.errors?.[0]?.pointer, url).toBe('#/url');
      }
      expect(await fetchedFrom(issuer.host)).toEqual([]);
    },
  );

  it('a host name that resolves to a private address is not fetched', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/b', 'x.y.z', { contentType: 'application/jwt' });
    await resolveTo(issuer.host, '192.168.1.20');
    const problem = await expectProblem(
      await post({ url: `https://${issuer.host}/b` }),
      422,
      'credential-url-refused',
    );
    expect(problem.detail).toMatch(/private address/);
    expect(await fetchedFrom(issuer.host)).toEqual([]);
  });

  it(
    'not exactly one of credential, badge and url, or a url over 2,048 characters: 422 validation-failed',
    T,
    async () => {
      for (const body of [
        { url: 'https://a.issuer.test/b', credential: 'a.b.c' },
        { url: 'https://a.issuer.test/b', badge: 'AAAA' },
        { url: `https://a.issuer.test/${'x'.repeat(2048)}` },
        { url: '' },
      ])
        await expectProblem(await post(body), 422, 'validation-failed');
    },
  );
});

describe('fetches that give nothing to read: 422 credential-url-unreachable', () => {
  it('a 404, an answer over 1 MiB, a redirect to another host or to a private address', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/big', 'x', { contentType: 'application/jwt', padBytes: 1024 * 1024 + 10 });
    await publish(issuer.host, '/away', null, {
      status: 302,
      headers: { location: 'https://elsewhere.issuer.test/b' },
    });
    await publish(issuer.host, '/inside', null, { status: 302, headers: { location: 'https://10.0.0.7/b' } });
    await publish(issuer.host, '/loop', null, { status: 307, headers: { location: 'http://127.0.0.1/b' } });
    for (const [path, why] of [
      ['/missing', /answered 404/],
      ['/big', /larger than 1048576 bytes/],
      ['/away', /another host/],
      ['/inside', /another host/],
      ['/loop', /another host/],
    ] as const) {
      const problem = await expectProblem(
        await post({ url: `https://${issuer.host}${path}` }),
        422,
        'credential-url-unreachable',
      );
      expect(problem.detail, path).toMatch(why);
    }
    expect(await fetchedFrom('elsewhere.issuer.test')).toEqual([]);
  });

  it('a slow answer and a slow body are given up after 3 s', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    await publish(issuer.host, '/late', jwt, { contentType: 'application/jwt', delayMs: 4500 });
    await publish(issuer.host, '/drip', jwt, { contentType: 'application/jwt', trickleMs: 40 });
    for (const path of ['/late', '/drip']) {
      const started = Date.now();
      const problem = await expectProblem(
        await post({ url: `https://${issuer.host}${path}` }),
        422,
        'credential-url-unreachable',
      );
      expect(problem.detail, path).toMatch(/No answer within 3000 ms|Timed out/);
      expect(Date.now() - started, path).toBeLessThan(4500);
    }
  });

  it('the fetch of the badge spends the verification’s own budget of 6 fetches', T, async () => {
    // The badge behind two same-origin redirects (3 fetches), the key (1), the status list
    // behind two redirects: its third hop would be the seventh fetch, so the status is unverifiable.
    const issuer = await foreignIssuer('ES256');
    const list = await publishStatusList(issuer, '/status/3', []);
    await publish(issuer.host, '/s/1', null, { status: 302, headers: { location: '/s/2' } });
    await publish(issuer.host, '/s/2', null, { status: 302, headers: { location: '/status/3' } });
    const jwt = await signAs(
      issuer,
      credentialFrom(issuer, {
        credentialStatus: { ...statusEntryFor(list, 5), statusListCredential: `https://${issuer.host}/s/1` },
      }),
    );
    await publish(issuer.host, '/b/1', null, { status: 302, headers: { location: '/b/2' } });
    await publish(issuer.host, '/b/2', null, { status: 302, headers: { location: '/b/3' } });
    await publish(issuer.host, '/b/3', jwt, { contentType: 'application/jwt' });
    const report = await verifyUrl(`https://${issuer.host}/b/1`);
    expect(checkOf(report, 'signature')?.outcome).toBe('passed');
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'status')?.detail).toMatch(/as many fetches as it may/);
    expect((await fetchedFrom(issuer.host)).filter((p) => !p.startsWith('/__'))).toEqual([
      '/b/1',
      '/b/2',
      '/b/3',
      '/keys/1',
      '/s/1',
      '/s/2',
    ]);
  });

  it('the public route keeps its per-address limit', T, async () => {
    const res = await call(
      '/api/credentials/verify',
      jsonInit('POST', { url: 'http://x.issuer.test/b' }, { 'CF-Connecting-IP': freshIp() }),
    );
    await expectProblem(res, 422, 'credential-url-refused');
    expect(res.headers.get('RateLimit-Policy')).toMatch(/q=60/);
  });
});
