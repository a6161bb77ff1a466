/**
 * Trusted issuers: organisations, their verification (DNS proof through a DNS-over-HTTPS double,
 * or an admin's review), the issuance rules, all-or-nothing ratings, names that change and
 * caches that cannot go stale.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { getDb } from '../src/db/client';
import { briefs, certificates, employerRatings } from '../src/db/schema';
import { generateCertificateNumber } from '../src/domain/certificates/certificate-number';
import { importSigningKey, signCredential } from '../src/domain/certificates/credential';
import { runScheduled } from '../src/scheduled';
import { verificationKey } from '../src/services/cache-keys';
import { loadVerification, revokeCertificate } from '../src/services/certificates';
import { PURGE_PAGE, VERIFICATION_PURGE_JOB } from '../src/services/dsr/public-views';
import { runJob } from '../src/services/jobs/jobs';
import { openConfirmationLink } from './confirm';
import { runErasureJob } from './erasure-run';
import {
  type BriefView,
  consent,
  DEMO_BRIEF,
  employerAt,
  loginAdmin,
  organisationOf,
  passEveryMilestone,
  publishedBrief,
  rate,
  reviewOrganisation,
  seedBrief,
  signup,
  signupInvited,
  submitAndWait,
  verifyOrganisation,
} from './harness';
import { as, BASE, call, expectProblem, freshIp, jsonInit, sessionCookieFrom } from './helpers';
import { pdfText } from './pdf-text';
import { assertDocumentedResponse } from './response-validation';

type Verification = {
  status: string;
  valid: boolean;
  employer: { name: string };
  organisation: { id: string; name: string; verification: string } | null;
  credential: { jwt: string } | null;
};

const verify = async (no: string) => {
  const res = await call(`/api/verify/${no}`);
  expect(res.status).toBe(200);
  return res.json<Verification>();
};

async function candidate(name = 'Asha Candidate') {
  const person = await signup('candidate', name);
  for (const purpose of ['ai_evaluation', 'leaderboard', 'public_verification'])
    await consent(person, purpose);
  return person;
}

const publishTxt = (name: string, values: string[]) =>
  fetch('http://doh.test/records', { method: 'PUT', body: JSON.stringify({ name, values }) });

describe('organisations', () => {
  it('an employer signs up into an organisation of their own, shown on GET /api/me; a second recruiter joins by invitation', async () => {
    const owner = await employerAt('acme.example', 'Acme Hiring Pvt Ltd');
    const me = await (await call('/api/me', { headers: as(owner) })).json<{
      organisation: { id: string; name: string; verification: string };
    }>();
    expect(me.organisation).toMatchObject({ name: 'Acme Hiring Pvt Ltd', verification: 'unverified' });

    const invited = `second-${crypto.randomUUID().slice(0, 6)}@acme.example`;
    const inv = await call(
      '/api/me/organisation/invitations',
      jsonInit('POST', { email: invited }, as(owner)),
    );
    expect(inv.status).toBe(201);
    const { code } = await inv.json<{ code: string }>();

    // The token is for that address only.
    const wrong = await signupInvited(
      `other-${crypto.randomUUID().slice(0, 6)}@acme.example`,
      code,
      'Intruder',
    );
    await expectProblem(wrong, 422, 'validation-failed');

    const joined = await signupInvited(invited, code, 'Second');
    expect(joined.status).toBe(201);
    // The signup answers before the address is confirmed: no organisation yet. The harness then
    // opened the link mailed to the invited address, which accepted the invitation.
    const second = await joined.json<{ user: { organisation: null } }>();
    expect(second.user.organisation).toBeNull();
    const secondMe = await call('/api/me', { headers: { cookie: `session=${sessionCookieFrom(joined)}` } });
    expect((await secondMe.json<{ organisation: { id: string } }>()).organisation.id).toBe(
      me.organisation.id,
    );

    // A used invitation does not work twice.
    const again = await signupInvited(`third-${crypto.randomUUID().slice(0, 6)}@acme.example`, code, 'Third');
    await expectProblem(again, 422, 'validation-failed');
  });

  it('a candidate cannot bring an organisation', async () => {
    const res = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email: `cand-${crypto.randomUUID().slice(0, 6)}@example.test`,
          password: 'a-long-enough-password',
          name: 'Cand',
          role: 'candidate',
          dateOfBirth: '1990-01-01',
          organisation: { name: 'Google LLC' },
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors?.[0]?.pointer).toBe('#/organisation');
  });
});

describe('issuance rules', () => {
  it('a self-declared organisation issues nothing publicly valid until verified, then valid with no further action', async () => {
    const employer = await employerAt('google-lookalike.example', 'Google LLC');
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    expect(certificate).toMatchObject({ status: 'pending_issuer' });
    const waiting = await verify(certificate!.certificateNo);
    expect(waiting).toMatchObject({ status: 'pending_issuer', valid: false, credential: null });
    // The public page says so too.
    const page = await call(`/verify/${certificate!.certificateNo}`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('Not yet valid');
    // The holder sees it waiting.
    const mine = await (await call('/api/me/certificates', { headers: as(person) })).json<{
      items: { certificateNo: string; status: string }[];
    }>();
    expect(mine.items[0]).toMatchObject({
      certificateNo: certificate!.certificateNo,
      status: 'pending_issuer',
    });

    const reviewed = await reviewOrganisation(employer, 'verified', 'Registration checked');
    expect(reviewed.status).toBe(200);
    const issued = await verify(certificate!.certificateNo);
    expect(issued).toMatchObject({ status: 'active', valid: true, employer: { name: 'Google LLC' } });
    expect(issued.credential?.jwt).toMatch(/^ey/);
  });

  it('rating only the final milestone pass issues nothing', async () => {
    const employer = await signup('employer', 'Recruiter', 'Shortcut Org');
    await verifyOrganisation(employer);
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 14 });
    expect(brief.playbook.milestones.length).toBeGreaterThan(1);
    const final = await submitAndWait(person, brief.playbook.milestones.at(-1)!.id);
    const res = await rate(employer, final.evaluationId);
    expect(res.status).toBe(201);
    expect((await res.json<{ certificate: unknown }>()).certificate).toBeNull();
    const rows = await getDb(env.DB).select().from(certificates);
    expect(rows.filter((r) => r.holderId === person.id)).toHaveLength(0);
  });

  it('a missing signing key refuses with 503 before anything is written, and the retry succeeds', async () => {
    const employer = await signup('employer', 'Recruiter', 'Keyless Org');
    await verifyOrganisation(employer);
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const steps = brief.playbook.milestones;
    const submitted = [];
    for (const m of steps) submitted.push(await submitAndWait(person, m.id));
    for (const s of submitted.slice(0, -1)) expect((await rate(employer, s.evaluationId)).status).toBe(201);
    const last = submitted.at(-1)!;

    const ctx = createExecutionContext();
    const url = `${BASE}/api/evaluations/${last.evaluationId}/employer-rating`;
    const res = await app.fetch(
      new Request(url, jsonInit('POST', { score: 5, verdict: 'pass' }, as(employer))),
      { ...env, CERT_SIGNING_KEY: '' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    await assertDocumentedResponse('POST', url, res.clone());
    const problem = await expectProblem(res, 503, 'not-configured');
    expect(problem.detail).toContain('CERT_SIGNING_KEY');
    // No rating, no certificate: nothing blocks the retry.
    const ratings = await getDb(env.DB).select().from(employerRatings);
    expect(ratings.filter((r) => r.evaluationId === last.evaluationId)).toHaveLength(0);

    const retry = await rate(employer, last.evaluationId, 'pass', 5);
    expect(retry.status).toBe(201);
    const { certificate } = await retry.json<{ certificate: { certificateNo: string; status: string } }>();
    expect(certificate.status).toBe('active');
    expect((await verify(certificate.certificateNo)).valid).toBe(true);
  });
});

describe('verification of an organisation', () => {
  it('by DNS: a TXT record at _vp-verification.<domain>, checked over DNS-over-HTTPS, issues what waited', async () => {
    const employer = await employerAt('dns-proof.example', 'DNS Proof Pvt Ltd');
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    expect(certificate?.status).toBe('pending_issuer');

    const started = await call(
      '/api/me/organisation/domain-verification',
      jsonInit('POST', { domain: 'dns-proof.example' }, as(employer)),
    );
    expect(started.status).toBe(201);
    const { challenge, organisation } = await started.json<{
      challenge: { recordName: string; recordValue: string };
      organisation: { verification: string };
    }>();
    expect(organisation.verification).toBe('pending');
    expect(challenge.recordName).toBe('_vp-verification.dns-proof.example');

    // Not published yet: not verified.
    const early = await call(
      '/api/me/organisation/domain-verification/check',
      jsonInit('POST', { domain: 'dns-proof.example' }, as(employer)),
    );
    expect(early.status).toBe(200);
    expect((await early.json<{ check: { matched: boolean } }>()).check.matched).toBe(false);

    await publishTxt(challenge.recordName, ['unrelated=1', challenge.recordValue]);
    const checked = await call(
      '/api/me/organisation/domain-verification/check',
      jsonInit('POST', { domain: 'dns-proof.example' }, as(employer)),
    );
    expect(checked.status).toBe(200);
    const body = await checked.json<{
      organisation: { verification: string };
      check: { matched: boolean };
      issuedCertificates: string[];
    }>();
    expect(body.check.matched).toBe(true);
    expect(body.organisation.verification).toBe('verified');
    expect(body.issuedCertificates).toEqual([certificate!.certificateNo]);
    expect(await verify(certificate!.certificateNo)).toMatchObject({
      status: 'active',
      valid: true,
      // What the proof established, for a verifier: control of this domain.
      organisation: { verification: 'verified', verifiedDomain: 'dns-proof.example' },
    });
    const page = await (
      await call(`/verify/${certificate!.certificateNo}`, { headers: { accept: 'text/html' } })
    ).text();
    expect(page).toContain('The platform verified that this organisation controls dns-proof.example.');

    // Audited.
    const audit = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE action = 'organisation.verified' AND target_id = ?",
    )
      .bind(await organisationOf(employer))
      .all();
    expect(audit.results).toHaveLength(1);
  });

  it('refuses a domain the person’s own email is not at (403)', async () => {
    const employer = await employerAt('mine.example');
    const res = await call(
      '/api/me/organisation/domain-verification',
      jsonInit('POST', { domain: 'google.com' }, as(employer)),
    );
    await expectProblem(res, 403, 'forbidden');
  });

  it('answers 503 when the resolver is down, and changes nothing', async () => {
    const employer = await employerAt('down.example');
    await call(
      '/api/me/organisation/domain-verification',
      jsonInit('POST', { domain: 'down.example' }, as(employer)),
    );
    await fetch('http://doh.test/down', { method: 'PUT', body: JSON.stringify({ down: true }) });
    try {
      const res = await call(
        '/api/me/organisation/domain-verification/check',
        jsonInit('POST', { domain: 'down.example' }, as(employer)),
      );
      await expectProblem(res, 503, 'upstream-unavailable');
    } finally {
      await fetch('http://doh.test/down', { method: 'PUT', body: JSON.stringify({ down: false }) });
    }
    const me = await (await call('/api/me/organisation', { headers: as(employer) })).json<{
      verification: string;
    }>();
    expect(me.verification).toBe('pending');
  });

  it('by an admin: the pending queue, a review with a reason, 409 for the same state, suspension shown on verify', async () => {
    const employer = await signup('employer', 'Recruiter', 'Reviewed Org');
    const person = await candidate();
    const certified = await (async () => {
      await verifyOrganisation(employer);
      const brief: BriefView = await publishedBrief(employer, { durationDays: 1 });
      return passEveryMilestone(employer, person, brief);
    })();
    const no = certified.certificate!.certificateNo;
    expect(await verify(no)).toMatchObject({ valid: true, organisation: { verifiedDomain: null } });

    const again = await reviewOrganisation(employer, 'verified');
    await expectProblem(again, 409, 'conflict');

    const suspended = await reviewOrganisation(employer, 'suspended', 'Fraud under investigation');
    expect(suspended.status).toBe(200);
    expect(await verify(no)).toMatchObject({ status: 'suspended', valid: false });
    const page = await call(`/verify/${no}`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('Issuer suspended');

    const admin = await loginAdmin();
    const queue = await call('/api/admin/organisations?verification=suspended', { headers: as(admin) });
    expect(queue.status).toBe(200);
    const items = (await queue.json<{ items: { id: string }[] }>()).items;
    expect(items.map((i) => i.id)).toContain(await organisationOf(employer));
  });
});

describe('what counts publicly', () => {
  it('the leaderboard shows certificates of verified organisations only: a suspension takes them off', async () => {
    const employer = await signup('employer', 'Recruiter', 'Board Org');
    await verifyOrganisation(employer);
    const person = await candidate();
    const alias = `board-${crypto.randomUUID().slice(0, 6)}`;
    expect((await call('/api/me', jsonInit('PATCH', { publicAlias: alias }, as(person)))).status).toBe(200);
    const domain = `board-${crypto.randomUUID().slice(0, 6)}`;
    const brief = await publishedBrief(employer, { durationDays: 1, domain });
    await passEveryMilestone(employer, person, brief);
    const board = async () =>
      (
        await (
          await call(`/api/leaderboard?domain=${domain}`, { headers: { 'CF-Connecting-IP': freshIp() } })
        ).json<{
          entries: { alias: string }[];
        }>()
      ).entries.map((e) => e.alias);
    expect(await board()).toEqual([alias]);
    const admin = await loginAdmin();
    const suspended = await call(
      `/api/admin/organisations/${await organisationOf(employer)}`,
      jsonInit('PATCH', { verification: 'suspended', reason: 'Impersonation report' }, as(admin)),
    );
    expect(suspended.status).toBe(200);
    expect(await board()).toEqual([]);
  });
});

describe('an issuer the platform stops standing behind', () => {
  it('rejected after issuing: its certificates verify as not valid, the page does not say "verified", the holder sees it too', async () => {
    const { employer, person, no } = await issuedBy(
      'Recruiter',
      `Rejected Later ${crypto.randomUUID().slice(0, 6)}`,
    );
    expect(await verify(no)).toMatchObject({ status: 'active', valid: true });
    const rejected = await reviewOrganisation(employer, 'rejected', 'Fraudulent organisation');
    expect(rejected.status).toBe(200);
    expect(await verify(no)).toMatchObject({
      status: 'suspended',
      valid: false,
      organisation: { verification: 'rejected' },
    });
    const page = await (await call(`/verify/${no}`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('Issuer no longer recognised');
    expect(page).not.toContain('by a verified organisation');
    // The holder is told what a verifier is told, and not invited to post it on LinkedIn.
    const mine = await (await call('/api/me/certificates', { headers: as(person) })).json<{
      items: {
        certificateNo: string;
        status: string;
        publicStatus: string;
        valid: boolean;
        linkedInAddToProfileUrl: string | null;
      }[];
    }>();
    expect(mine.items.find((c) => c.certificateNo === no)).toMatchObject({
      status: 'active',
      publicStatus: 'suspended',
      valid: false,
      linkedInAddToProfileUrl: null,
    });
  });

  it('suspended: the holder’s list says so and offers no LinkedIn link until the suspension ends', async () => {
    const { employer, person, no } = await issuedBy(
      'Recruiter',
      `Suspended ${crypto.randomUUID().slice(0, 6)}`,
    );
    const holderView = async () =>
      (
        await (
          await call('/api/me/certificates', { headers: as(person) })
        ).json<{
          items: {
            certificateNo: string;
            publicStatus: string;
            valid: boolean;
            linkedInAddToProfileUrl: string | null;
          }[];
        }>()
      ).items.find((c) => c.certificateNo === no);
    expect(await holderView()).toMatchObject({ publicStatus: 'active', valid: true });
    expect((await holderView())?.linkedInAddToProfileUrl).toMatch(/^https:\/\/www\.linkedin\.com\//);
    expect((await reviewOrganisation(employer, 'suspended', 'Under investigation')).status).toBe(200);
    expect(await holderView()).toMatchObject({
      publicStatus: 'suspended',
      valid: false,
      linkedInAddToProfileUrl: null,
    });
    expect((await reviewOrganisation(employer, 'verified', 'Investigation closed')).status).toBe(200);
    expect(await holderView()).toMatchObject({ publicStatus: 'active', valid: true });
  });

  it('suspended: its briefs take no submissions and it publishes nothing until the suspension ends', async () => {
    const employer = await signup('employer', 'Recruiter', `Recruiting ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const draft = await call(
      '/api/briefs',
      jsonInit('POST', { ...DEMO_BRIEF, publish: false }, as(employer)),
    );
    expect(draft.status).toBe(201);
    const draftId = (await draft.json<{ id: string }>()).id;
    expect((await reviewOrganisation(employer, 'suspended', 'Under investigation')).status).toBe(200);

    const milestoneId = brief.playbook.milestones[0]!.id;
    const submit = () =>
      call('/api/submissions', jsonInit('POST', { milestoneId, text: 'My work' }, as(person)));
    const refused = await expectProblem(await submit(), 409, 'conflict');
    expect(refused.detail).toContain('suspended');
    await expectProblem(
      await call('/api/briefs', jsonInit('POST', { ...DEMO_BRIEF, publish: true }, as(employer))),
      409,
      'conflict',
    );
    await expectProblem(
      await call(`/api/briefs/${draftId}`, jsonInit('PATCH', { state: 'published' }, as(employer))),
      409,
      'conflict',
    );
    // Drafts may still be written; everything opens again with the suspension lifted.
    expect(
      (await call('/api/briefs', jsonInit('POST', { ...DEMO_BRIEF, publish: false }, as(employer)))).status,
    ).toBe(201);
    expect((await reviewOrganisation(employer, 'verified', 'Investigation closed')).status).toBe(200);
    expect((await submit()).status).toBe(201);
    expect(
      (await call(`/api/briefs/${draftId}`, jsonInit('PATCH', { state: 'published' }, as(employer)))).status,
    ).toBe(200);
  });

  it('a rejected organisation cannot lift the rejection by starting a DNS proof (409); the rejection stands', async () => {
    const employer = await employerAt('rejected-dns.example', 'Rejected DNS Ltd');
    expect((await reviewOrganisation(employer, 'rejected', 'Not a real company')).status).toBe(200);
    const res = await call(
      '/api/me/organisation/domain-verification',
      jsonInit('POST', { domain: 'rejected-dns.example' }, as(employer)),
    );
    await expectProblem(res, 409, 'conflict');
    const me = await (await call('/api/me/organisation', { headers: as(employer) })).json<{
      verification: string;
    }>();
    expect(me.verification).toBe('rejected');
  });

  it('starting a DNS proof shows at once on the verification of what the organisation already issued', async () => {
    const employer = await employerAt('pending-view.example', 'Pending View Ltd');
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    const no = certificate!.certificateNo;
    expect((await verify(no)).organisation?.verification).toBe('unverified'); // cached now
    const started = await call(
      '/api/me/organisation/domain-verification',
      jsonInit('POST', { domain: 'pending-view.example' }, as(employer)),
    );
    expect(started.status).toBe(201);
    expect((await verify(no)).organisation?.verification).toBe('pending');
  });

  it('organisation reviews and revocations are audited once each, with the address they came from', async () => {
    const { employer, no } = await issuedBy('Recruiter', `Audited ${crypto.randomUUID().slice(0, 6)}`);
    const admin = await loginAdmin();
    const orgId = await organisationOf(employer);
    const reviewed = await call(
      `/api/admin/organisations/${orgId}`,
      jsonInit(
        'PATCH',
        { verification: 'suspended', reason: 'Checking a report' },
        {
          ...as(admin),
          'CF-Connecting-IP': '203.0.113.77',
        },
      ),
    );
    expect(reviewed.status).toBe(200);
    const review = await env.DB.prepare(
      "SELECT ip FROM audit_log WHERE action = 'organisation.suspended' AND target_id = ?",
    )
      .bind(orgId)
      .all<{ ip: string | null }>();
    expect(review.results).toEqual([{ ip: '203.0.113.77' }]);

    const revoked = await call(
      `/api/certificates/${no}/revoke`,
      jsonInit(
        'POST',
        { reason: 'Plagiarised final submission' },
        { ...as(admin), 'CF-Connecting-IP': '203.0.113.78' },
      ),
    );
    expect(revoked.status).toBe(200);
    const entries = await env.DB.prepare(
      "SELECT a.ip, a.details FROM audit_log a JOIN certificates c ON c.id = a.target_id WHERE a.action = 'certificate.revoked' AND c.certificate_no = ?",
    )
      .bind(no)
      .all<{ ip: string | null; details: string | null }>();
    expect(entries.results).toHaveLength(1);
    expect(entries.results[0]?.ip).toBe('203.0.113.78');
    expect(JSON.parse(entries.results[0]?.details ?? '{}')).toEqual({
      reason: 'Plagiarised final submission',
    });
  });
});

describe('names a verifier relies on', () => {
  it('a verified organisation that renames itself waits for review; what it issued keeps verifying under the signed name', async () => {
    const before = `Before Rename ${crypto.randomUUID().slice(0, 6)}`;
    const { employer, no } = await issuedBy('Recruiter', before);
    const renamed = await call(
      '/api/me/organisation',
      jsonInit('PATCH', { name: 'After Rename Co' }, as(employer)),
    );
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({
      name: before,
      pendingName: 'After Rename Co',
      verification: 'verified',
    });
    expect(await verify(no)).toMatchObject({
      status: 'active',
      valid: true,
      organisation: { name: before, verification: 'verified' },
    });
    // Its website alone is not a new claim.
    const employer2 = (await issuedBy('Recruiter', `Website Only ${crypto.randomUUID().slice(0, 6)}`))
      .employer;
    const site = await call(
      '/api/me/organisation',
      jsonInit('PATCH', { websiteUrl: 'https://website-only.example' }, as(employer2)),
    );
    expect(await site.json()).toMatchObject({ verification: 'verified' });
  });

  it('no verified organisation may take another verified organisation’s name, however it is spelled', async () => {
    const original = `Unique Hiring ${crypto.randomUUID().slice(0, 6)}`;
    const first = await signup('employer', 'Recruiter', original);
    // Signed up while the name was free (no organisation may take it once it is verified).
    const copy = await signup('employer', 'Recruiter', original);
    await verifyOrganisation(first);
    // A rename of a verified organisation to it: 409, nothing changed.
    const { employer: other } = await issuedBy('Recruiter', `Impostor ${crypto.randomUUID().slice(0, 6)}`);
    const spelled = `  ${original.toUpperCase().replace(' ', '-')}. `;
    const taken = await call('/api/me/organisation', jsonInit('PATCH', { name: spelled }, as(other)));
    await expectProblem(taken, 409, 'conflict');
    expect(await (await call('/api/me/organisation', { headers: as(other) })).json()).toMatchObject({
      verification: 'verified',
    });
    // An unverified organisation that already carried it cannot be verified under it.
    await expectProblem(await reviewOrganisation(copy, 'verified'), 409, 'conflict');
  });
});

describe('a waiting certificate of a rejected organisation', () => {
  it('the page and the PDF say it is not valid, not that it will become valid', async () => {
    const employer = await signup('employer', 'Recruiter', `Rejected Org ${crypto.randomUUID().slice(0, 6)}`);
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    const no = certificate!.certificateNo;
    const pageText = async () => (await call(`/verify/${no}`, { headers: { accept: 'text/html' } })).text();
    expect(await pageText()).toContain('Not yet valid');
    expect((await reviewOrganisation(employer, 'rejected')).status).toBe(200);
    const page = await pageText();
    expect(page).toContain('did not recognise the organisation');
    expect(page).not.toContain('Not yet valid');
    const pdf = await call(`/api/me/certificates/${no}/pdf`, { headers: as(person) });
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('NOT VALID: the platform did not recognise the issuing organisation');
    expect(text).not.toContain('NOT YET VALID');
  });
});

describe('look-alike names (UTS #39)', () => {
  it('refuses a name whose words mix Latin with Cyrillic or Greek letters, at signup and on rename', async () => {
    const signupBody = (name: string, organisation: string) => ({
      email: `spoof-${crypto.randomUUID().slice(0, 8)}@example.test`,
      password: 'a-long-enough-password',
      name,
      role: 'employer',
      dateOfBirth: '1990-01-01',
      organisation: { name: organisation },
    });
    const org = await call(
      '/api/auth/signup',
      jsonInit('POST', signupBody('Recruiter', 'Асme Hiring'), { 'CF-Connecting-IP': freshIp() }),
    );
    const problem = await expectProblem(org, 422, 'validation-failed');
    expect(JSON.stringify(problem)).toContain('mixes Cyrillic and Latin letters');
    const person = await call(
      '/api/auth/signup',
      jsonInit('POST', signupBody('Rаvi Kumar', 'Ravi Hiring'), { 'CF-Connecting-IP': freshIp() }),
    );
    await expectProblem(person, 422, 'validation-failed');
    // A rename is held to the same rule, and names in one script per word are fine.
    const employer = await signup('employer', 'Recruiter', `Plain ${crypto.randomUUID().slice(0, 6)}`);
    const renamed = await call(
      '/api/me/organisation',
      jsonInit('PATCH', { name: 'Gοogle Careers' }, as(employer)),
    );
    await expectProblem(renamed, 422, 'validation-failed');
    // An issuer's name is in one script altogether (issue 41): Latin beside Devanagari is a 422 too.
    await expectProblem(
      await call('/api/me/organisation', jsonInit('PATCH', { name: 'रोज़गार Hub' }, as(employer))),
      422,
      'validation-failed',
    );
    const fine = await call(
      '/api/me/organisation',
      jsonInit('PATCH', { name: `रोज़गार हब ${crypto.getRandomValues(new Uint32Array(1))[0]}` }, as(employer)),
    );
    expect(fine.status).toBe(200);
  });

  it('a name written wholly in look-alike letters cannot be verified beside the name it imitates', async () => {
    // Digits only: a Latin suffix would mix scripts in the Cyrillic name (refused at signup).
    const suffix = String(crypto.getRandomValues(new Uint32Array(1))[0]).replace(/[01]/g, '7');
    const original = `Acme Corp ${suffix}`;
    const first = await signup('employer', 'Recruiter', original);
    // Cyrillic А с м е, С о г р: one script per word, so signup accepts it (while Acme Corp is not
    // verified yet), but a verifier reading "Асме Согр" could not tell it from the verified Acme Corp.
    const spoof = await signup('employer', 'Recruiter', `Асме Согр ${suffix}`);
    const digits = await signup('employer', 'Recruiter', `Acrne C0rp ${suffix}`);
    await verifyOrganisation(first);
    await expectProblem(await reviewOrganisation(spoof, 'verified'), 409, 'conflict');
    await expectProblem(await reviewOrganisation(digits, 'verified'), 409, 'conflict');
  });
});

describe('names that change', () => {
  it('an organisation renamed: the credential keeps the signed name, the page says "now known as"', async () => {
    const { employer, no } = await issuedBy('Recruiter', 'Old Name Co');
    const renamed = await call(
      '/api/me/organisation',
      jsonInit('PATCH', { name: 'New Name Co' }, as(employer)),
    );
    expect(renamed.status).toBe(200);
    // A verified organisation's new name is the admin's to approve.
    const approved = await call(
      `/api/admin/organisations/${await organisationOf(employer)}/rename`,
      jsonInit(
        'POST',
        { decision: 'approve', reason: 'Checked', name: 'New Name Co' },
        as(await loginAdmin()),
      ),
    );
    expect(approved.status).toBe(200);
    const after = await verify(no);
    expect(after.employer.name).toBe('Old Name Co');
    expect(after.organisation?.name).toBe('New Name Co');
    const html = await (await call(`/verify/${no}`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('now known as New Name Co');
  });

  it('the rating person’s name never appears in a credential or a verify response', async () => {
    const employer = await signup('employer', 'Recruiter', 'Named Org');
    await verifyOrganisation(employer);
    const person = await candidate();
    const brief = await publishedBrief(employer, { ...DEMO_BRIEF, durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    const body = await verify(certificate!.certificateNo);
    const payload = JSON.parse(
      atob(body.credential!.jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
    );
    // The harness employer's person name equals the organisation name; the organisation signs.
    expect(JSON.stringify(payload)).toContain('Named Org');
    expect(JSON.stringify(payload)).not.toContain('Recruiter');
    expect(JSON.stringify(body)).not.toContain('Recruiter');
    expect(body.employer.name).toBe('Named Org');
  });
});

/** A certificate issued by a verified organisation, rated by `personName`. */
async function issuedBy(personName: string, organisation: string) {
  const employer = await signup('employer', personName, organisation);
  await verifyOrganisation(employer);
  const person = await candidate();
  const brief = await publishedBrief(employer, { durationDays: 1 });
  const { certificate } = await passEveryMilestone(employer, person, brief);
  return { employer, person, brief, no: certificate!.certificateNo };
}

/**
 * A certificate as issued before organisations existed: its credential signed with the rating
 * person's own name (what migration 0007 marks `signed_by_person`).
 */
async function legacyCertificate(personName: string, organisation: string) {
  const { employer, brief, no } = await issuedBy(personName, organisation);
  const db = getDb(env.DB);
  const [row] = await db.select().from(certificates).where(eq(certificates.certificateNo, no));
  const [briefRow] = await db.select().from(briefs).where(eq(briefs.id, brief.id));
  const jwt = await signCredential(
    {
      certificateId: row!.id,
      certificateNo: no,
      baseUrl: env.PUBLIC_BASE_URL,
      // The person's own name where the organisation's now stands.
      issuer: { organisationId: row!.organisationId, name: personName },
      subjectId: crypto.randomUUID(),
      brief: { id: brief.id, title: briefRow!.title, domain: row!.domain },
      issuedAt: row!.issuedAt,
    },
    await importSigningKey(env.CERT_SIGNING_KEY, env.PUBLIC_BASE_URL),
  );
  await db
    .update(certificates)
    .set({ credentialJwt: jwt, signedOrganisationName: personName, signedByPerson: true })
    .where(eq(certificates.id, row!.id));
  await env.CACHE.delete(verificationKey(no));
  const before = await verify(no);
  expect(before).toMatchObject({ valid: true, employer: { name: personName } });
  return { employer, no };
}

/** Everything the public is served about a certificate: the API answer, its JWT's claims, the page. */
async function everythingServed(no: string) {
  const body = await verify(no);
  const claims = atob(body.credential!.jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'));
  const page = await (await call(`/verify/${no}`, { headers: { accept: 'text/html' } })).text();
  return { body, text: `${JSON.stringify(body)}\n${claims}\n${page}` };
}

describe('names that change: the rating person', () => {
  it('a corrected name: the certificate still verifies and neither name is served', async () => {
    const { employer, no } = await legacyCertificate('Priya Raman', 'Raman Analytics');
    const corrected = await call(
      '/api/dsr/correction',
      jsonInit('PATCH', { name: 'Priya R. Iyer' }, as(employer)),
    );
    expect(corrected.status).toBe(200);
    const { body, text } = await everythingServed(no);
    expect(body).toMatchObject({ valid: true, status: 'active', employer: { name: 'Raman Analytics' } });
    expect(text).not.toContain('Priya');
    expect(text).toContain('Raman Analytics');
  });

  it('an erased employer: the certificate still verifies under the organisation, no name of theirs anywhere', async () => {
    const { employer, no } = await legacyCertificate('Karthik Subramanian', 'Subramanian Labs');
    const res = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(employer) });
    expect(res.status).toBe(202);
    const { requestId } = await res.json<{ requestId: string }>();
    const receipt = await runErasureJob(requestId);
    expect(receipt).toMatchObject({ state: 'completed' });
    expect(receipt.deletedCounts).toMatchObject({ credentials_resigned: 1, certificates_reassigned: 1 });
    const { body, text } = await everythingServed(no);
    expect(body).toMatchObject({ valid: true, status: 'active', employer: { name: 'Subramanian Labs' } });
    expect(text).not.toContain('Karthik');
    expect(text).not.toContain(employer.email);
  });

  it('an erased employer whose credentials named the organisation already: nothing to re-sign, still valid', async () => {
    const { employer, no } = await issuedBy('Meera Venkatesh', 'Venkatesh Design');
    const jwtBefore = (await verify(no)).credential!.jwt;
    const res = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(employer) });
    const { requestId } = await res.json<{ requestId: string }>();
    const receipt = await runErasureJob(requestId);
    expect(receipt.deletedCounts).toMatchObject({ credentials_resigned: 0 });
    const { body, text } = await everythingServed(no);
    expect(body).toMatchObject({ valid: true, employer: { name: 'Venkatesh Design' } });
    expect(body.credential!.jwt).toBe(jwtBefore);
    expect(text).not.toContain('Meera');
  });
});

describe('caches that cannot go stale', () => {
  it('an organisation with more certificates than one invocation may purge: the first page at once, the rest by jobs, page by page', async () => {
    const employer = await signup('employer', 'Recruiter', 'Big Issuer Ltd');
    await verifyOrganisation(employer);
    const organisationId = await organisationOf(employer);
    const holder = await candidate();
    const brief = await seedBrief(employer.id);
    const count = PURGE_PAGE * 2 + 10;
    const numbers = Array.from({ length: count }, () => generateCertificateNumber()).sort();
    const insert = env.DB.prepare(
      `INSERT INTO certificates (id, certificate_no, holder_id, brief_id, employer_id, organisation_id, domain, status, issued_at)
       VALUES (?, ?, ?, ?, ?, ?, 'web', 'active', ?)`,
    );
    await env.DB.batch(
      numbers.map((no) =>
        insert.bind(
          crypto.randomUUID(),
          no,
          holder.id,
          brief.briefId,
          employer.id,
          organisationId,
          Date.now(),
        ),
      ),
    );
    await Promise.all(numbers.map((no) => env.CACHE.put(verificationKey(no), '{"status":"active"}')));
    const ours = new Set(numbers.map(verificationKey));
    const cached = async () => {
      let n = 0;
      let cursor: string | undefined;
      do {
        const page = await env.CACHE.list({ prefix: verificationKey(''), cursor });
        n += page.keys.filter((k) => ours.has(k.name)).length;
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return n;
    };

    const admin = await loginAdmin();
    const suspended = await call(
      `/api/admin/organisations/${organisationId}`,
      jsonInit('PATCH', { verification: 'suspended', reason: 'Complaint under review' }, as(admin)),
    );
    expect(suspended.status).toBe(200);
    // The request purged one page itself and left the rest to a job: no invocation exceeds a page.
    expect(await cached()).toBe(count - PURGE_PAGE);
    const ran: string[] = [];
    for (let round = 0; round < 5; round++) {
      const pending = await env.DB.prepare(
        `SELECT id FROM jobs WHERE kind = ? AND state != 'done' AND json_extract(payload, '$.organisationId') = ?`,
      )
        .bind(VERIFICATION_PURGE_JOB, organisationId)
        .all<{ id: string }>();
      if (pending.results.length === 0) break;
      for (const { id } of pending.results) {
        await runJob(getDb(env.DB), env, id);
        ran.push(id);
      }
    }
    expect(await cached()).toBe(0);
    const jobs = await env.DB.prepare(
      `SELECT count(*) AS n FROM jobs WHERE kind = ? AND json_extract(payload, '$.organisationId') = ?`,
    )
      .bind(VERIFICATION_PURGE_JOB, organisationId)
      .first<{ n: number }>();
    expect(jobs?.n).toBe(2);
  }, 60_000);

  it('a verification load that read before a revocation cannot leave "active" in KV', async () => {
    const { no } = await issuedBy('Recruiter', 'Race Org');
    await env.CACHE.delete(verificationKey(no));
    const db = getDb(env.DB);
    const loaded = await loadVerification(db, env, no, () => db, {
      // The revocation lands between the load's read and its cache write, invalidation included.
      afterRead: async () => {
        const admin = await loginAdmin();
        await revokeCertificate(db, no, { id: admin.id, role: 'admin' }, 'Revoked mid-load');
        await env.CACHE.delete(verificationKey(no));
      },
    });
    expect(JSON.parse(loaded!.json).status).toBe('revoked');
    const cached = await env.CACHE.get(verificationKey(no));
    expect(cached === null || JSON.parse(cached).status === 'revoked').toBe(true);
  });
});

describe('configuration', () => {
  it('GET /api/health names a missing secret (the name, never a value)', async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}/api/health`), { ...env, CERT_SIGNING_KEY: '' }, ctx);
    await waitOnExecutionContext(ctx);
    const body = await res.json<{ status: string; checks: { configuration: { missing: string[] } } }>();
    expect(body.status).toBe('degraded');
    expect(body.checks.configuration.missing).toEqual(['CERT_SIGNING_KEY']);
    expect(JSON.stringify(body)).not.toContain(env.ADMIN_PASSWORD);
  });

  it('signup with ADMIN_EMAIL unset does not fail', async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(
        `${BASE}/api/auth/signup`,
        jsonInit(
          'POST',
          {
            email: `noadmin-${crypto.randomUUID().slice(0, 6)}@example.test`,
            password: 'a-long-enough-password',
            name: 'No Admin',
            role: 'candidate',
            dateOfBirth: '1990-01-01',
          },
          { 'CF-Connecting-IP': freshIp() },
        ),
      ),
      { ...env, ADMIN_EMAIL: undefined as unknown as string },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(201);
  });

  it('the cron issues certificates a verified organisation still has waiting', async () => {
    const employer = await signup('employer', 'Recruiter', 'Cron Org');
    const person = await candidate();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    // Verified behind the service's back (as if the verification's job were lost).
    await env.DB.prepare("UPDATE organisations SET verification = 'verified' WHERE id = ?")
      .bind(await organisationOf(employer))
      .run();
    expect((await verify(certificate!.certificateNo)).status).toBe('pending_issuer');
    await runScheduled(env, new Date());
    await env.CACHE.delete(verificationKey(certificate!.certificateNo));
    expect(await verify(certificate!.certificateNo)).toMatchObject({ status: 'active', valid: true });
  });

  it('the cron never brings back a revoked certificate, active or waiting, under a new number', async () => {
    const listOf = async (person: Awaited<ReturnType<typeof candidate>>) =>
      (
        await (
          await call('/api/me/certificates', { headers: as(person) })
        ).json<{
          items: { certificateNo: string; status: string }[];
        }>()
      ).items;
    // An active certificate of a verified organisation, revoked by its issuer.
    const { employer, person, no } = await issuedBy(
      'Recruiter',
      `Revoking Org ${crypto.randomUUID().slice(0, 6)}`,
    );
    const revoked = await call(
      `/api/certificates/${no}/revoke`,
      jsonInit('POST', { reason: 'Fraud found after issue' }, as(employer)),
    );
    expect(revoked.status).toBe(200);
    // A waiting certificate of an unverified organisation, revoked by an admin.
    const waitingEmployer = await signup(
      'employer',
      'Recruiter',
      `Waiting Org ${crypto.randomUUID().slice(0, 6)}`,
    );
    const waitingPerson = await candidate();
    const waitingBrief = await publishedBrief(waitingEmployer, { durationDays: 1 });
    const { certificate: waiting } = await passEveryMilestone(waitingEmployer, waitingPerson, waitingBrief);
    expect(waiting?.status).toBe('pending_issuer');
    const admin = await loginAdmin();
    const adminRevoked = await call(
      `/api/certificates/${waiting!.certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Not genuine' }, as(admin)),
    );
    expect(adminRevoked.status).toBe(200);

    for (let run = 0; run < 2; run++) await runScheduled(env, new Date());
    expect(await listOf(person)).toEqual([expect.objectContaining({ certificateNo: no, status: 'revoked' })]);
    expect(await listOf(waitingPerson)).toEqual([
      expect.objectContaining({ certificateNo: waiting!.certificateNo, status: 'revoked' }),
    ]);
    // Verifying the organisation later issues nothing either.
    await verifyOrganisation(waitingEmployer);
    await runScheduled(env, new Date());
    expect(await listOf(waitingPerson)).toHaveLength(1);
  });
});

describe('a suspended organisation takes no new members and keeps its website (issue 51)', () => {
  it('inviting, changing the website and using an invitation made before are refused; reading and the same website are fine', async () => {
    const employer = await employerAt(`susp-${crypto.randomUUID().slice(0, 6)}.example`);
    await verifyOrganisation(employer);
    const invite = (email: string) =>
      call('/api/me/organisation/invitations', jsonInit('POST', { email }, as(employer)));
    const before = await invite(`early-${crypto.randomUUID().slice(0, 6)}@mail.example`);
    expect(before.status).toBe(201);
    const early = await before.json<{ email: string; code: string }>();
    const website = (websiteUrl: string | null) =>
      call('/api/me/organisation', jsonInit('PATCH', { websiteUrl }, as(employer)));
    expect((await website('https://before.example/')).status).toBe(200);

    expect((await reviewOrganisation(employer, 'suspended', 'Under investigation')).status).toBe(200);

    const refused = await expectProblem(
      await invite(`late-${crypto.randomUUID().slice(0, 6)}@mail.example`),
      403,
      'organisation-suspended',
    );
    expect(refused.detail).toContain('invite');
    for (const url of ['https://after.example/', null])
      await expectProblem(await website(url), 403, 'organisation-suspended');
    // Sending the website it has changes nothing, so it is not refused.
    expect((await website('https://before.example/')).status).toBe(200);
    const org = await (await call('/api/me/organisation', { headers: as(employer) })).json<{
      websiteUrl: string | null;
    }>();
    expect(org.websiteUrl).toBe('https://before.example/');

    // The invitation made before the suspension cannot be used to join.
    const joined = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email: early.email,
          password: 'a-long-enough-password',
          name: 'Late Joiner',
          role: 'employer',
          dateOfBirth: '1990-01-01',
          invitationCode: early.code,
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    const problem = await expectProblem(joined, 422, 'validation-failed');
    expect(problem.detail).toContain('suspended');
  });

  it('an invited signup made before the suspension does not join when confirmed during it', async () => {
    const employer = await employerAt(`susp2-${crypto.randomUUID().slice(0, 6)}.example`);
    await verifyOrganisation(employer);
    const email = `invitee-${crypto.randomUUID().slice(0, 6)}@mail.example`;
    const invited = await call('/api/me/organisation/invitations', jsonInit('POST', { email }, as(employer)));
    expect(invited.status).toBe(201);
    const { code } = await invited.json<{ code: string }>();
    const res = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email,
          password: 'a-long-enough-password',
          name: 'Waiting Joiner',
          role: 'employer',
          dateOfBirth: '1990-01-01',
          invitationCode: code,
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    expect(res.status).toBe(201);
    const { user } = await res.json<{ user: { id: string } }>();
    expect((await reviewOrganisation(employer, 'suspended', 'Under investigation')).status).toBe(200);
    const confirmed = await openConfirmationLink(user.id);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ joinedOrganisationId: null });
  });
});
