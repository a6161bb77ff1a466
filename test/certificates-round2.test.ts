/**
 * Certificates from the outside, second round: what a holder takes elsewhere (LinkedIn), what an
 * independent verifier and an attacker see. Each test is a defect found by a black-box round
 * against `npm run dev`, fixed and pinned here.
 */

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { certificates, credentialStatuses, users } from '../src/db/schema';
import {
  ALL_CONSENTS,
  consent,
  db,
  passEveryMilestone,
  publishedBrief,
  signup,
  verifiedEmployer,
  verifyOrganisation,
} from './harness';
import { as, call, expectProblem } from './helpers';

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
