/**
 * The public reads the isolate can answer from its own memory, answered before the router: no
 * route matching, no middleware chain, no parameter validation for an answer already built
 * (issue 43: on a verification hit those were about a tenth of the isolate's time, most of the
 * difference between the service and a hello-world Worker). A request this does not recognise
 * exactly, or whose answer memory does not hold, is `null` and takes the full path through the
 * app, which stays the one source of every answer: this replays only what that path put in
 * memory, through the same response builders (`publicJsonResponse`, `openDocumentResponse`) and
 * the same envelope (request id, CORS, security headers) the app's middleware would give it.
 *
 * The leaderboard is counted by the public per-IP limit here as in the app (`admittedWithoutIo`):
 * a request the isolate admits by itself is answered from memory with the limit's headers; one
 * whose address is near its limit or known full takes the full path, which asks the shard or
 * refuses. Only a query string the app has already validated is recognised (`rememberLeaderboardQuery`).
 * The embed page the same way (decision 0329): a query string its handler validated, the board in
 * memory, the isolate's admission, and the handler's own builder (`rememberEmbedQuery`); a visitor
 * with a session cookie takes the full path. Everything authenticated always takes the full path.
 */
import type { Leaderboard } from '../domain/leaderboard';
import { corsCase } from '../middleware/public-cors';
import { admittedWithoutIo, ipLimitKey, limitHeaders } from '../middleware/rate-limit';
import { PUBLIC_AGREEMENT_CACHE_CONTROL, publicAgreementFromMemory } from '../services/agreement-rate';
import { LEADERBOARD_CACHE_CONTROL, leaderboardBody, leaderboardFromMemory } from '../services/leaderboard';
import { JWKS_MAX_AGE, publishedKeysFromMemory } from '../services/signing-key';
import { VERIFICATION_CACHE_CONTROL, verificationFromMemory } from '../services/verification-reads';
import { hasSessionCookie } from './cold-reads';
import { type Envelope, envelopedResponse, openDocumentResponse } from './finished-response';
import { pathOf, publicEnvelope, replayJson, VERIFY_PREFIX } from './replay';

export { pathOf };

const AGREEMENT_PATH = '/api/public/agreement-rate';
const JWKS_PATH = '/.well-known/jwks.json';
const LEADERBOARD_PATH = '/api/leaderboard';
const EMBED_PATH = '/embed/leaderboard';

/** A leaderboard query as its route validated it. */
type LeaderboardQuery = { domain: string | null; limit: number };

/** Most distinct leaderboard paths remembered; emptied when full (a bound, not an eviction policy). */
const MAX_KNOWN_QUERIES = 512;
/** Leaderboard paths (with their query strings, exactly as sent) the app has validated. */
const knownQueries = new Map<string, LeaderboardQuery>();

/**
 * Called by the leaderboard's handler once the app has validated the query of `url`: the same
 * path and query string, byte for byte, parse the same, so it may be answered here next time.
 */
export function rememberLeaderboardQuery(url: string, query: LeaderboardQuery): void {
  const path = pathOf(url);
  if (knownQueries.has(path)) return;
  if (knownQueries.size >= MAX_KNOWN_QUERIES) knownQueries.clear();
  knownQueries.set(path, Object.freeze({ ...query }));
}

/**
 * The embed page of a board, for a request, as its handler answers it (src/routes/pages/pages.handlers.ts):
 * status, its own headers and body, before the envelope.
 */
export type EmbedAnswer = (request: Request, board: Leaderboard) => EmbedResponse | Promise<EmbedResponse>;
export type EmbedResponse = {
  status: 200 | 304;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  init?: { encodeBody: 'manual' };
};

/** Embed paths (with their query strings, exactly as sent) the app has validated, and how to answer them. */
const knownEmbeds = new Map<string, { domain: string | null; answer: EmbedAnswer }>();

/**
 * Called by the embed page's handler once the app has validated the query of `url`: the same path
 * and query string, byte for byte, are answered here next time, by `answer` (the handler's own
 * builder, closed over the validated limit and theme and the page's policy).
 */
export function rememberEmbedQuery(url: string, domain: string | null, answer: EmbedAnswer): void {
  const path = pathOf(url);
  if (knownEmbeds.has(path)) return;
  if (knownEmbeds.size >= MAX_KNOWN_QUERIES) knownEmbeds.clear();
  knownEmbeds.set(path, { domain, answer });
}

/**
 * The answer to `request` from memory, or null for the full path. `path` is the request's path and
 * query, as `src/index.ts` took it from the URL (a query makes it another request: full path).
 */
export function answerFromMemory(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  path: string,
): Response | Promise<Response> | null {
  if (request.method !== 'GET') return null;
  if (path.startsWith(LEADERBOARD_PATH)) return leaderboard(request, env, ctx, path);
  if (path.startsWith(EMBED_PATH)) return embed(request, env, ctx, path);
  if (path.startsWith(VERIFY_PREFIX)) {
    // Only a number as memory keys it (normalised) is found: anything else is the route's to judge.
    const found = verificationFromMemory(path.slice(VERIFY_PREFIX.length));
    return found ? replayJson(request, found, VERIFICATION_CACHE_CONTROL) : null;
  }
  if (path === AGREEMENT_PATH) {
    const found = publicAgreementFromMemory();
    return found ? replayJson(request, found, PUBLIC_AGREEMENT_CACHE_CONTROL) : null;
  }
  if (path === JWKS_PATH) {
    const found = publishedKeysFromMemory(env);
    return found
      ? openDocumentResponse(request, publicEnvelope(request), found.json, JWKS_MAX_AGE, { payload: found })
      : null;
  }
  return null;
}

/** `GET /api/leaderboard?…`: a validated query, its board in memory, and the isolate's admission. */
function leaderboard(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  path: string,
): Response | Promise<Response> | null {
  const query = knownQueries.get(path);
  if (!query) return null;
  const board = leaderboardFromMemory(query.domain);
  if (!board) return null;
  // Last: an admitted request is counted, and must then be answered here.
  const started = performance.now();
  const decision = admittedWithoutIo(
    env,
    ipLimitKey(request.headers.get('CF-Connecting-IP') ?? undefined),
    Date.now(),
    (promise) => ctx.waitUntil(promise),
  );
  if (!decision) return null;
  const envelope = publicEnvelope(request, limitHeaders('ip', decision, started));
  return replayJson(request, leaderboardBody(board, query.limit), LEADERBOARD_CACHE_CONTROL, envelope);
}

/** `GET /embed/leaderboard?…`: a validated query, its board in memory, no session, and the isolate's admission. */
function embed(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  path: string,
): Response | Promise<Response> | null {
  const known = knownEmbeds.get(path);
  if (!known) return null;
  // A signed-in visitor's answer is personal (never stored): the app's.
  if (hasSessionCookie(request)) return null;
  const board = leaderboardFromMemory(known.domain);
  if (!board) return null;
  // Last: an admitted request is counted, and must then be answered here.
  const started = performance.now();
  const decision = admittedWithoutIo(
    env,
    ipLimitKey(request.headers.get('CF-Connecting-IP') ?? undefined),
    Date.now(),
    (promise) => ctx.waitUntil(promise),
  );
  if (!decision) return null;
  const q = path.indexOf('?');
  const envelope: Envelope = {
    ...publicEnvelope(request, limitHeaders('ip', decision, started)),
    publicRead: corsCase(request.method, q === -1 ? path : path.slice(0, q)) === 'read',
  };
  const finish = (a: EmbedResponse) => envelopedResponse(a.body, a.status, a.headers, envelope, a.init);
  const answer = known.answer(request, board);
  return answer instanceof Promise ? answer.then(finish) : finish(answer);
}
