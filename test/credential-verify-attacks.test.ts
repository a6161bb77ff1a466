/**
 * The verifier under attack (issue 51) and reading what other issuers make (issue 56, except Data
 * Integrity proofs): `POST /api/credentials/verify` (public) and `/api/v1/credentials/verify`.
 * Each block is a class of attack with the answer it must get: a clear refusal or an honest
 * verdict, never a 5xx, never an accepted attack.
 */

import { eq } from 'drizzle-orm';
import { gzipSync } from 'fflate';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import VERIFY_SCRIPT from '../public/assets/verify.js?raw';
import BADGE_PNG from '../src/assets/badge/badge.png';
import { organisations } from '../src/db/schema';
import { bakePng, crc32 } from '../src/domain/certificates/badge';
import { bitstring } from '../src/domain/certificates/status-list';
import { holderCredentialsPage } from '../src/services/portability/holder-credentials';
import {
  base64Of,
  checkOf,
  credentialFrom,
  type ForeignIssuer,
  fetchedFrom,
  foreignIssuer,
  publish,
  publishStatusList,
  signAs,
  statusEntryFor,
  verify,
} from './foreign-issuers';
import {
  candidateWithCertificate,
  db,
  organisationOf,
  reviewOrganisation,
  signup,
  verifyOrganisation,
} from './harness';
import { as, call, expectProblem, freshIp, jsonInit } from './helpers';

const T = { timeout: 60_000 };
const OB_V1_CONTEXT = [
  'https://www.w3.org/2018/credentials/v1',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
];

/** Another tenant's issuer on the same host as `host`, with its own key (controller: itself). */
async function tenant(host: string, name: string): Promise<ForeignIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const id = `https://${host}/tenants/${name}/issuer`;
  const kid = `https://${host}/tenants/${name}/keys/1`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256' };
  await publish(host, `/tenants/${name}/keys/1`, {
    id: kid,
    type: 'JsonWebKey',
    controller: id,
    publicKeyJwk: publicJwk,
  });
  await publish(host, `/tenants/${name}/issuer`, { id, type: ['Profile'], name: `Tenant ${name}` });
  return { host, id, kid, alg: 'ES256', privateKey: privateKey as CryptoKey, publicJwk };
}

describe('one request cannot occupy the verifier: identifiers are refused by their shape first', () => {
  it(
    'a did:key issuer of 500,000 characters is answered invalid at once (was 47 s of base58)',
    T,
    async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const did = `did:key:z${'2'.repeat(500_000)}`;
      const credential = credentialFrom({ id: 'https://x.issuer.test/i' });
      credential.credentialSubject.achievement.id = 'https://x.issuer.test/a';
      const jwt = await new SignJWT({ ...credential, issuer: did })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(privateKey);
      expect(jwt.length).toBeLessThan(700_000);
      const started = Date.now();
      const report = await verify({ credential: jwt });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(report.verdict).toBe('invalid');
      expect(checkOf(report, 'signature')?.detail).toMatch(/over 2048 characters|not a well-formed did:key/);
    },
  );

  it(
    'a did:key one character off the length of a key is not decoded: invalid, named as malformed',
    T,
    async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doKK';
      const jwt = await new SignJWT({ ...credentialFrom({ id: did }), iss: did })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(privateKey);
      const report = await verify({ credential: jwt });
      expect(report.verdict).toBe('invalid');
      expect(checkOf(report, 'signature')?.detail).toMatch(/not a well-formed did:key/);
    },
  );

  it(
    'a kid over 2,048 characters is refused at parse; a publicKeyMultibase of 100,000 is not read',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      const long = await signAs(issuer, credentialFrom(issuer), {
        header: { kid: `${issuer.kid}${'x'.repeat(3000)}` },
      });
      const report = await verify({ credential: long });
      expect(report.verdict).toBe('invalid');
      expect(checkOf(report, 'parse')?.detail).toMatch(/over 2048 characters/);

      const did = `did:web:${issuer.host}`;
      await publish(issuer.host, '/.well-known/did.json', {
        id: did,
        verificationMethod: [
          {
            id: `${did}#k`,
            type: 'Multikey',
            controller: did,
            publicKeyMultibase: `z${'2'.repeat(100_000)}`,
          },
        ],
        assertionMethod: [`${did}#k`],
      });
      const started = Date.now();
      const viaDid = await verify({
        credential: await signAs({ ...issuer, kid: `${did}#k` }, credentialFrom({ id: did })),
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(viaDid.verdict).toBe('invalid');
      expect(checkOf(viaDid, 'signature')?.detail).toMatch(/lists no such key/);
    },
  );
});

describe('depth: deep JSON is a 422 or an invalid verdict, never a 500', () => {
  const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  it('a request body nested 400 levels: 422 on both routes, before any validator', T, async () => {
    const body = `{"credential":${deep(400)}}`;
    for (const [path, headers] of [
      ['/api/credentials/verify', { 'CF-Connecting-IP': freshIp() }],
      ['/api/v1/credentials/verify', {}],
    ] as const) {
      const res = await call(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      const problem = await expectProblem(res, 422, 'validation-failed');
      expect(problem.detail).toMatch(/deeper than 64 levels/);
    }
  });

  it(
    'a credential nested 400 levels inside the text, or inside a JWT payload: invalid at parse',
    T,
    async () => {
      const text = await verify({ credential: deep(400) });
      expect(text.verdict).toBe('invalid');
      expect(checkOf(text, 'parse')?.detail).toMatch(/deeper than 64 levels/);
      const issuer = await foreignIssuer('ES256');
      const jwt = await signAs(issuer, credentialFrom(issuer, { extra: JSON.parse(deep(300)) }));
      const inJwt = await verify({ credential: jwt });
      expect(inJwt.verdict).toBe('invalid');
      expect(checkOf(inJwt, 'parse')?.detail).toMatch(/deeper than 64 levels/);
    },
  );
});

describe('dates that do not parse fail closed', () => {
  it(
    'VC 1.1: an expirationDate that is a number or an array is invalid, not "never expires"',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      for (const expirationDate of [4102444800, ['2099-01-01T00:00:00Z'], 'next year']) {
        const credential = {
          ...credentialFrom(issuer),
          '@context': OB_V1_CONTEXT,
          issuanceDate: '2026-01-05T10:00:00Z',
          expirationDate,
        } as Record<string, unknown>;
        delete credential.validFrom;
        const report = await verify({ credential: await signAs(issuer, credential, { vcClaim: true }) });
        expect(report.verdict, JSON.stringify(expirationDate)).toBe('invalid');
        expect(checkOf(report, 'times')?.detail).toMatch(/expirationDate is not an RFC 3339 date-time/);
      }
    },
  );

  it(
    'a leap second (second 60) is read as the standard allows: past is expired, future is valid',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256');
      // Signed without JWT claims (jose cannot compute an exp for second 60; the claims are optional).
      const sign = (validUntil: string) =>
        new SignJWT(credentialFrom(issuer, { validUntil }))
          .setProtectedHeader({ alg: 'ES256', kid: issuer.kid })
          .sign(issuer.privateKey);
      const past = await verify({ credential: await sign('2016-12-31T23:59:60Z') });
      expect(past.verdict, past.summary).toBe('expired');
      const future = await verify({ credential: await sign('2098-12-31T23:59:60Z') });
      expect(checkOf(future, 'times')?.outcome).toBe('passed');
    },
  );
});

describe('keys and status lists are the issuer’s, not merely on its host', () => {
  it('another tenant’s key on the same host cannot sign for the issuer', T, async () => {
    const host = (await foreignIssuer('ES256')).host;
    const victim = await tenant(host, 'victim');
    const attacker = await tenant(host, 'attacker');
    const forged = await signAs(attacker, credentialFrom(victim, { name: 'Forged' }));
    const report = await verify({ credential: forged });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'signature')?.detail).toMatch(/controlled by .*attacker.*not by the issuer/);

    // A bare JWK (no controller) counts only when the issuer's Profile lists it.
    await publish(host, '/tenants/attacker/bare', attacker.publicJwk);
    const bare = await verify({
      credential: await signAs(
        { ...attacker, kid: `https://${host}/tenants/attacker/bare` },
        credentialFrom(victim),
      ),
    });
    expect(bare.verdict).toBe('invalid');
    expect(checkOf(bare, 'signature')?.detail).toMatch(/Profile does not list it/);
    const own = await verify({ credential: await signAs(victim, credentialFrom(victim)) });
    expect(own.verdict, own.summary).toBe('valid');
  });

  it('another tenant’s status list does not decide the issuer’s status: unverifiable', T, async () => {
    const host = (await foreignIssuer('ES256')).host;
    const victim = await tenant(host, 'v2');
    const attacker = await tenant(host, 'a2');
    const list = await publishStatusList(attacker, '/tenants/a2/status', [7]);
    const report = await verify({
      credential: await signAs(victim, credentialFrom(victim, { credentialStatus: statusEntryFor(list, 7) })),
    });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'status')?.detail).toMatch(/status list's issuer .* is not the credential's/);
  });

  it('the issuer’s Profile is not fetched for a credential whose signature fails', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const jwt = await signAs(issuer, credentialFrom(issuer));
    const [h, p, s] = jwt.split('.');
    const tampered = `${h}.${p}.${s!.slice(0, -4)}AAAA`;
    const report = await verify({ credential: tampered });
    expect(report.verdict).toBe('invalid');
    expect(await fetchedFrom(issuer.host)).not.toContain('/issuer');
    expect(checkOf(report, 'issuer')?.detail).toMatch(/Profile was not read/);
  });
});

describe('status lists: a gzip bomb and a corrupt stream', () => {
  async function listWith(issuer: ForeignIssuer, path: string, compressed: Uint8Array) {
    const url = `https://${issuer.host}${path}`;
    const list = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: issuer.id,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: {
        id: `${url}#list`,
        type: 'BitstringStatusList',
        statusPurpose: 'revocation',
        encodedList: `u${base64url.encode(compressed)}`,
      },
    };
    await publish(issuer.host, path, await signAs(issuer, list), { contentType: 'application/vc+jwt' });
    return url;
  }

  it('a list inflating to 24 MB is given up at the cap, quickly: unverifiable', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const url = await listWith(issuer, '/bomb', gzipSync(new Uint8Array(24 * 1024 * 1024), { level: 9 }));
    const started = Date.now();
    const report = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(url, 3) })),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'status')?.detail).toMatch(/inflates past/);
  });

  it('a stream with a wrong CRC-32 is not read: unverifiable', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const good = gzipSync(bitstring([3]), { level: 9, mtime: 0 });
    good[good.length - 8]! ^= 0xff;
    const url = await listWith(issuer, '/corrupt', good);
    const report = await verify({
      credential: await signAs(issuer, credentialFrom(issuer, { credentialStatus: statusEntryFor(url, 3) })),
    });
    expect(report.verdict).toBe('unverifiable');
    expect(checkOf(report, 'status')?.detail).toMatch(/GZIP check/);
  });
});

describe('baked badges: one reader, on the server, and the answer names what it verified', () => {
  it(
    'an SVG with one credential in a comment and another in the element verifies the element’s, and says so',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256', 'Real College');
      const real = await signAs(issuer, credentialFrom(issuer, { name: 'Real' }));
      const decoy = await signAs(issuer, credentialFrom(issuer, { name: 'Decoy' }));
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"><!-- <openbadges:credential verify="${decoy}"/> --><openbadges:credential verify="${real}"/></svg>`;
      const res = await call('/api/credentials/verify', {
        method: 'POST',
        headers: { 'content-type': 'image/svg+xml', 'CF-Connecting-IP': freshIp() },
        body: svg,
      });
      const report = await res.json<Awaited<ReturnType<typeof verify>>>();
      expect(report.verdict, report.summary).toBe('valid');
      expect(report.verifiedCredential).toBe(real);
      expect(report.credential?.name).toBe('Real');
    },
  );

  it('an image carrying two credentials is refused at parse (SVG and PNG)', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const a = await signAs(issuer, credentialFrom(issuer));
    const b = await signAs(issuer, credentialFrom(issuer));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:ob="https://purl.imsglobal.org/ob/v3p0"><ob:credential verify="${a}"/><ob:credential verify="${b}"/></svg>`;
    const svgReport = await verify({ badge: btoa(svg) });
    expect(svgReport.verdict).toBe('invalid');
    expect(checkOf(svgReport, 'parse')?.detail).toMatch(/ambiguous; refused/);
    // A second chunk added by hand before IEND (bakePng refuses to add one).
    const once = bakePng(new Uint8Array(BADGE_PNG), a);
    const text = new TextEncoder().encode(`iTXtopenbadgecredential\0\0\0\0\0${b}`);
    const extra = new Uint8Array(12 + text.length - 4);
    new DataView(extra.buffer).setUint32(0, text.length - 4);
    extra.set(text, 4);
    new DataView(extra.buffer).setUint32(extra.length - 4, crc32(text));
    const twice = new Uint8Array([
      ...once.subarray(0, once.length - 12),
      ...extra,
      ...once.subarray(once.length - 12),
    ]);
    const pngReport = await verify({ badge: base64Of(twice) });
    expect(pngReport.verdict).toBe('invalid');
    expect(checkOf(pngReport, 'parse')?.detail).toMatch(/2 "openbadgecredential" chunks/);
  });

  it('a PNG with a damaged chunk is refused, whatever follows it', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const baked = bakePng(new Uint8Array(BADGE_PNG), await signAs(issuer, credentialFrom(issuer)));
    baked[40]! ^= 0xff; // inside IHDR's data or CRC
    const report = await verify({ badge: base64Of(baked) });
    expect(report.verdict).toBe('invalid');
    expect(checkOf(report, 'parse')?.detail).toMatch(/damaged/);
  });
});

describe('the /verify page has no badge parser of its own', () => {
  it('its form posts the file to the server, which answers; the pages’ script reads no badge', async () => {
    expect(VERIFY_SCRIPT).not.toMatch(/DOMParser|iTXt|getUint32|openbadgecredential|credentials\/verify/);
    const page = await (await call('/verify', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<form method="post" action="/verify" enctype="multipart/form-data"');
    expect(page).not.toMatch(/<script>/);
  });
});

describe('honest answers', () => {
  it(
    'this platform’s signed learner record (CLR 2.0) is checked as what it is, not called a fake',
    T,
    async () => {
      const { candidate } = await candidateWithCertificate('Clara Record', {
        employerName: 'Record Issuer Ltd',
      });
      const record = await (await call('/api/me/learner-record', { headers: as(candidate) })).json<{
        jwt: string;
      }>();
      const report = await verify({ credential: record.jwt });
      expect(report.verdict, report.summary).toBe('valid');
      expect(checkOf(report, 'context')?.detail).toMatch(/CLR 2\.0 learner record/);
      expect(checkOf(report, 'signature')?.outcome).toBe('passed');
    },
  );

  it(
    'a foreign issuer on a verified organisation’s domain is shown by the organisation’s name, not its claim',
    T,
    async () => {
      const issuer = await foreignIssuer('ES256', 'Claimed Famous University');
      const employer = await signup('employer', 'Registrar', 'Modest Verified Org');
      await verifyOrganisation(employer);
      await db()
        .update(organisations)
        .set({ verifiedDomain: issuer.host, verificationMethod: 'dns' })
        .where(eq(organisations.id, await organisationOf(employer)));
      const report = await verify({
        credential: await signAs(
          issuer,
          credentialFrom({ id: issuer.id, name: 'Claimed Famous University' }),
        ),
      });
      expect(report.issuer).toMatchObject({ name: 'Modest Verified Org', verifiedHere: true });
      expect(checkOf(report, 'issuer')?.detail).toMatch(/calls it “Claimed Famous University”/);
    },
  );

  it('the learner record and the OB API list nothing of a suspended organisation', T, async () => {
    const { employer, candidate } = await candidateWithCertificate('Sus Holder', {
      employerName: 'Soon Suspended',
    });
    expect((await call('/api/me/learner-record', { headers: as(candidate) })).status).toBe(200);
    expect((await holderCredentialsPage(db(), candidate.id, { limit: 10, offset: 0 })).total).toBe(1);
    expect((await reviewOrganisation(employer, 'suspended')).status).toBe(200);
    await expectProblem(await call('/api/me/learner-record', { headers: as(candidate) }), 404, 'not-found');
    expect(await holderCredentialsPage(db(), candidate.id, { limit: 10, offset: 0 })).toEqual({
      total: 0,
      jwts: [],
    });
  });
});

describe('what other issuers make (issue 56, except Data Integrity)', () => {
  it(
    'a VCDM 1.1 Open Badges 3.0 credential (issuanceDate, expirationDate, v1 context): valid, then expired',
    T,
    async () => {
      const issuer = await foreignIssuer('EdDSA');
      const v1 = (expirationDate: string) => {
        const credential = {
          ...credentialFrom(issuer),
          '@context': OB_V1_CONTEXT,
          issuanceDate: '2026-01-05T10:00:00Z',
          expirationDate,
        } as Record<string, unknown>;
        delete credential.validFrom;
        return credential;
      };
      const valid = await verify({
        credential: await signAs(issuer, v1('2099-01-01T00:00:00Z'), { vcClaim: true }),
      });
      expect(valid.verdict, valid.summary).toBe('valid');
      const expired = await verify({
        credential: await signAs(issuer, v1('2026-02-01T00:00:00Z'), { vcClaim: true }),
      });
      expect(expired.verdict).toBe('expired');
    },
  );

  it('a 1EdTechRevocationList status: revoked when it names the credential, valid when not', T, async () => {
    const issuer = await foreignIssuer('ES256');
    const revokedOne = credentialFrom(issuer, {
      credentialStatus: { id: `https://${issuer.host}/revocations`, type: '1EdTechRevocationList' },
    });
    const kept = credentialFrom(issuer, {
      credentialStatus: { id: `https://${issuer.host}/revocations`, type: '1EdTechRevocationList' },
    });
    await publish(issuer.host, '/revocations', {
      id: `https://${issuer.host}/revocations`,
      issuer: issuer.id,
      revokedCredential: [{ id: revokedOne.id, revocationReason: 'Issued in error' }],
    });
    const revoked = await verify({ credential: await signAs(issuer, revokedOne) });
    expect(revoked.verdict, revoked.summary).toBe('revoked');
    expect(checkOf(revoked, 'status')?.detail).toMatch(/Issued in error/);
    const valid = await verify({ credential: await signAs(issuer, kept) });
    expect(valid.verdict, valid.summary).toBe('valid');
    // A list on another host cannot speak for the issuer.
    const elsewhere = credentialFrom(issuer, {
      credentialStatus: { id: 'https://other.issuer.test/revocations', type: '1EdTechRevocationList' },
    });
    expect((await verify({ credential: await signAs(issuer, elsewhere) })).verdict).toBe('unverifiable');
  });

  it('the credential as a JSON object is taken as well as text', T, async () => {
    const res = await call(
      '/api/credentials/verify',
      jsonInit('POST', { credential: { '@context': [], type: [] } }, { 'CF-Connecting-IP': freshIp() }),
    );
    expect(res.status).toBe(200);
    expect((await res.json<{ verdict: string }>()).verdict).toBe('invalid');
  });
});
