import { describe, expect, it } from 'vitest';
import { generateCertificateNumber } from './certificate-number';
import {
  type CredentialInput,
  importSigningKey,
  jwksFrom,
  jwkThumbprint,
  OB_CONTEXT_V3,
  parsePreviousKeys,
  type SigningKey,
  signCredential,
  VC_CONTEXT_V2,
  verifyCredential,
} from './credential';

/** RFC 8037 Appendix A.1: a published Ed25519 test key (not a secret). */
const RFC8037_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
};
/** RFC 8037 Appendix A.3: its JWK thumbprint. */
const RFC8037_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

const HOLDER_NAME = 'Asha Verma';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const input: CredentialInput = {
  certificateId: '3f2c6a9e-8d1b-4c7e-9a0f-5b6d7e8f9a01',
  certificateNo: generateCertificateNumber(),
  issuerUrl: 'https://api.example.com/',
  issuerName: 'Verification Platform',
  briefTitle: 'Build a REST API for a todo app',
  domain: 'web-development',
  employerName: 'Acme Tools Pvt Ltd',
  issuedAt: new Date('2026-03-14T09:26:53.589Z'),
};

/** A fresh key pair in the secret's format, as `npm run dev` would write it (kid left to derive). */
async function freshSecret(): Promise<string> {
  const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, d: jwk.d, x: jwk.x });
}

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
  const key = await importSigningKey(await freshSecret());
  return { key, jwt: await signCredential(input, key) };
}

describe('Ed25519 in workerd', () => {
  it('reproduces the RFC 8037 A.4 signature (deterministic EdDSA)', async () => {
    const key = await importSigningKey(JSON.stringify(RFC8037_KEY));
    const signingInput = 'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc';
    const signature = new Uint8Array(
      await crypto.subtle.sign('Ed25519', key.privateKey, new TextEncoder().encode(signingInput)),
    );
    let binary = '';
    for (const b of signature) binary += String.fromCharCode(b);
    expect(btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')).toBe(
      'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    );
  });
});

describe('importSigningKey', () => {
  it('derives kid as the RFC 7638 thumbprint (RFC 8037 A.3 vector) and a public JWK without d', async () => {
    const key = await importSigningKey(JSON.stringify(RFC8037_KEY));
    expect(key.kid).toBe(RFC8037_THUMBPRINT);
    expect(key.publicJwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: RFC8037_KEY.x,
      kid: RFC8037_THUMBPRINT,
      use: 'sig',
      alg: 'EdDSA',
    });
    expect(key.publicJwk).not.toHaveProperty('d');
    expect(key.privateKey.extractable).toBe(false);
  });

  it('keeps the thumbprint stable across imports and independent of member order', async () => {
    const reordered = JSON.stringify({ x: RFC8037_KEY.x, d: RFC8037_KEY.d, crv: 'Ed25519', kty: 'OKP' });
    expect((await importSigningKey(reordered)).kid).toBe(RFC8037_THUMBPRINT);
    expect(await jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x })).toBe(RFC8037_THUMBPRINT);
  });

  it('uses the kid in the secret when there is one', async () => {
    const key = await importSigningKey(JSON.stringify({ ...RFC8037_KEY, kid: '2026-03' }));
    expect(key.kid).toBe('2026-03');
    expect(key.publicJwk.kid).toBe('2026-03');
  });

  it.each([
    ['not JSON', 'nope'],
    ['an RSA key', JSON.stringify({ kty: 'RSA', n: 'x', e: 'AQAB' })],
    ['a public key only', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x })],
    ['an X25519 key', JSON.stringify({ ...RFC8037_KEY, crv: 'X25519' })],
    ['a short d', JSON.stringify({ ...RFC8037_KEY, d: 'AAAA' })],
    ['an empty kid', JSON.stringify({ ...RFC8037_KEY, kid: '' })],
  ])('rejects %s without echoing the secret', async (_, secret) => {
    const error = await importSigningKey(secret).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(RFC8037_KEY.d);
  });

  it('rejects an x that does not belong to d', async () => {
    const other = JSON.parse(await freshSecret()) as { x: string };
    await expect(importSigningKey(JSON.stringify({ ...RFC8037_KEY, x: other.x }))).rejects.toThrow(
      /not the public key/,
    );
  });
});

describe('signCredential / verifyCredential', () => {
  it('sign → verify passes, selecting the key by kid', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const result = await verifyCredential(jwt, jwksFrom([key.publicJwk]));
    expect(result).toMatchObject({ valid: true, kid: key.kid });
  });

  it('writes a JOSE header of alg EdDSA, typ JWT and the kid only', async () => {
    const { key, jwt } = await signedWithFreshKey();
    expect(decodeSegment(jwt.split('.')[0]!)).toEqual({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' });
  });

  it('signs an Open Badges 3.0 credential whose claims mirror it, with no personal name', async () => {
    const { key, jwt } = await signedWithFreshKey();
    const payload = decodeSegment(jwt.split('.')[1]!);
    const id = `urn:uuid:${input.certificateId}`;
    expect(payload).toEqual({
      iss: 'https://api.example.com',
      sub: id,
      jti: id,
      nbf: 1773480413,
      iat: 1773480413,
      '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3],
      id,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: 'https://api.example.com', type: ['Profile'], name: 'Verification Platform' },
      validFrom: '2026-03-14T09:26:53Z',
      name: input.briefTitle,
      credentialSubject: {
        id,
        type: ['AchievementSubject'],
        achievement: {
          id: `https://api.example.com/api/verify/${input.certificateNo}`,
          type: ['Achievement'],
          achievementType: 'Certificate',
          name: input.briefTitle,
          description: expect.stringContaining(input.briefTitle),
          criteria: { narrative: expect.stringContaining('final milestone') },
        },
      },
    });
    expect(payload).not.toHaveProperty('exp');
    expect(payload).not.toHaveProperty('vc');
    const verified = await verifyCredential(jwt, jwksFrom([key.publicJwk]));
    expect(verified.valid && verified.payload).toEqual(payload);
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
    const forged = `${encodeSegment({ alg: 'EdDSA', kid: 'someone-else', typ: 'JWT' })}.${payload}.${signature}`;
    expect(await verifyCredential(forged, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it('fails against a JWKS that does not hold the signing kid', async () => {
    const { jwt } = await signedWithFreshKey();
    const other = await importSigningKey(await freshSecret());
    expect(await verifyCredential(jwt, jwksFrom([other.publicJwk]))).toEqual({
      valid: false,
      reason: 'unknown-kid',
    });
  });

  it('fails when another key signed under the published kid', async () => {
    const { key } = await signedWithFreshKey();
    const impostorSecret = JSON.parse(await freshSecret()) as Record<string, string>;
    const impostor = await importSigningKey(JSON.stringify({ ...impostorSecret, kid: key.kid }));
    const jwt = await signCredential(input, impostor);
    expect(await verifyCredential(jwt, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'signature',
    });
  });

  it('keeps verifying credentials signed with a previous key after rotation', async () => {
    const { key: oldKey, jwt: oldJwt } = await signedWithFreshKey();
    const newKey = await importSigningKey(await freshSecret());
    const previous = parsePreviousKeys(JSON.stringify([oldKey.publicJwk]));
    const jwks = jwksFrom([newKey.publicJwk, ...previous]);
    expect(jwks.keys.map((k) => ('kid' in k ? k.kid : undefined))).toEqual([newKey.kid, oldKey.kid]);
    expect(await verifyCredential(oldJwt, jwks)).toMatchObject({ valid: true, kid: oldKey.kid });
    expect(await verifyCredential(await signCredential(input, newKey), jwks)).toMatchObject({
      valid: true,
      kid: newKey.kid,
    });
  });

  it.each([
    ['alg none', { alg: 'none', typ: 'JWT' }],
    ['alg HS256', { alg: 'HS256', typ: 'JWT' }],
    ['typ vc+jwt', { alg: 'EdDSA', typ: 'vc+jwt' }],
    ['a jku header', { alg: 'EdDSA', typ: 'JWT', jku: 'https://evil.example/jwks.json' }],
    ['a crit header', { alg: 'EdDSA', typ: 'JWT', crit: ['exp'] }],
  ])('rejects a header with %s', async (_, header) => {
    const { key, jwt } = await signedWithFreshKey();
    const [, payload, signature] = jwt.split('.') as [string, string, string];
    const forged = `${encodeSegment({ ...header, kid: key.kid })}.${payload}.${signature}`;
    expect(await verifyCredential(forged, jwksFrom([key.publicJwk]))).toEqual({
      valid: false,
      reason: 'header',
    });
  });

  it('refuses to use a JWKS entry that is not an Ed25519 signing key', async () => {
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
    const key = await importSigningKey(await freshSecret());
    const [header, payload] = (await signCredential(input, key)).split('.') as [string, string];
    const body = decodeSegment(payload);
    for (const change of [
      { sub: 'mailto:asha@example.com' },
      { nbf: 1 },
      { vc: {}, type: ['VerifiableCredential'] },
    ]) {
      const signingInput = `${header}.${encodeSegment({ ...body, ...change })}`;
      const sig = new Uint8Array(
        await crypto.subtle.sign('Ed25519', key.privateKey, new TextEncoder().encode(signingInput)),
      );
      let binary = '';
      for (const b of sig) binary += String.fromCharCode(b);
      const jwt = `${signingInput}.${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
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

  // Ed25519 is deterministic, so the signature pins the exact bytes signed: header and payload
  // serialised as before the JWS mechanics moved to jose (recorded from the hand-written signer).
  it('signs exactly the bytes it signed before (RFC 8037 key, fixed input)', async () => {
    const key = await importSigningKey(JSON.stringify(RFC8037_KEY));
    const jwt = await signCredential({ ...input, certificateNo: 'VP-7K3M-Q9TD-2XWV' }, key);
    const [header, , signature] = jwt.split('.');
    expect(header).toBe(
      'eyJhbGciOiJFZERTQSIsImtpZCI6ImtQcktfcW14VldhWVZBOXd3QkY2SXVvM3ZWeno3VHhIQ1R3WEJ5Z3JTNGsiLCJ0eXAiOiJKV1QifQ',
    );
    expect(signature).toBe(
      'RzonctnVTfPN0SN7R9uMCl8RjNXJ4uibuxCwdz0SzUzb02AvNzmkiedQafrzrMxOTzPRlr2DSxaUgg3U3n5FAg',
    );
    expect(jwt).toHaveLength(1744);
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
    expect(await verifyCredential(jwt, jwks, { algorithms: ['EdDSA'] })).toMatchObject({ valid: true });
    expect(await verifyCredential(jwt, jwks, { algorithms: [] })).toEqual({ valid: false, reason: 'header' });
  });

  it('refuses input that would produce an invalid credential', async () => {
    const key = await importSigningKey(await freshSecret());
    await expect(signCredential({ ...input, certificateId: 'cert-1' }, key)).rejects.toThrow(RangeError);
    await expect(signCredential({ ...input, certificateNo: 'VP-0000-0000-0001' }, key)).rejects.toThrow(
      RangeError,
    );
    await expect(signCredential({ ...input, issuedAt: new Date(Number.NaN) }, key)).rejects.toThrow(
      RangeError,
    );
    await expect(signCredential({ ...input, issuerUrl: '/relative' }, key)).rejects.toThrow();
  });
});

describe('parsePreviousKeys / jwksFrom', () => {
  const previous = { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid: 'old' };

  it('reads nothing from an unset or blank variable', () => {
    expect(parsePreviousKeys(undefined)).toEqual([]);
    expect(parsePreviousKeys('  ')).toEqual([]);
  });

  it('reads a JSON array or a whole JWKS', () => {
    const expected = [{ ...previous, use: 'sig', alg: 'EdDSA' }];
    expect(parsePreviousKeys(JSON.stringify([previous]))).toEqual(expected);
    expect(parsePreviousKeys(JSON.stringify({ keys: [previous] }))).toEqual(expected);
  });

  it.each([
    ['not JSON', '[{'],
    ['an object that is not a JWKS', '{"kty":"OKP"}'],
    ['a private key', JSON.stringify([{ ...previous, d: RFC8037_KEY.d }])],
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
