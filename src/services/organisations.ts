/**
 * Organisations: who issues certificates. An employer signs up into a new organisation or joins
 * one by invitation; an organisation becomes `verified` by a DNS TXT proof of a domain its
 * member's email is at, or by an admin's review. Verification issues every certificate that was
 * waiting for it (see `issuePendingCertificates`).
 */
import { and, asc, eq, gt, isNotNull, isNull, ne, notExists, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { type Query, updateThenInsert } from '../db/conditional';
import { isUniqueViolation } from '../db/errors';
import { type OrganisationVerification, organisationInvitations, organisations, users } from '../db/schema';
import {
  emailDomain,
  emailIsAtDomain,
  normaliseDomain,
  organisationNameKey,
  publishedWebsite,
  reviewAllowed,
  txtValues,
  verificationRecordName,
  verificationRecordValue,
} from '../domain/organisations';
import { randomToken, sha256Hex } from '../domain/secrets';
import type { Position } from '../lib/paging';
import { ProblemError } from '../lib/problem';
import { afterCommit, type Effects } from './after-commit';
import { auditInsert } from './audit';
import { requireConfirmedEmail } from './confirmed-email';
import { issuanceJob, issueAfterVerification } from './issuance';

export type OrganisationRow = typeof organisations.$inferSelect;

/** How long an invitation token may be used. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where DNS-over-HTTPS queries go when `DOH_RESOLVER_URL` is not set (Cloudflare's JSON API). */
export const DEFAULT_DOH_RESOLVER = 'https://cloudflare-dns.com/dns-query';

/** What the organisation's own members and the public may see (no tokens). */
export function organisationView(o: OrganisationRow) {
  return {
    id: o.id,
    name: o.name,
    websiteUrl: o.websiteUrl,
    websitePublished: publishedWebsite(o) !== null,
    domains: o.domains,
    verification: o.verification,
    verifiedAt: o.verifiedAt?.toISOString() ?? null,
    pendingName: o.pendingName,
    pendingNameAt: o.pendingNameAt?.toISOString() ?? null,
  };
}

/** The short form on `GET /api/me`. */
export const organisationSummary = (o: OrganisationRow) => ({
  id: o.id,
  name: o.name,
  verification: o.verification,
});

export async function loadOrganisation(db: Database, id: string): Promise<OrganisationRow | null> {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, id)).limit(1);
  return row ?? null;
}

/** The organisation an employer acts for; a 403 when the account has none (admins, candidates). */
export async function organisationOf(db: Database, userId: string): Promise<OrganisationRow> {
  const [row] = await db
    .select({ organisation: organisations })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new ProblemError('forbidden', 'This account does not belong to an organisation.');
  return row.organisation;
}

/** The new organisation of an employer who signs up without an invitation. */
export function newOrganisation(
  email: string,
  input: { name?: string | undefined; websiteUrl?: string | undefined } | undefined,
): typeof organisations.$inferInsert {
  const domain = emailDomain(email);
  // Never the person's name: the organisation's own, or the domain the person writes from.
  const name = input?.name?.trim() || domain;
  return {
    id: crypto.randomUUID(),
    name,
    nameKey: organisationNameKey(name),
    websiteUrl: input?.websiteUrl ?? null,
    domains: normaliseDomain(domain) ? [domain] : [],
  };
}

/**
 * The invitation a signup presents, checked: it exists, is unused and unexpired, and was made
 * for this email address. Anything else is one 422 that says which field (no oracle on tokens).
 */
export async function invitationFor(db: Database, token: string, email: string, now = new Date()) {
  const [row] = await db
    .select()
    .from(organisationInvitations)
    .where(
      and(
        eq(organisationInvitations.tokenHash, await sha256Hex(token)),
        isNull(organisationInvitations.acceptedAt),
        gt(organisationInvitations.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row || row.email !== email) {
    throw new ProblemError(
      'validation-failed',
      'The invitation is unknown, used, expired or for another address.',
      {
        errors: [{ pointer: '#/invitationCode', detail: 'Not a valid invitation for this email address' }],
      },
    );
  }
  return row;
}

/** Invites `email` to join the inviter's organisation. The token is returned once, stored hashed. */
export async function inviteMember(
  db: Database,
  inviter: { id: string },
  email: string,
  now = new Date(),
): Promise<{ id: string; email: string; code: string; expiresAt: Date }> {
  const organisation = await organisationOf(db, inviter.id);
  const normalised = email.trim().toLowerCase();
  // Made (and answered) the same whether or not the address already has an account: a 409 here
  // told any employer, 60 times a minute, whether an address was registered (the signup's own
  // 409 is limited to 10 an hour per network for that reason). An invitation to a taken address
  // is never usable: signing up with it is refused as for any taken address, and the erasure of
  // the account at that address deletes it.
  const code = `vpi_${randomToken(32)}`;
  const id = crypto.randomUUID();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await db.batch([
    db.insert(organisationInvitations).values({
      id,
      organisationId: organisation.id,
      email: normalised,
      tokenHash: await sha256Hex(code),
      invitedBy: inviter.id,
      createdAt: now,
      expiresAt,
    }),
    auditInsert(db, {
      actorId: inviter.id,
      action: 'organisation.member_invited',
      targetType: 'organisation',
      targetId: organisation.id,
      details: { email: normalised },
    }),
  ]);
  return { id, email: normalised, code, expiresAt };
}

/**
 * Name and website of the caller's organisation. A verified organisation keeps its verification
 * and its name: a new name is a new claim, so it waits as `pendingName` for an admin's review
 * (`reviewRename`, src/services/organisation-renames.ts), and its certificates keep the signed name
 * until then. Giving the current name back withdraws a waiting rename. A suspended organisation
 * cannot rename itself (403 `organisation-suspended`).
 */
export async function updateOrganisation(
  db: Database,
  actor: { id: string },
  input: { name?: string | undefined; websiteUrl?: string | null | undefined },
  /** With it, the cached views of the organisation's certificates are dropped once it commits. */
  effects?: Effects,
): Promise<OrganisationRow> {
  const updated = await writeOrganisationUpdate(db, actor, input);
  if (effects) await afterCommit(db, effects.env, { organisation: updated.id }, effects);
  return updated;
}

async function writeOrganisationUpdate(
  db: Database,
  actor: { id: string },
  input: { name?: string | undefined; websiteUrl?: string | null | undefined },
): Promise<OrganisationRow> {
  const organisation = await organisationOf(db, actor.id);
  const name = input.name?.trim();
  const renamed = name !== undefined && name !== organisation.name;
  if (renamed && organisation.verification === 'suspended') throw suspended('rename itself');
  // No organisation, verified or not, may take a verified organisation's name (or a look-alike of
  // it): an unverified one shows it too (on its waiting certificates).
  const review = renamed && organisation.verification === 'verified';
  if (renamed) await assertNameFree(db, name, organisation.id);
  const withdrawn = name !== undefined && !renamed && organisation.pendingName !== null;
  const now = new Date();
  const changes = {
    ...(renamed && !review ? { name, nameKey: organisationNameKey(name) } : {}),
    ...(review ? { pendingName: name, pendingNameAt: now } : {}),
    ...(withdrawn ? { pendingName: null, pendingNameAt: null } : {}),
    ...(input.websiteUrl !== undefined ? { websiteUrl: input.websiteUrl } : {}),
    updatedAt: now,
  };
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set(changes)
      .where(and(asRead(organisation), renamed ? nameStillFree(db, name, organisation.id) : undefined)),
    [
      auditInsert(db, {
        actorId: actor.id,
        action: review ? 'organisation.rename_requested' : 'organisation.updated',
        targetType: 'organisation',
        targetId: organisation.id,
        details: {
          before: { name: organisation.name, websiteUrl: organisation.websiteUrl },
          after: input,
          ...(review ? { review: 'the new name waits for an admin (verified organisation)' } : {}),
          ...(withdrawn ? { withdrawnRename: organisation.pendingName } : {}),
        },
      }),
    ],
  );
  if (!written) {
    // A verification under the new name that landed after the check says so; anything else is a
    // change this request did not see.
    if (renamed) await assertNameFree(db, name, organisation.id);
    throw changedMeanwhile();
  }
  return reloaded(db, organisation);
}

/** 403 for what a suspended organisation may not do until the platform reviews it again. */
export const suspended = (what: string) =>
  new ProblemError(
    'organisation-suspended',
    `This organisation is suspended by the platform and cannot ${what}; contact the platform.`,
  );

/**
 * The organisation as a request read it (its verification and name): what every write here is
 * conditional on, so a request that read before another's change writes nothing (`changedMeanwhile`).
 */
export const asRead = (o: OrganisationRow) =>
  and(
    eq(organisations.id, o.id),
    eq(organisations.verification, o.verification),
    eq(organisations.name, o.name),
    sql`${organisations.pendingName} is ${o.pendingName}`,
  );

/** 409 for a write whose read is stale: nothing was written, and the caller may simply retry. */
export const changedMeanwhile = () =>
  new ProblemError(
    'conflict',
    'The organisation changed meanwhile (another request, member or admin); reload it and try again.',
  );

const nameTaken = (name: string) =>
  new ProblemError(
    'conflict',
    `Another verified organisation is named "${name}". Choose a name that tells yours apart.`,
  );

/** The row after a write of this request, for its answer. */
export async function reloaded(db: Database, organisation: OrganisationRow): Promise<OrganisationRow> {
  return (await loadOrganisation(db, organisation.id)) ?? organisation;
}

/**
 * For a rename's UPDATE: no other verified organisation holds the new name's key (one verified
 * after `assertNameFree` read, whose verification wrote the key). Rows verified before the
 * `name_key` column existed are `assertNameFree`'s; they are not racing anyone.
 */
export function nameStillFree(db: Database, name: string, organisationId: string) {
  const other = alias(organisations, 'other');
  return notExists(
    db
      .select({ id: other.id })
      .from(other)
      .where(
        and(
          eq(other.verification, 'verified'),
          eq(other.nameKey, organisationNameKey(name)),
          ne(other.id, organisationId),
        ),
      ),
  );
}

/**
 * Every write here: the UPDATE (conditional on what was read) and what goes with it, all or nothing
 * (`updateThenInsert`); false when the UPDATE matched no row. The partial unique index on verified
 * `name_key`s aborts a verification's batch when another organisation was verified under the same
 * key after `assertNameFree` read: the same 409 as that check's.
 */
export async function write(db: Database, name: string, update: Query, inserts: Query[]): Promise<boolean> {
  try {
    return await updateThenInsert(db, update, inserts);
  } catch (err) {
    if (isUniqueViolation(err, 'organisations.name_key')) throw nameTaken(name);
    throw err;
  }
}

/**
 * 409 when another verified organisation already has this name (`organisationNameKey`): a
 * certificate must not be presented as issued by a verified "X" that is not the verified X.
 * Two searches of the partial unique index on verified `name_key`s (a signup, rename or review
 * reads a handful of rows, however many organisations are verified): the holder of this key, and
 * the verified rows with no key yet, whose keys are computed here (rows verified before the column
 * existed, until `backfillOrganisationNameKeys` has keyed them; also every row after a change to
 * `organisationNameKey`, whose migration must set `name_key` to NULL so the cron re-keys them).
 * The index is also what stops two verifications racing past this check.
 */
export async function assertNameFree(db: Database, name: string, organisationId?: string): Promise<void> {
  const key = organisationNameKey(name);
  const others = (keyed: SQL) =>
    db
      .select({ name: organisations.name })
      .from(organisations)
      .where(
        and(
          eq(organisations.verification, 'verified'),
          keyed,
          organisationId ? ne(organisations.id, organisationId) : undefined,
        ),
      );
  const verified = await others(eq(organisations.nameKey, key)).unionAll(
    others(isNull(organisations.nameKey)),
  );
  if (verified.some((o) => organisationNameKey(o.name) === key)) throw nameTaken(name);
}

/** Verified organisations keyed per cron run (a bounded batch; normally there are none). */
export const NAME_KEY_BACKFILL_BATCH = 100;

/**
 * Cron: stores `name_key` on verified organisations that have none, so `assertNameFree` finds
 * them through the index. A row whose key another verified organisation already holds (two
 * verified under one name before the index existed) keeps none and stays in `assertNameFree`'s
 * second search. Returns how many rows were keyed.
 */
export async function backfillOrganisationNameKeys(
  db: Database,
  limit = NAME_KEY_BACKFILL_BATCH,
): Promise<number> {
  const unkeyed = await db
    .select({ id: organisations.id, name: organisations.name })
    .from(organisations)
    .where(and(eq(organisations.verification, 'verified'), isNull(organisations.nameKey)))
    .limit(limit);
  if (unkeyed.length === 0) return 0;
  const holder = alias(organisations, 'holder');
  const updates = unkeyed.map((o) => {
    const key = organisationNameKey(o.name);
    return db
      .update(organisations)
      .set({ nameKey: key })
      .where(
        and(
          eq(organisations.id, o.id),
          eq(organisations.name, o.name),
          isNull(organisations.nameKey),
          notExists(
            db
              .select({ id: holder.id })
              .from(holder)
              .where(and(eq(holder.verification, 'verified'), eq(holder.nameKey, key))),
          ),
        ),
      );
  });
  const results = await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  return results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
}

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
    console.warn(
      JSON.stringify({ level: 'warn', msg: 'DNS-over-HTTPS lookup failed', name, error: String(err) }),
    );
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
 * An admin's decision on an organisation, audited with its reason and the name it was taken on.
 * `input.name`, when given, is the name the admin reviewed: a 409 if the organisation has been
 * renamed since (the write is conditional on the name read, so a rename after this read is too).
 */
export async function reviewOrganisation(
  db: Database,
  admin: { id: string; ip?: string | null },
  id: string,
  input: ReviewInput,
): Promise<Review | null> {
  const organisation = await loadOrganisation(db, id);
  if (!organisation) return null;
  if (input.name !== undefined && input.name !== organisation.name) {
    throw new ProblemError(
      'conflict',
      `The organisation was renamed to "${organisation.name}" since; review it under that name.`,
    );
  }
  const already = (state: OrganisationVerification) =>
    new ProblemError('conflict', `The organisation is already ${state}.`);
  if (!reviewAllowed(organisation.verification, input.verification)) throw already(organisation.verification);
  const verifying = input.verification === 'verified';
  if (verifying) await assertNameFree(db, organisation.name, id);
  const now = new Date();
  const job = verifying ? issuanceJob(db, id, now) : null;
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set({
        verification: input.verification,
        verificationReason: input.reason,
        // This verification's own: the domain of an earlier DNS proof is not what the admin checked,
        // and `verifiedAt` is when the current verification began (credentials do not carry it).
        ...(verifying
          ? {
              verificationMethod: 'admin' as const,
              verifiedDomain: null,
              verifiedAt: now,
              nameKey: organisationNameKey(organisation.name),
            }
          : {}),
        updatedAt: now,
      })
      .where(asRead(organisation)),
    [
      auditInsert(db, {
        actorId: admin.id,
        action: `organisation.${input.verification}`,
        targetType: 'organisation',
        targetId: id,
        details: {
          method: 'admin',
          from: organisation.verification,
          reason: input.reason,
          name: organisation.name,
        },
        ip: admin.ip ?? null,
      }),
      ...(job ? [job.statement] : []),
    ],
  );
  if (!written) {
    const current = await loadOrganisation(db, id);
    if (!current) return null;
    if (current.verification === input.verification) throw already(current.verification);
    throw changedMeanwhile();
  }
  return {
    organisation: await reloaded(db, organisation),
    previous: organisation.verification,
    issuanceJobId: job?.id,
  };
}

/** The admin's review queue: organisations by verification state, oldest first (first come, first reviewed). */
export async function listOrganisations(
  db: Database,
  filter: { verification?: OrganisationVerification | undefined; renamePending?: boolean | undefined },
  limit: number,
  after?: Position,
) {
  const conditions = [
    filter.verification ? eq(organisations.verification, filter.verification) : undefined,
    filter.renamePending === undefined
      ? undefined
      : filter.renamePending
        ? isNotNull(organisations.pendingName)
        : isNull(organisations.pendingName),
    after
      ? or(
          gt(organisations.createdAt, after.createdAt),
          and(eq(organisations.createdAt, after.createdAt), gt(organisations.id, after.id)),
        )
      : undefined,
  ].filter((c) => c !== undefined);
  return db
    .select()
    .from(organisations)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(organisations.createdAt), asc(organisations.id))
    .limit(limit + 1);
}

type ReviewInput = {
  verification: 'verified' | 'rejected' | 'suspended';
  reason: string;
  name?: string | undefined;
};
type Review = {
  organisation: OrganisationRow;
  previous: OrganisationVerification;
  issuanceJobId?: string | undefined;
};

/**
 * An admin's review and what it causes: a verification issues what waited for it (the issuance
 * job, run here); any other decision drops the cached views of the organisation's certificates,
 * and its rating pairs stop counting in the public agreement rate (verified organisations only).
 */
export async function reviewOrganisationAndIssue(
  db: Database,
  env: Env,
  admin: { id: string; ip?: string | null },
  id: string,
  input: ReviewInput,
): Promise<Review | null> {
  const reviewed = await reviewOrganisation(db, admin, id, input);
  if (!reviewed) return null;
  const { organisation } = reviewed;
  if (organisation.verification === 'verified')
    await issueAfterVerification(db, env, organisation, reviewed.issuanceJobId);
  else await afterCommit(db, env, { organisation: organisation.id, agreement: true });
  return reviewed;
}

type DomainCheck = {
  organisation: OrganisationRow;
  check: DnsCheck;
  newlyVerified: boolean;
  issuanceJobId?: string;
  /** The proof was recorded on an organisation an admin had verified (`recordProof`). */
  proofRecorded?: boolean;
};

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
