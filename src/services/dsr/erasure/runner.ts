/** Runs (or resumes) one erasure request's cascade, step by step, counting every chunk. */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { auditLog, erasureReceipts, users } from '../../../db/schema';
import { randomToken } from '../../../domain/secrets';
import { afterCommit } from '../../after-commit';
import { FORMER_EMPLOYER } from '../../certificates';
import type { CorpusEnv } from '../../corpus';
import { recordErasureEvents, releaseErasureEvents } from '../../webhooks/events';
import type { StepContext } from './context';
import { addToCount } from './context';
import { type ErasurePayload, type ErasureReceiptView, erasureReceipt, toReceiptView } from './request';
import { ERASURE_STEPS } from './steps';

/**
 * The addresses the person had before correcting their email, from their `dsr.correction` audit
 * entries (`details.before.email`, `details.after.email`), leaving out the current one and any
 * another account has taken since (rows naming it may well be that person's). The audit step
 * pseudonymises these entries last, so a resumed cascade still finds them.
 */
async function formerEmailsOf(db: Database, userId: string, current: string | null): Promise<string[]> {
  const entries = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'dsr.correction'),
        eq(auditLog.targetType, 'user'),
        eq(auditLog.targetId, userId),
        isNull(auditLog.pseudonymisedAt),
      ),
    )
    .limit(100);
  const found = new Set<string>();
  for (const { details } of entries)
    for (const side of [details?.before, details?.after]) {
      const address = (side as { email?: unknown } | null | undefined)?.email;
      if (typeof address === 'string' && address !== current) found.add(address);
    }
  // At most FORMER_EMAILS: each is a bound parameter of the steps' statements.
  const candidates = [...found].slice(0, FORMER_EMAILS);
  if (candidates.length === 0) return [];
  const taken = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, candidates), ne(users.id, userId)));
  return candidates.filter((c) => !taken.some((t) => t.email === c));
}

/** Former addresses the cascade looks for (nobody corrects their email that often). */
const FORMER_EMAILS = 20;

export const tombstoneEmail = (requestId: string) => `erased-${requestId}@invalid`;

/** The stand-in employer for one erased employer: no personal data, no way to sign in. */
async function ensureTombstone(db: Database, requestId: string): Promise<string> {
  const email = tombstoneEmail(requestId);
  await db
    .insert(users)
    .values({
      email,
      name: FORMER_EMPLOYER,
      role: 'employer',
      passwordHash: randomToken(32),
      passwordSalt: randomToken(16),
      passwordIterations: 1,
      disabledAt: new Date(),
    })
    .onConflictDoNothing({ target: users.email });
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row!.id;
}

/**
 * Runs (or resumes) the cascade of one erasure request. Throws on any failure, leaving the
 * receipt `in_progress` with the counts of every chunk that committed; the consumer then asks
 * the queue to retry the message with backoff.
 */
export async function runErasureCascade(
  db: Database,
  message: ErasurePayload,
  env: Pick<Env, 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'EXPORTS'> & CorpusEnv,
  now = new Date(),
  /** Called after each step (and after the cache purge); fault-injection tests throw here. */
  onStep: (step: string) => Promise<void> = async () => {},
): Promise<ErasureReceiptView> {
  const { requestId, userId } = message;
  // A message without a receipt is still the person's request: the route undoes its records
  // when the send reports failure, but a send that timed out may have been enqueued anyway.
  await db
    .insert(erasureReceipts)
    .values({ requestId, state: 'in_progress', deletedCounts: {}, requestedAt: now })
    .onConflictDoNothing();
  const [receipt] = await db.select().from(erasureReceipts).where(eq(erasureReceipts.requestId, requestId));
  if (!receipt) throw new Error('erasure receipt missing after insert');
  if (receipt.state === 'completed') return toReceiptView(receipt);

  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const email = account?.email ?? null;
  let tombstoneId: string | undefined;
  const ctx: StepContext = {
    db,
    env,
    person: { userId, email, requestId, formerEmails: await formerEmailsOf(db, userId, email) },
    tombstone: async () => {
      tombstoneId ??= await ensureTombstone(db, requestId);
      return tombstoneId;
    },
    count: async (key, n) => {
      await addToCount(db, requestId, key, sql`${n}`);
    },
    chunk: async (key, change) => {
      if (!change) {
        await addToCount(db, requestId, key, sql`0`);
        return 0;
      }
      const count = addToCount(db, requestId, key, sql`changes()`);
      if (Array.isArray(change)) {
        const { sql: text, params } = count.toSQL();
        const results = await db.$client.batch([...change, db.$client.prepare(text).bind(...params)]);
        return touched(results[results.length - 2]);
      }
      const [result] = await db.batch([change, count]);
      return touched(result);
    },
  };

  // Resume at the last step with an entry: the ones before it are complete.
  const started = Object.keys(receipt.deletedCounts);
  // Before anything is deleted: which organisations held the person's data (their webhooks).
  if (started.length === 0) await recordErasureEvents(db, requestId, userId, now);
  const resumeAt = Math.max(0, ...ERASURE_STEPS.map((s, i) => (started.includes(s.key) ? i : -1)));
  for (const s of ERASURE_STEPS.slice(resumeAt)) {
    await s.run(ctx);
    await onStep(s.key);
  }

  // Rows are gone; now the caches that were built from them.
  await afterCommit(db, env, { everyBoard: true, agreement: true }, { now });
  await onStep('caches');
  const hooks = await releaseErasureEvents(db, requestId, now);
  await db.batch([
    db
      .update(erasureReceipts)
      .set({ state: 'completed', completedAt: now })
      .where(and(eq(erasureReceipts.requestId, requestId), isNull(erasureReceipts.completedAt))),
    ...hooks.statements,
  ]);
  await afterCommit(db, env, { jobs: hooks.jobIds }, { now });
  return (await erasureReceipt(db, requestId))!;
}

/** Rows a batched statement touched: its `changes` (or the rows a `returning` gave back). */
function touched(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const meta = (result as { meta?: { changes?: number } } | undefined)?.meta;
  return meta?.changes ?? 0;
}
