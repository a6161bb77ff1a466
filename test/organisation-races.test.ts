/**
 * Organisation verification under concurrency and change (black-box findings): every rename is
 * held to the verified names, every read-then-write is conditional on what was read (a stale
 * request is a 409 with nothing written), one verification is audited and queues issuance once,
 * an admin approves the name they reviewed, and the domain shown is the one a DNS proof established.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { organisations } from '../src/db/schema';
import { organisationNameKey } from '../src/domain/organisations';
import { runScheduled } from '../src/scheduled';
import { checkDomainVerification, startDomainVerification } from '../src/services/organisations/domain-proof';
import { updateOrganisation } from '../src/services/organisations/membership';
import { backfillOrganisationNameKeys } from '../src/services/organisations/organisation';
import { reviewOrganisation } from '../src/services/organisations/review';
import {
  consent,
  employerAt,
  loginAdmin,
  organisationOf,
  passEveryMilestone,
  publishedBrief,
  signup,
  verifyOrganisation,
} from './harness';
import { type Account, as, call, expectProblem, freshIp, jsonInit } from './helpers';

const suffix = () => crypto.randomUUID().slice(0, 8);

const publishTxt = (name: string, values: string[]) =>
  fetch('http://doh.test/records', { method: 'PUT', body: JSON.stringify({ name, values }) });

const startDns = (employer: Account, domain: string) =>
  call('/api/me/organisation/domain-verification', jsonInit('POST', { domain }, as(employer)));

const checkDns = (employer: Account, domain: string) =>
  call('/api/me/organisation/domain-verification/check', jsonInit('POST', { domain }, as(employer)));

/** Starts a DNS proof of `domain` and publishes the record, so the next check matches. */
async function publishProof(employer: Account, domain: string) {
  const started = await startDns(employer, domain);
  expect(started.status).toBe(201);
  const { challenge } = await started.json<{ challenge: { recordName: string; recordValue: string } }>();
  await publishTxt(challenge.recordName, [challenge.recordValue]);
}

const rename = (employer: Account, name: string) =>
  call('/api/me/organisation', jsonInit('PATCH', { name }, as(employer)));

let adminSession: Promise<Account> | undefined;
async function review(organisationId: string, body: Record<string, unknown>) {
  adminSession ??= loginAdmin();
  return call(`/api/admin/organisations/${organisationId}`, jsonInit('PATCH', body, as(await adminSession)));
}

const row = async (id: string) =>
  (await getDb(env.DB).select().from(organisations).where(eq(organisations.id, id)))[0]!;

async function auditEntries(organisationId: string, action: string) {
  const { results } = await env.DB.prepare(
    'SELECT details FROM audit_log WHERE action = ? AND target_id = ? ORDER BY created_at',
  )
    .bind(action, organisationId)
    .all<{ details: string | null }>();
  return results.map((r) => (r.details ? JSON.parse(r.details) : null) as Record<string, unknown> | null);
}

async function issuanceJobs(organisationId: string): Promise<number> {
  const found = await env.DB.prepare(
    "SELECT count(*) AS n FROM jobs WHERE kind = 'certificate_issuance' AND json_extract(payload, '$.organisationId') = ?",
  )
    .bind(organisationId)
    .first<{ n: number }>();
  return found?.n ?? 0;
}

const issuerProfile = async (organisationId: string) => {
  const res = await call(`/ob/issuers/${organisationId}`);
  expect(res.status).toBe(200);
  return (await res.json<{ verification: Record<string, unknown> }>()).verification;
};

/** Statuses of concurrent requests, after checking none of them failed (no 500). */
function statuses(responses: Response[]): number[] {
  const all = responses.map((r) => r.status);
  for (const status of all) expect([200, 201, 409]).toContain(status);
  return all;
}

describe('every name an organisation takes is held to the verified names', () => {
  it('an unverified organisation cannot rename itself to a verified one’s name or a look-alike of it (409, nothing changed)', async () => {
    const tag = suffix().replace(/\d/g, 'x');
    const original = `Trusted Hiring ${tag}`;
    const verified = await signup('employer', 'Recruiter', original);
    await verifyOrganisation(verified);

    const ownName = `Small Startup ${tag}`;
    const impostor = await signup('employer', 'Recruiter', ownName);
    const impostorId = await organisationOf(impostor);
    for (const name of [
      original,
      original.toUpperCase(),
      `Trusted  Hiring-${tag}.`,
      `Trusted Hiring ${tag}`.replace('i', '1'),
    ]) {
      const problem = await expectProblem(await rename(impostor, name), 409, 'conflict');
      expect(problem.detail).toContain('Another verified organisation is named');
    }
    // A pending organisation too (a DNS proof started).
    const domain = `pending-${tag}.example`;
    const pending = await employerAt(domain, `Pending Co ${tag}`);
    expect((await startDns(pending, domain)).status).toBe(201);
    await expectProblem(await rename(pending, original), 409, 'conflict');
    expect((await row(await organisationOf(pending))).name).toBe(`Pending Co ${tag}`);

    expect(await row(impostorId)).toMatchObject({ name: ownName, verification: 'unverified' });
    expect(await auditEntries(impostorId, 'organisation.updated')).toEqual([]);
    // Its own name, or another free one, is still fine.
    expect((await rename(impostor, `Small Startup Two ${tag}`)).status).toBe(200);
  });

  it('nor can an organisation be created under a verified one’s name at signup', async () => {
    const original = `Signup Guard ${suffix()}`;
    await verifyOrganisation(await signup('employer', 'Recruiter', original));
    const res = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email: `copy-${suffix()}@example.test`,
          password: 'a-long-enough-password',
          name: 'Recruiter',
          role: 'employer',
          dateOfBirth: '1990-01-01',
          organisation: { name: ` ${original.toLowerCase()} ` },
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    const problem = await expectProblem(res, 409, 'conflict');
    expect(problem.detail).toContain('Another verified organisation is named');
  });
});

describe('concurrent requests act on what they read, or not at all', () => {
  it('three simultaneous matching DNS checks: one verifies, the others answer "already verified"; one audit entry, one issuance job', async () => {
    const domain = `race-${suffix()}.example`;
    const employer = await employerAt(domain, `Race Proof ${suffix()}`);
    const organisationId = await organisationOf(employer);
    const candidate = await signup('candidate', 'Asha Candidate');
    for (const purpose of ['ai_evaluation', 'public_verification']) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, candidate, brief);
    expect(certificate?.status).toBe('pending_issuer');
    await publishProof(employer, domain);

    const responses = await Promise.all([1, 2, 3].map(() => checkDns(employer, domain)));
    expect(statuses(responses)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(
      responses.map((r) =>
        r.json<{
          newlyVerified: boolean;
          organisation: { verification: string };
          issuedCertificates: string[];
        }>(),
      ),
    );
    expect(bodies.filter((b) => b.newlyVerified)).toHaveLength(1);
    for (const body of bodies) expect(body.organisation.verification).toBe('verified');
    expect(bodies.flatMap((b) => b.issuedCertificates)).toEqual([certificate!.certificateNo]);
    expect(await auditEntries(organisationId, 'organisation.verified')).toHaveLength(1);
    expect(await issuanceJobs(organisationId)).toBe(1);
  });

  it('two organisations with one name key verified at the same time: only one ends up verified (the database decides)', async () => {
    for (let round = 0; round < 3; round++) {
      const tag = suffix().replace(/\d/g, 'x');
      const first = await signup('employer', 'Recruiter', `Twin Name ${tag}`);
      const second = await signup('employer', 'Recruiter', `twin-name ${tag.toUpperCase()}`);
      const ids = [await organisationOf(first), await organisationOf(second)];
      const responses = await Promise.all(
        ids.map((id) => review(id, { verification: 'verified', reason: 'Race' })),
      );
      expect(statuses(responses).sort()).toEqual([200, 409]);
      const loser = responses.find((r) => r.status === 409)!;
      expect((await loser.json<{ detail: string }>()).detail).toContain(
        'Another verified organisation is named',
      );
      const states = await Promise.all(ids.map(async (id) => (await row(id)).verification));
      expect(states.filter((s) => s === 'verified')).toHaveLength(1);
      const audits = await Promise.all(ids.map((id) => auditEntries(id, 'organisation.verified')));
      expect(audits.flat()).toHaveLength(1);
      const jobs = await Promise.all(ids.map(issuanceJobs));
      expect(jobs.reduce((a, b) => a + b, 0)).toBe(1);
    }
  });

  it('the same race by DNS: two organisations with one name prove their domains at once, one is verified', async () => {
    const tag = suffix().replace(/\d/g, 'x');
    const domains = [`twin-a-${tag}.example`, `twin-b-${tag}.example`];
    const employers = [
      await employerAt(domains[0]!, `Twin Dns ${tag}`),
      await employerAt(domains[1]!, `TWIN DNS ${tag}`),
    ];
    for (const [i, employer] of employers.entries()) await publishProof(employer, domains[i]!);
    const responses = await Promise.all(employers.map((e, i) => checkDns(e, domains[i]!)));
    expect(statuses(responses).sort()).toEqual([200, 409]);
    const states = await Promise.all(
      employers.map(async (e) => (await row(await organisationOf(e))).verification),
    );
    expect(states.sort()).toEqual(['pending', 'verified']);
  });

  it('a rename of a verified organisation racing its suspension never lifts the suspension', async () => {
    for (let round = 0; round < 3; round++) {
      const employer = await signup('employer', 'Recruiter', `Suspend Race ${suffix()}`);
      await verifyOrganisation(employer);
      const id = await organisationOf(employer);
      const [renamed, suspended] = await Promise.all([
        rename(employer, `Suspend Race Renamed ${suffix()}`),
        review(id, { verification: 'suspended', reason: 'Report under review' }),
      ]);
      // A rename that read the suspension is refused (403 organisation-suspended).
      for (const status of [renamed.status, suspended.status]) expect([200, 403, 409]).toContain(status);
      // The suspension may itself be the one that read a stale state (409); if it went in, it stands.
      if (suspended.status === 200) expect((await row(id)).verification).toBe('suspended');
      else expect(renamed.status).toBe(200);
      // What the audit trail says happened is what happened: a rename request audited only if written
      // (a verified organisation's rename waits for review).
      const updates = await auditEntries(id, 'organisation.rename_requested');
      expect(updates).toHaveLength(renamed.status === 200 ? 1 : 0);
      if (renamed.status === 409)
        expect((await renamed.json<{ detail: string }>()).detail).toContain('changed meanwhile');
    }
  });

  it('a DNS proof started while an admin suspends the organisation never lifts the suspension', async () => {
    for (let round = 0; round < 3; round++) {
      const domain = `suspend-start-${suffix()}.example`;
      const employer = await employerAt(domain, `Suspend Start ${suffix()}`);
      const id = await organisationOf(employer);
      const [started, suspended] = await Promise.all([
        startDns(employer, domain),
        review(id, { verification: 'suspended', reason: 'Report under review' }),
      ]);
      statuses([started, suspended]);
      if (suspended.status === 200) expect((await row(id)).verification).toBe('suspended');
      else expect(await row(id)).toMatchObject({ verification: 'pending' });
      expect(await auditEntries(id, 'organisation.dns_verification_started')).toHaveLength(
        started.status === 201 ? 1 : 0,
      );
    }
  });

  it('two renames at once: the second, which read the old name, is a 409 and writes nothing', async () => {
    for (let round = 0; round < 3; round++) {
      const employer = await signup('employer', 'Recruiter', `Double Rename ${suffix()}`);
      const id = await organisationOf(employer);
      const names = [`Rename One ${suffix()}`, `Rename Two ${suffix()}`];
      const responses = await Promise.all(names.map((n) => rename(employer, n)));
      statuses(responses);
      const updates = await auditEntries(id, 'organisation.updated');
      expect(updates).toHaveLength(responses.filter((r) => r.status === 200).length);
      // Each audited rename starts from the name the one before it left (no lost update).
      const final = (await row(id)).name;
      expect((updates.at(-1)!.after as { name: string }).name).toBe(final);
      if (updates.length === 2)
        expect((updates[1]!.before as { name: string }).name).toBe(
          (updates[0]!.after as { name: string }).name,
        );
    }
  });
});

/**
 * A database whose first batch waits until `meanwhile` (another request's change, through the app)
 * has landed: the interleaving a race produces, every time. The request under test has done its
 * reads by then; only its write is left.
 */
function interleaved(meanwhile: () => Promise<unknown>) {
  let pending: (() => Promise<unknown>) | undefined = meanwhile;
  const d1 = new Proxy(env.DB, {
    get(target, property) {
      if (property === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const run = pending;
          pending = undefined;
          if (run) await run();
          return target.batch(statements);
        };
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return getDb(d1);
}

const changedMeanwhile = { type: 'conflict', message: expect.stringContaining('changed meanwhile') };

describe('a write whose read went stale, every time (injected interleavings)', () => {
  it('an admin verification after another organisation was verified under the same name key: 409, not both verified', async () => {
    const tag = suffix().replace(/\d/g, 'x');
    const first = await signup('employer', 'Recruiter', `Interleaved Twin ${tag}`);
    const second = await signup('employer', 'Recruiter', `INTERLEAVED-TWIN ${tag}`);
    const secondId = await organisationOf(second);
    const admin = await loginAdmin();
    const db = interleaved(() => verifyOrganisation(first));
    await expect(
      reviewOrganisation(db, admin, secondId, { verification: 'verified', reason: 'Checked' }),
    ).rejects.toMatchObject({
      type: 'conflict',
      message: expect.stringContaining('Another verified organisation'),
    });
    expect((await row(await organisationOf(first))).verification).toBe('verified');
    expect((await row(secondId)).verification).toBe('unverified');
    expect(await auditEntries(secondId, 'organisation.verified')).toEqual([]);
    expect(await issuanceJobs(secondId)).toBe(0);
  });

  it('a DNS check after another check verified the organisation: "already verified", one audit entry, one job', async () => {
    const domain = `interleaved-${suffix()}.example`;
    const employer = await employerAt(domain, `Interleaved Proof ${suffix()}`);
    const id = await organisationOf(employer);
    await publishProof(employer, domain);
    const db = interleaved(async () => expect((await checkDns(employer, domain)).status).toBe(200));
    const result = await checkDomainVerification(db, env, employer, domain);
    expect(result).toMatchObject({ newlyVerified: false, organisation: { verification: 'verified' } });
    expect(result.issuanceJobId).toBeUndefined();
    expect(await auditEntries(id, 'organisation.verified')).toHaveLength(1);
    expect(await issuanceJobs(id)).toBe(1);
  });

  it('a rename of a verified organisation after its suspension: 409, still suspended, nothing audited', async () => {
    const employer = await signup('employer', 'Recruiter', `Interleaved Suspend ${suffix()}`);
    await verifyOrganisation(employer);
    const id = await organisationOf(employer);
    const db = interleaved(async () =>
      expect((await review(id, { verification: 'suspended', reason: 'Report' })).status).toBe(200),
    );
    await expect(updateOrganisation(db, employer, { name: `Escaped ${suffix()}` })).rejects.toMatchObject(
      changedMeanwhile,
    );
    expect((await row(id)).verification).toBe('suspended');
    expect(await auditEntries(id, 'organisation.updated')).toEqual([]);
  });

  it('a rename to a name verified meanwhile by another organisation: 409, name unchanged', async () => {
    const taken = `Interleaved Taken ${suffix()}`;
    const owner = await signup('employer', 'Recruiter', taken);
    const employer = await signup('employer', 'Recruiter', `Interleaved Mover ${suffix()}`);
    const id = await organisationOf(employer);
    const before = (await row(id)).name;
    const db = interleaved(() => verifyOrganisation(owner));
    await expect(updateOrganisation(db, employer, { name: taken })).rejects.toMatchObject({
      type: 'conflict',
      message: expect.stringContaining('Another verified organisation'),
    });
    expect((await row(id)).name).toBe(before);
  });

  it('a DNS proof started after a suspension: 409, still suspended', async () => {
    const domain = `interleaved-start-${suffix()}.example`;
    const employer = await employerAt(domain, `Interleaved Start ${suffix()}`);
    const id = await organisationOf(employer);
    const db = interleaved(async () =>
      expect((await review(id, { verification: 'suspended', reason: 'Report' })).status).toBe(200),
    );
    await expect(startDomainVerification(db, employer, domain)).rejects.toMatchObject(changedMeanwhile);
    expect((await row(id)).verification).toBe('suspended');
    expect(await auditEntries(id, 'organisation.dns_verification_started')).toEqual([]);
  });

  it('an admin approval after the organisation renamed itself: 409, the new name not verified', async () => {
    const before = `Interleaved Review ${suffix()}`;
    const employer = await signup('employer', 'Recruiter', before);
    const id = await organisationOf(employer);
    const admin = await loginAdmin();
    const db = interleaved(async () =>
      expect((await rename(employer, `Swapped ${suffix()}`)).status).toBe(200),
    );
    await expect(
      reviewOrganisation(db, admin, id, { verification: 'verified', reason: 'Checked', name: before }),
    ).rejects.toMatchObject(changedMeanwhile);
    expect((await row(id)).verification).toBe('unverified');
    expect(await auditEntries(id, 'organisation.verified')).toEqual([]);
    expect(await issuanceJobs(id)).toBe(0);
  });
});

describe('an admin approves the name they reviewed', () => {
  it('a review naming the organisation as it was is a 409 after a rename; the approved name is audited', async () => {
    const before = `Reviewed As ${suffix()}`;
    const employer = await signup('employer', 'Recruiter', before);
    const id = await organisationOf(employer);
    const after = `Renamed Since ${suffix()}`;
    expect((await rename(employer, after)).status).toBe(200);

    const stale = await review(id, { verification: 'verified', reason: 'Documents checked', name: before });
    const problem = await expectProblem(stale, 409, 'conflict');
    expect(problem.detail).toContain(`renamed to "${after}"`);
    expect((await row(id)).verification).toBe('unverified');
    expect(await auditEntries(id, 'organisation.verified')).toEqual([]);

    const approved = await review(id, { verification: 'verified', reason: 'Documents checked', name: after });
    expect(approved.status).toBe(200);
    expect(await auditEntries(id, 'organisation.verified')).toEqual([
      expect.objectContaining({ method: 'admin', name: after, reason: 'Documents checked' }),
    ]);
    // Without `name`, the name the organisation has is approved, and recorded.
    const other = await signup('employer', 'Recruiter', `Unnamed Review ${suffix()}`);
    const otherId = await organisationOf(other);
    expect((await review(otherId, { verification: 'verified', reason: 'Checked' })).status).toBe(200);
    expect((await auditEntries(otherId, 'organisation.verified'))[0]).toMatchObject({
      name: (await row(otherId)).name,
    });
  });

  it('a rename racing the approval never leaves the new name verified by a review of the old one', async () => {
    for (let round = 0; round < 3; round++) {
      const before = `Racing Review ${suffix()}`;
      const employer = await signup('employer', 'Recruiter', before);
      const id = await organisationOf(employer);
      const after = `Racing Rename ${suffix()}`;
      const [approved, renamed] = await Promise.all([
        review(id, { verification: 'verified', reason: 'Checked', name: before }),
        rename(employer, after),
      ]);
      statuses([approved, renamed]);
      const final = await row(id);
      const audited = await auditEntries(id, 'organisation.verified');
      if (final.verification === 'verified') {
        expect(final.name).toBe(before);
        expect(audited).toEqual([expect.objectContaining({ name: before })]);
      }
      expect(audited.every((d) => d?.name === before)).toBe(true);
    }
  });

  it('an unknown field is still refused (422)', async () => {
    const employer = await signup('employer', 'Recruiter', `Strict Review ${suffix()}`);
    const res = await review(await organisationOf(employer), {
      verification: 'verified',
      reason: 'Checked',
      nom: 'x',
    });
    await expectProblem(res, 422, 'validation-failed');
  });
});

describe('the domain and the date a verifier is shown', () => {
  it('re-verified by an admin after a DNS verification and a suspension: no domain, a new verifiedAt', async () => {
    const domain = `reverified-${suffix()}.example`;
    const employer = await employerAt(domain, `Reverified ${suffix()}`);
    const id = await organisationOf(employer);
    await publishProof(employer, domain);
    expect((await checkDns(employer, domain)).status).toBe(200);
    const first = await row(id);
    expect(first).toMatchObject({
      verification: 'verified',
      verificationMethod: 'dns',
      verifiedDomain: domain,
    });
    expect(await issuerProfile(id)).toMatchObject({ method: 'dns', domain });

    expect((await review(id, { verification: 'suspended', reason: 'Complaint' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await review(id, { verification: 'verified', reason: 'Complaint resolved' })).status).toBe(200);
    const again = await row(id);
    expect(again).toMatchObject({
      verification: 'verified',
      verificationMethod: 'admin',
      verifiedDomain: null,
    });
    expect(again.verifiedAt!.getTime()).toBeGreaterThan(first.verifiedAt!.getTime());
    expect(await issuerProfile(id)).toMatchObject({
      method: 'admin',
      domain: null,
      verifiedAt: again.verifiedAt!.toISOString(),
    });
  });

  it('a domain left on an admin-verified row (before this fix) is not shown as proven', async () => {
    const employer = await signup('employer', 'Recruiter', `Legacy Domain ${suffix()}`);
    const candidate = await signup('candidate', 'Asha Candidate');
    for (const purpose of ['ai_evaluation', 'public_verification']) await consent(candidate, purpose);
    await verifyOrganisation(employer);
    const id = await organisationOf(employer);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, candidate, brief);
    await getDb(env.DB)
      .update(organisations)
      .set({ verifiedDomain: 'stale-proof.example' })
      .where(eq(organisations.id, id));
    expect(await issuerProfile(id)).toMatchObject({ method: 'admin', domain: null });
    const res = await call(`/api/verify/${certificate!.certificateNo}`);
    expect(await res.json()).toMatchObject({
      organisation: { verification: 'verified', verifiedDomain: null },
    });
  });

  it('an admin-verified organisation that completes a DNS proof: the proof is recorded once, no new issuance', async () => {
    const domain = `late-proof-${suffix()}.example`;
    const employer = await employerAt(domain, `Late Proof ${suffix()}`);
    await verifyOrganisation(employer);
    const id = await organisationOf(employer);
    const verifiedAt = (await row(id)).verifiedAt;
    expect(await issuanceJobs(id)).toBe(1);

    const started = await startDns(employer, domain);
    expect(started.status).toBe(201);
    // A verified organisation stays verified while it proves a domain.
    expect((await started.json<{ organisation: { verification: string } }>()).organisation.verification).toBe(
      'verified',
    );
    await publishProof(employer, domain);
    const responses = await Promise.all([1, 2, 3].map(() => checkDns(employer, domain)));
    expect(statuses(responses)).toEqual([200, 200, 200]);
    for (const body of await Promise.all(
      responses.map((r) => r.json<{ newlyVerified: boolean; check: { matched: boolean } }>()),
    ))
      expect(body).toMatchObject({ newlyVerified: false, check: { matched: true } });

    expect(await row(id)).toMatchObject({
      verification: 'verified',
      verificationMethod: 'dns',
      verifiedDomain: domain,
      verifiedAt,
    });
    expect(await auditEntries(id, 'organisation.domain_verified')).toEqual([
      expect.objectContaining({ domain, previousMethod: 'admin' }),
    ]);
    expect(await auditEntries(id, 'organisation.verified')).toHaveLength(1);
    expect(await issuanceJobs(id)).toBe(1);
    expect(await issuerProfile(id)).toMatchObject({ method: 'dns', domain });
  });
});

describe('the name check reads the index, not every verified organisation', () => {
  /** A verified organisation as rows verified before `name_key` existed look: no key stored. */
  async function unkeyedVerified(name: string): Promise<string> {
    const employer = await signup('employer', 'Recruiter', name);
    await verifyOrganisation(employer);
    const id = await organisationOf(employer);
    await env.DB.prepare('UPDATE organisations SET name_key = NULL WHERE id = ?').bind(id).run();
    return id;
  }

  it('a verified organisation without a stored key still holds its name (and look-alikes of it)', async () => {
    const tag = suffix().replace(/\d/g, 'x');
    await unkeyedVerified(`Legacy Verified ${tag}`);
    const impostor = await signup('employer', 'Recruiter', `Newcomer ${tag}`);
    await expectProblem(await rename(impostor, `LEGACY  verified-${tag}`), 409, 'conflict');
    expect((await rename(impostor, `Newcomer Two ${tag}`)).status).toBe(200);
  });

  it('the cron stores the missing keys, after which the index alone guards the name; a duplicate from before keeps none', async () => {
    const tag = suffix().replace(/\d/g, 'x');
    const first = await unkeyedVerified(`Backfilled ${tag}`);
    const second = await unkeyedVerified(`Keyless Other ${tag}`);
    // Two verified under one name key before the index existed: the second cannot take the key.
    const twin = await unkeyedVerified(`Twin ${tag}`);
    const twinCopy = await signup('employer', 'Recruiter', `Twin Copy ${tag}`);
    const twinCopyId = await organisationOf(twinCopy);
    await env.DB.prepare(
      "UPDATE organisations SET name = ?, verification = 'verified', name_key = NULL WHERE id = ?",
    )
      .bind(`TWIN ${tag}`, twinCopyId)
      .run();

    // Other test files' rows may be unkeyed too (isolated storage per file: only this file's).
    let keyed = 0;
    for (
      let n = await backfillOrganisationNameKeys(getDb(env.DB), 2);
      n > 0;
      n = await backfillOrganisationNameKeys(getDb(env.DB), 2)
    )
      keyed += n;
    expect(keyed).toBeGreaterThanOrEqual(3);
    expect((await row(first)).nameKey).toBe(organisationNameKey(`Backfilled ${tag}`));
    expect((await row(second)).nameKey).toBe(organisationNameKey(`Keyless Other ${tag}`));
    const twins = [await row(twin), await row(twinCopyId)];
    expect(twins.filter((o) => o.nameKey === organisationNameKey(`Twin ${tag}`))).toHaveLength(1);
    expect(twins.filter((o) => o.nameKey === null)).toHaveLength(1);
    // Nothing left that can be keyed: the next run writes nothing.
    expect(await backfillOrganisationNameKeys(getDb(env.DB))).toBe(0);

    // The keyed names are still held, now through the index.
    const impostor = await signup('employer', 'Recruiter', `Another ${tag}`);
    await expectProblem(await rename(impostor, `Backfilled ${tag}`), 409, 'conflict');
    await expectProblem(await rename(impostor, `twin ${tag}`), 409, 'conflict');
  });

  it('the scheduled run keys them', async () => {
    const id = await unkeyedVerified(`Scheduled Key ${suffix()}`);
    await runScheduled(env);
    expect((await row(id)).nameKey).toBe(organisationNameKey((await row(id)).name));
  });
});
