import { and, asc, count, eq, gt, inArray, isNotNull, isNull, notInArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { certificates, organisations, users } from '../../db/schema';
import { parseDataIntegrity } from '../certificates';

/**
 * The certificates whose issuer the platform still stands behind: no organisation (the oldest
 * ones), or one that is not suspended or rejected, as `GET /api/verify/{no}` and the credential
 * verifier judge it (src/services/certificates.ts `publicStatus`). What the learner record and
 * the Open Badges API hand out is only what verification would call active.
 */
export function issuerStillRecognised(db: Database): SQL {
  return or(
    isNull(certificates.organisationId),
    notInArray(
      certificates.organisationId,
      db
        .select({ id: organisations.id })
        .from(organisations)
        .where(inArray(organisations.verification, ['suspended', 'rejected'])),
    ),
  ) as SQL;
}

/**
 * What the Open Badges API serves of a holder (src/routes/ims/): their certificates that are signed,
 * not revoked, not expired and of an issuer not suspended (what verification calls active), as
 * stored (the VC-JWT), oldest first so that `offset` paging is stable while new ones are issued;
 * `since` keeps those issued strictly after it.
 */
export async function holderCredentialsPage(
  db: Database,
  holderId: string,
  page: { limit: number; offset: number; since?: Date },
  now = new Date(),
): Promise<{ total: number; jwts: string[]; dataIntegrity: Record<string, unknown>[] }> {
  const conditions: SQL[] = [
    eq(certificates.holderId, holderId),
    eq(certificates.status, 'active'),
    isNotNull(certificates.credentialJwt),
    or(isNull(certificates.validUntil), gt(certificates.validUntil, now)) as SQL,
    issuerStillRecognised(db),
  ];
  if (page.since) conditions.push(gt(certificates.issuedAt, page.since));
  const where = and(...conditions);
  const [totalRows, rows] = await db.batch([
    db.select({ n: count() }).from(certificates).where(where),
    db
      .select({ jwt: certificates.credentialJwt, dataIntegrity: certificates.credentialDataIntegrity })
      .from(certificates)
      .where(where)
      .orderBy(asc(certificates.issuedAt), asc(certificates.id))
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return {
    total: totalRows[0]?.n ?? 0,
    jwts: rows.map((r) => r.jwt).filter((jwt): jwt is string => jwt !== null),
    // The same credentials with their embedded Data Integrity proof, where they have one. The
    // OB 3.0 API's OpenAPI file types `proof` as an array: a set of one proof (the same RDF
    // graph, so it verifies the same; decision 0351).
    dataIntegrity: rows
      .map((r) => parseDataIntegrity(r.dataIntegrity))
      .filter((c): c is Record<string, unknown> => c !== null)
      .map((c) => (c.proof && !Array.isArray(c.proof) ? { ...c, proof: [c.proof] } : c)),
  };
}

/** The holder behind a grant, if their account still acts (not erased, no erasure pending). */
export async function activeHolder(db: Database, userId: string) {
  const [row] = await db
    .select({ id: users.id, name: users.name, subjectId: users.credentialSubjectId })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .limit(1);
  return row ?? null;
}

/** `first`, `last`, `next`, `prev` (RFC 8288) for offset paging, as OB 3.0 § "Paging" asks. */
export function pagingLinks(url: URL, page: { limit: number; offset: number; total: number }): string {
  const at = (offset: number) => {
    const u = new URL(url);
    u.searchParams.set('limit', String(page.limit));
    u.searchParams.set('offset', String(offset));
    return u.href;
  };
  const lastOffset = page.total === 0 ? 0 : Math.floor((page.total - 1) / page.limit) * page.limit;
  const links: string[] = [];
  if (page.offset + page.limit < page.total) links.push(`<${at(page.offset + page.limit)}>; rel="next"`);
  links.push(`<${at(lastOffset)}>; rel="last"`, `<${at(0)}>; rel="first"`);
  if (page.offset > 0) links.push(`<${at(Math.max(0, page.offset - page.limit))}>; rel="prev"`);
  return links.join(', ');
}
