import { getReadReplicaDb } from '../../db/client';
import { parseCertificateNumber } from '../../domain/certificates/certificate-number';
import type { Declared } from '../../domain/open-badges/presented';
import { bakedBadgeDataUrl, carriedImageDataUrl } from '../../domain/pages/badge-image';
import { finishedResponse, openDocument } from '../../http/finished-response';
import { type EmbedAnswer, type EmbedResponse, rememberEmbedQuery } from '../../http/memory-reads';
import type { AppRouteHandler } from '../../http/types';
import { type CompressiblePayload, gzipBody } from '../../lib/content-coding';
import { noneMatch } from '../../lib/etag';
import { ProblemError } from '../../lib/problem';
import type { VerificationPayload } from '../../services/certificates';
import * as certs from '../../services/certificates';
import type { VerificationReport } from '../../services/credential-verifier';
import { cachedLeaderboard } from '../../services/leaderboard';
import { JWKS_PATH } from '../certificates/certificates.routes';
import { homePage } from './home.templates';
import { chooseLanguage, type Lang, t } from './i18n';
import { pageHeaders } from './layout';
import { embedCsp, LOADER_SCRIPT } from './pages.assets';
import { PAGE_VERSION, verificationPage } from './pages.cold';
import { keepDrawnPage } from './pages.drawn';
import type * as routes from './pages.routes';
import { embedPage } from './pages.templates';
import { pageViewer, viewerCaching } from './pages.viewer';
import { type OwnRecord, type ShownImage, verifierPage } from './verify.templates';

const HTML = 'text/html; charset=utf-8';

/**
 * Reads the cached board, like `GET /api/leaderboard` (so consent is honoured the same way). Once
 * the query is valid, the same path and query string may be answered from memory before the
 * router, by the same builder (`rememberEmbedQuery`, decision 0329).
 */
export const embed: AppRouteHandler<typeof routes.embedLeaderboard> = async (c) => {
  const { domain, limit, theme } = c.req.valid('query');
  const board = await cachedLeaderboard(c.get('db'), c.env, domain ?? null);
  // The policy is computed once per isolate: a hit awaits nothing for it.
  const policy = embedPolicy ?? (await loadEmbedPolicy());
  const answer: EmbedAnswer = (request, b) => embedAnswer(request, b, limit, theme, policy);
  rememberEmbedQuery(c.req.url, domain ?? null, answer);
  const pending = answer(c.req.raw, board);
  const a = pending instanceof Promise ? await pending : pending;
  return finishedResponse(c, a.body, a.status, a.headers, a.init);
};

/** The embed page of `board` for `request` (its language, ETag, gzip), before the envelope. */
function embedAnswer(
  request: Request,
  board: Awaited<ReturnType<typeof cachedLeaderboard>>,
  limit: number,
  theme: Theme,
  policy: { csp: string; tag: string },
): EmbedResponse | Promise<EmbedResponse> {
  const lang = chooseLanguage(request);
  const page = embedHtml(board, limit, theme, lang, policy.tag);
  const headers: Record<string, string> = {
    ETag: page.etag,
    'Content-Language': lang,
    Vary: 'Accept-Encoding, Accept-Language',
    'Cache-Control': 'public, max-age=30',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // On the 304 too: a cache refreshes the stored headers from it, and the default policy
    // (frame-ancestors 'none') would then stop the cached page from being framed.
    'Content-Security-Policy': policy.csp,
  };
  if (noneMatch(request.headers.get('If-None-Match') ?? undefined, page.etag))
    return { status: 304, headers, body: null };
  // Compressed once per rendered page, when the visitor accepts it (like the JSON hot paths).
  headers['Content-Type'] = HTML;
  const withGzip = (gzip: Uint8Array | undefined): EmbedResponse =>
    gzip
      ? {
          status: 200,
          headers: { ...headers, 'Content-Encoding': 'gzip' },
          body: gzip,
          init: { encodeBody: 'manual' },
        }
      : { status: 200, headers, body: page.json };
  const pending = gzipBody(request, page);
  return pending instanceof Promise ? pending.then(withGzip) : withGzip(pending);
}

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
  lang: Lang,
  policyTag: string,
): CompressiblePayload {
  let pages = renderedEmbeds.get(board);
  if (!pages) {
    pages = new Map();
    renderedEmbeds.set(board, pages);
  }
  const key = `${limit}:${theme}:${lang}:${policyTag}`;
  let page = pages.get(key);
  if (page === undefined) {
    page = {
      json: embedPage({ ...board, entries: board.entries.slice(0, limit) }, theme, lang),
      etag: `W/"${Date.parse(board.generatedAt).toString(36)}-${limit}-${theme}-${lang}-${policyTag}-html"`,
    };
    // limit (1–100) × theme × language: a few hundred pages per board at most.
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

/**
 * Same checks and the same cached payload as `GET /api/verify/{certificateNo}`; the page itself
 * is built by `verificationPage` (./pages.cold.ts), which a cold isolate's entry shares.
 */
export const verify: AppRouteHandler<typeof routes.verifyPage> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const found = await certs.verification(c.get('db'), c.env, number, () => getReadReplicaDb(c.env.DB));
  if (!found) throw new ProblemError('not-found', 'No certificate has this number.');
  const viewer = await pageViewer(c);
  // The holder, signed in, gets their controls: show a hidden name, the PDF, add to a wallet.
  const isHolder = viewer.signedIn && (await certs.isHolderOf(c.get('db'), viewer.userId, number));
  const page = verificationPage(c.req.raw, c.env, found, JWKS_PATH, viewer, isHolder);
  if (page.status === 304) return c.body(null, 304, page.headers);
  // The page everyone without a session gets, kept in KV for cold isolates (decision 0339).
  if (!viewer.signedIn)
    keepDrawnPage(c.env, number, chooseLanguage(c.req.raw), found, page, (p) => c.executionCtx.waitUntil(p));
  return c.body(page.body, 200, page.headers);
};

/** The page is the same for everyone in a language; `?no=` is a look-up (303 to its page). */
export const verifier: AppRouteHandler<typeof routes.verifierPage> = async (c) => {
  const { no } = c.req.valid('query');
  const lang = chooseLanguage(c.req.raw);
  if (no !== undefined && no.trim() !== '') {
    // Only a well-formed number is sent on; a typo is answered here (400, a page for browsers).
    const parsed = parseCertificateNumber(no.trim());
    if (!parsed.ok)
      throw new ProblemError(
        'invalid-parameters',
        parsed.reason === 'checksum'
          ? 'This certificate number has a typo: its check character does not match.'
          : 'Certificate numbers look like VP-XXXX-XXXX-XXXX.',
        {
          errors: [
            {
              pointer: '#/query/no',
              detail: parsed.reason === 'checksum' ? 'Check character mismatch' : 'Invalid format',
            },
          ],
        },
      );
    const asked = new URL(c.req.url).searchParams.has('lang') ? `?lang=${lang}` : '';
    return c.redirect(`/verify/${parsed.normalised}${asked}`, 303);
  }
  const viewer = await pageViewer(c);
  const headers: Record<string, string> = {
    ...pageHeaders(lang),
    ...viewerCaching(viewer, 'public, max-age=300', `W/"verifier-${lang}-${PAGE_VERSION}"`),
  };
  if (noneMatch(c.req.header('If-None-Match'), headers.ETag ?? '')) {
    delete headers['Content-Type'];
    return c.body(null, 304, headers);
  }
  return c.body(verifierPage(lang, { signedIn: viewer.signedIn }), 200, headers);
};

/** A form field's bytes: a file's, or a string's as UTF-8; null when empty. */
async function fieldBytes(value: unknown): Promise<{ bytes: Uint8Array; type: string } | null> {
  if (value instanceof File) {
    if (value.size === 0) return null;
    return { bytes: new Uint8Array(await value.arrayBuffer()), type: value.type.toLowerCase() };
  }
  if (typeof value === 'string' && value.trim() !== '')
    return { bytes: new TextEncoder().encode(value.trim()), type: '' };
  return null;
}

/** The two problems of a link that gives no credential (decision 0357), shown on the form's link field. */
const URL_PROBLEMS = new Set(['credential-url-refused', 'credential-url-unreachable']);

/**
 * `POST /verify`: the form's badge, pasted credential or link, through the platform's verifier
 * (loaded on this path only), answered as a page. A credential naming one of our certificates is
 * compared with the certificate's current record; a baked badge's image is shown back from its own
 * bytes (decision 0358). A link that gives no credential is a 422 page with the form, the link kept.
 * Reads only: nothing is stored.
 */
export const verifierSubmit: AppRouteHandler<typeof routes.verifierSubmit> = async (c) => {
  const form = await c.req.parseBody();
  const lang = chooseLanguage(c.req.raw);
  const sent = (await fieldBytes(form.badge)) ?? (await fieldBytes(form.credential));
  const link = typeof form.url === 'string' ? form.url.trim().slice(0, 2048) : '';
  if (!sent && !link)
    throw new ProblemError(
      'empty-body',
      'Choose a badge image, paste a credential or give a link to the badge.',
      {
        errors: [
          {
            pointer: '#/badge',
            detail: 'Choose a badge image, paste a credential or give a link to the badge.',
          },
        ],
      },
    );
  const [{ verifyPresentedCredential }, { readPresented }, { verifyCredentialAt }] = await Promise.all([
    import('../../services/credential-verifier'),
    import('../../domain/open-badges/presented'),
    import('../../services/verifier/credential-url'),
  ]);
  const pasted = typeof form.credential === 'string' ? form.credential.slice(0, 20_000) : undefined;
  const headers = { ...pageHeaders(lang), 'Cache-Control': 'no-store' };
  const { signedIn } = await pageViewer(c);
  let checked: { report: VerificationReport; bytes: Uint8Array; how: Declared | undefined };
  if (sent) {
    const how = sent.type === 'image/png' ? 'png' : sent.type === 'image/svg+xml' ? 'svg' : undefined;
    const report = await verifyPresentedCredential(c.get('db'), c.env, sent.bytes, new Date(), how);
    checked = { report, bytes: sent.bytes, how };
  } else {
    try {
      const { report, badge } = await verifyCredentialAt(c.get('db'), c.env, link);
      checked = { report, bytes: badge.bytes, how: { fetchedAs: badge.answer.mediaType ?? '' } };
    } catch (error) {
      if (!(error instanceof ProblemError) || !URL_PROBLEMS.has(error.type)) throw error;
      const v = t(lang).verifier;
      const text = error.type === 'credential-url-refused' ? v.urlRefused : v.urlUnreachable;
      const errors = [{ field: 'url' as const, text: text(error.errors?.[0]?.detail ?? error.message) }];
      return c.body(
        verifierPage(lang, { form: { credential: pasted, url: link, errors }, signedIn }),
        422,
        headers,
      );
    }
  }
  const { report, bytes, how } = checked;
  const own = await ownRecord(c, report, readPresented(bytes, how));
  const baked = bakedBadgeDataUrl(bytes, report.container);
  const carried = baked ? null : carriedImageDataUrl(report.verifiedCredential);
  const image: ShownImage | null = baked
    ? { src: baked, from: 'checked' }
    : carried
      ? { src: carried, from: 'carried' }
      : null;
  return c.body(
    verifierPage(lang, {
      report,
      own,
      image,
      form: { credential: pasted, url: sent ? undefined : link },
      signedIn,
    }),
    200,
    headers,
  );
};

/** The certificate number a credential of this site names in its fixed claim (evidence id = our page). */
function ownNumber(report: VerificationReport, base: string): string | null {
  for (const id of report.credential?.evidence ?? []) {
    if (!id.startsWith(`${base}/verify/`)) continue;
    const rest = id.slice(base.length + '/verify/'.length);
    if (/^VP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(rest)) return rest;
  }
  return null;
}

/** For a credential of ours: whether it is the one the certificate publishes now, and the certificate's status. */
async function ownRecord(
  c: Parameters<typeof verifierSubmit>[0],
  report: VerificationReport,
  presented: { form: string; jwt?: string } | { error: string },
): Promise<OwnRecord | undefined> {
  if (report.verdict === 'invalid' || !report.issuer.standing) return undefined;
  const base = c.env.PUBLIC_BASE_URL.replace(/\/$/, '');
  const number = ownNumber(report, base);
  if (!number) return undefined;
  const found = await certs.verification(c.get('db'), c.env, number, () => getReadReplicaDb(c.env.DB));
  if (!found) return { kind: 'unknown', certificateNo: number };
  const current = JSON.parse(found.json) as VerificationPayload;
  const jwt = 'jwt' in presented ? presented.jwt : undefined;
  if (jwt !== undefined && current.credential?.jwt !== jwt.trim())
    return { kind: 'not-current', certificateNo: number };
  return { kind: 'current', certificateNo: number, status: current.status };
}

/** `GET /`: the landing page, the same for everyone in a language. */
export const home: AppRouteHandler<typeof routes.homePage> = async (c) => {
  const lang = chooseLanguage(c.req.raw);
  const viewer = await pageViewer(c);
  const headers: Record<string, string> = {
    ...pageHeaders(lang),
    ...viewerCaching(viewer, 'public, max-age=300', `W/"home-${lang}-${PAGE_VERSION}"`),
  };
  if (noneMatch(c.req.header('If-None-Match'), headers.ETag ?? '')) {
    delete headers['Content-Type'];
    return c.body(null, 304, headers);
  }
  return c.body(homePage(lang, viewer.signedIn), 200, headers);
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
