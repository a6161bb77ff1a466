/**
 * What the Open Badges 3.0 certification asks of a displayer (docs/certificates.md, "OB 3.0
 * conformance"), for the Data Integrity form of a credential: baked into a PNG (`iTXt`) or an SVG
 * (`<openbadges:credential>` with the JSON in CDATA) and imported without loss (the credential out
 * equals the credential in), revoked once its certificate is, taken as a JSON object as well as
 * text on both verify routes; and the DCC's verifier-core (what wallets use) says an expired one is
 * expired. The displayer's valid, expired and revoked cases in both data models are
 * test/wallets-foreign-proofs.test.ts.
 */
import { verifyCredential as dccVerify } from '@digitalcredentials/verifier-core';
import { describe, expect, it } from 'vitest';
import BADGE_PNG from '../src/assets/badge/badge.png';
import achievementCredentialSchema from '../src/assets/ob3/achievementcredential.json';
import { badgeSvg, bakePng } from '../src/domain/certificates/badge';
import { signDataIntegrity } from '../src/domain/certificates/data-integrity';
import { ed25519Multibase } from '../src/domain/certificates/did-web';
import { OB_ACHIEVEMENT_CREDENTIAL_SCHEMA } from '../src/domain/certificates/urls';
import { base64Of, checkOf, credentialFrom, type Report, verify } from './foreign-issuers';
import { candidateWithCertificate, issueKey, loginAdmin } from './harness';
import { as, call, freshIp, jsonInit } from './helpers';

const T = { timeout: 90_000 };
const OB3_NAMESPACE = 'https://purl.imsglobal.org/ob/v3p0';

async function dataIntegrityOf(certificateNo: string): Promise<Record<string, unknown>> {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  const body = await res.json<{ credential: { dataIntegrity?: Record<string, unknown> } }>();
  if (!body.credential.dataIntegrity) throw new Error('no Data Integrity form');
  return body.credential.dataIntegrity;
}

/** An SVG baked with a JSON credential (OB 3.0 § 5.3.2.1: the element's body, in CDATA). */
function bakeSvgJson(json: string): string {
  const svg = badgeSvg({ title: 'DS', organisation: 'X', certificateNo: 'n/a', issuedAt: new Date() });
  return svg.replace(
    /<svg\b([^>]*)>/,
    `<svg$1 xmlns:openbadges="${OB3_NAMESPACE}"><openbadges:credential><![CDATA[${json}]]></openbadges:credential>`,
  );
}

describe('a Data Integrity credential baked into a badge', () => {
  it(
    'PNG and SVG: valid, and the credential read out equals the one baked in; revoked after revocation',
    T,
    async () => {
      const { employer, certificateNo } = await candidateWithCertificate('Meera Iyer', {
        employerName: 'Neem Analytics',
      });
      const di = await dataIntegrityOf(certificateNo);
      const json = JSON.stringify(di);
      const png = bakePng(new Uint8Array(BADGE_PNG), json);
      const svg = new TextEncoder().encode(bakeSvgJson(json));
      const imports = async () => {
        const reports: Report[] = [];
        for (const [bytes, container] of [
          [png, 'png'],
          [svg, 'svg'],
        ] as const) {
          const report = await verify({ badge: base64Of(bytes) });
          expect(report.container).toBe(container);
          expect(report.format).toBe('json');
          // Without loss: the very credential, member for member.
          expect(JSON.parse(report.verifiedCredential ?? 'null')).toEqual(di);
          expect(checkOf(report, 'signature')?.detail).toMatch(/eddsa-rdfc-2022/);
          reports.push(report);
        }
        return reports;
      };
      for (const report of await imports()) {
        expect(report.verdict, report.summary).toBe('valid');
        expect(report.credential?.name).toBeTruthy();
        expect(report.issuer.name).toBe('Neem Analytics');
      }

      const revoked = await call(
        `/api/certificates/${certificateNo}/revoke`,
        jsonInit('POST', { reason: 'Awarded in error' }, as(employer)),
      );
      expect(revoked.status).toBe(200);
      for (const report of await imports()) expect(report.verdict, report.summary).toBe('revoked');
    },
  );
});

describe('the verify routes take the credential as a JSON object as well as text', () => {
  it(
    'POST /api/credentials/verify and /api/v1/credentials/verify: the same verdict for both',
    T,
    async () => {
      const { certificateNo } = await candidateWithCertificate('Kabir Shah');
      const di = await dataIntegrityOf(certificateNo);
      const { key } = await issueKey(await loginAdmin(), ['credentials:verify']);
      for (const credential of [di, JSON.stringify(di)]) {
        for (const [path, headers] of [
          ['/api/credentials/verify', { 'CF-Connecting-IP': freshIp() }],
          ['/api/v1/credentials/verify', { 'X-Service-Key': key }],
        ] as [string, Record<string, string>][]) {
          const res = await call(path, jsonInit('POST', { credential }, headers));
          expect(res.status, path).toBe(200);
          const report = await res.json<Report>();
          expect(report.verdict, `${typeof credential} on ${path}: ${report.summary}`).toBe('valid');
          expect(report.format).toBe('json');
        }
      }
      // A changed claim in the object is caught as in the text.
      const changed = await verify({ credential: { ...di, name: 'Something else' } }, key);
      expect(changed.verdict).toBe('invalid');
    },
  );
});

describe('the DCC verifier (verifier-core) on expiry', () => {
  it(
    'an expired Data Integrity credential: verifier-core says expired, the signature still valid; ours says expired',
    T,
    async () => {
      const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
      const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
      const multibase = ed25519Multibase(raw);
      const did = `did:key:${multibase}`;
      const signer = { id: `${did}#${multibase}`, privateKey: pair.privateKey };
      const signed = (until: string) =>
        signDataIntegrity(
          credentialFrom({ id: did, name: 'Key University' }, { validUntil: until }),
          signer,
          new Date('2026-01-05T10:00:00Z'),
        );
      const expired = await signed('2026-02-01T00:00:00Z');
      const current = await signed('2099-01-01T00:00:00Z');

      // verifier-core resolves did:key itself; the only fetch it makes is the OB schema, served here.
      const original = globalThis.fetch;
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new Request(input, init).url;
        if (url === OB_ACHIEVEMENT_CREDENTIAL_SCHEMA) return Response.json(achievementCredentialSchema);
        throw new TypeError(`fetch refused in the test: ${url}`);
      }) as typeof fetch;
      type DccResult = { log?: { id: string; valid?: boolean }[]; errors?: unknown[] };
      let expiredResult: DccResult;
      let currentResult: DccResult;
      try {
        expiredResult = (await dccVerify({
          credential: expired as never,
          knownDIDRegistries: [],
        })) as DccResult;
        currentResult = (await dccVerify({
          credential: current as never,
          knownDIDRegistries: [],
        })) as DccResult;
      } finally {
        globalThis.fetch = original;
      }
      expect(expiredResult.errors).toBeUndefined();
      expect(expiredResult.log).toEqual(
        expect.arrayContaining([
          { id: 'valid_signature', valid: true },
          { id: 'expiration', valid: false },
        ]),
      );
      expect(currentResult.log).toEqual(expect.arrayContaining([{ id: 'expiration', valid: true }]));

      const ours = await verify({ credential: expired });
      expect(ours.verdict, ours.summary).toBe('expired');
    },
  );
});
