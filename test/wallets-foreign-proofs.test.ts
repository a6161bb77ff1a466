/**
 * Our verifier reads what other wallets' issuers sign (issue 56): Data Integrity with
 * `eddsa-rdfc-2022` (what the OB 3.0 certification names), `ecdsa-rdfc-2019` (P-256 and P-384
 * Multikeys) and the older `Ed25519Signature2020`. Every fixture is signed here with Digital Bazaar's
 * own libraries (the ones the verifier uses to check), by did:key and did:web issuers (the DID
 * documents served by the issuers double), in both data models (VCDM 2.0 validFrom/validUntil,
 * VCDM 1.1 issuanceDate/expirationDate), and checked through `POST /api/credentials/verify`:
 * valid, tampered, another key, a relabelled cryptosuite, expired, revoked (a Bitstring Status
 * List secured with Data Integrity, and a 1EdTechRevocationList).
 */

import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import { cryptosuite as ecdsaSuite } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import { Ed25519Signature2020 } from '@digitalbazaar/ed25519-signature-2020';
import { Ed25519VerificationKey2020 } from '@digitalbazaar/ed25519-verification-key-2020';
import jsigs from 'jsonld-signatures';
import { describe, expect, it } from 'vitest';
import { documentLoader, signDataIntegrity } from '../src/domain/certificates/data-integrity';
import { ed25519Multibase } from '../src/domain/certificates/did-web';
import { bitstring, encodeStatusList } from '../src/domain/certificates/status-list';
import { checkOf, credentialFrom, publish, verify } from './foreign-issuers';

const T = { timeout: 90_000 };

type Curve = 'P-256' | 'P-384';
type Suite = { kind: 'eddsa' } | { kind: 'ecdsa'; curve: Curve } | { kind: 'ed2020' };
type Signer = {
  /** The issuer's DID, the controller of its key. */
  did: string;
  /** The verification method's id. */
  method: string;
  /** The verification method as a DID document lists it. */
  publicMethod: Record<string, unknown>;
  sign(document: Record<string, unknown>): Promise<Record<string, unknown>>;
};

const DID_CONTEXT = 'https://www.w3.org/ns/did/v1';
const V1 = 'https://www.w3.org/2018/credentials/v1';
const OB = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

const jsigsSign = (document: Record<string, unknown>, suite: unknown) =>
  jsigs.sign(structuredClone(document), {
    suite,
    purpose: new jsigs.purposes.AssertionProofPurpose(),
    documentLoader: documentLoader(),
  });

/** A key of `suite`; its DID is a did:key, or `did:web:{host}` when a host is given. */
async function signer(suite: Suite, host?: string): Promise<Signer> {
  if (suite.kind === 'eddsa') {
    const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
    const multibase = ed25519Multibase(raw);
    const did = host ? `did:web:${host}` : `did:key:${multibase}`;
    const method = host ? `${did}#key-1` : `${did}#${multibase}`;
    return {
      did,
      method,
      publicMethod: { id: method, type: 'Multikey', controller: did, publicKeyMultibase: multibase },
      sign: (document) =>
        signDataIntegrity(
          document,
          { id: method, privateKey: pair.privateKey },
          new Date('2026-01-05T10:00:00Z'),
        ),
    };
  }
  if (suite.kind === 'ecdsa') {
    const key = await EcdsaMultikey.generate({ curve: suite.curve });
    const multibase = key.publicKeyMultibase;
    const did = host ? `did:web:${host}` : `did:key:${multibase}`;
    const method = host ? `${did}#key-1` : `${did}#${multibase}`;
    key.id = method;
    key.controller = did;
    return {
      did,
      method,
      publicMethod: { id: method, type: 'Multikey', controller: did, publicKeyMultibase: multibase },
      sign: (document) =>
        jsigsSign(document, new DataIntegrityProof({ signer: key.signer(), cryptosuite: ecdsaSuite })),
    };
  }
  const key = await Ed25519VerificationKey2020.generate();
  const fingerprint = key.fingerprint();
  const did = host ? `did:web:${host}` : `did:key:${fingerprint}`;
  const method = host ? `${did}#key-1` : `${did}#${fingerprint}`;
  key.id = method;
  key.controller = did;
  return {
    did,
    method,
    publicMethod: {
      id: method,
      type: 'Ed25519VerificationKey2020',
      controller: did,
      publicKeyMultibase: key.publicKeyMultibase,
    },
    sign: (document) => jsigsSign(document, new Ed25519Signature2020({ key })),
  };
}

const newHost = (what: string) => `${what}-${crypto.randomUUID().slice(0, 8)}.issuer.test`;

/** A did:web issuer: its DID document (listing `publicMethod` for assertions) published on `host`. */
async function didWebSigner(suite: Suite): Promise<Signer & { host: string }> {
  const host = newHost('didweb');
  const s = await signer(suite, host);
  await publish(host, '/.well-known/did.json', {
    '@context': [DID_CONTEXT],
    id: s.did,
    verificationMethod: [s.publicMethod],
    assertionMethod: [s.method],
  });
  return { ...s, host };
}

/** An OB 3.0 credential of `did` in VCDM 2.0, or in VCDM 1.1 (`v1`: issuanceDate, expirationDate). */
function credentialOf(
  did: string,
  options: { v1?: boolean; until?: string; extra?: Record<string, unknown> } = {},
) {
  const credential: Record<string, unknown> = credentialFrom(
    { id: did, name: 'A Wallet University' },
    options.extra,
  );
  if (options.v1) {
    credential['@context'] = [V1, OB];
    credential.issuanceDate = credential.validFrom;
    delete credential.validFrom;
    if (options.until) credential.expirationDate = options.until;
  } else if (options.until) credential.validUntil = options.until;
  return credential;
}

/** A `BitstringStatusListCredential` of `s` with `set` bits, secured with its Data Integrity proof, at `https://{host}{path}`. */
async function publishSignedStatusList(s: Signer, host: string, path: string, set: number[]) {
  const url = `https://${host}${path}`;
  const list = await s.sign({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: s.did,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: {
      id: `${url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList: encodeStatusList(bitstring(set)),
    },
  });
  await publish(host, path, list, { contentType: 'application/vc+ld+json' });
  return url;
}

const statusEntry = (url: string, index: number) => ({
  id: `${url}#${index}`,
  type: 'BitstringStatusListEntry',
  statusPurpose: 'revocation',
  statusListIndex: String(index),
  statusListCredential: url,
});

const SUITES: { name: string; suite: Suite; proof: Record<string, unknown> }[] = [
  {
    // The one the OB 3.0 certification names for issuers and displayers (our own is tested in
    // test/wallets.test.ts; here a foreign issuer's, for the displayer's expired and revoked cases).
    name: 'eddsa-rdfc-2022',
    suite: { kind: 'eddsa' },
    proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' },
  },
  {
    name: 'ecdsa-rdfc-2019 (P-256)',
    suite: { kind: 'ecdsa', curve: 'P-256' },
    proof: { type: 'DataIntegrityProof', cryptosuite: 'ecdsa-rdfc-2019' },
  },
  {
    name: 'ecdsa-rdfc-2019 (P-384)',
    suite: { kind: 'ecdsa', curve: 'P-384' },
    proof: { type: 'DataIntegrityProof', cryptosuite: 'ecdsa-rdfc-2019' },
  },
  { name: 'Ed25519Signature2020', suite: { kind: 'ed2020' }, proof: { type: 'Ed25519Signature2020' } },
];

describe.each(SUITES)('$name', ({ suite, proof }) => {
  it('did:key issuer, both data models: valid; a changed claim and another key are invalid', T, async () => {
    const issuer = await signer(suite);
    for (const v1 of [false, true]) {
      const signed = await issuer.sign(credentialOf(issuer.did, { v1 }));
      expect(signed.proof).toMatchObject({ ...proof, verificationMethod: issuer.method });
      // The credential as a JSON object, and as text: the same answer.
      const valid = await verify({ credential: signed });
      expect(valid.verdict, `${v1 ? 'VCDM 1.1' : 'VCDM 2.0'}: ${valid.summary}`).toBe('valid');
      expect(checkOf(valid, 'signature')?.detail).toContain(issuer.method);
      expect((await verify({ credential: JSON.stringify(signed) })).verdict).toBe('valid');

      const tampered = await verify({ credential: { ...signed, name: 'Something else' } });
      expect(tampered.verdict).toBe('invalid');
      expect(checkOf(tampered, 'signature')?.outcome).toBe('failed');
    }
    // Signed by another did:key than the issuer the credential names.
    const other = await signer(suite);
    const impostor = await verify({ credential: await other.sign(credentialOf(issuer.did)) });
    expect(impostor.verdict).toBe('invalid');
    expect(checkOf(impostor, 'signature')?.detail).toMatch(/not to the issuer/);
  });

  it(
    'did:web issuer (its DID document fetched): valid; another key under its method id invalid; expired in both data models',
    T,
    async () => {
      const issuer = await didWebSigner(suite);
      const valid = await verify({ credential: await issuer.sign(credentialOf(issuer.did)) });
      expect(valid.verdict, valid.summary).toBe('valid');
      // Another key under the same verification method id: not the key the DID document lists.
      const impostor = await signer(suite, issuer.host);
      const forged = await verify({ credential: await impostor.sign(credentialOf(issuer.did)) });
      expect(forged.verdict, forged.summary).toBe('invalid');
      expect(checkOf(forged, 'signature')?.outcome).toBe('failed');
      for (const v1 of [false, true]) {
        const expired = await verify({
          credential: await issuer.sign(credentialOf(issuer.did, { v1, until: '2026-02-01T00:00:00Z' })),
        });
        expect(expired.verdict, `${v1 ? 'VCDM 1.1' : 'VCDM 2.0'}: ${expired.summary}`).toBe('expired');
        expect(checkOf(expired, 'signature')?.outcome).toBe('passed');
      }
    },
  );

  it(
    'revoked: a Bitstring Status List secured with Data Integrity, and a 1EdTechRevocationList',
    T,
    async () => {
      const issuer = await didWebSigner(suite);
      const list = await publishSignedStatusList(issuer, issuer.host, '/status/1', [5]);
      const revoked = await verify({
        credential: await issuer.sign(
          credentialOf(issuer.did, { extra: { credentialStatus: statusEntry(list, 5) } }),
        ),
      });
      expect(revoked.verdict, revoked.summary).toBe('revoked');
      const kept = await verify({
        credential: await issuer.sign(
          credentialOf(issuer.did, { extra: { credentialStatus: statusEntry(list, 6) } }),
        ),
      });
      expect(kept.verdict, kept.summary).toBe('valid');

      // The 1EdTech list on the issuer's own host, naming two credentials: one in VCDM 2.0, one in
      // VCDM 1.1 (as the 1EdTech displayer tests present it). Neither context defines the status
      // type (a name that starts with a digit is a relative IRI even under v2's @vocab), so a signer
      // defines its term inline: JSON-LD safe mode refuses an undefined one.
      const credentialStatus = { id: `https://${issuer.host}/revocations`, type: '1EdTechRevocationList' };
      const term = {
        '1EdTechRevocationList': 'https://purl.imsglobal.org/spec/vcrl/v1p0/1EdTechRevocationList',
      };
      const listedV2 = credentialOf(issuer.did, { extra: { credentialStatus } });
      listedV2['@context'] = ['https://www.w3.org/ns/credentials/v2', OB, term];
      const listedV1 = credentialOf(issuer.did, { v1: true, extra: { credentialStatus } });
      listedV1['@context'] = [V1, OB, term];
      await publish(issuer.host, '/revocations', {
        id: `https://${issuer.host}/revocations`,
        issuer: issuer.did,
        revokedCredential: [
          { id: listedV2.id, revocationReason: 'Awarded in error' },
          { id: listedV1.id, revocationReason: 'Awarded in error' },
        ],
      });
      for (const listed of [listedV2, listedV1]) {
        const revokedByList = await verify({ credential: await issuer.sign(listed) });
        expect(revokedByList.verdict, revokedByList.summary).toBe('revoked');
        expect(checkOf(revokedByList, 'status')?.detail).toMatch(/Awarded in error/);
      }
    },
  );
});

describe('what a proof may not claim', () => {
  it('a did:key issuer’s status list signed by another key does not count: unverifiable', T, async () => {
    const issuer = await signer({ kind: 'ecdsa', curve: 'P-256' });
    const impostor = await signer({ kind: 'ecdsa', curve: 'P-256' });
    const host = newHost('lists');
    // The impostor's list says it is the issuer's, but its proof is the impostor's key.
    const url = `https://${host}/status/1`;
    const forged = await impostor.sign({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: issuer.did,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: {
        id: `${url}#list`,
        type: 'BitstringStatusList',
        statusPurpose: 'revocation',
        encodedList: encodeStatusList(bitstring([])),
      },
    });
    await publish(host, '/status/1', forged);
    const report = await verify({
      credential: await issuer.sign(
        credentialOf(issuer.did, { extra: { credentialStatus: statusEntry(url, 1) } }),
      ),
    });
    expect(report.verdict, report.summary).toBe('unverifiable');
    expect(checkOf(report, 'status')?.outcome).toBe('unverifiable');
  });

  it(
    'a proof relabelled with another cryptosuite is invalid; a cryptosuite not checked here is unverifiable',
    T,
    async () => {
      const issuer = await signer({ kind: 'ecdsa', curve: 'P-256' });
      const signed = (await issuer.sign(credentialOf(issuer.did))) as Record<string, unknown> & {
        proof: Record<string, unknown>;
      };
      const relabelled = await verify({
        credential: { ...signed, proof: { ...signed.proof, cryptosuite: 'eddsa-rdfc-2022' } },
      });
      expect(relabelled.verdict).toBe('invalid');
      const unknown = await verify({
        credential: { ...signed, proof: { ...signed.proof, cryptosuite: 'ecdsa-sd-2023' } },
      });
      expect(unknown.verdict).toBe('unverifiable');
      expect(checkOf(unknown, 'signature')?.outcome).toBe('unverifiable');
    },
  );

  it('a context that is not bundled is refused, never fetched', T, async () => {
    const issuer = await signer({ kind: 'ed2020' });
    const signed = await issuer.sign(credentialOf(issuer.did, { v1: true }));
    const report = await verify({
      credential: { ...signed, '@context': [...(signed['@context'] as string[]), 'https://example.org/ctx'] },
    });
    expect(report.verdict).not.toBe('valid');
    expect(checkOf(report, 'signature')?.outcome).not.toBe('passed');
  });
});
