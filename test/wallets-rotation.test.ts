/**
 * Rotating `CERT_SIGNING_KEY` (docs/certificates.md, "Rotating the signing key"): the issuers'
 * Ed25519 keys are derived from it, so a Data Integrity proof made before the rotation stops
 * verifying; `POST /api/admin/certificates/resign` signs every live credential again, page by
 * page, and the new proofs verify with the rotated keys.
 */
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, certificates } from '../src/db/schema';
import { resignAllCredentials } from '../src/services/issuance/resign';
import { verifyEmbeddedProof } from '../src/services/verifier/embedded-proof';
import { candidateWithCertificate, db, loginAdmin } from './harness';
import { as, call, jsonInit } from './helpers';

const T = { timeout: 90_000 };

type DataIntegrity = Record<string, unknown> & { issuer: { id: string }; proof: Record<string, unknown> };

async function dataIntegrityOf(certificateNo: string): Promise<DataIntegrity> {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  const body = await res.json<{ credential: { dataIntegrity?: DataIntegrity } }>();
  if (!body.credential.dataIntegrity) throw new Error('no Data Integrity form');
  return body.credential.dataIntegrity;
}

/** A new P-256 private JWK, as `CERT_SIGNING_KEY` holds one. */
async function newSigningKeySecret(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const { kty, crv, x, y, d } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty, crv, x, y, d });
}

const checkProof = (environment: typeof env, di: DataIntegrity) =>
  verifyEmbeddedProof(environment, di, di.issuer.id, { remaining: 0 });

describe('re-signing after a rotation of CERT_SIGNING_KEY', () => {
  it(
    'a proof made before the rotation fails under the new keys; re-signed, it verifies again',
    T,
    async () => {
      const { certificateNo } = await candidateWithCertificate('Tara Bose');
      const before = await dataIntegrityOf(certificateNo);
      expect(await checkProof(env, before)).toMatchObject({ outcome: 'passed' });

      const rotated = { ...env, CERT_SIGNING_KEY: await newSigningKeySecret() };
      // The issuer's Ed25519 key is another now: the old proof no longer verifies.
      expect(await checkProof(rotated, before)).toMatchObject({ outcome: 'failed' });

      const admin = await loginAdmin();
      let next: string | null = null;
      const resigned: string[] = [];
      do {
        const page = await resignAllCredentials(db(), rotated, { after: next, limit: 1, actorId: admin.id });
        resigned.push(...page.resigned);
        next = page.next;
      } while (next !== null);
      expect(resigned).toContain(certificateNo);

      const after = await dataIntegrityOf(certificateNo);
      expect(after.proof.proofValue).not.toBe(before.proof.proofValue);
      expect(await checkProof(rotated, after)).toMatchObject({ outcome: 'passed' });
      // The same content: only the proof changed.
      const { proof: _a, ...afterContent } = after;
      const { proof: _b, ...beforeContent } = before;
      expect(afterContent).toEqual(beforeContent);
    },
  );

  it(
    'the admin route pages through every live credential, audit-logged; nobody else may call it',
    T,
    async () => {
      const first = await candidateWithCertificate('Ira Sen');
      const second = await candidateWithCertificate('Om Das');
      const admin = await loginAdmin();
      const numbers: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const res = await call(
          '/api/admin/certificates/resign',
          jsonInit('POST', { after, limit: 1 }, as(admin)),
        );
        expect(res.status).toBe(200);
        const page = await res.json<{ resigned: string[]; next: string | null }>();
        expect(page.resigned.length).toBeLessThanOrEqual(1);
        numbers.push(...page.resigned);
        after = page.next;
        pages += 1;
      } while (after !== null && pages < 20);
      expect(numbers).toEqual(expect.arrayContaining([first.certificateNo, second.certificateNo]));
      expect(new Set(numbers).size).toBe(numbers.length);

      // Still the same valid credential, one version on, its Data Integrity form verifying.
      const [row] = await db()
        .select({ version: certificates.version, id: certificates.id })
        .from(certificates)
        .where(eq(certificates.certificateNo, first.certificateNo));
      expect(row?.version).toBeGreaterThan(1);
      expect(await checkProof(env, await dataIntegrityOf(first.certificateNo))).toMatchObject({
        outcome: 'passed',
      });
      const audited = await db()
        .select({ actorId: auditLog.actorId, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'certificate.resigned'), eq(auditLog.targetId, row?.id ?? '')));
      expect(audited).toContainEqual({ actorId: admin.id, details: { reason: 'signing key rotated' } });

      // Without a body: the first page.
      const bare = await call('/api/admin/certificates/resign', { method: 'POST', headers: as(admin) });
      expect(bare.status).toBe(200);
      expect((await bare.json<{ resigned: string[] }>()).resigned.length).toBeGreaterThan(0);

      // An employer, or nobody, may not.
      const refused = await call('/api/admin/certificates/resign', jsonInit('POST', {}, as(first.employer)));
      expect(refused.status).toBe(403);
      expect((await call('/api/admin/certificates/resign', jsonInit('POST', {}))).status).toBe(401);
    },
  );
});
