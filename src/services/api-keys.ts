import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type ApiKeyScope, apiKeys } from '../db/schema';
import { randomToken, sha256Hex } from '../domain/secrets';
import { olderThan, type Position } from '../lib/paging';
import type { ApiKeyPrincipal } from '../lib/types';
import { auditPowerInsert } from './audit';

/** Every key starts with this, so leaked keys are easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'vpk_';
/** How many characters of the key are kept in clear for listings. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** `lastUsedAt` is written at most this often per key, so heavy use costs no extra writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

type KeyRow = typeof apiKeys.$inferSelect;

export type ApiKeyView = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** The organisation the key acts for (webhooks); null for a key of the platform's own. */
  organisationId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export const toApiKeyView = (k: KeyRow): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  organisationId: k.organisationId,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/**
 * Issues a key: 256 random bits behind a recognisable prefix. The clear key is returned once,
 * never stored. Audited (who, from which address) in the same batch.
 */
export async function issueApiKey(
  db: Database,
  input: {
    name: string;
    scopes: ApiKeyScope[];
    createdBy: string;
    ip?: string | null;
    organisationId?: string | null | undefined;
  },
): Promise<{ key: string; view: ApiKeyView }> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const id = crypto.randomUUID();
  const scopes = [...new Set(input.scopes)];
  const [inserted] = await db.batch([
    db
      .insert(apiKeys)
      .values({
        id,
        name: input.name,
        scopes,
        prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        keyHash: await sha256Hex(key),
        organisationId: input.organisationId ?? null,
        createdBy: input.createdBy,
      })
      .returning(),
    auditPowerInsert(db, {
      actor: input.createdBy,
      action: 'api_key.issued',
      target: { type: 'api_key', id },
      ip: input.ip ?? null,
      details: { name: input.name, scopes, organisationId: input.organisationId ?? null },
    }),
  ]);
  return { key, view: toApiKeyView(inserted[0] as KeyRow) };
}

export async function listApiKeys(db: Database, limit: number, after?: Position) {
  return db
    .select()
    .from(apiKeys)
    .where(after ? olderThan(apiKeys, after) : undefined)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(limit + 1);
}

/**
 * Revokes at once (the next request with the key is refused), audited with who and from which
 * address. Null when no such key; a key already revoked is returned unchanged (and not audited again).
 */
export async function revokeApiKey(
  db: Database,
  id: string,
  by: { actor: string | null; ip: string | null },
  now = new Date(),
): Promise<KeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) {
    await auditPowerInsert(db, {
      actor: by.actor,
      action: 'api_key.revoked',
      target: { type: 'api_key', id },
      ip: by.ip,
      details: { name: row.name },
    });
    return row;
  }
  const [existing] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return existing ?? null;
}

/** The live key behind a presented secret, or null (unknown, malformed or revoked). */
export async function resolveApiKey(
  db: Database,
  presented: string,
): Promise<(ApiKeyPrincipal & { lastUsedAt: Date | null }) | null> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 128) return null;
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      organisationId: apiKeys.organisationId,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, await sha256Hex(presented)), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

export function lastUsedIsStale(lastUsedAt: Date | null, now = new Date()): boolean {
  return !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}

export async function touchApiKey(db: Database, id: string, now = new Date()): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
}
