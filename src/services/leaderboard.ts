import type { Database } from '../db/client';
import { birthCutoff } from '../domain/age';
import type { Leaderboard, LeaderboardEntry } from '../domain/leaderboard';
import { clock } from '../lib/clock';
import { type CachedPayload, fillCache, leaderboardKey, leaderboardMemory } from './cache-keys';

/**
 * Whether a domain's board may be cached: only domains with a published (or closed, so
 * formerly published) brief. Certificates exist only for such briefs, so any other domain's
 * board is empty; answering it uncached keeps made-up `domain` values from creating KV
 * entries (and KV writes) at will. One indexed lookup (`briefs_state_domain_idx`).
 */
export async function isBoardDomain(db: Database, domain: string): Promise<boolean> {
  const row = await db.$client
    .prepare(`SELECT 1 AS found FROM briefs WHERE state IN ('published', 'closed') AND domain = ? LIMIT 1`)
    .bind(domain)
    .first<{ found: number }>();
  return row !== null;
}

/** The domains of a person's certificates: the boards other than the all-domains one they can appear on. */
export async function leaderboardDomainsOf(db: Database, userId: string): Promise<string[]> {
  const { results } = await db.$client
    .prepare('SELECT DISTINCT domain FROM certificates WHERE holder_id = ?')
    .bind(userId)
    .all<{ domain: string }>();
  return results.map((r) => r.domain);
}

/**
 * Every domain whose board can be cached (see `isBoardDomain`): what erasure purges, as the
 * erased person's certificates (and so their domains) may already be gone when it resumes.
 * Bounded by the published briefs, not by what anyone asks for.
 */
export async function boardDomains(db: Database): Promise<string[]> {
  const { results } = await db.$client
    .prepare(`SELECT DISTINCT domain FROM briefs WHERE state IN ('published', 'closed')`)
    .all<{ domain: string }>();
  return results.map((r) => r.domain);
}

/** Entries kept per domain; `limit` slices this list. */
export const LEADERBOARD_SIZE = 100;
/** Safety net; the entry is deleted whenever a rating, revocation, consent change or erasure could change it. */
const CACHE_TTL_SECONDS = 60 * 60;
/** Cache key for the all-domains board. */
export const ALL_DOMAINS = '*';

/**
 * Candidates whose latest `leaderboard` consent event is a grant, with at least one active
 * certificate of a verified organisation (in the domain, when given), ranked by certificates, then average employer
 * score, then name. A row whose holder shows their name (no alias, `public_verification` granted)
 * carries the number of their latest valid certificate there, so the embed links to its page. Ties share a rank (1, 2, 2, 4). The latest consent event is found by
 * time with the rowid as a tiebreak, so two events in the same millisecond resolve to the
 * last one written.
 */
export async function computeLeaderboard(
  db: Database,
  domain: string | null,
  now = clock.now(),
): Promise<Leaderboard> {
  const domainFilter = domain === null ? '' : 'AND c.domain = ?1';
  const adultBornBy = birthCutoff(now);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(adultBornBy)) throw new Error('unexpected birth cutoff');
  const ratingFilter = domain === null ? '' : 'AND r.domain = ?1';
  const sql = `
    WITH consenting AS (
      SELECT ce.user_id FROM consent_events ce
      WHERE ce.purpose = 'leaderboard'
        AND ce.rowid = (
          SELECT c2.rowid FROM consent_events c2
          WHERE c2.user_id = ce.user_id AND c2.purpose = 'leaderboard'
          ORDER BY c2.created_at DESC, c2.rowid DESC LIMIT 1)
        AND ce.action = 'grant'
        AND ce.granted_by IS NULL
    ),
    certified AS (
      SELECT c.holder_id AS user_id, count(*) AS certificates
      FROM certificates c JOIN consenting ON consenting.user_id = c.holder_id
      JOIN organisations o ON o.id = c.organisation_id AND o.verification = 'verified'
      WHERE c.status = 'active' ${domainFilter}
      GROUP BY c.holder_id
    ),
    -- Averages computed once and joined: a correlated subquery per candidate rescanned every
    -- rating of the domain for each of them (rows read before and after: docs/performance.md).
    -- Holders who show their name on the board (no other alias) and on their certificate pages
    -- (public_verification stands, given by themselves): their row may link to a certificate,
    -- which then says nothing the row does not (decision 0333).
    named AS (
      SELECT ce.user_id FROM consent_events ce
      WHERE ce.purpose = 'public_verification'
        AND ce.user_id IN (SELECT user_id FROM certified)
        AND ce.rowid = (
          SELECT c2.rowid FROM consent_events c2
          WHERE c2.user_id = ce.user_id AND c2.purpose = 'public_verification'
          ORDER BY c2.created_at DESC, c2.rowid DESC LIMIT 1)
        AND ce.action = 'grant'
        AND ce.granted_by IS NULL
    ),
    scores AS (
      SELECT s.candidate_id AS user_id, avg(r.score) AS average_score
      FROM employer_ratings r
      JOIN organisations o ON o.id = r.organisation_id AND o.verification = 'verified'
      JOIN evaluations e ON e.id = r.evaluation_id
      JOIN submissions s ON s.id = e.submission_id
      WHERE s.candidate_id IN (SELECT user_id FROM certified) ${ratingFilter}
      GROUP BY s.candidate_id
    )
    SELECT u.id, coalesce(u.public_alias, u.name) AS alias, certified.certificates AS certificates,
      scores.average_score AS average_score,
      CASE WHEN u.public_alias IS NULL AND u.id IN (SELECT user_id FROM named) THEN (
        SELECT c.certificate_no FROM certificates c
        JOIN organisations o ON o.id = c.organisation_id AND o.verification = 'verified'
        WHERE c.holder_id = u.id AND c.status = 'active' AND c.credential_jwt IS NOT NULL
          AND (c.valid_until IS NULL OR c.valid_until > ?${domain === null ? '1' : '2'}) ${domainFilter}
        ORDER BY c.issued_at DESC, c.id DESC LIMIT 1
      ) END AS certificate_no
    FROM certified JOIN users u ON u.id = certified.user_id
    LEFT JOIN scores ON scores.user_id = u.id
    WHERE u.disabled_at IS NULL
      -- Never a child (DPDP §9(3)), whatever the ledger says; ISO dates compare as text.
      AND (u.date_of_birth IS NULL OR u.date_of_birth <= '${adultBornBy}')
    ORDER BY certificates DESC, average_score DESC, alias ASC, u.id ASC
    LIMIT ${LEADERBOARD_SIZE}`;
  const statement = db.$client.prepare(sql);
  const at = now.getTime();
  const { results } = await (domain === null ? statement.bind(at) : statement.bind(domain, at)).all<{
    alias: string;
    certificates: number;
    average_score: number | null;
    certificate_no: string | null;
  }>();
  const entries: LeaderboardEntry[] = [];
  results.forEach((row, i) => {
    const averageEmployerScore =
      row.average_score === null ? null : Math.round(row.average_score * 100) / 100;
    const previous = entries[i - 1];
    const tied =
      previous &&
      previous.certificates === row.certificates &&
      previous.averageEmployerScore === averageEmployerScore;
    entries.push({
      rank: tied ? previous.rank : i + 1,
      alias: row.alias,
      certificates: row.certificates,
      averageEmployerScore,
      ...(row.certificate_no ? { certificateNo: row.certificate_no } : {}),
    });
  });
  return { domain, generatedAt: now.toISOString(), entries };
}

/** The board of a domain nobody has published a brief in: always empty, never cached. */
const emptyBoards = new Map<string, Leaderboard>();

/**
 * The board object this isolate last served per key. A board re-read from KV when its 5 seconds
 * in memory are up is, nearly always, the same board (same `generatedAt`, which its ETag is made
 * of): the object already served is kept, so its serialised and gzipped bodies and the rendered
 * embed page (cached per board object) are reused instead of being built again every 5 seconds,
 * once per request that found the board stale. A board computed again (after a rating, a purge)
 * has a new `generatedAt` and replaces it.
 */
const lastServed = new Map<string, Leaderboard>();
const MAX_LAST_SERVED = 200;

/** `board`, or the object already served for `key` when it is the same board. */
function sameBoardAsServed(key: string, board: Leaderboard): Leaderboard {
  const last = lastServed.get(key);
  if (last && last.generatedAt === board.generatedAt && last.domain === board.domain) return last;
  if (lastServed.size >= MAX_LAST_SERVED) lastServed.clear();
  lastServed.set(key, board);
  return board;
}

/**
 * The cached board for a domain (its top 100): from the isolate's memory, else KV, else
 * computed from D1 and stored. A domain without a published brief gets an empty board that is
 * cached nowhere (see `isBoardDomain`).
 */
export async function cachedLeaderboard(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  domain: string | null,
): Promise<Leaderboard> {
  const key = leaderboardKey(domain ?? ALL_DOMAINS);
  const board = await leaderboardMemory.get(key, async () => {
    const hit = await env.CACHE.get<Leaderboard>(key, 'json');
    if (hit) return sameBoardAsServed(key, hit);
    if (domain !== null && !(await isBoardDomain(db, domain))) return null;
    const computed = await computeLeaderboard(db, domain);
    await fillCache(env.CACHE, key, JSON.stringify(computed), { expirationTtl: CACHE_TTL_SECONDS });
    return sameBoardAsServed(key, computed);
  });
  if (board) return board as Leaderboard;
  // One empty board object per domain name for a while, so its serialised body is reused too.
  let empty = emptyBoards.get(domain as string);
  if (!empty) {
    if (emptyBoards.size >= 100) emptyBoards.clear();
    empty = { domain, generatedAt: new Date().toISOString(), entries: [] };
    emptyBoards.set(domain as string, empty);
  }
  return empty;
}

/** How long a client or shared cache may keep a leaderboard. */
export const LEADERBOARD_CACHE_CONTROL = 'public, max-age=30';

/** The board `cachedLeaderboard` would answer from the isolate's memory with no I/O, else undefined. */
export function leaderboardFromMemory(
  domain: string | null,
  now: number = Date.now(),
): Leaderboard | undefined {
  return leaderboardMemory.fresh(leaderboardKey(domain ?? ALL_DOMAINS), now) as Leaderboard | undefined;
}

/** Bodies already serialised, per board object (the isolate cache hands out the same one for a while) and `limit`. */
const serialised = new WeakMap<Leaderboard, Map<number, CachedPayload>>();

/**
 * The JSON body of `GET /api/leaderboard` for the first `limit` entries, and its ETag.
 * Serialised once per board and limit, not once per request.
 */
export function leaderboardBody(board: Leaderboard, limit: number): CachedPayload {
  let byLimit = serialised.get(board);
  if (!byLimit) {
    byLimit = new Map();
    serialised.set(board, byLimit);
  }
  let body = byLimit.get(limit);
  if (!body) {
    body = {
      json: JSON.stringify({ ...board, entries: board.entries.slice(0, limit) }),
      etag: `W/"${Date.parse(board.generatedAt).toString(36)}-${limit}"`,
    };
    byLimit.set(limit, body);
  }
  return body;
}
