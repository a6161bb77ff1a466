/**
 * The Open Badges issuer and achievement documents (`GET /ob/issuers/{id}`,
 * `GET /ob/achievements/{briefId}`) answered without D1 on a hit (issue 43), like the other
 * public reads: the isolate's memory, then KV, then D1.
 *
 * - KV holds each document's JSON under the current generation (`OB_DOCUMENTS_GENERATION_KEY`)
 *   for `OB_DOCUMENT_TTL_SECONDS`, the `max-age` the responses already give any cache.
 * - Every organisation change (`forgetOrganisationViews`: a rename, a website, a verification,
 *   a suspension) writes a new generation, so no document built before it is read again; the
 *   isolate that makes the change forgets its generation at once, others re-read it at most
 *   every `OB_GENERATION_MEMORY_MS`.
 * - A brief's own edits (title, rubric) are not tracked: its achievement document may show the
 *   old text for up to the same 300 s (docs/decisions/0152).
 * Unknown ids are not remembered (anyone can ask for any number of them): each is one D1 read.
 */

import { IsolateCache } from '../lib/isolate-cache';
import { fillCache, OB_DOCUMENTS_GENERATION_KEY } from './cache-keys';

export const OB_DOCUMENT_TTL_SECONDS = 300;
export const OB_GENERATION_MEMORY_MS = 5_000;
/** How long a document stays in an isolate's memory under its generation. */
export const OB_DOCUMENT_MEMORY_MS = 60_000;

const generationMemory = new IsolateCache<string>(OB_GENERATION_MEMORY_MS, 1);
const documentMemory = new IsolateCache<string>(OB_DOCUMENT_MEMORY_MS, 2_000);

export type ObDocumentKind = 'issuer' | 'achievement';

/** The document's JSON: from memory, KV, or `build` (null: no such document, nothing kept). */
export async function cachedObDocument(
  env: Pick<Env, 'CACHE'>,
  kind: ObDocumentKind,
  id: string,
  build: () => Promise<object | null>,
): Promise<string | null> {
  const generation =
    generationMemory.peek(OB_DOCUMENTS_GENERATION_KEY) ??
    (await generationMemory.get(
      OB_DOCUMENTS_GENERATION_KEY,
      async () => (await env.CACHE.get(OB_DOCUMENTS_GENERATION_KEY)) ?? '0',
    )) ??
    '0';
  const key = `ob-doc:v1:${generation}:${kind}:${id}`;
  const remembered = documentMemory.peek(key);
  if (remembered !== undefined) return remembered;
  return documentMemory.get(key, async () => {
    const stored = await env.CACHE.get(key);
    if (stored !== null) return stored;
    const doc = await build();
    if (doc === null) return null;
    const json = JSON.stringify(doc);
    await fillCache(env.CACHE, key, json, { expirationTtl: OB_DOCUMENT_TTL_SECONDS });
    return json;
  });
}

/** Makes every cached issuer and achievement document stale (after an organisation change). */
export async function forgetObDocuments(cache: KVNamespace): Promise<void> {
  generationMemory.clear();
  documentMemory.clear();
  await cache.put(OB_DOCUMENTS_GENERATION_KEY, crypto.randomUUID());
  generationMemory.clear();
}
