/**
 * The platform's review of organisations: the admin's queue, and a decision (verify, reject,
 * suspend) with what it causes. See ./organisation.ts.
 */
import { and, asc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrganisationVerification, organisations } from '../../db/schema';
import { organisationNameKey, reviewAllowed } from '../../domain/organisations';
import type { Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { afterCommit } from '../after-commit';
import { auditInsert } from '../audit';
import { issuanceJob, issueAfterVerification } from '../issuance/issue';
import {
  asRead,
  assertNameFree,
  changedMeanwhile,
  loadOrganisation,
  type OrganisationRow,
  reloaded,
  write,
} from './organisation';

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
