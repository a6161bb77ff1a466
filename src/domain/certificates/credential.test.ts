import { CompactSign, importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateCertificateNumber } from './certificate-number';
import {
  buildCredential,
  type CredentialInput,
  importSigningKey,
  JWT_CLAIMS_CONTEXT,
  jwksFrom,
  jwkThumbprint,
  keyByThumbprint,
  OB_CONTEXT_V3,
  parsePreviousKeys,
  type SigningKey,
  signCredential,
  VC_CONTEXT_V2,
  verifyCredential,
} from './credential';

/** RFC 8037 Appendix A.1: a published Ed25519 test key (not a secret): the retired algorithm. */
const RFC8037_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
};
/** RFC 8037 Appendix A.3: its JWK thumbprint. */
const RFC8037_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

/** RFC 7515 Appendix A.3: a published P-256 (ES256) test key (not a secret). */
const RFC7515_KEY = {
  kty: 'EC',
  crv: 'P-256',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
};
/** Its RFC 7638 thumbprint, computed independently (node:crypto SHA-256 over {crv,kty,x,y}). */
const RFC7515_THUMBPRINT = 'oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U';

const BASE = 'https://api.example.com';
const HOLDER_NAME = 'Asha Verma';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const input: CredentialInput = {
  certificateId: '3f2c6a9e-8d1b-4c7e-9a0f-5b6d7e8f9a01',
  certificateNo: generateCertificateNumber(),
  baseUrl: `${BASE}/`,
  issuer: { organisationId: '0b5f3a7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', name: 'Acme Tools Pvt Ltd' },
  subjectId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  brief: {
    id: '11111111-2222-4333-8444-555555555555',
    title: 'Build a REST API for a task tracker',
    domain: 'web-development',
  },
  rubric: [
    {
      id: 'c1',
      name: 'CRUD endpoints',
      description: 'The endpoints work',
      levels: [1, 2, 3, 4, 5].map((score) => ({ score, descriptor: `level ${score}` })),
    },
  ],
  results: { criteria: [{ criterionId: 'c1', score: 4 }], overall: 5 },
  statusIndex: 131_077,
  issuedAt: new Date('2026-03-14T09:26:53.589Z'),
};

/** A fresh key pair in the secret's format, as `npm run dev` would write it. */
async function freshSecret(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, d: jwk.d, x: jwk.x, y: jwk.y });
}

/** A credential as issued before ES256: EdDSA, a bare-thumbprint kid, the old payload. */
async function legacyCredential(): Promise<string> {
  const id = `urn:uuid:${input.certificateId}`;
  const key = await importJWK(RFC8037_KEY, 'EdDSA');
  return new SignJWT({
    iss: BASE,
    sub: id,
    jti: id,
    nbf: 1773480413,
    iat: 1773480413,
    '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3],
    id,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: BASE, type: ['Profile'], name: 'Verification Platform' },
    validFrom: '2026-03-14T09:26:53Z',
    name: 'Build a REST API for a task tracker',
    credentialSubject: {
      id,
      type: ['AchievementSubject'],
      achievement: {
        id: `${BASE}/api/verify/VP-7K3M-Q9TD-2XWV`,
        type: ['Achievement'],
        name: 'Build a REST API for a task tracker',
        description: 'Completed the work brief.',
        criteria: { narrative: 'Submit the work.' },
      },
    },
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: RFC8037_THUMBPRINT, typ: 'JWT' })
    .sign(key);
}

const LEGACY_PUBLIC = { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid: RFC8037_THUMBPRINT };

function decodeSegment(segment: string): Record<string, unknown> {
  const b64 = segment.replaceAll('-', '+').replaceAll('_', '/');
  const bytes = Uint8Array.from(atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function encodeSegment(value: unknown): string {
  let binary = '';
  for (const b of new TextEncoder().encode(JSON.stringify(value))) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

async function signedWithFreshKey(): Promise<{ key: SigningKey; jwt: string }> {
  const key = await importSigningKey(await freshSecret(), BASE);
  return { key, jwt: await signCredential(input, key) };
}

/** Signs `signingInput` with the key's ECDSA P-256 private key, as a JWS signature segment. */
async function es256(key: SigningKey, signingInput: string): Promise<string> {
  const sig = new Uint8Array(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      key.privateKey,
      new TextEncoder().encode(signingInput),
    ),
  );
  let binary = '';
  for (const b of sig) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

describe('importSigningKey', () => {
  it('imports a P-256 key: kid is the key URL with the RFC 7638 thumbprint, public JWK without d', async () => {
    const key = await importSigningKey(JSON.stringify(RFC7515_KEY), `${BASE}/`);
    expect(key.thumbprint).toBe(RFC7515_THUMBPRINT);
    expect(key.kid).toBe(`${BASE}/ob/keys/${RFC7515_THUMBPRINT}`);
    expect(key.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: RFC7515_KEY.x,
      y: RFC7515_KEY.y,
      kid: key.kid,
      use: 'sig',
      alg: 'ES256',
    });
    expect(key.publicJwk).not.toHaveProperty('d');
    expect(key.privateKey.extractable).toBe(false);
  });

  it('keeps the thumbprint stable across imports and member order, and ignores a kid in the secret', async () => {
    const reordered = JSON.stringify({
      d: RFC7515_KEY.d,
      y: RFC7515_KEY.y,
      x: RFC7515_KEY.x,
      crv: 'P-256',
      kty: 'EC',
      kid: 'x',
    });
    expect((await importSigningKey(reordered, BASE)).kid).toBe(`${BASE}/ob/keys/${RFC7515_THUMBPRINT}`);
    expect(await jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x })).toBe(RFC8037_THUMBPRINT);
  });

  it('refuses an Ed25519 key with a message that says what to do', async () => {
    await expect(importSigningKey(JSON.stringify(RFC8037_KEY), BASE)).rejects.toThrow(
      /ES256.*CERT_PREVIOUS_PUBLIC_KEYS/,
    );
  });

  it.each([
    ['not JSON', 'nope'],
    ['an RSA key', JSON.stringify({ kty: 'RSA', n: 'x', e: 'AQAB' })],
    ['a public key only', JSON.stringify({ ...RFC7515_KEY, d: undefined })],
    ['a P-384 key', JSON.stringify({ ...RFC7515_KEY, crv: 'P-384' })],
    ['a short d', JSON.stringify({ ...RFC7515_KEY, d: 'AAAA' })],
    ['no y', JSON.stringify({ ...RFC7515_KEY, y: undefined })],
  ])('rejects %s without echoing the secret', async (_, secret) => {
    const error = await importSigningKey(secret, BASE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(RFC7515_KEY.d);
  });

  it('rejects public members that do not belong to d', async () => {
    const other = JSON.parse(await freshSecret()) as { x: string; y: string };
    await expect(
      importSigningKey(JSON.stringify({ ...RFC7515_KEY, x: other.x, y: other.y }), BASE),
    ).rejects.toThrow(/not the public key/);
  });
});

describe('signCredential / verifyCredential', () => {
  it('sign → verify passes, selecting the key by kid', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const result = await verifyCredential(jwt, jwksFrom([key.publicJwk]));
    expect(result).toMatchObject({ valid: true, kid: key.kid });
  });

  it('writes a JOSE header of alg ES256, typ JWT and the kid URL only', async () => {
    const { key, jwt } = await signedWithFreshKey();
    expect(decodeSegment(jwt.split('.')[0]!)).toEqual({ alg: 'ES256', kid: key.kid, typ: 'JWT' });
    expect(key.kid).toMatch(/^https:\/\/api\.example\.com\/ob\/keys\/[A-Za-z0-9_-]{43}$/);
  });

  it('signs an Open Badges 3.0 credential whose claims mirror it, bound to the holder, with no personal name', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const payload = decodeSegment(jwt.split('.')[1]!);
    const id = `urn:uuid:${input.certificateId}`;
    const subject = `urn:uuid:${input.subjectId}`;
    const issuer = `${BASE}/ob/issuers/${input.issuer.organisationId}`;
    const achievement = `${BASE}/ob/achievements/${input.brief.id}`;
    const list = `${BASE}/ob/status-lists/revocation/1`;
    expect(payload).toEqual({
      iss: issuer,
      sub: subject,
      jti: id,
      nbf: 1773480413,
      iat: 1773480413,
      '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3, JWT_CLAIMS_CONTEXT],
      id,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: issuer, type: ['Profile'], name: 'Acme Tools Pvt Ltd' },
      validFrom: '2026-03-14T09:26:53Z',
      name: input.brief.title,
      credentialSubject: {
        id: subject,
        type: ['AchievementSubject'],
        achievement: {
          id: achievement,
          type: ['Achievement'],
          achievementType: 'Certificate',
          name: input.brief.title,
          description: expect.stringContaining(input.brief.title),
          image: {
            id: `${achievement}/image.png`,
            type: 'Image',
            caption: expect.stringContaining(input.brief.title),
          },
          criteria: { id: `${achievement}/criteria`, narrative: expect.stringContaining('final milestone') },
          resultDescription: [
            expect.objectContaining({
              id: `${achievement}#criterion-c1`,
              type: ['ResultDescription'],
              name: 'CRUD endpoints',
              resultType: 'RubricCriterionLevel',
            }),
            expect.objectContaining({ id: `${achievement}#rating`, resultType: 'RawScore', valueMax: '5' }),
          ],
        },
        result: [
          {
            type: ['Result'],
            resultDescription: `${achievement}#criterion-c1`,
            achievedLevel: `${achievement}#criterion-c1-level-4`,
          },
          { type: ['Result'], resultDescription: `${achievement}#rating`, value: '5', status: 'Completed' },
        ],
      },
      evidence: [
        expect.objectContaining({ id: `${BASE}/verify/${input.certificateNo}`, type: ['Evidence'] }),
      ],
      credentialSchema: [
        {
          id: 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json',
          type: '1EdTechJsonSchemaValidator2019',
        },
      ],
      // Global index 131,077 is bit 5 of list 1.
      credentialStatus: {
        id: `${list}#5`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: '5',
        statusListCredential: list,
      },
    });
    expect(payload).not.toHaveProperty('exp');
    expect(payload).not.toHaveProperty('validUntil');
    expect(payload).not.toHaveProperty('vc');
    // The achievement's rubric levels are what the results point at.
    const levels = (
      payload.credentialSubject as {
        achievement: { resultDescription: { rubricCriterionLevel?: { id: string }[] }[] };
      }
    ).achievement.resultDescription[0]?.rubricCriterionLevel?.map((l) => l.id);
    expect(levels).toContain(`${achievement}#criterion-c1-level-4`);
    const verified = await verifyCredential(jwt, jwksFrom([key.publicJwk]));
    expect(verified.valid && verified.payload).toEqual(payload);
  });

  it("signs the organisation's website as an IRI: characters an IRI may not hold are percent-encoded", () => {
    const url = (websiteUrl: string) =>
      (buildCredential({ ...input, issuer: { ...input.issuer, url: websiteUrl } }).issuer as { url?: string })
        .url;
    expect(url('https://acme.example/a b/"x"{y}|^')).toBe('https://acme.example/a%20b/%22x%22%7By%7D%7C%5E');
    expect(url('https://acme.example/careers?team=data')).toBe('https://acme.example/careers?team=data');
    expect(url('https://acme.example/?q={a|b}')).toBe('https://acme.example/?q=%7Ba%7Cb%7D');
    expect(url('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
  });

  it('mirrors validUntil in exp, and reports expired after it', async () => {
    const key = await importSigningKey(await freshSecret(), BASE);
    const validUntil = new Date('2028-03-14T09:26:53Z');
    const jwt = await signCredential({ ...input, validUntil }, key);
    const payload = decodeSegment(jwt.split('.')[1]!);
    expect(payload.validUntil).toBe('2028-03-14T09:26:53Z');
    expect(payload.exp).toBe(validUntil.getTime() / 1000);
    const jwks = jwksFrom([key.publicJwk]);
    expect((await verifyCredential(jwt, jwks, { now: new Date('2028-03-14T09:26:52Z') })).valid).toBe(true);
    expect(await verifyCredential(jwt, jwks, { now: new Date('2028-03-14T09:26:53Z') })).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('adds the holder-requested identifier as a salted hash only', async () => {
    const key = await importSigningKey(await freshSecret(), BASE);
    const identity = { identityHash: `sha256$${'a'.repeat(64)}`, salt: 'pepper' };
    const payload = decodeSegment((await signCredential({ ...input, identity }, key)).split('.')[1]!);
    expect((payload.credentialSubject as Record<string, unknown>).identifier).toEqual([
      { type: 'IdentityObject', identityType: 'emailAddress', hashed: true, ...identity },
    ]);
  });

  it('puts no holder name or email anywhere in the signed token, whatever the certificate', async () => {
    const { jwt } = await signedWithFreshKey();
    const decoded = jwt
      .split('.')
      .slice(0, 2)
      .map((s) => JSON.stringify(decodeSegment(s)))
      .join();
    expect(decoded).not.toContain(HOLDER_NAME);
    expect(decoded).not.toMatch(/@[a-z0-9.-]+\.[a-z]/i);
    expect(decoded).not.toMatch(/"(givenName|familyName|email|recipient|identifier)"/);
  });

  it('fails when one character of the payload is changed and re-encoded', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const json = JSON.stringify(decodeSegment(payload));
    const altered = json.replace('Build a REST', 'Build a REsT');
    expect(altered).not.toBe(json);
    const tampered = `${header}.${encodeSegment(JSON.parse(altered))}.${signature}`;
    expect(await verifyCredential(tampered, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'signature',
    });
  });

  it('fails when the header is swapped for one with another kid', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const [, payload, signature] = jwt.split('.') as [string, string, string];
    const forged = `${encodeSegment({ alg: 'ES256', kid: 'someone-else', typ: 'JWT' })}.${payload}.${signature}`;
    expect(await verifyCredential(forged, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it('fails against a JWKS that does not hold the signing kid', async () => {
    const { jwt } = await signedWithFreshKey();
    const other = await importSigningKey(await freshSecret(), 'https://elsewhere.example');
    expect(await verifyCredential(jwt, jwksFrom([other.publicJwk]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it('fails when another key signed under the published kid', async () => {
    const { key } = await signedWithFreshKey();
    const impostor = { ...(await importSigningKey(await freshSecret(), BASE)), kid: key.kid };
    const jwt = await signCredential(input, impostor);
    expect(await verifyCredential(jwt, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'signature',
    });
  });

  it('keeps verifying credentials signed with previous keys (ES256 and the retired EdDSA) after rotation', async () => {
    const { key: oldKey, jwt: oldJwt } = await signedWithFreshKey();
    const newKey = await importSigningKey(await freshSecret(), BASE);
    const previous = parsePreviousKeys(JSON.stringify([oldKey.publicJwk, LEGACY_PUBLIC]));
    const jwks = jwksFrom([newKey.publicJwk, ...previous]);
    expect(jwks.keys.map((k) => k.kid)).toEqual([newKey.kid, oldKey.kid, RFC8037_THUMBPRINT]);
    expect(await verifyCredential(oldJwt, jwks)).toMatchObject({
      valid: true,
      kid: oldKey.kid,
      alg: 'ES256',
    });
    expect(await verifyCredential(await legacyCredential(), jwks)).toMatchObject({
      valid: true,
      kid: RFC8037_THUMBPRINT,
      alg: 'EdDSA',
    });
    expect(await verifyCredential(await signCredential(input, newKey), jwks)).toMatchObject({
      valid: true,
      kid: newKey.kid,
    });
  });

  it.each([
    ['alg none', { alg: 'none', typ: 'JWT' }],
    ['alg HS256', { alg: 'HS256', typ: 'JWT' }],
    ['alg ES384', { alg: 'ES384', typ: 'JWT' }],
    ['typ vc+jwt', { alg: 'ES256', typ: 'vc+jwt' }],
    ['a jku header', { alg: 'ES256', typ: 'JWT', jku: 'https://evil.example/jwks.json' }],
    ['a crit header', { alg: 'ES256', typ: 'JWT', crit: ['exp'] }],
  ])('rejects a header with %s', async (_, header) => {
    const { key, jwt } = await signedWithFreshKey();
    const [, payload, signature] = jwt.split('.') as [string, string, string];
    const forged = `${encodeSegment({ ...header, kid: key.kid })}.${payload}.${signature}`;
    expect(await verifyCredential(forged, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'header',
    });
  });

  it('refuses an algorithm on a key of the other type (EdDSA header on a P-256 key, and back)', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const [, payload, signature] = jwt.split('.') as [string, string, string];
    const swapped = `${encodeSegment({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })}.${payload}.${signature}`;
    expect(await verifyCredential(swapped, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
    const [, legacyPayload, legacySignature] = (await legacyCredential()).split('.') as [
      string,
      string,
      string,
    ];
    const upgraded = `${encodeSegment({ alg: 'ES256', kid: RFC8037_THUMBPRINT, typ: 'JWT' })}.${legacyPayload}.${legacySignature}`;
    expect(await verifyCredential(upgraded, jwksFrom([LEGACY_PUBLIC]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it('refuses to use a JWKS entry that is not a signing key', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const encryptionKey = { ...key.publicJwk, use: 'enc' };
    expect(await verifyCredential(jwt, { keys: [encryptionKey] })).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it.each([
    ['two segments', (jwt: string) => jwt.split('.').slice(0, 2).join('.')],
    ['padding', (jwt: string) => `${jwt}==`],
    // The last of 86 signature characters has two unused bits; setting one decodes to the same bytes.
    [
      'a non-canonical signature encoding',
      (jwt: string) => jwt.replace(/.$/, (c) => B64URL[B64URL.indexOf(c) | 1]!),
    ],
    ['a header that is not JSON', (jwt: string) => `bm90IGpzb24.${jwt.split('.').slice(1).join('.')}`],
  ])('rejects %s as malformed', async (_, mangle) => {
    const { key, jwt } = await signedWithFreshKey();
    expect(await verifyCredential(mangle(jwt), jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it('rejects a validly signed payload whose claims do not mirror the credential', async () => {
    const key = await importSigningKey(await freshSecret(), BASE);
    const [header, payload] = (await signCredential(input, key)).split('.') as [string, string];
    const body = decodeSegment(payload);
    for (const change of [
      { sub: 'mailto:asha@example.com' },
      { nbf: 1 },
      { vc: {}, type: ['VerifiableCredential'] },
      { validUntil: '2030-01-01T00:00:00Z' },
      { exp: 1900000000 },
    ]) {
      const signingInput = `${header}.${encodeSegment({ ...body, ...change })}`;
      const jwt = `${signingInput}.${await es256(key, signingInput)}`;
      expect(await verifyCredential(jwt, jwksFrom([key.publicJwk]))).toEqual({
        valid: false,
        reason: 'payload',
      });
    }
  });

  it('checks nbf against the clock, with a minute of leeway', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const jwks = jwksFrom([key.publicJwk]);
    const issued = input.issuedAt.getTime();
    expect((await verifyCredential(jwt, jwks, { now: new Date(issued - 30_000) })).valid).toBe(true);
    expect(await verifyCredential(jwt, jwks, { now: new Date(issued - 3_600_000) })).toEqual({
      valid: false,
      reason: 'not-yet-valid',
    });
  });

  it('verifies a credential issued before ES256 (EdDSA, bare-thumbprint kid, old payload)', async () => {
    const jwks = jwksFrom([LEGACY_PUBLIC]);
    const legacy = await legacyCredential();
    expect(await verifyCredential(legacy, jwks)).toMatchObject({ valid: true, alg: 'EdDSA' });
    expect(await verifyCredential(legacy, jwks, { algorithms: ['ES256'] })).toEqual({
      valid: false,
      reason: 'header',
    });
    // RFC 8037 A.4: workerd's Ed25519 is the deterministic EdDSA that signed them.
    const signed = await new CompactSign(new TextEncoder().encode('Example of Ed25519 signing'))
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(await importJWK(RFC8037_KEY, 'EdDSA'));
    expect(signed.split('.')[2]).toBe(
      'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    );
  });

  it('answers signature, not an error, for segments that are not base64url at all', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    for (const mangled of [`${header}.${payload}é.${signature}`, `${header}.${payload}*.${signature}`]) {
      expect(await verifyCredential(mangled, jwksFrom([key.publicJwk]))).toEqual({
        valid: false,
        reason: 'signature',
      });
    }
    expect(
      await verifyCredential(`${header}.${payload}.${signature.slice(0, 40)}`, jwksFrom([key.publicJwk])),
    ).toEqual({ valid: false, reason: 'signature' });
  });

  it('accepts only the algorithms the caller allows', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const jwks = jwksFrom([key.publicJwk]);
    expect(await verifyCredential(jwt, jwks, { algorithms: ['ES256'] })).toMatchObject({ valid: true });
    expect(await verifyCredential(jwt, jwks, { algorithms: ['EdDSA'] })).toEqual({
      valid: false,
      reason: 'header',
    });
    expect(await verifyCredential(jwt, jwks, { algorithms: [] })).toEqual({ valid: false, reason: 'header' });
  });

  it('refuses input that would produce an invalid credential', async () => {
    const key = await importSigningKey(await freshSecret(), BASE);
    await expect(signCredential({ ...input, certificateId: 'cert-1' }, key)).rejects.toThrow(RangeError);
    await expect(signCredential({ ...input, subjectId: 'asha@example.com' }, key)).rejects.toThrow(
      RangeError,
    );
    await expect(signCredential({ ...input, validUntil: input.issuedAt }, key)).rejects.toThrow(RangeError);
    await expect(signCredential({ ...input, certificateNo: 'VP-0000-0000-0001' }, key)).rejects.toThrow(
      RangeError,
    );
    await expect(signCredential({ ...input, issuedAt: new Date(Number.NaN) }, key)).rejects.toThrow(
      RangeError,
    );
    await expect(signCredential({ ...input, baseUrl: '/relative' }, key)).rejects.toThrow();
  });
});

describe('parsePreviousKeys / jwksFrom', () => {
  const previous = { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid: 'old' };

  it('reads nothing from an unset or blank variable', () => {
    expect(parsePreviousKeys(undefined)).toEqual([]);
    expect(parsePreviousKeys('  ')).toEqual([]);
  });

  it('reads a JSON array or a whole JWKS, Ed25519 and P-256 keys', () => {
    const ec = { kty: 'EC', crv: 'P-256', x: RFC7515_KEY.x, y: RFC7515_KEY.y, kid: `${BASE}/ob/keys/t` };
    const expected = [
      { ...previous, use: 'sig', alg: 'EdDSA' },
      { ...ec, use: 'sig', alg: 'ES256' },
    ];
    expect(parsePreviousKeys(JSON.stringify([previous, ec]))).toEqual(expected);
    expect(parsePreviousKeys(JSON.stringify({ keys: [previous, ec] }))).toEqual(expected);
  });

  it('finds a published key by its RFC 7638 thumbprint (what a kid URL names)', async () => {
    const current = await importSigningKey(JSON.stringify(RFC7515_KEY), BASE);
    const jwks = jwksFrom([current.publicJwk, previous]);
    expect(await keyByThumbprint(jwks, RFC7515_THUMBPRINT)).toEqual(current.publicJwk);
    expect(await keyByThumbprint(jwks, RFC8037_THUMBPRINT)).toMatchObject({ kid: 'old', alg: 'EdDSA' });
    expect(await keyByThumbprint(jwks, 'A'.repeat(43))).toBeUndefined();
  });

  it.each([
    ['not JSON', '[{'],
    ['an object that is not a JWKS', '{"kty":"OKP"}'],
    ['a private key', JSON.stringify([{ ...previous, d: RFC8037_KEY.d }])],
    ['a private P-256 key', JSON.stringify([{ ...RFC7515_KEY, kid: 'k' }])],
    ['a key without kid', JSON.stringify([{ kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x }])],
    ['an RSA key', JSON.stringify([{ kty: 'RSA', n: 'abc', e: 'AQAB', kid: 'r' }])],
  ])('refuses %s', (_, value) => {
    expect(() => parsePreviousKeys(value)).toThrow(/CERT_PREVIOUS_PUBLIC_KEYS/);
  });

  it('publishes only public members, drops keys without kid and keeps the first of a repeated kid', () => {
    const leaked = { ...RFC8037_KEY, kid: 'current' };
    const jwks = jwksFrom([
      leaked,
      { ...previous, kid: 'current', x: 'ignored' },
      { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x },
      previous,
    ]);
    expect(jwks).toEqual({
      keys: [
        { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid: 'current', use: 'sig', alg: 'EdDSA' },
        { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid: 'old', use: 'sig', alg: 'EdDSA' },
      ],
    });
    expect(JSON.stringify(jwks)).not.toContain(RFC8037_KEY.d);
  });
});
