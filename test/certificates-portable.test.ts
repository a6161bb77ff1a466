import { eq } from 'drizzle-orm';
import { createLocalJWKSet, importJWK, type JWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { certificates, credentialStatuses, users } from '../src/db/schema';
import { extractFromPng, extractFromSvg, pngChunks } from '../src/domain/certificates/badge';
import {
  ALL_CONSENTS,
  candidateWithCertificate,
  consent,
  db,
  loginAdmin,
  passEveryMilestone,
  publishedBrief,
  seedBrief,
  seedCertifiedWork,
  signup,
  verifiedEmployer,
  verifyOrganisation,
} from './harness';
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
    expect(page).toContain('href="/verify?lang=en"');

    await revoke(certificateNo);
    const revoked = await (await call(`/verify/${certificateNo}`, html)).text();
    expect(revoked).not.toContain('id="linkedin"');
    expect(revoked).not.toContain('badge.png');
  });

  it('/verify serves the upload-or-paste form under the same CSP as the certificate page', async () => {
    const res = await call('/verify', html);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    const { certificateNo } = await candidateWithCertificate('Csp Holder');
    expect((await call(`/verify/${certificateNo}`, html)).headers.get('content-security-policy')).toBe(csp);
    const page = await res.text();
    expect(page).toContain('id="verifier"');
    expect(page).toContain('id="credential"');
    expect(page).toContain('id="badge"');
    const etag = res.headers.get('etag')!;
    expect((await call('/verify', { headers: { accept: 'text/html', 'if-none-match': etag } })).status).toBe(
      304,
    );
  });
});

// What a holder takes elsewhere (LinkedIn) from a certificate that expires, and what an
// organisation's verification issues while a holder's erasure is pending.
/** A certificate from a brief that sets `validForMonths` (so it carries `validUntil`). */
async function expiringCertificate(name: string, validForMonths: number) {
  const employer = await verifiedEmployer(`${name} ${crypto.randomUUID().slice(0, 6)}`);
  const candidate = await signup('candidate', name);
  for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
  const brief = await publishedBrief(employer, { durationDays: 1, validForMonths });
  const { certificate } = await passEveryMilestone(employer, candidate, brief);
  if (!certificate) throw new Error('no certificate');
  return { employer, candidate, certificateNo: certificate.certificateNo };
}

type Listed = { certificateNo: string; validUntil: string | null; linkedInAddToProfileUrl: string | null };

describe('LinkedIn: an expiring certificate is listed with its expiry', { timeout: 30_000 }, () => {
  it('the holder’s link and the verify page’s link carry expirationYear/expirationMonth of validUntil (UTC)', async () => {
    const { candidate, certificateNo } = await expiringCertificate('Expiring Holder', 6);
    const res = await call('/api/me/certificates', { headers: as(candidate) });
    const mine = (await res.json<{ items: Listed[] }>()).items.find(
      (i) => i.certificateNo === certificateNo,
    )!;
    expect(mine.validUntil).not.toBeNull();
    const until = new Date(mine.validUntil!);
    const expected = {
      expirationYear: String(until.getUTCFullYear()),
      expirationMonth: String(until.getUTCMonth() + 1),
    };
    const listed = new URL(mine.linkedInAddToProfileUrl!);
    expect(listed.searchParams.get('expirationYear')).toBe(expected.expirationYear);
    expect(listed.searchParams.get('expirationMonth')).toBe(expected.expirationMonth);

    const page = await (await call(`/verify/${certificateNo}`, { headers: { accept: 'text/html' } })).text();
    const href = /id="linkedin" href="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    const shown = new URL(href!);
    expect(shown.searchParams.get('expirationYear')).toBe(expected.expirationYear);
    expect(shown.searchParams.get('expirationMonth')).toBe(expected.expirationMonth);
  });

  it('a certificate without validity has no expiration parameters', async () => {
    const employer = await verifiedEmployer(`No Expiry ${crypto.randomUUID().slice(0, 6)}`);
    const candidate = await signup('candidate', 'Lasting Holder');
    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    await passEveryMilestone(employer, candidate, brief);
    const res = await call('/api/me/certificates', { headers: as(candidate) });
    const [mine] = (await res.json<{ items: Listed[] }>()).items;
    expect(mine!.validUntil).toBeNull();
    const url = new URL(mine!.linkedInAddToProfileUrl!);
    expect(url.searchParams.has('expirationYear')).toBe(false);
    expect(url.searchParams.has('expirationMonth')).toBe(false);
  });
});

describe('pending_issuer and a holder whose erasure is pending', { timeout: 30_000 }, () => {
  it('the organisation’s verification issues the others’ certificates, not theirs: nothing is signed for them', async () => {
    const employer = await signup(
      'employer',
      'Recruiter',
      `Pending Erasure ${crypto.randomUUID().slice(0, 6)}`,
    );
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const earn = async (name: string) => {
      const candidate = await signup('candidate', name);
      for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
      const { certificate } = await passEveryMilestone(employer, candidate, brief);
      expect(certificate?.status).toBe('pending_issuer');
      return { candidate, certificateNo: certificate!.certificateNo };
    };
    const leaving = await earn('Leaving Holder');
    const staying = await earn('Staying Holder');
    // What DELETE /api/dsr/erasure does at once (the cascade that deletes the rows comes later).
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, leaving.candidate.id));

    await verifyOrganisation(employer);

    const row = async (no: string) =>
      (await db().select().from(certificates).where(eq(certificates.certificateNo, no)))[0]!;
    expect((await row(staying.certificateNo)).status).toBe('active');
    const waiting = await row(leaving.certificateNo);
    expect(waiting.status).toBe('pending_issuer');
    expect(waiting.credentialJwt).toBeNull();
    const bound = await db()
      .select()
      .from(credentialStatuses)
      .where(eq(credentialStatuses.certificateId, waiting.id));
    expect(bound).toEqual([]);
    await expectProblem(await call(`/api/verify/${leaving.certificateNo}`), 404, 'not-found');
  });
});
