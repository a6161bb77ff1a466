/**
 * Who belongs to an organisation, and what its members change: the organisation a new employer
 * signs up into, invitations to join one, its name and website (see ./organisation.ts).
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organisationInvitations, organisations } from '../../db/schema';
import { emailDomain, normaliseDomain, organisationNameKey } from '../../domain/organisations';
import { randomToken, sha256Hex } from '../../domain/secrets';
import { ProblemError } from '../../lib/problem';
import { afterCommit, type Effects } from '../after-commit';
import { auditInsert } from '../audit';
import {
  asRead,
  assertNameFree,
  changedMeanwhile,
  nameStillFree,
  type OrganisationRow,
  organisationOf,
  reloaded,
  suspended,
  write,
} from './organisation';

/** How long an invitation token may be used. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

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
  // A suspended organisation takes no new members, by invitations made before either.
  const [owner] = await db
    .select({ verification: organisations.verification })
    .from(organisations)
    .where(eq(organisations.id, row.organisationId))
    .limit(1);
  if (owner?.verification === 'suspended')
    throw new ProblemError(
      'validation-failed',
      'The organisation of this invitation is suspended by the platform.',
      {
        errors: [{ pointer: '#/invitationCode', detail: 'The inviting organisation is suspended' }],
      },
    );
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
  if (organisation.verification === 'suspended') throw suspended('invite members');
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
 * cannot rename itself or change its website (403 `organisation-suspended`).
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
  // Its website is published with what it issued (Profile, credentials): frozen like its name.
  if (
    input.websiteUrl !== undefined &&
    input.websiteUrl !== organisation.websiteUrl &&
    organisation.verification === 'suspended'
  )
    throw suspended('change its website');
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
