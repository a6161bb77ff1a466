import { and, desc, eq, gte, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type ApiKeyScope, apiKeys, apiKeyUsage, organisations } from '../db/schema';
import { randomToken, sha256Hex } from '../domain/secrets';
import { olderThan, type Position } from '../lib/paging';
import type { ApiKeyPrincipal } from '../lib/principals';
import { ProblemError } from '../lib/problem';
import { auditPowerInsert } from './audit';

/** Every key starts with this, so leaked keys are easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'vpk_';
/** How many characters of the key are kept in clear for listings. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** `lastUsedAt` is written at most this often per key, so heavy use costs no extra writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

type KeyRow = typeof apiKeys.$inferSelect;

/** The default grace period of a roll: the old secret keeps working for a day. */
export const DEFAULT_ROLL_GRACE_SECONDS = 86_400;
/** The longest grace period a roll may give the old secret (7 days). */
export const MAX_ROLL_GRACE_SECONDS = 7 * 86_400;
/** How many days of usage the reports cover. */
export const USAGE_DAYS = 90;

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
  expiresAt: string | null;
  ratelimitPerMinute: number | null;
  rolledAt: string | null;
  previousKeyExpiresAt: string | null;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toApiKeyView = (k: KeyRow, now = new Date()): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  organisationId: k.organisationId,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
  expiresAt: iso(k.expiresAt),
  ratelimitPerMinute: k.ratelimitPerMinute,
  rolledAt: iso(k.rolledAt),
  previousKeyExpiresAt: iso(previousSecretEnds(k, now)),
});

/**
 * When the secret a roll replaced stops working: the end of its grace period, or the key's own
 * `expiresAt` when that comes first. Null once no old secret works: the grace is over, or the key
 * is revoked or expired (every secret of it is refused then).
 */
export function previousSecretEnds(
  k: Pick<KeyRow, 'revokedAt' | 'expiresAt' | 'previousKeyExpiresAt'>,
  now = new Date(),
): Date | null {
  const graceEnds = k.previousKeyExpiresAt;
  if (k.revokedAt || !graceEnds || graceEnds.getTime() <= now.getTime()) return null;
  if (!k.expiresAt) return graceEnds;
  if (k.expiresAt.getTime() <= now.getTime()) return null;
  return k.expiresAt.getTime() < graceEnds.getTime() ? k.expiresAt : graceEnds;
}

const newSecret = async () => {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), keyHash: await sha256Hex(key) };
};

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
    expiresAt?: Date | undefined;
    ratelimitPerMinute?: number | undefined;
  },
): Promise<{ key: string; view: ApiKeyView }> {
  const { key, prefix, keyHash } = await newSecret();
  const id = crypto.randomUUID();
  const scopes = [...new Set(input.scopes)];
  if (input.organisationId) {
    const [org] = await db
      .select({ id: organisations.id })
      .from(organisations)
      .where(eq(organisations.id, input.organisationId))
      .limit(1);
    if (!org) throw new ProblemError('not-found', 'No organisation with this id.');
  }
  const [inserted] = await db.batch([
    db
      .insert(apiKeys)
      .values({
        id,
        name: input.name,
        scopes,
        prefix,
        keyHash,
        createdBy: input.createdBy,
        organisationId: input.organisationId ?? null,
        expiresAt: input.expiresAt ?? null,
        ratelimitPerMinute: input.ratelimitPerMinute ?? null,
      })
      .returning(),
    auditPowerInsert(db, {
      actor: input.createdBy,
      action: 'api_key.issued',
      target: { type: 'api_key', id },
      ip: input.ip ?? null,
      details: {
        name: input.name,
        scopes,
        organisationId: input.organisationId ?? null,
        expiresAt: input.expiresAt?.toISOString() ?? null,
        ratelimitPerMinute: input.ratelimitPerMinute ?? null,
      },
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

export type ResolvedApiKey = ApiKeyPrincipal & { lastUsedAt: Date | null };

/**
 * The key behind a presented secret: `ok` with the key; `expired` (past `expiresAt`); or null
 * (unknown, malformed, revoked, or an old secret whose grace period after a roll has ended).
 */
export async function resolveApiKey(
  db: Database,
  presented: string,
  now = new Date(),
): Promise<{ status: 'ok'; key: ResolvedApiKey } | { status: 'expired' } | null> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 128) return null;
  const hash = await sha256Hex(presented);
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      organisationId: apiKeys.organisationId,
      ratelimitPerMinute: apiKeys.ratelimitPerMinute,
      expiresAt: apiKeys.expiresAt,
      keyHash: apiKeys.keyHash,
      previousKeyExpiresAt: apiKeys.previousKeyExpiresAt,
    })
    .from(apiKeys)
    .where(and(or(eq(apiKeys.keyHash, hash), eq(apiKeys.previousKeyHash, hash)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return null;
  if (
    row.keyHash !== hash &&
    !(row.previousKeyExpiresAt && row.previousKeyExpiresAt.getTime() > now.getTime())
  )
    return null; // the secret a roll replaced, after its grace period
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { status: 'expired' };
  const { id, name, scopes, lastUsedAt, organisationId, ratelimitPerMinute, expiresAt } = row;
  const replacedByRoll = row.keyHash !== hash;
  return {
    status: 'ok',
    key: {
      id,
      name,
      scopes,
      lastUsedAt,
      organisationId,
      ratelimitPerMinute,
      expiresAt,
      replacedByRoll,
      sentKeyExpiresAt: replacedByRoll
        ? previousSecretEnds(
            { revokedAt: null, expiresAt, previousKeyExpiresAt: row.previousKeyExpiresAt },
            now,
          )
        : expiresAt,
    },
  };
}

/**
 * Rolls a key (unkey's model): a new secret for the same key id, scopes, limit and usage. The
 * old secret keeps working for `graceSeconds` (0: it stops at once), so a partner can deploy the
 * new one without downtime. Only the secret being replaced gets a grace period: rolling again
 * ends the grace of the one before. Audited. Null when no such key; a revoked or expired key is a 409.
 */
export async function rollApiKey(
  db: Database,
  id: string,
  graceSeconds: number,
  by: { actor: string; ip: string | null },
  now = new Date(),
): Promise<{ key: string; view: ApiKeyView } | null> {
  const [current] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  if (!current) return null;
  if (current.revokedAt) throw new ProblemError('conflict', 'This API key is revoked; issue a new one.');
  // An expired key's new secret would be refused at once (401 "expired"): no roll, as for a revoked one.
  if (current.expiresAt && current.expiresAt.getTime() <= now.getTime())
    throw new ProblemError('conflict', 'This API key has expired; issue a new one.');
  const { key, prefix, keyHash } = await newSecret();
  const graceEnds = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  const [updated] = await db.batch([
    db
      .update(apiKeys)
      .set({
        keyHash,
        prefix,
        previousKeyHash: graceEnds ? current.keyHash : null,
        previousKeyExpiresAt: graceEnds,
        rolledAt: now,
      })
      // Only from the secret read above: two concurrent rolls cannot both keep "their" old secret.
      .where(and(eq(apiKeys.id, id), eq(apiKeys.keyHash, current.keyHash), isNull(apiKeys.revokedAt)))
      .returning(),
    auditPowerInsert(db, {
      actor: by.actor,
      action: 'api_key.rolled',
      target: { type: 'api_key', id },
      ip: by.ip,
      details: { name: current.name, gracePeriodSeconds: graceSeconds },
    }),
  ]);
  const row = updated[0];
  if (!row) throw new ProblemError('conflict', 'The key was rolled or revoked at the same time; try again.');
  return { key, view: toApiKeyView(row, now) };
}

export async function getApiKey(db: Database, id: string): Promise<KeyRow | null> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row ?? null;
}

export type UsageCounts = { success: number; clientError: number; rateLimited: number; serverError: number };
export type UsageDay = UsageCounts & { day: string };

export const emptyCounts = (): UsageCounts => ({
  success: 0,
  clientError: 0,
  rateLimited: 0,
  serverError: 0,
});

/** `YYYY-MM-DD` (UTC) of a time in ms. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The last `USAGE_DAYS` UTC days (today included, oldest first, every day present) of a key's
 * requests by outcome: what the limiter has written to D1 plus what it still holds (`pending`).
 */
export async function usageReport(
  db: Database,
  apiKeyId: string,
  pending: Record<string, UsageCounts>,
  now = Date.now(),
): Promise<{ from: string; to: string; days: UsageDay[]; totals: UsageCounts }> {
  const days: string[] = [];
  for (let i = USAGE_DAYS - 1; i >= 0; i--) days.push(utcDay(now - i * 86_400_000));
  const from = days[0] as string;
  const to = days[days.length - 1] as string;
  const rows = await db
    .select()
    .from(apiKeyUsage)
    .where(and(eq(apiKeyUsage.apiKeyId, apiKeyId), gte(apiKeyUsage.day, from)));
  const byDay = new Map(days.map((d) => [d, emptyCounts()]));
  const add = (day: string, c: UsageCounts) => {
    const into = byDay.get(day);
    if (!into) return;
    into.success += c.success;
    into.clientError += c.clientError;
    into.rateLimited += c.rateLimited;
    into.serverError += c.serverError;
  };
  for (const r of rows) add(r.day, r);
  for (const [day, c] of Object.entries(pending)) add(day, c);
  const totals = emptyCounts();
  const out = days.map((day) => {
    const c = byDay.get(day) as UsageCounts;
    totals.success += c.success;
    totals.clientError += c.clientError;
    totals.rateLimited += c.rateLimited;
    totals.serverError += c.serverError;
    return { day, ...c };
  });
  return { from, to, days: out, totals };
}

/** The cron's sweep: usage rows older than the reports look. */
export async function purgeOldUsage(db: Database, now = Date.now()): Promise<void> {
  await db.delete(apiKeyUsage).where(lt(apiKeyUsage.day, utcDay(now - USAGE_DAYS * 86_400_000)));
}

export function lastUsedIsStale(lastUsedAt: Date | null, now = new Date()): boolean {
  return !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}

export async function touchApiKey(db: Database, id: string, now = new Date()): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
}
