import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppBindings } from '../../middleware/context';
import { SESSION_COOKIE } from '../../middleware/session-cookie';
import { resolveSession } from '../../services/sessions';

import type { Viewer } from './viewer-caching';

// (Here for the app's handlers; the cold page builder imports them from ./viewer-caching.)
export { type Viewer, viewerCaching } from './viewer-caching';

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
