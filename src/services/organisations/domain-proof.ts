/**
 * An organisation's DNS proof of a domain its member's email is at: the challenge (a TXT record),
 * the check through a DNS-over-HTTPS resolver, and the verification it leads to (or, for an
 * organisation an admin verified, the proof recorded). See ./organisation.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrganisationVerification, organisations } from '../../db/schema';
import {
  emailDomain,
  emailIsAtDomain,
  normaliseDomain,
  organisationNameKey,
  txtValues,
  verificationRecordName,
  verificationRecordValue,
} from '../../domain/organisations';
import { randomToken } from '../../domain/secrets';
import { log } from '../../lib/log';
import { ProblemError } from '../../lib/problem';
import { afterCommit, type Effects } from '../after-commit';
import { auditInsert } from '../audit';
import { requireConfirmedEmail } from '../confirmed-email';
import { issuanceJob, issueAfterVerification } from '../issuance/issue';
import {
  asRead,
  assertNameFree,
  changedMeanwhile,
  type OrganisationRow,
  organisationOf,
  reloaded,
  write,
} from './organisation';

/** Where DNS-over-HTTPS queries go when `DOH_RESOLVER_URL` is not set (Cloudflare's JSON API). */
export const DEFAULT_DOH_RESOLVER = 'https://cloudflare-dns.com/dns-query';

export type DnsChallenge = { domain: string; recordName: string; recordType: 'TXT'; recordValue: string };

/**
 * Starts (or restarts) a DNS proof of `domain` for the caller's organisation: the person's own
 * email must be at that domain. An unverified organisation is `pending` until the record is
 * checked; a verified one stays verified (the check then records the proof).
 */
export async function startDomainVerification(
  db: Database,
  actor: { id: string; email: string },
  rawDomain: string,
  /** With it, the cached views of its certificates (which name its state, now `pending`) are dropped. */
  effects?: Effects,
): Promise<{ organisation: OrganisationRow; challenge: DnsChallenge }> {
  const started = await writeDomainChallenge(db, actor, rawDomain);
  if (effects) await afterCommit(db, effects.env, { organisation: started.organisation.id }, effects);
  return started;
}

async function writeDomainChallenge(
  db: Database,
  actor: { id: string; email: string },
  rawDomain: string,
): Promise<{ organisation: OrganisationRow; challenge: DnsChallenge }> {
  const domain = normaliseDomain(rawDomain);
  if (!domain) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer: '#/domain', detail: 'Not a public domain name' }],
    });
  }
  if (!emailIsAtDomain(actor.email, domain)) {
    throw new ProblemError(
      'forbidden',
      `Only a member whose own email address is at ${domain} can prove it; yours is at ${emailDomain(actor.email)}.`,
    );
  }
  // Proving a domain speaks for everyone at it: only from a confirmed address at that domain.
  await requireConfirmedEmail(db, actor.id, 'prove a domain');
  const organisation = await organisationOf(db, actor.id);
  if (organisation.verification === 'suspended' || organisation.verification === 'rejected') {
    // The platform's decision stands until an admin changes it.
    throw new ProblemError(
      'conflict',
      `A ${organisation.verification} organisation cannot verify itself; contact the platform.`,
    );
  }
  const token = organisation.dnsToken ?? randomToken(24);
  const verification: OrganisationVerification =
    organisation.verification === 'verified' ? 'verified' : 'pending';
  const domains = organisation.domains.includes(domain)
    ? organisation.domains
    : [...organisation.domains, domain];
  // Conditional on the token and domains read too: two starts at once must not each publish a
  // token of their own, or lose the other's domain.
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set({ dnsToken: token, domains, verification, updatedAt: new Date() })
      .where(
        and(
          asRead(organisation),
          sameDnsToken(organisation),
          eq(organisations.domains, organisation.domains),
        ),
      ),
    [
      auditInsert(db, {
        actorId: actor.id,
        action: 'organisation.dns_verification_started',
        targetType: 'organisation',
        targetId: organisation.id,
        details: { domain },
      }),
    ],
  );
  if (!written) throw changedMeanwhile();
  return { organisation: await reloaded(db, organisation), challenge: challengeFor(domain, token) };
}

/** The DNS token is the one read (null-safe: `IS`). */
const sameDnsToken = (o: OrganisationRow) => sql`${organisations.dnsToken} is ${o.dnsToken}`;

const challengeFor = (domain: string, token: string): DnsChallenge => ({
  domain,
  recordName: verificationRecordName(domain),
  recordType: 'TXT',
  recordValue: verificationRecordValue(token),
});

/** TXT values at `name` through a DNS-over-HTTPS resolver's JSON API (RFC 8484 JSON flavour). */
export async function resolveTxt(env: Pick<Env, 'DOH_RESOLVER_URL'>, name: string): Promise<string[]> {
  const url = new URL(env.DOH_RESOLVER_URL || DEFAULT_DOH_RESOLVER);
  url.searchParams.set('name', name);
  url.searchParams.set('type', 'TXT');
  let body: { Status?: number; Answer?: { type?: number; data?: unknown }[] };
  try {
    const res = await fetch(url, { headers: { accept: 'application/dns-json' }, redirect: 'manual' });
    if (!res.ok) throw new Error(`resolver answered ${res.status}`);
    body = await res.json();
  } catch (err) {
    log('warn', 'DNS-over-HTTPS lookup failed', { name, error: String(err) });
    throw new ProblemError(
      'upstream-unavailable',
      'The DNS resolver could not be reached; try again shortly.',
    );
  }
  return txtValues(body.Answer ?? []);
}

export type DnsCheck = {
  domain: string;
  recordName: string;
  expected: string;
  found: string[];
  matched: boolean;
};

type DomainCheck = {
  organisation: OrganisationRow;
  check: DnsCheck;
  newlyVerified: boolean;
  issuanceJobId?: string;
  /** The proof was recorded on an organisation an admin had verified (`recordProof`). */
  proofRecorded?: boolean;
};

/**
 * Looks the record up. When it matches, the organisation is verified (method `dns`) in the same
 * batch as its audit entry and issuance job; the caller then issues what was waiting
 * (`issuePendingCertificates`). Checks racing each other verify once: the others find it
 * verified and answer like any check of a verified organisation (`newlyVerified: false`).
 */
export async function checkDomainVerification(
  db: Database,
  env: Pick<Env, 'DOH_RESOLVER_URL'>,
  actor: { id: string; email: string },
  rawDomain: string,
): Promise<DomainCheck> {
  const domain = normaliseDomain(rawDomain);
  await requireConfirmedEmail(db, actor.id, 'prove a domain');
  const organisation = await organisationOf(db, actor.id);
  if (!domain || !organisation.dnsToken || !organisation.domains.includes(domain)) {
    throw new ProblemError(
      'conflict',
      'Start a verification of this domain first (POST …/domain-verification).',
    );
  }
  if (!emailIsAtDomain(actor.email, domain)) {
    throw new ProblemError(
      'forbidden',
      `Only a member whose own email address is at ${domain} can prove it.`,
    );
  }
  const challenge = challengeFor(domain, organisation.dnsToken);
  const found = await resolveTxt(env, challenge.recordName);
  const check = {
    domain,
    recordName: challenge.recordName,
    expected: challenge.recordValue,
    found,
    matched: found.includes(challenge.recordValue),
  };
  if (
    !check.matched ||
    organisation.verification === 'suspended' ||
    organisation.verification === 'rejected'
  ) {
    return { organisation, check, newlyVerified: false };
  }
  if (organisation.verification === 'verified') return recordProof(db, actor, organisation, check);
  if (organisation.verifiedAt !== null) {
    // Verified before and back to `pending` by a rename (before renames of verified organisations
    // waited for review): the new name is the admin's to approve, never a DNS record's.
    throw new ProblemError(
      'conflict',
      "This organisation was verified under another name; its new name awaits the platform's review, which a DNS check cannot replace.",
    );
  }
  await assertNameFree(db, organisation.name, organisation.id);
  const now = new Date();
  const job = issuanceJob(db, organisation.id, now);
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set({
        verification: 'verified',
        verificationMethod: 'dns',
        verifiedDomain: domain,
        verifiedAt: now,
        nameKey: organisationNameKey(organisation.name),
        updatedAt: now,
      })
      .where(and(asRead(organisation), sameDnsToken(organisation))),
    [
      auditInsert(db, {
        actorId: actor.id,
        action: 'organisation.verified',
        targetType: 'organisation',
        targetId: organisation.id,
        details: { method: 'dns', domain, name: organisation.name },
      }),
      job.statement,
    ],
  );
  if (!written) {
    // Another check (or an admin) verified it since this one read: answer as for a verified one.
    const current = await reloaded(db, organisation);
    if (current.verification !== 'verified') throw changedMeanwhile();
    return recordProof(db, actor, current, check);
  }
  return {
    organisation: await reloaded(db, organisation),
    check,
    newlyVerified: true,
    issuanceJobId: job.id,
  };
}

/**
 * A matching proof by an organisation verified already. Verified by an admin, it now also has
 * what a verifier can rely on from a DNS proof (control of the domain): method `dns` and the
 * domain, audited as `organisation.domain_verified`. Not a new verification: `verifiedAt` and what
 * it issued stay as they are, and nothing waited for it. Verified by DNS already, nothing changes.
 */
async function recordProof(
  db: Database,
  actor: { id: string },
  organisation: OrganisationRow,
  check: DnsCheck,
): Promise<{
  organisation: OrganisationRow;
  check: DnsCheck;
  newlyVerified: false;
  proofRecorded?: boolean;
}> {
  if (organisation.verificationMethod === 'dns') return { organisation, check, newlyVerified: false };
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set({ verificationMethod: 'dns', verifiedDomain: check.domain, updatedAt: new Date() })
      .where(
        and(
          asRead(organisation),
          sameDnsToken(organisation),
          sql`${organisations.verificationMethod} is ${organisation.verificationMethod}`,
        ),
      ),
    [
      auditInsert(db, {
        actorId: actor.id,
        action: 'organisation.domain_verified',
        targetType: 'organisation',
        targetId: organisation.id,
        details: { domain: check.domain, previousMethod: organisation.verificationMethod },
      }),
    ],
  );
  if (written)
    return {
      organisation: await reloaded(db, organisation),
      check,
      newlyVerified: false,
      proofRecorded: true,
    };
  // A simultaneous check recorded it first: the same answer. Anything else is a change not seen.
  const current = await reloaded(db, organisation);
  if (current.verification === 'verified' && current.verificationMethod === 'dns')
    return { organisation: current, check, newlyVerified: false };
  throw changedMeanwhile();
}

/**
 * A DNS check and what it causes: a verification issues what waited for it (the caller waits for
 * those certificates, returned); a proof recorded on a verified organisation changes what the
 * cached views of its certificates show, so they are dropped.
 */
export async function checkDomainAndIssue(
  db: Database,
  effects: Effects<Env>,
  actor: { id: string; email: string },
  rawDomain: string,
): Promise<DomainCheck & { issuedCertificates: string[] }> {
  const result = await checkDomainVerification(db, effects.env, actor, rawDomain);
  const issuedCertificates = await issueAfterVerification(
    db,
    effects.env,
    result.organisation,
    result.issuanceJobId,
  );
  if (result.proofRecorded)
    await afterCommit(db, effects.env, { organisation: result.organisation.id }, effects);
  return { ...result, issuedCertificates };
}
