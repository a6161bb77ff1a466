import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Context, MiddlewareHandler } from 'hono';
import { clientNetwork } from '../domain/network';
import type { RateDecision } from '../durable/rate-limiter';
import { onForgetIsolateState } from '../lib/isolate-state';
import { log } from '../lib/log';
import { ProblemError } from '../lib/problem';
import type { AppBindings } from './context';
import { IpAdmission, REPORT_INTERVAL_MS } from './ip-admission';
import { isFinished } from './response-headers';

/** The seed's three limits (§8), all per 60-second sliding window. */
export const RATE_LIMITS = {
  apikey: { limit: 600, windowSeconds: 60 },
  user: { limit: 60, windowSeconds: 60 },
  ip: { limit: 60, windowSeconds: 60 },
} as const;

export type LimitKind = keyof typeof RATE_LIMITS;

/** `RateLimit-Policy` and `RateLimit` in draft-ietf-httpapi-ratelimit-headers-11 syntax. */
export function rateLimitHeaders(kind: LimitKind, d: RateDecision): Record<string, string> {
  const { windowSeconds } = RATE_LIMITS[kind];
  return {
    'RateLimit-Policy': `"${kind}";q=${d.limit};w=${windowSeconds}`,
    RateLimit: `"${kind}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

/** Most keys remembered as full at once; beyond that the oldest refusal is forgotten (and asked again). */
const MAX_FULL_KEYS = 10_000;

/**
 * Keys whose object has refused a request, with the time (this isolate's clock, ms) its oldest
 * counted request leaves the window. Until then the object would refuse every request for the
 * key: refusals are not counted, and other isolates can only fill the window further. So the
 * isolate refuses by itself without asking, and a client hammering past its limit costs its
 * object one call per isolate per window instead of one per request. Exact to within the round
 * trip that brought the refusal: the wait starts when the answer arrives, so at most a few
 * milliseconds longer than the object would refuse.
 */
const fullUntil = new Map<string, number>();

/** A refusal answered from `fullUntil`, in the object's own terms. */
function knownRefusal(limit: number, retryAfterMs: number): RateDecision {
  return { allowed: false, limit, remaining: 0, resetSeconds: Math.ceil(retryAfterMs / 1000), retryAfterMs };
}

/** Shards of the public per-IP limit when `IP_LIMITER_SHARDS` is unset or invalid. */
export const DEFAULT_IP_LIMITER_SHARDS = 64;
const MAX_IP_LIMITER_SHARDS = 4096;

export function ipLimiterShards(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= MAX_IP_LIMITER_SHARDS ? n : DEFAULT_IP_LIMITER_SHARDS;
}

/**
 * The HMAC of the IP → shard hash, keyed with SHA-256(`ip-limiter-shard:v1:` + CERT_SIGNING_KEY)
 * once per isolate. Computed in JavaScript (@noble/hashes), not WebCrypto: a first-time visitor
 * is the commonest caller of the public limit, and an awaited `crypto.subtle.sign` per new
 * address cost about a tenth of the isolate's time under the bench's new-IP-per-request load;
 * the keyed state is cloned per address, so each costs two SHA-256 blocks.
 */
let shardMac: { secret: string; keyed: ReturnType<typeof hmac.create> } | null = null;

function shardHmac(secret: string, ip: string): Uint8Array {
  if (shardMac?.secret !== secret) {
    shardMac = { secret, keyed: hmac.create(sha256, sha256(utf8ToBytes(`ip-limiter-shard:v1:${secret}`))) };
  }
  return shardMac.keyed.clone().update(utf8ToBytes(ip)).digest();
}

/**
 * Where the public per-IP limit counts `ip`: the object `ip-shard:<n>` with n = HMAC(IP) mod
 * `shards`, and the key inside it (the HMAC, so no address is held even in memory). Keyed with a
 * secret so that nobody can choose addresses that all land on one shard.
 */
export function ipShard(
  env: Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  ip: string,
): { shard: string; key: string } {
  const shards = ipLimiterShards(env.IP_LIMITER_SHARDS);
  const secret = env.CERT_SIGNING_KEY ?? '';
  const memo = `${shards}:${ip}`;
  if (shardMemo.secret === secret) {
    const known = shardMemo.entries.get(memo);
    if (known) return known;
  } else shardMemo = { secret, entries: new Map() };
  const entries = shardMemo.entries;
  const mac = shardHmac(secret, ip);
  const n =
    (((mac[0] as number) << 24) |
      ((mac[1] as number) << 16) |
      ((mac[2] as number) << 8) |
      (mac[3] as number)) >>>
    0;
  let hex = '';
  for (let i = 0; i < 16; i++) hex += HEX[mac[i] as number];
  const found = { shard: `ip-shard:${n % shards}`, key: hex };
  if (entries.size >= MAX_SHARD_MEMO) entries.clear();
  entries.set(memo, found);
  return found;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
/**
 * Addresses whose shard this isolate has computed (a visitor's next request skips the HMAC).
 * Emptied when full: a bound on memory, not a cache whose misses matter.
 */
const MAX_SHARD_MEMO = 10_000;
let shardMemo: { secret: string; entries: Map<string, { shard: string; key: string }> } = {
  secret: '',
  entries: new Map(),
};

/** Where a decision came from, for `Server-Timing` and tests. */
export type DecisionSource = 'object' | 'known-full' | 'isolate';

/** This isolate's admission count of the public per-IP limit (src/middleware/ip-admission.ts). */
const admission = new IpAdmission();
/** When this isolate's pending report was scheduled (null: none). */
let reportScheduledAt: number | null = null;

onForgetIsolateState(() => {
  fullUntil.clear();
  admission.clear();
  reportScheduledAt = null;
});

/**
 * Sends the hits this isolate admitted by itself to their shards: one `reportKeys` call per
 * shard, whatever the number of addresses, and learns each address's log from the answer. A
 * failed call puts its hits back for the next report.
 */
export async function reportAdmissions(
  env: Pick<Env, 'RATE_LIMITER'> & Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  now: number = Date.now(),
): Promise<void> {
  const report = admission.drain();
  if (report.length === 0) return;
  const { limit, windowSeconds } = RATE_LIMITS.ip;
  const byShard = new Map<string, { ids: string[]; entries: [string, number[]][] }>();
  for (const [id, hits] of report) {
    const { shard, key } = ipShard(env, id);
    let group = byShard.get(shard);
    if (!group) {
      group = { ids: [], entries: [] };
      byShard.set(shard, group);
    }
    group.ids.push(id);
    group.entries.push([key, hits]);
  }
  await Promise.all(
    [...byShard].map(async ([shard, group]) => {
      try {
        const logs = await env.RATE_LIMITER.getByName(shard).reportKeys(
          group.entries,
          limit,
          windowSeconds,
          now,
        );
        for (const [i, id] of group.ids.entries())
          admission.settle(id, group.entries[i]?.[1] ?? [], logs[i] ?? []);
      } catch (err) {
        for (const [i, id] of group.ids.entries()) admission.settle(id, group.entries[i]?.[1] ?? [], null);
        log('error', 'rate limiter: report of admitted hits failed', { error: String(err) });
      }
    }),
  );
}

/**
 * Schedules one report `REPORT_INTERVAL_MS` from now on the request's `waitUntil`, unless one is
 * pending. A schedule older than ten intervals is taken as lost (its request's context ended
 * before it ran) and replaced; until then, an address with `ADMIT_AHEAD` unreported hits is
 * asked about synchronously, which carries them.
 */
function scheduleReport(
  env: Pick<Env, 'RATE_LIMITER'> & Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  waitUntil: (promise: Promise<unknown>) => void,
  now: number,
): void {
  if (reportScheduledAt !== null && now - reportScheduledAt < 10 * REPORT_INTERVAL_MS) return;
  reportScheduledAt = now;
  waitUntil(
    new Promise((resolve) => setTimeout(resolve, REPORT_INTERVAL_MS)).then(() => {
      reportScheduledAt = null;
      return reportAdmissions(env);
    }),
  );
}

/** A request of `id` admitted by this isolate's count of the public per-IP limit, or null (see `IpAdmission`). */
function admitInIsolate(
  env: Pick<Env, 'RATE_LIMITER'> & Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  id: string,
  limit: number,
  now: number,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
): (RateDecision & { cached: boolean; source: DecisionSource }) | null {
  const local = admission.tryAdmit(id, limit, RATE_LIMITS.ip.windowSeconds * 1000, now);
  if (!local) return null;
  if (waitUntil) scheduleReport(env, waitUntil, now);
  return { ...local, cached: true, source: 'isolate' };
}

/**
 * The public per-IP limit's decision for `id` when this isolate takes it with no I/O and it
 * admits the request (counted, as `consumeRateLimit` would): null when the key is known to be
 * full or its shard must be asked, which only `consumeRateLimit` does (src/http/memory-reads.ts).
 */
export function admittedWithoutIo(
  env: Pick<Env, 'RATE_LIMITER'> & Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  id: string,
  now: number,
  waitUntil: (promise: Promise<unknown>) => void,
): (RateDecision & { cached: boolean; source: DecisionSource }) | null {
  if (fullUntil.has(`ip:${id}`)) return null;
  return admitInIsolate(env, id, RATE_LIMITS.ip.limit, now, waitUntil);
}

/**
 * Counts this request, unless the key is known to be full (see `fullUntil`). `source` tells who
 * decided: the key's Durable Object, the isolate's memory of a refusal, or (public per-IP limit
 * only) the isolate's admission count. API keys and users have one object each (`kind:id`,
 * exact, persisted write-behind), asked on every request. Client IPs share a bounded set of
 * shard objects (`ipShard`: exact per IP, in memory only), so a first-time visitor creates no
 * object; an IP far from its limit is admitted by the isolate and reported in batches
 * (`IpAdmission`, decision 0150), one close to it is asked about exactly. `waitUntil` (the
 * request's) carries the batched report; without it the hits wait for the IP's next exact call.
 */
export async function consumeRateLimit(
  env: Pick<Env, 'RATE_LIMITER'> & Partial<Pick<Env, 'CERT_SIGNING_KEY' | 'IP_LIMITER_SHARDS'>>,
  kind: LimitKind,
  id: string,
  now: number = Date.now(),
  /** A lower limit of this key's own (a per-key API-key limit); the kind's default otherwise. */
  ownLimit?: number | null,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<RateDecision & { cached: boolean; source: DecisionSource }> {
  const { windowSeconds } = RATE_LIMITS[kind];
  const limit = ownLimit && ownLimit < RATE_LIMITS[kind].limit ? ownLimit : RATE_LIMITS[kind].limit;
  const key = `${kind}:${id}`;
  const until = fullUntil.get(key);
  if (until !== undefined) {
    if (now < until) return { ...knownRefusal(limit, until - now), cached: true, source: 'known-full' };
    fullUntil.delete(key);
  }
  let decision: RateDecision;
  if (kind === 'ip') {
    const local = admitInIsolate(env, id, limit, now, waitUntil);
    if (local) return local;
    const shard = ipShard(env, id);
    const earlier = admission.takePending(id, now);
    try {
      const answer = await env.RATE_LIMITER.getByName(shard.shard).admitKey(
        shard.key,
        earlier,
        limit,
        windowSeconds,
        now,
      );
      admission.settle(id, earlier, answer.log, now);
      decision = answer.decision;
    } catch (err) {
      admission.settle(id, earlier, null, now);
      throw err;
    }
  } else {
    decision = await env.RATE_LIMITER.getByName(key).hit(limit, windowSeconds);
  }
  if (!decision.allowed) {
    if (fullUntil.size >= MAX_FULL_KEYS) {
      const oldest = fullUntil.keys().next().value;
      if (oldest !== undefined) fullUntil.delete(oldest);
    }
    fullUntil.set(key, Date.now() + decision.retryAfterMs);
  }
  return { ...decision, cached: false, source: 'object' };
}

const DESCRIPTIONS: Record<DecisionSource, string> = {
  object: '',
  'known-full': ';desc="known full"',
  isolate: ';desc="admitted in isolate"',
};

/**
 * The headers a limited response carries: the limit's (`rateLimitHeaders`) and, for clients'
 * devtools and for `npm run bench`, what the limiter added to the request since `started`
 * (`performance.now()`) and who decided.
 */
export function limitHeaders(
  kind: LimitKind,
  decision: RateDecision & { source: DecisionSource },
  started: number,
): Record<string, string> {
  const timing = `ratelimit;dur=${(performance.now() - started).toFixed(2)}${DESCRIPTIONS[decision.source]}`;
  return { ...rateLimitHeaders(kind, decision), 'Server-Timing': timing };
}

/** The request's `waitUntil`, when it has an execution context (not in `app.request` tests). */
export function waitUntilOf<E extends AppBindings>(
  c: Context<E>,
): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

/**
 * Counts the request and refuses it with a `quota-exceeded` problem when over the limit.
 * The headers go on every response of a limited route, errors included.
 */
export async function enforceRateLimit<E extends AppBindings>(
  c: Context<E>,
  kind: LimitKind,
  id: string,
  next: () => Promise<void>,
  ownLimit?: number | null,
): Promise<void> {
  const started = performance.now();
  const decision = await consumeRateLimit(c.env, kind, id, Date.now(), ownLimit, waitUntilOf(c));
  const headers = limitHeaders(kind, decision, started);
  if (!decision.allowed) {
    throw new ProblemError(
      'quota-exceeded',
      `Rate limit of ${decision.limit} requests per ${RATE_LIMITS[kind].windowSeconds} seconds reached for this ${kind === 'apikey' ? 'API key' : kind === 'user' ? 'user' : 'IP address'}.`,
      { headers: { ...headers, 'Retry-After': String(decision.resetSeconds) } },
    );
  }
  // A handler that builds its response with every header (`finishedResponse`) takes these too.
  c.set('rateLimitHeaders', headers);
  await next();
  if (isFinished(c)) return;
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
}

/**
 * The key the public per-IP limit counts a client under: an IPv4 address as it is, an IPv6
 * address by its /64 (`clientNetwork`), as the login and signup limits do: one subscriber holds
 * a whole /64 and could otherwise rotate through 2^64 budgets of 60. Constant work: an IPv4
 * address, the common case, is one test.
 */
export function ipLimitKey(ip: string | undefined): string {
  return ip !== undefined && !ip.includes(':') ? ip : clientNetwork(ip);
}

/** Per client (`CF-Connecting-IP`, which Cloudflare sets; IPv6 per /64), for public routes such as the leaderboard. */
export function ipRateLimit(): MiddlewareHandler<AppBindings> {
  return (c, next) => enforceRateLimit(c, 'ip', ipLimitKey(c.req.header('CF-Connecting-IP')), next);
}
