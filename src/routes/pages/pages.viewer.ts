import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppBindings } from '../../middleware/context';
import { SESSION_COOKIE } from '../../middleware/session-cookie';
import { resolveSession } from '../../services/sessions';

/** Who is looking at a page: signed in (and as whom) or not. */
export type Viewer = { signedIn: false; userId: null } | { signedIn: true; userId: string };

const SIGNED_OUT: Viewer = { signedIn: false, userId: null };

/**
 * The viewer of a page, so its header and footer say "Your certificates" rather than "Sign in"
 * to someone signed in (issue 52). A request without the session cookie (nearly every visitor of
 * a certificate page) costs nothing; one with it costs the session's one indexed read.
 */
export async function pageViewer(c: Context<AppBindings>): Promise<Viewer> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return SIGNED_OUT;
  const live = await resolveSession(c.var.db, token);
  return live ? { signedIn: true, userId: live.user.id } : SIGNED_OUT;
}

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
