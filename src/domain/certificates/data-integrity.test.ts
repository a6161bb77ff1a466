import { describe, expect, it } from 'vitest';
import { buildCredential } from './credential';
import { documentLoader, signDataIntegrity, verifyDataIntegrity } from './data-integrity';
import { ed25519VerificationMethod, issuerDid } from './did-web';

async function keyPair() {
  const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { privateKey: pair.privateKey, publicKey: raw };
}

describe('Data Integrity (eddsa-rdfc-2022)', () => {
  it('signs a credential and verifies it; a changed claim fails', async () => {
    const did = issuerDid('http://localhost:8787', 'org1');
    const { privateKey, publicKey } = await keyPair();
    const method = ed25519VerificationMethod(did, publicKey);
    const credential = { hello: 1 };
    void credential;
    const base = buildCredential({
      certificateId: '6f1c1f4e-7d0a-4c4b-9d59-0c6f2f1c2a11',
      certificateNo: 'VP-7K3M-Q9TD-2XWV',
      baseUrl: 'http://localhost:8787',
      issuer: { organisationId: 'org1', name: 'Org' },
      subjectId: '6f1c1f4e-7d0a-4c4b-9d59-0c6f2f1c2a12',
      brief: { id: 'b1', title: 'T', domain: 'd' },
      issuedAt: new Date('2026-01-01T00:00:00Z'),
    });
    const signed = await signDataIntegrity(
      base,
      { id: method.id, privateKey },
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(signed.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    const controller = {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: did,
      verificationMethod: [method],
      assertionMethod: [method.id],
    };
    const resolve = async (url: string) =>
      url === method.id
        ? { '@context': 'https://w3id.org/security/multikey/v1', ...method }
        : url === did
          ? controller
          : undefined;
    expect(await verifyDataIntegrity(signed, resolve)).toMatchObject({ verified: true });
    expect(await verifyDataIntegrity({ ...signed, name: 'other' }, resolve)).toMatchObject({
      verified: false,
    });
    void documentLoader;
  });
});
