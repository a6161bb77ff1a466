/**
 * The version of the pages' markup in their ETags and in the certificate pages drawn ahead in KV
 * (./pages.drawn.ts): a deployment that changes the templates or the catalogues changes it, so a
 * revalidation is not a 304 for an old page and no page drawn by an older deployment is served.
 * No imports: a cold isolate's entry reads it.
 */
export const PAGE_VERSION = 'p52b';
