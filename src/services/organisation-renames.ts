/**
 * Renames of verified organisations, reviewed by an admin. A verified organisation was verified
 * under its name, and its certificates carry that name: a new name is a new claim, so
 * `updateOrganisation` keeps it as `pendingName` and the organisation goes on issuing under the
 * name it was verified with. An admin approves (the name changes, new credentials carry it,
 * earlier ones keep the signed name with "now known as") or refuses (the request is dropped). A
 * DNS re-check never approves a rename.
 */
import { and } from 'drizzle-orm';
import type { Database } from '../db/client';
import { organisations } from '../db/schema';
import { organisationNameKey } from '../domain/organisations';
import { ProblemError } from '../lib/problem';
import { afterCommit, type Effects } from './after-commit';
import { auditInsert } from './audit';
import {
  asRead,
  assertNameFree,
  changedMeanwhile,
  loadOrganisation,
  nameStillFree,
  type OrganisationRow,
  reloaded,
  write,
} from './organisations/organisation';

export type RenameDecision = { decision: 'approve' | 'refuse'; reason: string; name: string };

/**
 * An admin's decision on the rename waiting on organisation `id`; null when there is no such
 * organisation. `input.name` is the name the admin reviewed: a 409 when the waiting name is another
 * (changed or withdrawn since), or when nothing waits. Approving a name another verified
 * organisation has taken meanwhile (or a look-alike of it) is a 409 too. Audited with the reason.
 */
export async function reviewRename(
  db: Database,
  admin: { id: string; ip?: string | null },
  id: string,
  input: RenameDecision,
  /** With it, its profile and its certificates' cached verifications (which show the name) are dropped. */
  effects?: Effects,
): Promise<OrganisationRow | null> {
  const organisation = await loadOrganisation(db, id);
  if (!organisation) return null;
  const pending = organisation.pendingName;
  if (pending === null) throw new ProblemError('conflict', 'No rename of this organisation awaits review.');
  if (pending !== input.name.trim())
    throw new ProblemError(
      'conflict',
      `The rename awaiting review is to "${pending}", not "${input.name.trim()}"; review that name.`,
    );
  const approve = input.decision === 'approve';
  if (approve) await assertNameFree(db, pending, id);
  const now = new Date();
  const written = await write(
    db,
    organisation.name,
    db
      .update(organisations)
      .set({
        ...(approve ? { name: pending, nameKey: organisationNameKey(pending) } : {}),
        pendingName: null,
        pendingNameAt: null,
        updatedAt: now,
      })
      .where(and(asRead(organisation), approve ? nameStillFree(db, pending, id) : undefined)),
    [
      auditInsert(db, {
        actorId: admin.id,
        action: approve ? 'organisation.rename_approved' : 'organisation.rename_refused',
        targetType: 'organisation',
        targetId: id,
        details: { from: organisation.name, to: pending, reason: input.reason },
        ip: admin.ip ?? null,
      }),
    ],
  );
  if (!written) {
    if (approve) await assertNameFree(db, pending, id);
    throw changedMeanwhile();
  }
  const reviewed = await reloaded(db, organisation);
  if (effects) await afterCommit(db, effects.env, { organisation: reviewed.id }, effects);
  return reviewed;
}
