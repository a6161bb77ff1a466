/**
 * The certificate page of a cold isolate, answered without drawing it when it has been drawn
 * before (issue 54, decision 0339). A certificate link is the commonest first request of an isolate
 * in a new location; drawing the page there (importing its templates, compiling them on their first
 * call, encoding the share link's QR code) was most of what that first request cost over a
 * hello-world Worker's. The page a visitor without a session gets is a pure function of the
 * verification payload, the language and three server-wide settings (the markup's version, the
 * public origin, the DigiLocker setting), so it is kept in KV beside the payload, per language,
 * as it was drawn the first time: its status-200 headers and bytes, with the payload's ETag it was
 * drawn from and those settings.
 *
 * A cold isolate reads it while it reads the payload (the same KV round trip) and replays it only
 * when it was drawn from the very payload memory or KV serves now (`of` is that payload's ETag: a
 * rebuilt payload, after a revocation or a rename, has another) under the same settings; anything
 * else (none kept, another payload or deployment, a revalidation with `If-None-Match`) is drawn as
 * before by ./pages.cold.ts, and what it draws is kept for the next. Whatever deletes the
 * payload's KV entry deletes these too (`forgetVerifications`): they hold the holder's name as the
 * payload does. `test/cold-page.test.ts` compares the replayed page with the app's byte for byte.
 */
import { coldPageNumber, coldPayload, publicPageEnvelope } from '../../http/cold-reads';
import { envelopedResponse } from '../../http/finished-response';
import { onForgetIsolateState } from '../../lib/isolate-state';
import { log } from '../../lib/log';
import {
  type CachedPayload,
  verificationKey,
  verificationPageKey,
  verificationTtlSeconds,
} from '../../services/cache-keys';
import { digilockerConfig } from '../../services/digilocker/config';
import {
  builtBeforeChange,
  syncVerificationChanges,
  verificationMemory,
} from '../../services/verification-memory';
import { verificationFromMemory } from '../../services/verification-reads';
import { chooseLanguage } from './i18n/choice';
import type { Lang } from './i18n/registry';
import { PAGE_VERSION } from './page-version';

/**
 * KV metadata of a drawn page: the ETag (`of`) and build time (`at`) of the payload it was drawn
 * from, the settings it was drawn under (`v`), and its headers before the envelope.
 */
export type DrawnPageMeta = { of: string; at: number; v: string; headers: Record<string, string> };

/** What a drawn page is: its 200 headers (before the envelope) and its body. */
export type DrawnPage = { headers: Record<string, string>; body: string };

type PageEnv = Pick<Env, 'CACHE' | 'PUBLIC_BASE_URL'> &
  Partial<Pick<Env, 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'>>;

/**
 * The server-wide settings a page depends on besides its payload and language: the markup's
 * version, the origin its links and QR code carry, the DigiLocker setting. A page drawn under
 * others is not served.
 */
export function pageVariant(env: PageEnv): string {
  const dl = digilockerConfig(env)?.docType ?? '';
  return `${PAGE_VERSION} ${env.PUBLIC_BASE_URL.replace(/\/$/, '')} ${dl}`;
}

/**
 * Keeps `page`, drawn from `found` for a visitor without a session, in KV until its payload's own
 * entry would expire (an hour after it was built, never past the certificate's end): a page never
 * outlives the payload it shows. A payload without its build time (none is, since decision 0339),
 * or with less than KV's minimum of a minute left, is not drawn ahead. A failed write is logged:
 * the page is drawn again next time. Written, then taken back if its payload is no longer KV's.
 */
export function storeDrawnPage(
  env: PageEnv,
  certificateNo: string,
  lang: Lang,
  found: CachedPayload,
  page: DrawnPage,
  now = Date.now(),
): Promise<void> {
  if (found.builtAt === undefined) return Promise.resolve();
  const payload = JSON.parse(found.json) as { validUntil: string | null; status: string };
  const expiration = Math.floor(found.builtAt / 1000) + verificationTtlSeconds(payload, found.builtAt);
  if (expiration < Math.ceil(now / 1000) + 60) return Promise.resolve();
  const metadata: DrawnPageMeta = {
    of: found.etag,
    at: found.builtAt,
    v: pageVariant(env),
    headers: page.headers,
  };
  const key = verificationPageKey(certificateNo, lang);
  return env.CACHE.put(key, page.body, { metadata, expiration })
    .then(async () => {
      // A change may have deleted the payload and its pages while this page was being drawn (a
      // revocation): then this write came after that delete, and goes too. As the payload's own
      // write, a page cannot outlive a change in KV by more than this round trip.
      const current = await env.CACHE.getWithMetadata<{ etag?: string }>(verificationKey(certificateNo));
      if (current.value === null || current.metadata?.etag !== found.etag) await env.CACHE.delete(key);
    })
    .catch((err: unknown) => {
      log('warn', 'drawn certificate page: write failed', { error: String(err) });
    });
}

/**
 * The page KV keeps for `certificateNo` in `lang`, when it may be served as the payload it was
 * drawn from would be (`verificationFromKv`'s rules: the change feed read first, then nothing
 * built before a change this isolate knows of, nothing memory holds otherwise) under this
 * deployment's settings; null otherwise. One KV round trip: the page and the feed together.
 */
async function keptPage(
  env: PageEnv,
  certificateNo: string,
  lang: Lang,
): Promise<{ value: string; metadata: DrawnPageMeta } | null> {
  const read = env.CACHE.getWithMetadata<DrawnPageMeta>(verificationPageKey(certificateNo, lang)).catch(
    () => null,
  );
  const syncing = syncVerificationChanges(env);
  if (syncing) await syncing;
  const kept = await read;
  if (kept === null || kept.value === null || !kept.metadata) return null;
  const { metadata } = kept;
  if (metadata.v !== pageVariant(env) || typeof metadata.at !== 'number') return null;
  // Memory holds this payload (another request loaded it meanwhile): the page is drawn from it.
  if (verificationMemory.lastValue(verificationKey(certificateNo)) !== undefined) return null;
  return builtBeforeChange(certificateNo, metadata.at) ? null : { value: kept.value, metadata };
}

/**
 * `GET /verify/{no}` of a visitor without a session, answered before the app is imported, or null
 * (then the app's): only what `coldPageNumber` accepts. The page kept in KV when it may be served
 * (`keptPage`); otherwise drawn by ./pages.cold.ts (imported then) from the payload memory or KV
 * may serve (`coldPayload`), and kept through `waitUntil` for the next cold isolate. A revalidation
 * (`If-None-Match`) is the builder's to judge, a 304 or the page, as it is the app's. `path` is the
 * request's path and query, as the entry took it.
 */
export async function answerColdPage(
  request: Request,
  env: Env,
  waitUntil: (promise: Promise<unknown>) => void,
  path: string,
): Promise<Response | null> {
  const certificateNo = coldPageNumber(request, path);
  if (certificateNo === null) return null;
  const lang = chooseLanguage(request);
  if (!request.headers.has('If-None-Match') && !verificationFromMemory(certificateNo)) {
    const kept = await keptPage(env, certificateNo, lang);
    if (kept)
      return envelopedResponse(kept.value, 200, kept.metadata.headers, publicPageEnvelope(request, path));
  }
  // (A failed KV read is the app's to handle, as it would be without this path.)
  const found = await Promise.resolve(coldPayload(env, certificateNo)).catch(() => undefined);
  if (!found) return null;
  const page = await import('./pages.cold');
  return page.coldPageResponse(request, env, path, found, (drawn) =>
    waitUntil(storeDrawnPage(env, certificateNo, lang, found, drawn)),
  );
}

/** Most pages this isolate remembers having checked in KV (emptied when full: a bound). */
const MAX_CHECKED = 2_000;
/** Pages (number, language, payload ETag) this isolate has checked or kept in KV. */
const checked = new Set<string>();

/** Test seam: a fresh isolate (no page checked yet). */
export const forgetCheckedPages = onForgetIsolateState((): void => checked.clear());

/**
 * The app's page handler, having drawn `page` from `found` for a visitor without a session: once
 * per isolate and payload, the page is kept in KV unless KV already holds it drawn from that payload
 * (one KV read, and a write only when needed), so the first visitor's isolate draws it for every
 * cold isolate after it, wherever they are.
 */
export function keepDrawnPage(
  env: PageEnv,
  certificateNo: string,
  lang: Lang,
  found: CachedPayload,
  page: DrawnPage,
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  const id = `${certificateNo} ${lang} ${found.etag}`;
  if (checked.has(id)) return;
  if (checked.size >= MAX_CHECKED) checked.clear();
  checked.add(id);
  waitUntil(
    env.CACHE.getWithMetadata<DrawnPageMeta>(verificationPageKey(certificateNo, lang))
      .then((kept) =>
        kept.value !== null && kept.metadata?.of === found.etag && kept.metadata.v === pageVariant(env)
          ? undefined
          : storeDrawnPage(env, certificateNo, lang, found, page),
      )
      .catch((err: unknown) => {
        checked.delete(id);
        log('warn', 'drawn certificate page: read failed', { error: String(err) });
      }),
  );
}
