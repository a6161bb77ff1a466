/**
 * Who is looking at a page, and the caching that follows from it: no imports, so the certificate
 * page's cold builder (pages.cold.ts, decision 0325) can share `viewerCaching` with the app
 * without the session lookup of pages.viewer.ts (drizzle's query modules) in its static graph
 * (decision 0327).
 */

/** Who is looking at a page: signed in (and as whom) or not. */
export type Viewer = { signedIn: false; userId: null } | { signedIn: true; userId: string };

/**
 * Caching of a page that is the same for everyone in a language except for the signed-in
 * header: shared and revalidated by ETag when signed out; private to the browser, and a different
 * ETag, when signed in. It varies on the cookie as well as the language.
 */
export function viewerCaching(
  viewer: Viewer,
  publicControl: string,
  etag: string,
): { 'Cache-Control': string; ETag: string; Vary: string } {
  return {
    'Cache-Control': viewer.signedIn ? 'private, no-cache' : publicControl,
    ETag: viewer.signedIn ? etag.replace(/"$/, '-in"') : etag,
    Vary: 'Accept-Language, Cookie',
  };
}
