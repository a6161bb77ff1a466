/**
 * Credentials wallets accept (issue 56): every credential is secured twice, as a VC-JWT and with
 * an embedded Data Integrity proof (eddsa-rdfc-2022) by its issuer's Ed25519 key; the issuer is a
 * `did:web` whose DID document (served here) lists both keys. Checked from the outside: the DID
 * document is fetched through the Worker, the proof verified by Digital Bazaar's verifier, and by
 * the DCC's `@digitalcredentials/verifier-core` (what the Learner Credential Wallet and
 * VerifierPlus use), resolving the did:web over "https" through a fetch double into this Worker.
 */
import { env, SELF } from 'cloudflare:test';
import { verifyCredential as dccVerify } from '@digitalcredentials/verifier-core';
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import achievementCredentialSchema from '../src/assets/ob3/achievementcredential.json';
import { signDataIntegrity, verifyDataIntegrity } from '../src/domain/certificates/data-integrity';
import { ed25519Multibase } from '../src/domain/certificates/did-web';
import { OB_ACHIEVEMENT_CREDENTIAL_SCHEMA } from '../src/domain/certificates/urls';
import { verifyEmbeddedProof } from '../src/services/verifier/embedded-proof';
import { candidateWithCertificate } from './harness';
import { as, call, jsonInit } from './helpers';

type Credential = Record<string, unknown> & {
  issuer: { id: string };
  proof: Record<string, unknown> & { verificationMethod: string };
};

async function verification(certificateNo: string) {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  return res.json<{ credential: { jwt: string; dataIntegrity?: Credential } }>();
}

/** A did:web's document, fetched as a resolver would (`did:web:host:path` → `https://host/path/did.json`). */
async function resolveDidWeb(did: string): Promise<Record<string, unknown>> {
  const [, , host = '', ...path] = did.split(':');
  const url = `${env.PUBLIC_BASE_URL}/${path.join('/')}/did.json`;
  expect(decodeURIComponent(host)).toBe(new URL(env.PUBLIC_BASE_URL).host);
  const res = await call(url.slice(env.PUBLIC_BASE_URL.length));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/did+json');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  return res.json();
}

/** Resolves DID URLs (a verification method, a controller) as a wallet's verifier would. */
async function didResolver(url: string): Promise<unknown> {
  const [did = '', fragment] = url.split('#');
  if (!did.startsWith('did:web:')) return undefined;
  const document = await resolveDidWeb(did);
  if (fragment === undefined) return document;
  const methods = document.verificationMethod as { id: string }[];
  const method = methods.find((m) => m.id === url);
  return method ? { '@context': 'https://w3id.org/security/multikey/v1', ...method } : undefined;
}

/**
 * Runs `f` with `fetch` answering `https://{our host}/…` (where verifier-core resolves our
 * did:web) and `{PUBLIC_BASE_URL}/…` from this Worker; anything else is refused: nothing leaves.
 */
async function withHttpsIntoWorker<T>(f: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  const host = new URL(env.PUBLIC_BASE_URL).host;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.href === OB_ACHIEVEMENT_CREDENTIAL_SCHEMA) return Response.json(achievementCredentialSchema);
    if (url.host !== host) throw new TypeError(`fetch refused in the test: ${url.href}`);
    return SELF.fetch(new Request(`${env.PUBLIC_BASE_URL}${url.pathname}${url.search}`, request));
  }) as typeof fetch;
  try {
    return await f();
  } finally {
    globalThis.fetch = original;
  }
}

describe('two securings of every credential', () => {
  it('a new certificate carries an eddsa-rdfc-2022 proof over the VC-JWT’s credential; its did:web lists both keys', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Asha Rao', {
      employerName: 'Banyan Labs',
    });
    const { credential } = await verification(certificateNo);
    const di = credential.dataIntegrity;
    expect(di).toBeDefined();
    if (!di) return;
    const payload = JSON.parse(
      new TextDecoder().decode(base64url.decode(credential.jwt.split('.')[1] ?? '')),
    );

    // The same credential: the JWT's payload without its registered claims is the document signed.
    const { proof, ...document } = di;
    const { iss, sub, jti, nbf, iat, exp, ...jwtCredential } = payload;
    expect(document).toEqual(jwtCredential);
    expect(iss).toBe(di.issuer.id);

    // The issuer is a did:web under PUBLIC_BASE_URL, the controller of the proof's key.
    const host = encodeURIComponent(new URL(env.PUBLIC_BASE_URL).host);
    expect(di.issuer.id).toMatch(new RegExp(`^did:web:${host}:issuers:[0-9a-f-]{36}$`));
    expect(proof).toMatchObject({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-rdfc-2022',
      proofPurpose: 'assertionMethod',
      verificationMethod: `${di.issuer.id}#ed25519-key-1`,
      created: payload.validFrom,
      proofValue: expect.stringMatching(/^z[1-9A-HJ-NP-Za-km-z]{80,90}$/),
    });

    const didDocument = await resolveDidWeb(di.issuer.id);
    expect(didDocument.id).toBe(di.issuer.id);
    const methods = didDocument.verificationMethod as Record<string, unknown>[];
    expect(methods).toContainEqual(
      expect.objectContaining({
        id: `${di.issuer.id}#ed25519-key-1`,
        type: 'Multikey',
        controller: di.issuer.id,
        publicKeyMultibase: expect.stringMatching(/^z6Mk/),
      }),
    );
    // The ES256 key of the VC-JWT, the same one its kid URL answers.
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(credential.jwt.split('.')[0] ?? '')));
    const jwk = await (await call(new URL(header.kid).pathname)).json<Record<string, string>>();
    expect(methods).toContainEqual(
      expect.objectContaining({
        type: 'JsonWebKey',
        controller: di.issuer.id,
        publicKeyJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
      }),
    );
    expect(didDocument.assertionMethod).toEqual(expect.arrayContaining(methods.map((m) => m.id)));
    expect(didDocument.alsoKnownAs).toEqual([expect.stringMatching(/\/ob\/issuers\/[0-9a-f-]{36}$/)]);

    // Digital Bazaar's verifier, the key resolved from the DID document.
    expect(await verifyDataIntegrity(di, didResolver)).toMatchObject({
      verified: true,
      controller: di.issuer.id,
    });
    // A changed claim no longer verifies.
    expect(await verifyDataIntegrity({ ...di, name: 'Something else' }, didResolver)).toMatchObject({
      verified: false,
    });

    // The holder sees both forms too.
    const mine = await (await call('/api/me/certificates', { headers: as(candidate) })).json<{
      items: { certificateNo: string; credential: { dataIntegrity?: unknown } }[];
    }>();
    expect(mine.items.find((c) => c.certificateNo === certificateNo)?.credential.dataIntegrity).toEqual(di);

    // Our own verifier still takes the VC-JWT of a did:web issuer.
    const checked = await call('/api/credentials/verify', jsonInit('POST', { credential: credential.jwt }));
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({ verdict: 'valid' });
  });

  it('the DCC verifier (verifier-core) verifies the Data Integrity form: signature, expiry and status; revoked after revocation', async () => {
    const { employer, certificateNo } = await candidateWithCertificate('Ravi Menon', {
      employerName: 'Peepal Works',
    });
    const di = (await verification(certificateNo)).credential.dataIntegrity;
    if (!di) throw new Error('no Data Integrity form');
    const dcc = async () =>
      (await withHttpsIntoWorker(() => dccVerify({ credential: di as never, knownDIDRegistries: [] }))) as {
        log?: { id: string; valid?: boolean; error?: unknown }[];
        errors?: unknown[];
      };
    const before = await dcc();
    expect(before.errors).toBeUndefined();
    expect(before.log).toEqual(
      expect.arrayContaining([
        { id: 'valid_signature', valid: true },
        { id: 'expiration', valid: true },
        { id: 'revocation_status', valid: true },
      ]),
    );

    const revoked = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Plagiarism found on review' }, as(employer)),
    );
    expect(revoked.status).toBe(200);
    const after = await dcc();
    expect(after.log).toEqual(
      expect.arrayContaining([
        { id: 'valid_signature', valid: true },
        { id: 'revocation_status', valid: false },
      ]),
    );
  });

  it('the status list answers JSON-LD clients with its Data Integrity form, JWT clients as before', async () => {
    const { certificateNo } = await candidateWithCertificate('Lata Pillai');
    const di = (await verification(certificateNo)).credential.dataIntegrity as Credential & {
      credentialStatus: { statusListCredential: string };
    };
    const path = new URL(di.credentialStatus.statusListCredential).pathname;
    const jwt = await call(path);
    expect(jwt.headers.get('content-type')).toBe('application/vc+jwt');
    expect(jwt.headers.get('vary')).toContain('Accept');
    const ld = await call(path, { headers: { accept: 'application/ld+json, application/json' } });
    expect(ld.status).toBe(200);
    expect(ld.headers.get('content-type')).toBe('application/vc+ld+json');
    const list = await ld.json<Credential & { credentialSubject: { encodedList: string } }>();
    expect(list.issuer).toBe(
      `did:web:${encodeURIComponent(new URL(env.PUBLIC_BASE_URL).host)}:issuers:platform`,
    );
    expect(list.proof).toMatchObject({
      cryptosuite: 'eddsa-rdfc-2022',
      verificationMethod: `${list.issuer}#ed25519-key-1`,
    });
    expect(await verifyDataIntegrity(list, didResolver)).toMatchObject({
      verified: true,
      controller: list.issuer,
    });
    const payload = JSON.parse(
      new TextDecoder().decode(base64url.decode((await jwt.text()).split('.')[1] ?? '')),
    );
    expect(list.credentialSubject.encodedList).toBe(payload.credentialSubject.encodedList);
    // Each form has its own ETag.
    expect(ld.headers.get('etag')).not.toBe(jwt.headers.get('etag'));
  });

  it('an unknown issuer has no DID document', async () => {
    const res = await call('/issuers/00000000-0000-4000-8000-000000000000/did.json');
    expect(res.status).toBe(404);
  });
});

describe('foreign Data Integrity credentials in our verifier (verifyEmbeddedProof)', () => {
  async function didKeyIssuer() {
    const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
    const multibase = ed25519Multibase(raw);
    const did = `did:key:${multibase}`;
    return { did, signer: { id: `${did}#${multibase}`, privateKey: pair.privateKey } };
  }
  const credentialOf = (issuer: string) => ({
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id: 'urn:uuid:0b6f2a3c-6a1e-4d0e-9b7e-2f3a4b5c6d7e',
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuer, type: ['Profile'], name: 'A University' },
    validFrom: '2026-01-01T00:00:00Z',
    name: 'Foreign badge',
    credentialSubject: {
      id: 'did:example:holder',
      type: ['AchievementSubject'],
      achievement: {
        id: 'https://university.example/achievements/1',
        type: ['Achievement'],
        name: 'Data Science',
        description: 'Completed the course.',
        criteria: { narrative: 'Pass the exam.' },
      },
    },
  });

  it('a did:key issuer’s eddsa-rdfc-2022 proof is verified; a changed claim, a key of someone else and another cryptosuite are not (decision 0353)', async () => {
    const issuer = await didKeyIssuer();
    const signed = await signDataIntegrity(
      credentialOf(issuer.did),
      issuer.signer,
      new Date('2026-01-01T00:00:00Z'),
    );
    const budget = () => ({ remaining: 5 });
    expect(await verifyEmbeddedProof(env, signed, issuer.did, budget())).toMatchObject({ outcome: 'passed' });
    expect(
      await verifyEmbeddedProof(env, { ...signed, name: 'Something else' }, issuer.did, budget()),
    ).toMatchObject({ outcome: 'failed' });
    // Signed by another did:key than the issuer it names.
    const other = await didKeyIssuer();
    const impostor = await signDataIntegrity(
      credentialOf(issuer.did),
      other.signer,
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(await verifyEmbeddedProof(env, impostor, issuer.did, budget())).toMatchObject({
      outcome: 'failed',
    });
    // Relabelled as a cryptosuite checked here, the signature does not verify under it: failed.
    expect(
      await verifyEmbeddedProof(
        env,
        { ...signed, proof: { ...signed.proof, cryptosuite: 'ecdsa-rdfc-2019' } },
        issuer.did,
        budget(),
      ),
    ).toMatchObject({ outcome: 'failed' });
    // A cryptosuite no library here checks: unverifiable.
    expect(
      await verifyEmbeddedProof(
        env,
        { ...signed, proof: { ...signed.proof, cryptosuite: 'bbs-2023' } },
        issuer.did,
        budget(),
      ),
    ).toMatchObject({ outcome: 'unverifiable' });
  });

  it('our own credential’s Data Integrity form verifies through our did:web without a fetch', async () => {
    const { certificateNo } = await candidateWithCertificate('Dev Patel');
    const di = (await verification(certificateNo)).credential.dataIntegrity;
    if (!di) throw new Error('no Data Integrity form');
    expect(await verifyEmbeddedProof(env, di, di.issuer.id, { remaining: 0 })).toMatchObject({
      outcome: 'passed',
    });
  });
});
