import { and, asc, count, eq, gt, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { certificates, users } from '../../db/schema';
import { parseDataIntegrity } from '../certificates';

/**
 * What the Open Badges API serves of a holder (src/routes/ims/): their certificates that are signed
 * and not revoked, as stored (the VC-JWT, and the Data Integrity form when signed since), oldest first so that `offset` paging is stable while new
 * ones are issued; `since` keeps those issued strictly after it.
 */
export async function holderCredentialsPage(
  db: Database,
  holderId: string,
  page: { limit: number; offset: number; since?: Date },
): Promise<{ total: number; jwts: string[]; dataIntegrity: Record<string, unknown>[] }> {
  const conditions: SQL[] = [
    eq(certificates.holderId, holderId),
    eq(certificates.status, 'active'),
    isNotNull(certificates.credentialJwt),
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
