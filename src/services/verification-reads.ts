/**
 * The verification reads that need neither the database nor the app (issue 54, decision 0324):
 * a payload from the isolate's memory (src/http/memory-reads.ts) or from KV (src/http/cold-reads.ts),
 * the same steps `verification` (./certificates.ts) takes before it would reach D1. Kept apart
 * from ./certificates.ts so the Worker's entry can import them without D1's schema, zod or the
 * rest of the certificates service: a cold isolate evaluates only what its entry imports.
 */
import { type CachedPayload, type ShareQr, verificationKey } from './cache-keys';
import {
  builtBeforeChange,
  servableWithoutIo,
  syncVerificationChanges,
  verificationMemory,
} from './verification-memory';

/**
 * KV metadata of a verification entry: its validator, when it was built (ms), and the QR code of
 * the certificate page's share link (its mask, and the code itself where it fits), so a cold
 * isolate draws that code without encoding it (decisions 0327 and 0328).
 */
export type VerificationMeta = { etag: string; builtAt?: number; qr?: ShareQr };

export type { ShareQr };

/** How long a client or shared cache may keep a verification's answer. */
export const VERIFICATION_CACHE_CONTROL = 'public, max-age=60';

/**
 * The verification `verification` would answer from the isolate's memory, when it can be had with
 * no I/O at all (src/http/memory-reads.ts); undefined sends the caller down the full path.
 * `certificateNo` as the caller got it: only a normalised number is ever in memory.
 */
export function verificationFromMemory(
  certificateNo: string,
  now: number = Date.now(),
): CachedPayload | undefined {
  return servableWithoutIo(verificationKey(certificateNo), now);
}

/**
 * `certificateNo`'s payload as KV holds it, when it may be served (`found`); `stale` when KV holds
 * an entry built before a change this isolate knows of (to be rebuilt from the primary).
 */
export async function kvVerification(
  env: Pick<Env, 'CACHE'>,
  certificateNo: string,
  read: Promise<KVNamespaceGetWithMetadataResult<string, VerificationMeta>> = readEntry(env, certificateNo),
): Promise<{ found: CachedPayload | null; stale: boolean }> {
  const hit = await read;
  // An entry this location still holds from before a known change is rebuilt from the primary.
  const stale = hit.metadata ? builtBeforeChange(certificateNo, hit.metadata.builtAt ?? 0) : false;
  return {
    found:
      hit.value !== null && hit.metadata && !stale
        ? {
            json: hit.value,
            etag: hit.metadata.etag,
            ...(hit.metadata.builtAt !== undefined ? { builtAt: hit.metadata.builtAt } : {}),
            ...(hit.metadata.qr ? { qr: hit.metadata.qr } : {}),
          }
        : null,
    stale,
  };
}

/** KV's entry for `certificateNo`, with its metadata. */
function readEntry(env: Pick<Env, 'CACHE'>, certificateNo: string) {
  return env.CACHE.getWithMetadata<VerificationMeta>(verificationKey(certificateNo));
}

/**
 * What `verification` answers when memory holds nothing for `certificateNo` and KV holds its
 * payload, read without the database (src/http/cold-reads.ts: a cold isolate's first
 * verification, answered before the app is even imported). The same steps: the change feed
 * first, then KV's entry unless it predates a known change, kept in memory as a load from KV is.
 * Undefined whenever the full path would do anything else (memory holds an entry, fresh or not;
 * KV has none or a stale one): the caller then takes the full path. `certificateNo` normalised.
 */
export async function verificationFromKv(
  env: Pick<Env, 'CACHE'>,
  certificateNo: string,
): Promise<CachedPayload | undefined> {
  const key = verificationKey(certificateNo);
  if (verificationMemory.lastValue(key) !== undefined) return undefined;
  // The entry is read while the change feed is (a cold isolate's first request waits for one KV
  // round trip, not two); it is judged only once the feed is applied, as in `verification`.
  const read = readEntry(env, certificateNo);
  // (Not awaited when memory was filled meanwhile: its failure is then nobody's.)
  read.catch(() => undefined);
  const syncing = syncVerificationChanges(env);
  if (syncing) await syncing;
  const now = Date.now();
  if (verificationMemory.lastValue(key) !== undefined) return undefined;
  const kept = await verificationMemory.load(
    key,
    async () => {
      const { found } = await kvVerification(env, certificateNo, read);
      if (found) found.loadedAt = now;
      return found;
    },
    now,
  );
  return kept ?? undefined;
}
