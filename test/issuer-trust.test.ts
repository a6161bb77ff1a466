/**
 * Issue 41, issuers: look-alike names (UTS #39 skeleton), renames of verified organisations under
 * review, and websites published only on the verified domain.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  consent,
  employerAt,
  loginAdmin,
  organisationOf,
  passEveryMilestone,
  publishedBrief,
  reviewOrganisation,
  signup,
} from './harness';
import { type Account, as, call, expectProblem, freshIp, jsonInit } from './helpers';

const publishTxt = (name: string, values: string[]) =>
  fetch('http://doh.test/records', { method: 'PUT', body: JSON.stringify({ name, values }) });

/** An employer at a fresh domain whose organisation `name` is verified by a DNS proof. */
async function dnsVerified(name: string) {
  const domain = `${crypto.randomUUID().slice(0, 8)}.example`;
  const employer = await employerAt(domain, name);
  const started = await call(
    '/api/me/organisation/domain-verification',
    jsonInit('POST', { domain }, as(employer)),
  );
  expect(started.status).toBe(201);
  const { challenge } = await started.json<{ challenge: { recordName: string; recordValue: string } }>();
  await publishTxt(challenge.recordName, [challenge.recordValue]);
  const checked = await recheck(employer, domain);
  expect(checked).toMatchObject({ organisation: { verification: 'verified' } });
  return { employer, domain };
}

const recheck = async (employer: Account, domain: string) => {
  const res = await call(
    '/api/me/organisation/domain-verification/check',
    jsonInit('POST', { domain }, as(employer)),
  );
  return { status: res.status, ...(await res.json<Record<string, unknown>>()) };
};

/** `GET /api/verify/{no}`, with the issuer its credential was signed with (`signedIssuer`). */
const verification = async (certificateNo: string) => {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  const body = await res.json<{
    status: string;
    employer: { name: string };
    organisation: { name: string } | null;
    credential: { jwt: string };
  }>();
  const payload = JSON.parse(
    atob(body.credential.jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
  ) as { issuer: { name: string; url?: string } };
  return { ...body, signedIssuer: payload.issuer };
};

const rename = (employer: Account, body: Record<string, unknown>) =>
  call('/api/me/organisation', jsonInit('PATCH', body, as(employer)));

const myOrganisation = async (employer: Account) =>
  (await call('/api/me/organisation', { headers: as(employer) })).json<{
    name: string;
    pendingName: string | null;
    verification: string;
    websiteUrl: string | null;
    websitePublished: boolean;
  }>();

// The look-alikes a second review got accepted as renames of a DNS-verified organisation next to a
// verified "Demo Hiring Co" (issue 41), with the answer each now gets.
const LOOK_ALIKES: [string, number][] = [
  ['Demo Hiring Cⲟ', 422], // Coptic ⲟ: Latin mixed with another script
  ['Demo Hiring ꓚo', 422], // Lisu ꓚ: Latin mixed with another script
  ['Demo Hiring Cᴏ', 409], // small capital ᴏ: the same skeleton
  ['Démo Hiring Co', 409],
  ['Demo Hırıng Co', 409],
  ['Demo Hiring Có', 409],
  ['Demo Hiring Coǃ', 409], // U+01C3, a Latin letter drawn as "!"
];

describe('look-alike issuer names (UTS #39 confusable skeleton)', () => {
  it('refuses every look-alike of a verified organisation as a rename of another verified one, and as a signup', async () => {
    const suffix = [...crypto.getRandomValues(new Uint8Array(5))]
      .map((b) => 'abcdefghjkmnpqstuxyz'[b % 20])
      .join('');
    const real = `Demo Hiring Co ${suffix}`;
    await dnsVerified(real);
    const { employer: other, domain } = await dnsVerified(`Other Hiring ${suffix}`);
    for (const [spoof, status] of LOOK_ALIKES) {
      const name = `${spoof} ${suffix}`;
      const res = await rename(other, { name });
      await expectProblem(res, status, status === 409 ? 'conflict' : 'validation-failed');
      // Nothing changed, nothing waits for review, and a domain re-check changes nothing either.
      expect(await myOrganisation(other)).toMatchObject({
        name: `Other Hiring ${suffix}`,
        pendingName: null,
      });
      expect(await recheck(other, domain)).toMatchObject({
        organisation: { name: `Other Hiring ${suffix}` },
      });
      const signedUp = await call(
        '/api/auth/signup',
        jsonInit(
          'POST',
          {
            email: `spoof-${crypto.randomUUID().slice(0, 8)}@example.test`,
            password: 'a-long-enough-password',
            name: 'Recruiter',
            role: 'employer',
            dateOfBirth: '1990-01-01',
            organisation: { name },
          },
          { 'CF-Connecting-IP': freshIp() },
        ),
      );
      await expectProblem(signedUp, status, status === 409 ? 'conflict' : 'validation-failed');
    }
  }, 30_000);

  it('a name wholly in one script is fine; Latin mixed with any other script anywhere in it is a 422', async () => {
    const employer = await signup('employer', 'Recruiter');
    expect(
      (await rename(employer, { name: `टाटा कंसल्टेंसी ${crypto.getRandomValues(new Uint32Array(1))[0]}` }))
        .status,
    ).toBe(200);
    const mixed = await expectProblem(
      await rename(employer, { name: 'Tata टाटा' }),
      422,
      'validation-failed',
    );
    expect(mixed.errors?.[0]).toMatchObject({ pointer: '#/name' });
    expect(mixed.errors?.[0]?.detail).toMatch(/mixes Latin letters/);
  });
});

describe('a rename of a verified organisation goes to admin review', () => {
  it('keeps the verified name (and the credentials’ name) until an admin approves; a DNS re-check approves nothing', async () => {
    const suffix = crypto.randomUUID().slice(0, 6);
    const { employer, domain } = await dnsVerified(`Reviewed Co ${suffix}`);
    const res = await rename(employer, { name: `Renamed Co ${suffix}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: `Reviewed Co ${suffix}`,
      pendingName: `Renamed Co ${suffix}`,
      verification: 'verified',
    });
    // The DNS proof still matches: the check answers, and the name stays what was verified.
    expect(await recheck(employer, domain)).toMatchObject({
      status: 200,
      organisation: { name: `Reviewed Co ${suffix}`, pendingName: `Renamed Co ${suffix}` },
    });
    const id = await organisationOf(employer);
    const profile = await (await call(`/ob/issuers/${id}`)).json<{ name: string }>();
    expect(profile.name).toBe(`Reviewed Co ${suffix}`);
    // A certificate earned while the rename waits is signed with the verified name, not the new one.
    const person = await signup('candidate', 'Asha Candidate');
    for (const purpose of ['ai_evaluation', 'public_verification']) await consent(person, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    const during = await verification(certificate!.certificateNo);
    expect(during).toMatchObject({
      status: 'active',
      employer: { name: `Reviewed Co ${suffix}` },
      organisation: { name: `Reviewed Co ${suffix}` },
    });
    expect(during.signedIssuer).toMatchObject({ name: `Reviewed Co ${suffix}` });
    expect(JSON.stringify(during)).not.toContain(`Renamed Co ${suffix}`);

    const admin = await loginAdmin();
    const queue = await (
      await call('/api/admin/organisations?renamePending=true&limit=100', { headers: as(admin) })
    ).json<{ items: { id: string }[] }>();
    expect(queue.items.map((o) => o.id)).toContain(id);
    // The admin reviews the name they saw: another one is a 409.
    await expectProblem(
      await call(
        `/api/admin/organisations/${id}/rename`,
        jsonInit(
          'POST',
          { decision: 'approve', reason: 'Registry checked', name: 'Something Else' },
          as(admin),
        ),
      ),
      409,
      'conflict',
    );
    const approved = await call(
      `/api/admin/organisations/${id}/rename`,
      jsonInit(
        'POST',
        { decision: 'approve', reason: 'Registry checked', name: `Renamed Co ${suffix}` },
        as(admin),
      ),
    );
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      name: `Renamed Co ${suffix}`,
      pendingName: null,
      verification: 'verified',
    });
    // The certificate keeps the name it was signed with; the verifier is told the name now.
    const after = await verification(certificate!.certificateNo);
    expect(after).toMatchObject({
      status: 'active',
      employer: { name: `Reviewed Co ${suffix}` },
      organisation: { name: `Renamed Co ${suffix}` },
    });
    expect(after.signedIssuer).toMatchObject({ name: `Reviewed Co ${suffix}` });
    expect(((await (await call(`/ob/issuers/${id}`)).json()) as { name: string }).name).toBe(
      `Renamed Co ${suffix}`,
    );
    // Nothing waits any more.
    await expectProblem(
      await call(
        `/api/admin/organisations/${id}/rename`,
        jsonInit('POST', { decision: 'refuse', reason: 'Again', name: `Renamed Co ${suffix}` }, as(admin)),
      ),
      409,
      'conflict',
    );
  }, 30_000);

  it('a refused rename is dropped; giving the current name back withdraws one; an unverified organisation renames at once', async () => {
    const suffix = crypto.randomUUID().slice(0, 6);
    const { employer } = await dnsVerified(`Refused Co ${suffix}`);
    expect((await rename(employer, { name: `Wanted Co ${suffix}` })).status).toBe(200);
    const admin = await loginAdmin();
    const id = await organisationOf(employer);
    const refused = await call(
      `/api/admin/organisations/${id}/rename`,
      jsonInit('POST', { decision: 'refuse', reason: 'No evidence', name: `Wanted Co ${suffix}` }, as(admin)),
    );
    expect(await refused.json()).toMatchObject({ name: `Refused Co ${suffix}`, pendingName: null });
    expect((await rename(employer, { name: `Wanted Again ${suffix}` })).status).toBe(200);
    expect(await (await rename(employer, { name: `Refused Co ${suffix}` })).json()).toMatchObject({
      name: `Refused Co ${suffix}`,
      pendingName: null,
    });

    const unverified = await signup('employer', 'Recruiter');
    expect(await (await rename(unverified, { name: `Fresh Co ${suffix}` })).json()).toMatchObject({
      name: `Fresh Co ${suffix}`,
      pendingName: null,
    });
  });
});

describe('a rename made before renames were reviewed', () => {
  it('an organisation a rename took from verified back to pending is not verified again by its DNS record', async () => {
    const suffix = crypto.randomUUID().slice(0, 6);
    const { employer, domain } = await dnsVerified(`Legacy Co ${suffix}`);
    const id = await organisationOf(employer);
    // What the old rename path left behind: the new name, `pending`, and the proof still published.
    await env.DB.prepare("UPDATE organisations SET name = ?, verification = 'pending' WHERE id = ?")
      .bind(`Legacy Renamed ${suffix}`, id)
      .run();
    const checked = await call(
      '/api/me/organisation/domain-verification/check',
      jsonInit('POST', { domain }, as(employer)),
    );
    const problem = await expectProblem(checked, 409, 'conflict');
    expect(problem.detail).toMatch(/review, which a DNS check cannot replace/);
    expect(await myOrganisation(employer)).toMatchObject({
      name: `Legacy Renamed ${suffix}`,
      verification: 'pending',
    });
    // The platform's review decides.
    expect((await reviewOrganisation(employer, 'verified', 'Registry checked')).status).toBe(200);
    expect(await myOrganisation(employer)).toMatchObject({ verification: 'verified' });
  });
});

describe('websiteUrl is published only on the verified domain', () => {
  it('an unchecked website is kept private: never in the Profile nor a credential; one on the verified domain is', async () => {
    const suffix = crypto.randomUUID().slice(0, 6);
    const { employer, domain } = await dnsVerified(`Website Co ${suffix}`);
    const id = await organisationOf(employer);
    const profile = async () => (await call(`/ob/issuers/${id}`)).json<{ url?: string }>();

    expect((await rename(employer, { websiteUrl: 'https://www.google.com' })).status).toBe(200);
    expect(await myOrganisation(employer)).toMatchObject({
      websiteUrl: 'https://www.google.com',
      websitePublished: false,
    });
    expect(await profile()).not.toHaveProperty('url');
    const person = await signup('candidate', 'Asha Candidate');
    for (const purpose of ['ai_evaluation', 'public_verification']) await consent(person, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, person, brief);
    const verified = await (await call(`/api/verify/${certificate!.certificateNo}`)).json<{
      credential: { jwt: string };
    }>();
    const payload = JSON.parse(
      atob(verified.credential.jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
    );
    expect(JSON.stringify(payload)).not.toContain('google.com');
    expect(payload.issuer?.url ?? payload.vc?.issuer?.url).toBeUndefined();

    for (const url of [`https://${domain}/`, `https://careers.${domain}/jobs`]) {
      expect((await rename(employer, { websiteUrl: url })).status).toBe(200);
      expect(await myOrganisation(employer)).toMatchObject({ websitePublished: true });
      expect((await profile()).url).toBe(url);
    }
    // A look-alike host is not the domain.
    expect((await rename(employer, { websiteUrl: `https://${domain}.evil.example/` })).status).toBe(200);
    expect(await profile()).not.toHaveProperty('url');
    expect(env.PUBLIC_BASE_URL).toBeTruthy();
  }, 30_000);
});

describe('a suspended organisation', () => {
  it('cannot rename itself nor register or change webhooks (403 organisation-suspended) on either surface; it may disable, delete and rotate', async () => {
    const { employer } = await dnsVerified(`Suspended Co ${crypto.randomUUID().slice(0, 6)}`);
    const admin = await loginAdmin();
    const issued = await call(
      '/api/admin/api-keys',
      jsonInit(
        'POST',
        { name: 'hooks', scopes: ['webhooks:manage'], organisationId: await organisationOf(employer) },
        as(admin),
      ),
    );
    expect(issued.status).toBe(201);
    const key = { 'X-Service-Key': (await issued.json<{ key: string }>()).key };
    const hook = (url: string) => ({ url, eventTypes: ['certificate.issued'] });
    const created = await call(
      '/api/webhooks',
      jsonInit('POST', hook('https://hooks.test/before'), as(employer)),
    );
    expect(created.status).toBe(201);
    const endpoint = await created.json<{ id: string }>();
    const other = await call('/api/v1/webhooks', jsonInit('POST', hook('https://hooks.test/before-2'), key));
    expect(other.status).toBe(201);
    const otherId = (await other.json<{ id: string }>()).id;
    const before = await myOrganisation(employer);

    expect((await reviewOrganisation(employer, 'suspended', 'Impersonation report')).status).toBe(200);

    // Renaming: refused, nothing pending, the name unchanged.
    const renamed = await expectProblem(
      await rename(employer, { name: `${before.name} Renamed` }),
      403,
      'organisation-suspended',
    );
    expect(renamed.detail).toContain('suspended');
    expect(await myOrganisation(employer)).toMatchObject({ name: before.name, pendingName: null });

    // Registering, by the employer and by the organisation's partner key.
    await expectProblem(
      await call('/api/webhooks', jsonInit('POST', hook('https://hooks.test/during'), as(employer))),
      403,
      'organisation-suspended',
    );
    await expectProblem(
      await call('/api/v1/webhooks', jsonInit('POST', hook('https://hooks.test/during-2'), key)),
      403,
      'organisation-suspended',
    );
    // Changing where, what or whether it sends.
    for (const change of [
      { url: 'https://hooks.test/elsewhere' },
      { eventTypes: ['certificate.issued', 'certificate.revoked'] },
      { description: 'changed' },
      { enabled: false, url: 'https://hooks.test/elsewhere' },
    ]) {
      await expectProblem(
        await call(`/api/webhooks/${endpoint.id}`, jsonInit('PATCH', change, as(employer))),
        403,
        'organisation-suspended',
      );
      await expectProblem(
        await call(`/api/v1/webhooks/${endpoint.id}`, jsonInit('PATCH', change, key)),
        403,
        'organisation-suspended',
      );
    }
    const unchanged = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json();
    expect(unchanged).toMatchObject({ url: 'https://hooks.test/before', description: null, enabled: true });
    const listed = await (await call('/api/webhooks', { headers: as(employer) })).json<{
      items: { id: string }[];
    }>();
    expect(listed.items.map((e) => e.id).sort()).toEqual([endpoint.id, otherId].sort());

    // What sends nothing anywhere new stays open: disabling, rotating the secret, deleting.
    const disabled = await call(
      `/api/webhooks/${endpoint.id}`,
      jsonInit('PATCH', { enabled: false }, as(employer)),
    );
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ enabled: false, disabledReason: 'manual' });
    // Enabling it again is a change.
    await expectProblem(
      await call(`/api/v1/webhooks/${endpoint.id}`, jsonInit('PATCH', { enabled: true }, key)),
      403,
      'organisation-suspended',
    );
    expect(
      (await call(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, { method: 'POST', headers: key })).status,
    ).toBe(200);
    expect((await call(`/api/v1/webhooks/${otherId}`, { method: 'DELETE', headers: key })).status).toBe(204);

    // Verified again: both work once more.
    expect((await reviewOrganisation(employer, 'verified', 'Cleared')).status).toBe(200);
    expect(
      (await call('/api/webhooks', jsonInit('POST', hook('https://hooks.test/after'), as(employer)))).status,
    ).toBe(201);
    expect(
      (await call(`/api/webhooks/${endpoint.id}`, jsonInit('PATCH', { enabled: true }, as(employer)))).status,
    ).toBe(200);
    const back = await rename(employer, { name: `${before.name} Renamed` });
    expect(back.status).toBe(200);
    expect(await myOrganisation(employer)).toMatchObject({
      name: before.name,
      pendingName: `${before.name} Renamed`,
    });
  }, 60_000);
});
