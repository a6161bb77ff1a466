/**
 * Organisations: who issues certificates. An employer signs up into a new organisation or joins
 * one by invitation (./membership.ts); an organisation becomes `verified` by a DNS TXT proof of a
 * domain its member's email is at (./domain-proof.ts), or by an admin's review (./review.ts).
 * Verification issues every certificate that was waiting for it (`issuePendingCertificates`).
 *
 * This module is what those share: the row and its views, the lookups, and the conditional writes
 * every change makes (on the organisation as read, with the verified name kept unique).
 */
import { and, eq, isNull, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { type Query, updateThenInsert } from '../../db/conditional';
import { isUniqueViolation } from '../../db/errors';
import { organisations, users } from '../../db/schema';
import { organisationNameKey, publishedWebsite } from '../../domain/organisations';
import { ProblemError } from '../../lib/problem';

export type OrganisationRow = typeof organisations.$inferSelect;

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
