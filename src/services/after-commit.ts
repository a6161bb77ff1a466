/**
 * What a committed change causes, decided in one place.
 *
 * A service writes its change (one D1 batch, with any outbox jobs in it) and then describes what
 * changed: certificates issued or changed, leaderboard domains, a person, an organisation, a
 * rating, the jobs it wrote. `afterCommit` turns that description into the effects: cached
 * verifications dropped (here, in KV and through the change feed), leaderboards purged, the
 * membership filter told about new numbers, the public agreement rate rewritten, jobs handed to
 * the queue. A new write path names what it changed and cannot forget an effect; a handler calls
 * a service and returns.
 *
 * Every effect is idempotent and may be lost (an isolate dies after the commit): the caches have
 * TTLs and rebuild from D1, the sweeper enqueues any job that was not sent (docs/reliability.md).
 */

import { eq, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { certificates } from '../db/schema';
import { refreshPublicAgreement } from './agreement-rate';
import { purgeLeaderboards } from './cache-keys';
import { forgetOrganisationViews } from './dsr/public-views';
import { dispatchJobs, runJobNow } from './jobs/jobs';
import { publicViewsChanged } from './kv-coalesce';
import { boardDomains, leaderboardDomainsOf } from './leaderboard';
import { announceIssued, rememberIssued } from './verification-filter';
import { forgetVerifications } from './verification-memory';

/** What a committed change touched. Every field is optional; an empty description does nothing. */
export type Committed = {
  /** Certificate numbers that came into being: verifiable here at once, and announced to other isolates. */
  issued?: readonly string[];
  /** Certificates whose public verification changed (revoked, signed, re-signed, erased): cached payloads dropped. */
  certificates?: readonly string[];
  /** Domains whose leaderboards changed (with the all-domains board): purged by name. */
  domains?: readonly string[];
  /** Every cacheable leaderboard changed (someone vanished from all of them). */
  everyBoard?: boolean;
  /** A rating landed in this domain: the public agreement rate and its boards are rewritten, coalesced. */
  ratedIn?: string;
  /** The public agreement rate changed (an organisation's pairs started or stopped counting). */
  agreement?: boolean;
  /**
   * A person's public views changed: `shown` (consent, correction) drops the certificates they
   * hold or rated and those certificates' boards; `alias` drops the boards they can appear on;
   * `leaving` (an erasure request) drops up to a hundred of their certificates and every board
   * (the cascade drops the rest).
   */
  person?: { id: string; change: 'shown' | 'alias' | 'leaving' };
  /** An organisation's public face changed: every certificate it issued (paged by jobs) and their boards. */
  organisation?: string;
  /** Outbox jobs written in the change's batch: handed to the queue (else the sweeper does). */
  jobs?: readonly string[];
  /**
   * Outbox jobs written in the change's batch that this isolate runs at once instead of queueing
   * (the evaluation a candidate waits for): a failure is queued for a retry, a lost run is the
   * sweeper's. Needs the whole `Env` (the job's handler may use any binding).
   */
  run?: readonly string[];
};

/** The bindings the effects use. The queue is optional: without it the sweeper enqueues the jobs. */
export type EffectsEnv = Pick<Env, 'CACHE'> & Partial<Pick<Env, 'KV_COALESCER' | 'JOBS_QUEUE'>>;

export type AfterCommitOptions = {
  now?: Date;
  /**
   * Runs the effects after the response (`executionCtx.waitUntil`); this isolate still learns
   * new numbers at once. Without it the effects are awaited.
   */
  defer?: (effects: Promise<unknown>) => void;
};

/** Where a service runs the effects of what it committed: the bindings, and in a request its `waitUntil`. */
export type Effects<E extends EffectsEnv = EffectsEnv> = { env: E; defer?: AfterCommitOptions['defer'] };

/** Certificates whose cached verification an erasure request itself drops (the cascade drops the rest). */
const REQUEST_PURGE_LIMIT = 100;

/** Applies the effects of a committed change (see the module comment). */
export async function afterCommit(
  db: Database,
  env: EffectsEnv,
  committed: Committed,
  options: AfterCommitOptions = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const issued = committed.issued ?? [];
  if (options.defer) {
    // This isolate verifies the new numbers at once; others once the recent set is rewritten.
    if (issued.length > 0) rememberIssued(issued);
    options.defer(effects(db, env, committed, now));
    return;
  }
  await effects(db, env, committed, now);
}

async function effects(db: Database, env: EffectsEnv, committed: Committed, now: Date): Promise<void> {
  const person = committed.person ? await personViews(db, committed.person) : EMPTY;
  const certificateNos = [...(committed.certificates ?? []), ...person.certificates];
  const domains = [...(committed.domains ?? []), ...person.domains];
  const issued = committed.issued ?? [];
  const jobIds = committed.jobs ?? [];
  // Independent of each other: one failing does not keep the others from running.
  await inTurn([
    // The caches first, so nothing a job does afterwards reads a stale view.
    () =>
      settled([
        () => (certificateNos.length > 0 ? forgetVerifications(env, certificateNos) : undefined),
        () =>
          committed.everyBoard || person.everyBoard
            ? boardDomains(db).then((all) => purgeLeaderboards(env.CACHE, all))
            : committed.domains || person.boards
              ? purgeLeaderboards(env.CACHE, domains)
              : undefined,
        () =>
          committed.ratedIn !== undefined
            ? publicViewsChanged(db, coalesced(env), committed.ratedIn)
            : undefined,
        () => (issued.length > 0 ? announceIssued(db, coalesced(env), issued) : undefined),
      ]),
    () =>
      committed.organisation !== undefined
        ? forgetOrganisationViews(db, queued(env), committed.organisation, now)
        : undefined,
    () => (committed.agreement ? refreshPublicAgreement(db, env, now) : undefined),
    () => (env.JOBS_QUEUE && jobIds.length > 0 ? dispatchJobs(db, queued(env), jobIds, now) : undefined),
    () => (committed.run && committed.run.length > 0 ? runNow(db, env, committed.run) : undefined),
  ]);
}

/** Runs the effects one after another, and throws the first failure once all have run. */
async function inTurn(work: readonly (() => Promise<unknown> | undefined)[]): Promise<void> {
  let failure: { reason: unknown } | undefined;
  for (const w of work) {
    try {
      await w();
    } catch (reason) {
      failure ??= { reason };
    }
  }
  if (failure) throw failure.reason;
}

/** Runs the effects at once, and throws the first failure once all have settled. */
async function settled(work: readonly (() => Promise<unknown> | undefined)[]): Promise<void> {
  const results = await Promise.allSettled(work.map(async (w) => w()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What a person's change drops; `boards`: the all-domains board and those of `domains`. */
type PersonViews = { certificates: string[]; domains: string[]; boards: boolean; everyBoard: boolean };
const EMPTY: PersonViews = { certificates: [], domains: [], boards: false, everyBoard: false };

async function personViews(
  db: Database,
  { id, change }: NonNullable<Committed['person']>,
): Promise<PersonViews> {
  const theirs = or(eq(certificates.holderId, id), eq(certificates.employerId, id));
  switch (change) {
    case 'alias':
      return {
        certificates: [],
        domains: await leaderboardDomainsOf(db, id),
        boards: true,
        everyBoard: false,
      };
    case 'leaving': {
      // The rebuilt views leave them out: their account is disabled (see `buildVerification` and
      // `computeLeaderboard`). Other isolates may serve their copy for `ISOLATE_CACHE_TTL_MS` more.
      const rows = await db
        .select({ no: certificates.certificateNo })
        .from(certificates)
        .where(theirs)
        .orderBy(sql`${certificates.holderId} = ${id} DESC`)
        .limit(REQUEST_PURGE_LIMIT);
      return { certificates: rows.map((r) => r.no), domains: [], boards: true, everyBoard: true };
    }
    case 'shown': {
      // The certificates they hold (their name) and the ones their rating completed (an
      // employer's credentials may be re-signed under the organisation).
      const held = await db
        .select({ no: certificates.certificateNo, domain: certificates.domain })
        .from(certificates)
        .where(theirs);
      return {
        certificates: held.map((c) => c.no),
        domains: held.map((c) => c.domain),
        boards: true,
        everyBoard: false,
      };
    }
  }
}

function coalesced(env: EffectsEnv): Pick<Env, 'CACHE' | 'KV_COALESCER'> {
  if (!env.KV_COALESCER) throw new Error('KV_COALESCER binding missing: cannot announce a public change');
  return { CACHE: env.CACHE, KV_COALESCER: env.KV_COALESCER };
}

/** Runs the jobs one after another; each failure is queued for a retry by `runJobNow`. */
async function runNow(db: Database, env: EffectsEnv, jobIds: readonly string[]): Promise<void> {
  if (!('AI' in env)) throw new Error('A job run at once needs the whole Env: pass the worker environment');
  for (const id of jobIds) await runJobNow(db, env as Env, id);
}

function queued(env: EffectsEnv): Pick<Env, 'CACHE' | 'JOBS_QUEUE'> {
  if (!env.JOBS_QUEUE) throw new Error('JOBS_QUEUE binding missing: cannot page a purge');
  return { CACHE: env.CACHE, JOBS_QUEUE: env.JOBS_QUEUE };
}
