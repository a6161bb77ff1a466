/**
 * Wallet delivery (issue 56): OpenID for Verifiable Credential Issuance 1.0, pre-authorized code
 * flow, driven end to end by an independent client, `@openid4vc/openid4vci` (the library Credo and
 * the EUDI wallets use), holding its own P-256 key as a `did:jwk`. The credential it receives is
 * bound to that key and verifies in both forms: the VC-JWT with our verifier, the Data Integrity
 * form with DCC's verifier-core.
 */
import { env, SELF } from 'cloudflare:test';
import { verifyCredential as dccVerify } from '@digitalcredentials/verifier-core';
import { clientAuthenticationNone } from '@openid4vc/oauth2';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { eq } from 'drizzle-orm';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import achievementCredentialSchema from '../src/assets/ob3/achievementcredential.json';
import { credentialOffers } from '../src/db/schema';
import { OB_ACHIEVEMENT_CREDENTIAL_SCHEMA } from '../src/domain/certificates/urls';
import { candidateWithCertificate, db } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

// PUBLIC_BASE_URL is http://localhost:8787 in the tests; production's is https.
setGlobalConfig({ allowInsecureUrls: true });

const host = new URL(env.PUBLIC_BASE_URL).host;

/** Every request of the client and of verifier-core goes into this Worker; nothing leaves. */
const workerFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.href === OB_ACHIEVEMENT_CREDENTIAL_SCHEMA) return Response.json(achievementCredentialSchema);
  if (url.host !== host) throw new TypeError(`fetch refused in the test: ${url.href}`);
  return SELF.fetch(new Request(`${env.PUBLIC_BASE_URL}${url.pathname}${url.search}`, request));
}) as typeof fetch;

async function walletKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const did = `did:jwk:${base64url.encode(JSON.stringify({ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y }))}`;
  return { privateKey, publicJwk, did };
}

function walletClient(key: Awaited<ReturnType<typeof walletKey>>) {
  return new Openid4vciClient({
    callbacks: {
      fetch: workerFetch,
      generateRandom: (n) => crypto.getRandomValues(new Uint8Array(n)),
      hash: async (data, alg) =>
        new Uint8Array(await crypto.subtle.digest(alg.replace('sha-', 'SHA-'), data)),
      clientAuthentication: clientAuthenticationNone({ clientId: 'test-wallet' }),
      signJwt: async (_signer, { header, payload }) => ({
        jwt: await new SignJWT(payload as Record<string, unknown>)
          .setProtectedHeader(header as { alg: string })
          .sign(key.privateKey),
        signerJwk: key.publicJwk as never,
      }),
    },
  });
}

async function offerFor(candidate: Account, certificateNo: string, body: Record<string, unknown> = {}) {
  const res = await call(
    `/api/me/certificates/${certificateNo}/credential-offer`,
    jsonInit('POST', body, as(candidate)),
  );
  expect(res.status).toBe(201);
  return res.json<{
    credentialOfferUri: string;
    offerUrl: string;
    txCode: string | null;
    expiresAt: string;
  }>();
}

/** The whole flow for one configuration: offer, token (with its tx code), nonce, proof, credential. */
async function receive(candidate: Account, certificateNo: string, configuration: string) {
  const key = await walletKey();
  const client = walletClient(key);
  const created = await offerFor(candidate, certificateNo);
  expect(created.credentialOfferUri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  expect(created.txCode).toMatch(/^\d{6}$/);
  const credentialOffer = await client.resolveCredentialOffer(created.credentialOfferUri);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode: created.txCode ?? undefined,
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const proof = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: configuration,
    signer: { method: 'did', didUrl: `${key.did}#0`, alg: 'ES256' },
    nonce: c_nonce,
  });
  const response = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: configuration,
    proofs: { jwt: [proof.jwt] },
  });
  return { key, created, response };
}

describe('OID4VCI 1.0 (pre-authorized code) with @openid4vc/openid4vci as the wallet', () => {
  it('issues the certificate as a VC-JWT bound to the wallet’s did:jwk, which our verifier finds valid', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Neha Joshi');
    const { key, response } = await receive(candidate, certificateNo, 'OpenBadgeCredential_jwt_vc_json');
    expect(response.response.ok).toBe(true);
    const jwt = (response.credentialResponse.credentials!.at(0) as { credential: string }).credential;
    expect(typeof jwt).toBe('string');
    const payload = JSON.parse(new TextDecoder().decode(base64url.decode(jwt.split('.')[1] ?? '')));
    expect(payload.sub).toBe(key.did);
    expect(payload.credentialSubject.id).toBe(key.did);
    const checked = await call('/api/credentials/verify', jsonInit('POST', { credential: jwt }));
    expect(await checked.json()).toMatchObject({ verdict: 'valid' });
  });

  it('issues the Data Integrity form (ldp_vc) bound to the wallet’s key, which verifier-core verifies', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Arjun Das');
    const { key, response } = await receive(candidate, certificateNo, 'OpenBadgeCredential_ldp_vc');
    const credential = (response.credentialResponse.credentials!.at(0) as { credential: unknown })
      .credential as Record<string, unknown> & {
      credentialSubject: { id: string };
      proof: { cryptosuite: string };
    };
    expect(credential.credentialSubject.id).toBe(key.did);
    expect(credential.proof.cryptosuite).toBe('eddsa-rdfc-2022');
    const original = globalThis.fetch;
    globalThis.fetch = workerFetch;
    try {
      const result = (await dccVerify({ credential: credential as never, knownDIDRegistries: [] })) as {
        log?: { id: string; valid?: boolean }[];
      };
      expect(result.log).toEqual(
        expect.arrayContaining([
          { id: 'valid_signature', valid: true },
          { id: 'expiration', valid: true },
          { id: 'revocation_status', valid: true },
        ]),
      );
    } finally {
      globalThis.fetch = original;
    }
  });

  it('an offer works once: its code is refused the second time, and its document is gone', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Sara Khan');
    const created = await offerFor(candidate, certificateNo);
    const offer = await (await call(new URL(created.offerUrl).pathname)).json<{
      grants: Record<string, { 'pre-authorized_code': string }>;
    }>();
    const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code'];
    const token = (txCode: string | null) =>
      call('/oid4vci/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
          'pre-authorized_code': code,
          ...(txCode ? { tx_code: txCode } : {}),
        }),
      });
    // Without the transaction code: refused, nothing spent.
    expect(await (await token(null)).json()).toMatchObject({ error: 'invalid_request' });
    const first = await token(created.txCode);
    expect(first.status).toBe(200);
    const second = await token(created.txCode);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await call(new URL(created.offerUrl).pathname)).status).toBe(404);
  });

  it('a wrong transaction code is refused and counted: the fifth spends the offer', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Imran Ali');
    const created = await offerFor(candidate, certificateNo);
    const offer = await (await call(new URL(created.offerUrl).pathname)).json<{
      grants: Record<string, { 'pre-authorized_code': string; tx_code?: unknown }>;
    }>();
    const grant = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!;
    expect(grant.tx_code).toMatchObject({ length: 6, input_mode: 'numeric' });
    const wrong = created.txCode === '000000' ? '111111' : '000000';
    const token = (txCode: string) =>
      call('/oid4vci/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
          'pre-authorized_code': grant['pre-authorized_code'],
          tx_code: txCode,
        }),
      });
    for (let i = 1; i <= 5; i++) {
      const res = await token(wrong);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    }
    const [row] = await db()
      .select()
      .from(credentialOffers)
      .where(eq(credentialOffers.id, created.offerUrl.split('/').at(-1)!));
    expect(row?.failedAttempts).toBe(5);
    const right = await token(created.txCode!);
    expect(right.status).toBe(400);
    expect(await right.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('spent'),
    });
  });

  it('an offer expires after ten minutes', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Priya Nair');
    const created = await offerFor(candidate, certificateNo, { txCode: false });
    expect(created.txCode).toBeNull();
    const expiresIn = Date.parse(created.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(590_000);
    expect(expiresIn).toBeLessThanOrEqual(600_000);
    const id = created.offerUrl.split('/').at(-1)!;
    const offer = await (await call(new URL(created.offerUrl).pathname)).json<{
      grants: Record<string, { 'pre-authorized_code': string }>;
    }>();
    await db()
      .update(credentialOffers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(credentialOffers.id, id));
    const res = await call('/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code':
          offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code'],
      }),
    });
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
    expect((await call(new URL(created.offerUrl).pathname)).status).toBe(404);
  });

  it('only the holder may offer their certificate; the credential endpoint wants a token and a proof', async () => {
    const { certificateNo } = await candidateWithCertificate('Kavya Reddy');
    const { candidate: other } = await candidateWithCertificate('Someone Else');
    await expectProblem(
      await call(`/api/me/certificates/${certificateNo}/credential-offer`, jsonInit('POST', {}, as(other))),
      404,
      'not-found',
    );
    const noToken = await call(
      '/oid4vci/credential',
      jsonInit('POST', { credential_configuration_id: 'OpenBadgeCredential_jwt_vc_json' }),
    );
    expect(noToken.status).toBe(401);
    const metadata = await (await call('/.well-known/openid-credential-issuer')).json<
      Record<string, unknown>
    >();
    expect(Object.keys(metadata.credential_configurations_supported as object).sort()).toEqual([
      'OpenBadgeCredential_jwt_vc_json',
      'OpenBadgeCredential_ldp_vc',
    ]);
  });
});
