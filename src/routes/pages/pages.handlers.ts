import { getReadReplicaDb } from '../../db/client';
import { finishedResponse, openDocument } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { type CompressiblePayload, gzipBody } from '../../lib/content-coding';
import { noneMatch } from '../../lib/etag';
import { ProblemError } from '../../lib/problem';
import type { VerificationPayload } from '../../services/certificates';
import * as certs from '../../services/certificates';
import { cachedLeaderboard } from '../../services/leaderboard';
import { JWKS_PATH } from '../certificates/certificates.routes';
import { embedCsp, LOADER_SCRIPT, verifyCsp } from './pages.assets';
import type * as routes from './pages.routes';
import { embedPage, verifierPage, verifyPage } from './pages.templates';

const HTML = 'text/html; charset=utf-8';

/** Reads the cached board, like `GET /api/leaderboard` (so consent is honoured the same way). */
export const embed: AppRouteHandler<typeof routes.embedLeaderboard> = async (c) => {
  const { domain, limit, theme } = c.req.valid('query');
  const board = await cachedLeaderboard(c.get('db'), c.env, domain ?? null);
  // The policy is computed once per isolate: a hit awaits nothing for it.
  const { csp, tag } = embedPolicy ?? (await loadEmbedPolicy());
  const page = embedHtml(board, limit, theme, tag);
  const headers: Record<string, string> = {
    ETag: page.etag,
    'Cache-Control': 'public, max-age=30',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // On the 304 too: a cache refreshes the stored headers from it, and the default policy
    // (frame-ancestors 'none') would then stop the cached page from being framed.
    'Content-Security-Policy': csp,
  };
  if (noneMatch(c.req.header('If-None-Match'), page.etag)) return finishedResponse(c, null, 304, headers);
  // Compressed once per rendered page, when the visitor accepts it (like the JSON hot paths).
  const pending = gzipBody(c.req.raw, page);
  const gzip = pending instanceof Promise ? await pending : pending;
  headers['Content-Type'] = HTML;
  headers.Vary = 'Accept-Encoding';
  if (!gzip) return finishedResponse(c, page.json, 200, headers);
  headers['Content-Encoding'] = 'gzip';
  return finishedResponse(c, gzip, 200, headers, { encodeBody: 'manual' });
};

/** The embed's CSP (hashes of its inline style and script) and that policy's tag for ETags. */
let embedPolicy: { csp: string; tag: string } | null = null;

async function loadEmbedPolicy(): Promise<{ csp: string; tag: string }> {
  const csp = await embedCsp();
  embedPolicy = { csp, tag: await cspTag(csp) };
  return embedPolicy;
}

/**
 * The rendered embed pages of a cached board, by limit and theme: rendered once per board object
 * (the isolate's memory holds the board; a new board is a new object, so nothing stale is served),
 * not once per request (issue 43). Each keeps its ETag (the board's time, the limit, the theme
 * and the policy's tag).
 */
const renderedEmbeds = new WeakMap<object, Map<string, CompressiblePayload>>();

/** The page's HTML (in `json`, the field gzipBody compresses), its ETag and, once asked for, its gzip bytes. */
function embedHtml(
  board: Awaited<ReturnType<typeof cachedLeaderboard>>,
  limit: number,
  theme: Theme,
  policyTag: string,
): CompressiblePayload {
  let pages = renderedEmbeds.get(board);
  if (!pages) {
    pages = new Map();
    renderedEmbeds.set(board, pages);
  }
  const key = `${limit}:${theme}:${policyTag}`;
  let page = pages.get(key);
  if (page === undefined) {
    page = {
      json: embedPage({ ...board, entries: board.entries.slice(0, limit) }, theme),
      etag: `W/"${Date.parse(board.generatedAt).toString(36)}-${limit}-${theme}-${policyTag}-html"`,
    };
    // limit (1–100) × theme: a few hundred pages per board at most.
    pages.set(key, page);
  }
  return page;
}

type Theme = Parameters<typeof embedPage>[1];

/** The loader script, gzipped once per isolate for the visitors that accept it (decision 0270). */
const loaderPayload: CompressiblePayload = { json: LOADER_SCRIPT, etag: '' };

export const loader: AppRouteHandler<typeof routes.embedLoader> = (c) =>
  openDocument(c, LOADER_SCRIPT, 3600, {
    contentType: 'text/javascript; charset=utf-8',
    payload: loaderPayload,
  });

/** Same checks and the same cached payload as `GET /api/verify/{certificateNo}`. */
export const verify: AppRouteHandler<typeof routes.verifyPage> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const found = await certs.verification(c.get('db'), c.env, number, () => getReadReplicaDb(c.env.DB));
  if (!found) throw new ProblemError('not-found', 'No certificate has this number.');
  const csp = await verifyCsp();
  const headers = {
    ETag: found.etag.replace(/"$/, `-${await cspTag(csp)}-html"`),
    'Cache-Control': 'public, max-age=60',
    'Content-Security-Policy': csp,
  };
  if (noneMatch(c.req.header('If-None-Match'), headers.ETag)) return c.body(null, 304, headers);
  const payload = JSON.parse(found.json) as VerificationPayload;
  const shareUrl = `${c.env.PUBLIC_BASE_URL.replace(/\/$/, '')}/verify/${payload.certificateNo}`;
  return c.body(verifyPage(payload, shareUrl, JWKS_PATH), 200, { ...headers, 'Content-Type': HTML });
};

/** The page is the same for everyone and changes only with a deployment (its CSP hashes). */
export const verifier: AppRouteHandler<typeof routes.verifierPage> = async (c) => {
  const csp = await verifyCsp();
  const headers = {
    ETag: `W/"verifier-${csp.length.toString(36)}-${(await sha(csp)).slice(0, 16)}"`,
    'Cache-Control': 'public, max-age=300',
    'Content-Security-Policy': csp,
  };
  if (noneMatch(c.req.header('If-None-Match'), headers.ETag)) return c.body(null, 304, headers);
  return c.body(verifierPage(JWKS_PATH), 200, { ...headers, 'Content-Type': HTML });
};

/**
 * A short digest of a page's CSP, which names its inline style and script by hash, for the
 * page's ETag: a deployment that changes them changes the tag. Otherwise a revalidation would be
 * a 304 carrying the new CSP, which a cache puts on the page it holds, whose old style and
 * script the new hashes then block. Once per isolate and policy.
 */
const cspTags = new Map<string, Promise<string>>();
function cspTag(csp: string): Promise<string> {
  let tag = cspTags.get(csp);
  if (!tag) {
    tag = sha(csp).then((hex) => hex.slice(0, 10));
    cspTags.set(csp, tag);
  }
  return tag;
}

async function sha(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
