import { eq } from 'drizzle-orm';
import { createLocalJWKSet, importJWK, type JWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { certificates } from '../src/db/schema';
import { extractFromPng, extractFromSvg, pngChunks } from '../src/domain/certificates/badge';
import { candidateWithCertificate, db, loginAdmin, seedBrief, seedCertifiedWork, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';
import { pdfText } from './pdf-text';

/**
 * Verifies a credential with jose using only what it names: a `kid` that is a URL is fetched for
 * its one JWK; a bare `kid` is looked up in the published JWKS.
 */
async function verifyPublished(jwt: string) {
  const [headerSegment] = jwt.split('.');
  const header = JSON.parse(atob(headerSegment!.replace(/-/g, '+').replace(/_/g, '/'))) as { kid: string };
  const options = { algorithms: ['EdDSA', 'ES256'] };
  if (/^https?:\/\//.test(header.kid)) {
    const jwk = await (await call(new URL(header.kid).pathname)).json<JWK>();
    return jwtVerify(jwt, await importJWK(jwk, jwk.alg), options);
  }
  const jwks = await (await call('/.well-known/jwks.json')).json<{ keys: JWK[] }>();
  return jwtVerify(jwt, createLocalJWKSet(jwks), options);
}

async function storedJwt(certificateNo: string): Promise<string> {
  const [row] = await db()
    .select({ jwt: certificates.credentialJwt })
    .from(certificates)
    .where(eq(certificates.certificateNo, certificateNo));
  return row!.jwt!;
}

async function revoke(certificateNo: string) {
  const admin = await loginAdmin();
  const res = await call(
    `/api/certificates/${certificateNo}/revoke`,
    jsonInit('POST', { reason: 'Work found to be plagiarised' }, as(admin)),
  );
  expect(res.status).toBe(200);
}

describe('baked badges', { timeout: 30_000 }, () => {
  it('bakes the stored credential into an SVG (openbadges:credential verify=…) that verifies', async () => {
    const { certificateNo } = await candidateWithCertificate('Badge Holder', { employerName: 'Acme Hiring' });
    const res = await call(`/api/certificates/${certificateNo}/badge.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const svg = await res.text();
    expect(svg).toContain('xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"');
    expect(svg).toContain('Acme Hiring');
    expect(svg).toContain(certificateNo);
    expect(svg).not.toContain('Badge Holder'); // no personal data on the badge

    const jwt = extractFromSvg(svg)!;
    expect(jwt).toBe(await storedJwt(certificateNo));
    const { payload } = await verifyPublished(jwt);
    expect(JSON.stringify(payload)).toContain(certificateNo);
  });

  it('bakes the stored credential into a PNG iTXt chunk (valid CRCs) that verifies', async () => {
    const { certificateNo } = await candidateWithCertificate('Png Holder');
    const res = await call(`/api/certificates/${certificateNo}/badge.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${certificateNo}.png"`);
    const png = new Uint8Array(await res.arrayBuffer());
    const types = pngChunks(png).map((c) => c.type); // throws on any bad CRC
    expect(types.filter((t) => t === 'iTXt')).toHaveLength(1);
    expect(types.at(-2)).toBe('iTXt');
    expect(types.at(-1)).toBe('IEND');

    const jwt = extractFromPng(png)!;
    expect(jwt).toBe(await storedJwt(certificateNo));
    await expect(verifyPublished(jwt)).resolves.toBeTruthy();
  });

  it('answers 404 for an unknown or unissued certificate, 400 for a typo, 410 once revoked', async () => {
    for (const format of ['svg', 'png']) {
      await expectProblem(
        await call(`/api/certificates/VP-0000-0000-0001/badge.${format}`),
        400,
        'invalid-parameters',
      );
    }
    const employer = await signup('employer');
    const candidate = await signup('candidate');
    const brief = await seedBrief(employer.id);
    const pending = await seedCertifiedWork(candidate, { ...brief, employerId: employer.id });
    await db()
      .update(certificates)
      .set({ status: 'pending_issuer', credentialJwt: null })
      .where(eq(certificates.id, pending.certificateId));
    for (const format of ['svg', 'png']) {
      await expectProblem(
        await call(`/api/certificates/${pending.certificateNo}/badge.${format}`),
        404,
        'not-found',
      );
    }
    await db().delete(certificates).where(eq(certificates.id, pending.certificateId));
    await expectProblem(await call(`/api/certificates/${pending.certificateNo}/badge.svg`), 404, 'not-found');

    const { certificateNo } = await candidateWithCertificate('Revoked Holder');
    await revoke(certificateNo);
    for (const format of ['svg', 'png']) {
      await expectProblem(
        await call(`/api/certificates/${certificateNo}/badge.${format}`),
        410,
        'certificate-revoked',
      );
    }
  });
});

describe('GET /api/me/certificates: LinkedIn', { timeout: 30_000 }, () => {
  it("lists LinkedIn's add-certification link for a valid certificate, and none once revoked", async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Linked Holder', {
      employerName: 'Acme & Sons',
      title: 'Build a status page',
    });
    const list = async () =>
      (
        await (
          await call('/api/me/certificates', { headers: as(candidate) })
        ).json<{
          items: { certificateNo: string; issuedAt: string; linkedInAddToProfileUrl: string | null }[];
        }>()
      ).items[0]!;
    const mine = await list();
    const url = new URL(mine.linkedInAddToProfileUrl!);
    const issued = new Date(mine.issuedAt);
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Build a status page',
      organizationName: 'Acme & Sons',
      issueYear: String(issued.getUTCFullYear()),
      issueMonth: String(issued.getUTCMonth() + 1),
      certUrl: `http://localhost:8787/verify/${certificateNo}`,
      certId: certificateNo,
    });

    await revoke(certificateNo);
    expect((await list()).linkedInAddToProfileUrl).toBeNull();
  });
});

describe('GET /api/me/certificates/{certificateNo}/pdf', { timeout: 30_000 }, () => {
  it('gives the holder a PDF with their name in Devanagari or Tamil as text, the achievement, organisation and number', async () => {
    for (const [i, name] of ['अनन्या क्षत्रिय', 'தமிழ்செல்வி'].entries()) {
      // Verified organisations' names are unique.
      const { candidate, certificateNo } = await candidateWithCertificate(name, {
        employerName: `Acme Hiring ${i + 2}`,
        title: 'Build a status page',
      });
      const res = await call(`/api/me/certificates/${certificateNo}/pdf`, { headers: as(candidate) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="certificate-${certificateNo}.pdf"`,
      );
      expect(res.headers.get('cache-control')).toContain('no-store');
      const pdf = new Uint8Array(await res.arrayBuffer());
      expect(new TextDecoder('latin1').decode(pdf.slice(0, 5))).toBe('%PDF-');
      const text = await pdfText(pdf);
      expect(text).toContain(name);
      expect(text).toContain('Build a status page');
      expect(text).toContain('Acme Hiring');
      expect(text).toContain(`Certificate number ${certificateNo}`);
      expect(text).toContain(`http://localhost:8787/verify/${certificateNo}`);
      expect(text).not.toContain('REVOKED');
    }
  });

  it('says REVOKED on a revoked certificate', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Revoked Pdf');
    await revoke(certificateNo);
    const res = await call(`/api/me/certificates/${certificateNo}/pdf`, { headers: as(candidate) });
    expect(res.status).toBe(200);
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toMatch(/REVOKED on /);
  });

  it('is 404 for anyone but the holder, 401 without a session, 400 for a typo', async () => {
    const { certificateNo } = await candidateWithCertificate('Private Pdf');
    const other = await signup('candidate');
    await expectProblem(
      await call(`/api/me/certificates/${certificateNo}/pdf`, { headers: as(other) }),
      404,
      'not-found',
    );
    await expectProblem(await call(`/api/me/certificates/${certificateNo}/pdf`), 401, 'unauthenticated');
    await expectProblem(
      await call('/api/me/certificates/VP-0000-0000-0001/pdf', { headers: as(other) }),
      400,
      'invalid-parameters',
    );
  });
});

describe('verification pages: LinkedIn, badges and the verifier for anything', { timeout: 30_000 }, () => {
  const html = { headers: { accept: 'text/html' } };

  it('/verify/{no} links LinkedIn (the verify page as the credential URL) and the badges, only while valid', async () => {
    const { certificateNo } = await candidateWithCertificate('Page Holder', {
      employerName: 'Acme Hiring Pages',
    });
    const page = await (await call(`/verify/${certificateNo}`, html)).text();
    const href = /id="linkedin" href="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    const url = new URL(href!);
    expect(url.searchParams.get('organizationName')).toBe('Acme Hiring Pages');
    expect(url.searchParams.get('certId')).toBe(certificateNo);
    expect(url.searchParams.get('certUrl')).toBe(`http://localhost:8787/verify/${certificateNo}`);
    expect(page).toContain(`href="/api/certificates/${certificateNo}/badge.png"`);
    expect(page).toContain('href="/verify"');

    await revoke(certificateNo);
    const revoked = await (await call(`/verify/${certificateNo}`, html)).text();
    expect(revoked).not.toContain('id="linkedin"');
    expect(revoked).not.toContain('badge.png');
  });

  it('/verify serves the paste-or-upload verifier under the same hash-based CSP as the certificate page', async () => {
    const res = await call('/verify', html);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[^']+'; connect-src 'self'/);
    const { certificateNo } = await candidateWithCertificate('Csp Holder');
    expect((await call(`/verify/${certificateNo}`, html)).headers.get('content-security-policy')).toBe(csp);
    const page = await res.text();
    expect(page).toContain('id="verifier"');
    expect(page).toContain('id="jwt-input"');
    expect(page).toContain('id="badge-file"');
    const etag = res.headers.get('etag')!;
    expect((await call('/verify', { headers: { accept: 'text/html', 'if-none-match': etag } })).status).toBe(
      304,
    );
  });
});
