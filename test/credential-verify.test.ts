/**
 * `POST /api/v1/credentials/verify` and `POST /api/credentials/verify`: Open Badges 3.0
 * credentials of foreign issuers (served by test/doubles/issuers.mjs) and of this site, as an
 * outside verifier hands them over: VC-JWT text, or a baked PNG / SVG.
 */

import { eq } from 'drizzle-orm';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import BADGE_PNG from '../src/assets/badge/badge.png';
import { organisations } from '../src/db/schema';
import { badgeSvg, bakePng, bakeSvg } from '../src/domain/certificates/badge';
import {
  base64Of,
  checkOf,
  credentialFrom,
  fetchedFrom,
  foreignIssuer,
  publish,
  publishStatusList,
  resolveTo,
  signAs,
  statusEntryFor,
  verify,
} from './foreign-issuers';
import {
  candidateWithCertificate,
  db,
  issueKey,
  loginAdmin,
  organisationOf,
  reviewOrganisation,
  signup,
  verifyOrganisation,
} from './harness';
import { call, expectProblem, freshIp, jsonInit } from './helpers';

const T = { timeout: 60_000 };

describe('foreign issuers: the signature, by the kid URL’s key', () => {
  for (const alg of ['ES256', 'RS256', 'EdDSA'] as const) {
    it(`${alg}: valid, every check passed, the issuer named from its Profile`, T, async () => {
      const issuer = await foreignIssuer(alg, `${alg} Institute`);
      const jwt = await signAs(issuer, credentialFrom(issuer, { validUntil: '2099-01-01T00:00:00Z' }));
      const report = await verify({ credential: jwt });
      expect(report.verdict, report.summary).toBe('valid');
      for (const name of ['parse', 'context', 'schema', 'signature', 'claims', 'times', 'status', 'issuer'])
        expect(checkOf(report, name)?.outcome, name).toBe('passed');
      expect(report.issuer).toMatchObject({
        id: issuer.id,
        name: `${alg} Institute`,
        url: `https://${issuer.host}/`,
        verifiedHere: false,
        standing: null,
      });
      expect(report.credential?.name).toBe('Data Structures');
    });
  }

  it('a credential in a vc claim (the VC 1.1 JWT encoding) verifies too', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const report = await verify({
      credential: await signAs(issuer, credentialFrom(issuer), { vcClaim: true }),
    });
    expect(report.verdict, report.summary).toBe('valid');
    expect(checkOf(report, 'parse')?.detail).toContain('vc claim');
  });

  it('the API key route needs credentials:verify (401 without a key, 403 without the scope)', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    await expectProblem(
      await call('/api/v1/credentials/verify', jsonInit('POST', { credential: jwt })),
      401,
      'unauthenticated',
    );
    const admin = await loginAdmin();
    const other = await issueKey(admin, ['integrity:check']);
    await expectProblem(
      await call(
        '/api/v1/credentials/verify',
        jsonInit('POST', { credential: jwt }, { 'X-Service-Key': other.key }),
      ),
      403,
      'forbidden',
    );
    const { key } = await issueKey(admin, ['credentials:verify']);
    expect((await verify({ credential: jwt }, key)).verdict).toBe('valid');
  });

  it('exactly one of credential and badge: both or neither is a 422', T, async () => {
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['credentials:verify']);
    for (const body of [{}, { credential: 'a.b.c', badge: 'AAAA' }])
      await expectProblem(
        await call('/api/v1/credentials/verify', jsonInit('POST', body, { 'X-Service-Key': key })),
        422,
        'validation-failed',
      );
  });

  it(
    'keys are cached for their stated lifetime: a second verification does not fetch the key again',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      const jwt = await signAs(issuer, credentialFrom(issuer));
      await verify({ credential: jwt });
      await verify({ credential: jwt });
      expect((await fetchedFrom(issuer.host)).filter((p) => p === '/keys/1')).toHaveLength(1);
    },
  );
});

describe('did:web and did:key issuers', () => {
  it('did:web: the key from the issuer’s DID document', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const did = `did:web:${issuer.host}`;
    const kid = `${did}#key-1`;
    await publish(issuer.host, '/.well-known/did.json', {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: did,
      verificationMethod: [
        { id: kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk: issuer.publicJwk },
      ],
      assertionMethod: [kid],
    });
    const jwt = await signAs({ ...issuer, kid }, credentialFrom({ id: did, name: 'DID Web College' }));
    const report = await verify({ credential: jwt });
    expect(report.verdict, report.summary).toBe('valid');
    expect(checkOf(report, 'signature')?.detail).toContain(kid);
  });

  it('did:key (Ed25519): the key is the identifier; another did:key’s kid is refused', T, async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const raw = base64url.decode((await exportJWK(publicKey)).x!);
    const multicodec = new Uint8Array([0xed, 0x01, ...raw]);
    const did = `did:key:z${base58(multicodec)}`;
    const credential = credentialFrom({ id: did, name: 'Key Holder' });
    const jwt = await signAs(
      { alg: 'EdDSA', kid: `${did}#${did.slice(8)}`, privateKey: privateKey as CryptoKey },
      credential,
    );
    expect((await verify({ credential: jwt })).verdict).toBe('valid');
    const other = `did:key:z${base58(new Uint8Array([0xed, 0x01, ...new Uint8Array(32).fill(7)]))}`;
    const forged = await signAs(
      { alg: 'EdDSA', kid: `${other}#x`, privateKey: privateKey as CryptoKey },
      credential,
    );
    const report = await verify({ credential: forged });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'signature')?.outcome).toBe('failed');
  });
});

describe('status, times and tampering', () => {
  it('a Bitstring Status List: the revoked bit says revoked, a clear bit valid', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const list = await publishStatusList(issuer, '/status/1', [7]);
    const revoked = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 7) })),
    });
    expect(revoked.verdict).toBe('revoked');
    expect(checkOf(revoked, 'status')).toMatchObject({ outcome: 'failed' });
    const active = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 8) })),
    });
    expect(active.verdict, active.summary).toBe('valid');
    expect(checkOf(active, 'status')?.detail).toContain('bit 8: 0');
  });

  it('a status list signed by someone else does not count: unverifiable', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const impostor = await foreignIssuer('ES256');
    // The impostor signs a list that claims to be the issuer's and serves it on the issuer's host.
    const list = await publishStatusList({ ...impostor, host: issuer.host, id: issuer.id }, '/status/2', []);
    const report = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 3) })),
    });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'status')?.outcome).toBe('unverifiable');
  });

  it('expired (validUntil and exp past): expired', T, async () => {
    const issuer = await foreignIssuer('RS256');
    const credential = credentialFrom(issuer, {
      validFrom: '2020-01-01T00:00:00Z',
      validUntil: '2021-01-01T00:00:00Z',
    });
    const report = await verify({ credential: await signAs(issuer, credential) });
    expect(report.verdict).toBe('expired');
  });

  it('tampered: one character of the payload changed is invalid (signature failed)', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const payload = JSON.parse(new TextDecoder().decode(base64url.decode(p)));
    payload.name = 'Advanced Data Structures';
    const tampered = `${h}.${base64url.encode(JSON.stringify(payload))}.${s}`;
    const report = await verify({ credential: tampered });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'signature')?.outcome).toBe('failed');
  });

  it('claims that contradict the credential (iss ≠ issuer.id) are invalid', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const credential = credentialFrom(issuer);
    const jwt = await new SignJWT({ ...credential, iss: 'https://elsewhere.example/', nbf: 1767607200 })
      .setProtectedHeader({ alg: 'ES256', kid: issuer.kid, typ: 'JWT' })
      .sign(issuer.privateKey);
    const report = await verify({ credential: jwt });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'claims')?.outcome).toBe('failed');
  });
});

describe('the key and what fetching it may not do', () => {
  it('a kid that answers 404: unverifiable', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs({ ...issuer, kid: `https://${issuer.host}/keys/gone` }, credentialFrom(issuer));
    const report = await verify({ credential: jwt });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'signature')?.detail).toContain('404');
  });

  it('a host that resolves to a private address is not fetched', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await resolveTo(issuer.host, '10.1.2.3');
    const report = await verify({ credential: await signAs(issuer, credentialFrom(issuer)) });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'signature')?.detail).toMatch(/private address/);
    expect(await fetchedFrom(issuer.host)).toEqual([]);
  });

  it('a slow key (over 3 s) and an oversized one (over 256 KiB) are given up', T, async () => {
    const slow = await foreignIssuer('ES256');
    await publish(slow.host, '/keys/1', slow.publicJwk, { delayMs: 4500 });
    const late = await verify({ credential: await signAs(slow, credentialFrom(slow)) });
    expect(late.verdict).toBe('unverifiable');
    expect(checkOf(late, 'signature')?.detail).toMatch(/No answer within/);

    const big = await foreignIssuer('ES256');
    await publish(big.host, '/keys/1', big.publicJwk, { padBytes: 300_000 });
    const large = await verify({ credential: await signAs(big, credentialFrom(big)) });
    expect(large.verdict).toBe('unverifiable');
    expect(checkOf(large, 'signature')?.detail).toMatch(/larger than/);
  });

  it('a redirect to another host is not followed', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/keys/1', null, {
      status: 302,
      headers: { location: 'https://evil.issuer.test/k' },
    });
    const report = await verify({ credential: await signAs(issuer, credentialFrom(issuer)) });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'signature')?.detail).toMatch(/another host/);
  });

  it('a key on another host than the issuer cannot speak for it', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const impostor = await foreignIssuer('ES256');
    const report = await verify({ credential: await signAs(impostor, credentialFrom(issuer)) });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'signature')?.detail).toMatch(/not on the issuer/);
  });

  it('refused headers: alg none, HS256 with the public key, an embedded jwk, jku, x5u', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const credential = credentialFrom(issuer);
    const claims = { ...credential, iss: issuer.id, jti: credential.id, nbf: 1767607200 };
    const segment = (v: unknown) => base64url.encode(JSON.stringify(v));
    const none = `${segment({ alg: 'none', kid: issuer.kid, typ: 'JWT' })}.${segment(claims)}.`;
    const hmacKey = new TextEncoder().encode(JSON.stringify(issuer.publicJwk));
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: issuer.kid })
      .sign(hmacKey);
    const embedded = await signAs(issuer, credential, { header: { jwk: issuer.publicJwk } });
    const jku = await signAs(issuer, credential, { header: { jku: `https://${issuer.host}/jwks.json` } });
    const x5u = await signAs(issuer, credential, { header: { x5u: `https://${issuer.host}/cert.pem` } });
    for (const [jwt, pattern] of [
      [none, /none/],
      [hs256, /HMAC/],
      [embedded, /"jwk"/],
      [jku, /"jku"/],
      [x5u, /"x5u"/],
    ] as const) {
      const report = await verify({ credential: jwt });
      expect(report.verdict).toBe('invalid');
      expect(checkOf(report, 'parse')).toMatchObject({ outcome: 'failed' });
      expect(checkOf(report, 'parse')?.detail).toMatch(pattern);
    }
    expect((await fetchedFrom(issuer.host)).filter((p) => p.includes('jwks') || p.includes('cert'))).toEqual(
      [],
    );
  });

  it('the issuer’s Profile unreachable is a warning, not a verdict', T, async () => {
    const issuer = await foreignIssuer('ES256');
    await publish(issuer.host, '/issuer', 'down', { status: 503, contentType: 'text/plain' });
    const report = await verify({ credential: await signAs(issuer, credentialFrom(issuer, {})) });
    expect(report.verdict).toBe('valid');
    expect(checkOf(report, 'issuer')?.outcome).toBe('warning');
  });
});

describe('baked badges and this site’s own credentials', () => {
  it('a foreign issuer’s baked PNG and SVG verify from their bytes', T, async () => {
    const issuer = await foreignIssuer('EdDSA');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    const png = bakePng(new Uint8Array(BADGE_PNG), jwt);
    const fromPng = await verify({ badge: base64Of(png) });
    expect(fromPng).toMatchObject({ verdict: 'valid', container: 'png' });
    const svg = bakeSvg(
      badgeSvg({ title: 'DS', organisation: 'X', certificateNo: 'n/a', issuedAt: new Date() }),
      jwt,
    );
    const fromSvg = await verify({ badge: base64Of(new TextEncoder().encode(svg)) });
    expect(fromSvg).toMatchObject({ verdict: 'valid', container: 'svg' });
    const bare = await verify({ badge: base64Of(new Uint8Array(BADGE_PNG)) });
    expect(bare.verdict).toBe('invalid');
    expect(checkOf(bare, 'parse')?.detail).toMatch(/no Open Badges credential/);
  });

  it(
    'a baked PNG or SVG sent as its own bytes (image/png, image/svg+xml) verifies on both routes',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256', 'Bytes University');
      const jwt = await signAs(issuer, credentialFrom(issuer));
      const png = bakePng(new Uint8Array(BADGE_PNG), jwt);
      const svg = new TextEncoder().encode(
        bakeSvg(
          badgeSvg({ title: 'DS', organisation: 'X', certificateNo: 'n/a', issuedAt: new Date() }),
          jwt,
        ),
      );
      const { key } = await issueKey(await loginAdmin(), ['credentials:verify']);
      for (const [type, body, container] of [
        ['image/png', png, 'png'],
        ['image/svg+xml; charset=utf-8', svg, 'svg'],
      ] as const) {
        for (const [path, headers] of [
          ['/api/v1/credentials/verify', { 'X-Service-Key': key }],
          ['/api/credentials/verify', { 'CF-Connecting-IP': freshIp() }],
        ] as [string, Record<string, string>][]) {
          const res = await call(path, {
            method: 'POST',
            headers: { 'content-type': type, ...headers },
            body,
          });
          expect(res.status, path).toBe(200);
          const report = await res.json<Awaited<ReturnType<typeof verify>>>();
          expect(report, `${type} on ${path}`).toMatchObject({ verdict: 'valid', container });
          expect(report.issuer.name).toBe('Bytes University');
        }
      }
      // Bytes that are not the image they are declared as: a failed parse check, not a guess.
      const mislabelled = await call('/api/v1/credentials/verify', {
        method: 'POST',
        headers: { 'content-type': 'image/png', 'X-Service-Key': key },
        body: svg,
      });
      const report = await mislabelled.json<Awaited<ReturnType<typeof verify>>>();
      expect(report.verdict).toBe('invalid');
      expect(checkOf(report, 'parse')?.detail).toMatch(/declared image\/png but is not a PNG/);
    },
  );

  it('raw bodies: another type is a 415, an empty image a 400, over 1 MiB a 413', T, async () => {
    const { key } = await issueKey(await loginAdmin(), ['credentials:verify']);
    const send = (type: string, body: BodyInit) =>
      call('/api/v1/credentials/verify', {
        method: 'POST',
        headers: { 'content-type': type, 'X-Service-Key': key },
        body,
      });
    for (const type of [
      'text/plain',
      'image/jpeg',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
    ]) {
      const problem = await expectProblem(await send(type, 'abc'), 415, 'unsupported-media-type');
      expect(problem.detail).toMatch(/image\/png or image\/svg\+xml/);
    }
    for (const type of ['image/png', 'image/svg+xml']) {
      const problem = await expectProblem(await send(type, new Uint8Array(0)), 400, 'empty-body');
      expect(problem.detail).toContain(type);
    }
    const huge = bakePng(new Uint8Array(BADGE_PNG), 'x'.repeat(1024 * 1024));
    await expectProblem(await send('image/png', huge), 413, 'payload-too-large');
    // The JSON form is unchanged.
    const issuer = await foreignIssuer('ES256');
    expect((await verify({ credential: await signAs(issuer, credentialFrom(issuer)) }, key)).verdict).toBe(
      'valid',
    );
  });

  it(
    'ours: valid and verified here; then suspended with the organisation; an unknown JSON credential is unverifiable',
    T,
    async () => {
      const { employer, certificateNo } = await candidateWithCertificate('Vera Own', {
        employerName: 'Own Issuer Ltd',
      });
      const jwt = (await (await call(`/api/verify/${certificateNo}`)).json<{ credential: { jwt: string } }>())
        .credential.jwt;
      const mine = await verify({ credential: jwt });
      expect(mine.verdict, mine.summary).toBe('valid');
      expect(mine.issuer).toMatchObject({ name: 'Own Issuer Ltd', verifiedHere: true, standing: 'verified' });
      expect((await reviewOrganisation(employer, 'suspended')).status).toBe(200);
      const suspended = await verify({ credential: jwt });
      expect(suspended.verdict).toBe('suspended');
      expect(suspended.issuer).toMatchObject({ verifiedHere: false, standing: 'suspended' });
      expect(checkOf(suspended, 'issuer')?.detail).toMatch(/no longer recognised/);

      // A JSON credential with no proof is secured by nothing: invalid. With an embedded proof
      // (one object, as the published schema and Data Integrity libraries have it): the schema
      // passes and the proof is checked.
      const bare = await verify({
        credential: JSON.stringify(credentialFrom({ id: 'https://x.issuer.test/i' })),
      });
      expect(bare.verdict).toBe('invalid');
      expect(checkOf(bare, 'signature')?.detail).toMatch(/no proof/);
      const proof = {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-rdfc-2022',
        created: '2026-01-05T10:00:00Z',
        verificationMethod:
          'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
        proofPurpose: 'assertionMethod',
        proofValue:
          'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKiLYUFdrMBpZmb9Fs',
      };
      for (const credential of [
        JSON.stringify(credentialFrom({ id: 'https://x.issuer.test/i' }, { proof })),
        credentialFrom({ id: 'https://x.issuer.test/i' }, { proof: [proof] }),
      ] as never[]) {
        // The proof is read (issue 56): its did:key is not the issuer's, so it secures nothing of theirs.
        const json = await verify({ credential });
        expect(json.verdict).toBe('invalid');
        expect(checkOf(json, 'schema')?.outcome).toBe('passed');
        expect(checkOf(json, 'signature')?.outcome).toBe('failed');
      }
    },
  );
});

describe('each verdict and fetch rule the issue names', () => {
  it('a suspension bit set: suspended; a clear bit of the same list: valid', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const list = await publishStatusList(issuer, '/status/suspension', [12], 'suspension');
    const suspended = await verify({
      credential: await signAs(
        issuer,
        credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 12, 'suspension') }),
      ),
    });
    expect(suspended.verdict, suspended.summary).toBe('suspended');
    expect(checkOf(suspended, 'status')).toMatchObject({ outcome: 'failed' });
    expect(checkOf(suspended, 'status')?.detail).toMatch(/Suspension bit 12 is set/);
    const active = await verify({
      credential: await signAs(
        issuer,
        credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 13, 'suspension') }),
      ),
    });
    expect(active.verdict, active.summary).toBe('valid');
    // A list whose purpose is not the entry's does not answer for it.
    const crossed = await verify({
      credential: await signAs(
        issuer,
        credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 12, 'revocation') }),
      ),
    });
    expect(crossed.verdict).toBe('unverifiable');
    expect(checkOf(crossed, 'status')?.detail).toMatch(/statusPurpose is suspension, not revocation/);
  });

  it('not valid yet (validFrom and nbf in the future): invalid, at the times check', T, async () => {
    const issuer = await foreignIssuer('EdDSA');
    const report = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { validFrom: '2099-01-01T00:00:00Z' })),
    });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'times')).toMatchObject({ outcome: 'failed' });
    expect(checkOf(report, 'times')?.detail).toMatch(/Not valid before 2099-01-01/);
    expect(checkOf(report, 'signature')?.outcome).toBe('passed');
  });

  it('a credential the AchievementCredential schema refuses is invalid before any fetch', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const credential = credentialFrom(issuer);
    const { criteria: _criteria, ...achievement } = credential.credentialSubject.achievement;
    const report = await verify({
      credential: await signAs(issuer, {
        ...credential,
        credentialSubject: { ...credential.credentialSubject, achievement },
      }),
    });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'schema')).toMatchObject({ outcome: 'failed' });
    expect(checkOf(report, 'signature')?.outcome).toBe('skipped');
    expect(await fetchedFrom(issuer.host)).toEqual([]);
  });

  it(
    'keys and status lists are kept in KV for the lifetime their answer states (a no-store key is fetched each time)',
    T,
    async () => {
      const issuer = await foreignIssuer('RS256');
      const list = await publishStatusList(issuer, '/status/cached', [1]);
      const jwt = await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(list, 2) }));
      expect((await verify({ credential: jwt })).verdict).toBe('valid');
      expect((await verify({ credential: jwt })).verdict).toBe('valid');
      const fetched = await fetchedFrom(issuer.host);
      expect(fetched.filter((p) => p === '/status/cached')).toHaveLength(1);
      expect(fetched.filter((p) => p === '/keys/1')).toHaveLength(1);

      // A key whose answer says `no-store` is not kept: each verification fetches it again.
      const uncached = await foreignIssuer('ES256');
      await publish(uncached.host, '/keys/1', uncached.publicJwk, {
        headers: { 'cache-control': 'no-store' },
      });
      const again = await signAs(uncached, credentialFrom(uncached));
      expect((await verify({ credential: again })).verdict).toBe('valid');
      expect((await verify({ credential: again })).verdict).toBe('valid');
      expect((await fetchedFrom(uncached.host)).filter((p) => p === '/keys/1')).toHaveLength(2);
    },
  );

  it(
    'at most 6 fetches per verification: redirect hops count, the fetch after the sixth is refused',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      // The key and the status list each behind two same-origin redirects: 3 + 3 fetches, so
      // the issuer's Profile (the seventh) is not fetched and is only a warning.
      await publish(issuer.host, '/keys/1', null, { status: 302, headers: { location: '/keys/1a' } });
      await publish(issuer.host, '/keys/1a', null, { status: 307, headers: { location: '/keys/1b' } });
      await publish(issuer.host, '/keys/1b', {
        id: issuer.kid,
        type: 'JsonWebKey',
        controller: issuer.id,
        publicKeyJwk: issuer.publicJwk,
      });
      const list = await publishStatusList(issuer, '/status/far', []);
      await publish(issuer.host, '/status/hop', null, { status: 302, headers: { location: '/status/hop2' } });
      await publish(issuer.host, '/status/hop2', null, { status: 302, headers: { location: '/status/far' } });
      const entry = { ...statusEntryFor(list, 4), statusListCredential: `https://${issuer.host}/status/hop` };
      const report = await verify({
        credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: entry })),
      });
      expect(report.verdict, report.summary).toBe('valid');
      expect(checkOf(report, 'issuer')?.outcome).toBe('warning');
      expect(checkOf(report, 'issuer')?.detail).toMatch(/as many fetches as it may/);
      const fetched = await fetchedFrom(issuer.host);
      expect(fetched).toHaveLength(6);
      expect(fetched).not.toContain('/issuer');
    },
  );

  it('https only: a plain http key URL is refused, nothing is fetched', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const httpIssuer = { ...issuer, id: `http://${issuer.host}/issuer`, kid: `http://${issuer.host}/keys/1` };
    const report = await verify({ credential: await signAs(httpIssuer, credentialFrom(httpIssuer)) });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'signature')?.detail).toMatch(/must use https/);
    expect(await fetchedFrom(issuer.host)).toEqual([]);
  });

  it(
    'every address is checked after DNS: loopback and cloud metadata (link-local) are not fetched',
    T,
    async () => {
      for (const [address, why] of [
        ['127.0.0.1', /loopback address/],
        ['169.254.169.254', /link-local \(cloud metadata\) address/],
      ] as const) {
        const issuer = await foreignIssuer('ES256');
        await resolveTo(issuer.host, address);
        const report = await verify({ credential: await signAs(issuer, credentialFrom(issuer)) });
        expect(report.verdict).toBe('unverifiable');
        expect(checkOf(report, 'signature')?.detail).toMatch(why);
        expect(checkOf(report, 'issuer')?.outcome).toBe('warning');
        expect(await fetchedFrom(issuer.host)).toEqual([]);
      }
    },
  );

  it(
    'the public route (no key) is limited per client address: the 61st request in a minute is a 429',
    T,
    async () => {
      const ip = freshIp();
      const send = () =>
        call(
          '/api/credentials/verify',
          jsonInit('POST', { credential: 'not.a.jwt' }, { 'CF-Connecting-IP': ip }),
        );
      for (let i = 0; i < 60; i++) expect((await send()).status).toBe(200);
      await expectProblem(await send(), 429, 'quota-exceeded');
      // Another address is not affected.
      const other = await call(
        '/api/credentials/verify',
        jsonInit('POST', { credential: 'not.a.jwt' }, { 'CF-Connecting-IP': freshIp() }),
      );
      expect(other.status).toBe(200);
    },
  );

  it('a foreign issuer on a domain a verified organisation proved here is verifiedHere', T, async () => {
    const issuer = await foreignIssuer('ES256', 'Proven Domain College');
    const employer = await signup('employer', 'Registrar', 'Proven Domain College');
    await verifyOrganisation(employer);
    await db()
      .update(organisations)
      .set({ verifiedDomain: issuer.host, verificationMethod: 'dns' })
      .where(eq(organisations.id, await organisationOf(employer)));
    const jwt = await signAs(issuer, credentialFrom(issuer));
    const report = await verify({ credential: jwt });
    expect(report.verdict, report.summary).toBe('valid');
    expect(report.issuer).toMatchObject({ id: issuer.id, verifiedHere: true, standing: 'verified' });
    expect(checkOf(report, 'issuer')?.detail).toMatch(/whose domain an organisation verified here owns/);
    // Another host under the same parent domain is not covered by that proof.
    const neighbour = await foreignIssuer('ES256');
    const other = await verify({ credential: await signAs(neighbour, credentialFrom(neighbour)) });
    expect(other.issuer.verifiedHere).toBe(false);
  });
});

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = value * 256n + BigInt(b);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}
